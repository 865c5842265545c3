// The web build of libsno (docs/wasm.md): the package's API over two WebAssembly modules,
// sno.wasm (sno alone) and formats.wasm (every other format and detection). Import what you
// use: a bundler keeps the modules of the formats a page uses (a page with `newString` alone
// ships sno.wasm alone).
export { Id, Generator, newString, newStrings, newId, newIds, encodeMany, decodeMany } from './sno.js'
export { Ulid, Uuid7, Scru128, Scru160, Nanoflake, UlidFlake, TypeId, Ksuid, ulid, uuid7, scru128, scru160, nanoflake, ulidflake, typeid, ksuid, detect } from './formats.js'
