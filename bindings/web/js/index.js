// The web build of libsno (docs/wasm.md): the package's API over two WebAssembly modules,
// sno.wasm (sno's process-wide generator: sno.js) and formats.wasm (every format's values, sno's
// `Id` among them, the generators and detection: formats.js). Import what you use: a bundler
// keeps the modules a page uses (a page with `newString` alone ships sno.wasm alone).
export { newString, newStrings } from './sno.js'
export {
  Id,
  Generator,
  newId,
  newIds,
  encodeMany,
  decodeMany,
  Ulid,
  Uuid7,
  Scru128,
  Scru160,
  Nanoflake,
  UlidFlake,
  TypeId,
  Ksuid,
  ulid,
  uuid7,
  scru128,
  scru160,
  nanoflake,
  ulidflake,
  typeid,
  ksuid,
  detect,
} from './formats.js'
