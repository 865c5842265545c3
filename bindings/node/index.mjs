// ESM entry point: the same module as the CommonJS entry (sno.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const sno = require('./sno.js')

export const {
  Id,
  Generator,
  newId,
  newIds,
  newString,
  newStrings,
  encodeMany,
  decodeMany,
  Ulid,
  Uuid7,
  Scru128,
  ulid,
  uuid7,
  scru128,
} = sno
export default sno
