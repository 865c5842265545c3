// The ESM view of the same declarations (an .mts file resolves `libsno` through the `import`
// condition): the default export, named exports and libsno/pg, without Node's types.
import sno, { Id, Lease, newString, ulid, type Bytes, type SnoError } from 'libsno'
import pg, { registerTypes, type TypeRegistry } from 'libsno/pg'

const id: Id = Id.parse(newString(3))
const bytes: Bytes = sno.newId().bytes
const raw: Uint8Array = bytes
const text: string = String(ulid.new()) + id.toString()
const code = (e: SnoError): string => e.code
const close = (lease: Lease): void => lease[Symbol.dispose]()
const register: [typeof registerTypes, (types: TypeRegistry) => void] = [registerTypes, (types) => pg.registerTypes(types, { bytea: Id })]

export { raw, text, code, close, register }
