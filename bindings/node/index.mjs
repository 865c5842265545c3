// ESM entry point: the same module as the CommonJS entry (sno.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const sno = require('./sno.js')

export const {
  MAX_BATCH,
  Id,
  Generator,
  Lease,
  newId,
  newIds,
  newString,
  newStrings,
  releaseProcessLease,
  encodeMany,
  decodeMany,
  detect,
  Ulid,
  Uuid7,
  Scru128,
  Scru160,
  UlidFlake,
  Nanoflake,
  TypeId,
  Ksuid,
  ulid,
  uuid7,
  scru128,
  scru160,
  ulidflake,
  nanoflake,
  typeid,
  ksuid,
} = sno
export default sno
