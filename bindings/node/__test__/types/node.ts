// With @types/node only: `bytes` is Node's Buffer there (Buffer methods type-check).
import { newId, Ulid } from 'libsno'

const buffer: Buffer = newId().bytes
const hex: string = Ulid.fromBytes(buffer).bytes.toString('hex')

export { hex }
