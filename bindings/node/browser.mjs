// Browser entry of libsno (the `browser` condition of its exports, which Vite, webpack and
// esbuild pick for a web build): the same JS layer as Node's (sno.js, formats.js, value.js) over
// the WebAssembly binding of @libsno/libsno-wasm32-wasi instead of the native addon. The binding
// is instantiated first (top-level await), then handed to the JS layer, whose
// `require('./native.js')` the package.json `browser` field points at browser/native.js.
// docs/wasm.md.
import binding from '@libsno/libsno-wasm32-wasi/sno.wasi-browser.js'
import slot from './browser/binding.js'

slot.binding = binding
// Loaded only now, so that native.js finds the binding.
const { default: sno } = await import('./sno.js')

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
