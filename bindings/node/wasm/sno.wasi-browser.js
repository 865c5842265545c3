// The WebAssembly binding of libsno for browsers, in the package @libsno/libsno-wasm32-wasi
// (libsno's browser.mjs imports this file). The same sno.wasm32-wasi.wasm as
// Node's fallback (sno.wasi.cjs): Rust's wasm32-wasip1, one thread, memory that is not a
// SharedArrayBuffer, so it runs on a page without cross-origin isolation (no COOP/COEP).
//
// Fetched next to this file (`new URL(…, import.meta.url)`, which Vite, webpack and Parcel
// bundle as an asset) and instantiated asynchronously (browsers refuse to compile a large
// module synchronously on the main thread), hence the top-level await. @napi-rs/wasm-runtime
// brings emnapi (Node-API over the module) and @tybys/wasm-util's WASI: the clock is
// Date.now() (millisecond readings), random_get is crypto.getRandomValues, no environment
// variables, no files. docs/wasm.md.
import {
  createContext,
  emnapiAsyncWorkPlugin,
  emnapiTSFNPlugin,
  instantiateNapiModule,
  WASI,
} from '@napi-rs/wasm-runtime'

// The module's declared minimum, in 64 KiB pages (scripts/release.d/wasm.sh checks it).
const INITIAL_PAGES = 978
const MAXIMUM_PAGES = 65536

/** Buffer's part emnapi uses, as plain Uint8Arrays: a browser has no Buffer. */
class Bytes {
  static alloc(size) {
    return new Uint8Array(size)
  }

  static from(arrayBuffer, byteOffset, length) {
    return new Uint8Array(arrayBuffer, byteOffset, length)
  }

  static isBuffer(value) {
    return value instanceof Uint8Array
  }
}

const url = new URL('./sno.wasm32-wasi.wasm', import.meta.url)
const response = await fetch(url)
if (!response.ok) throw new Error(`libsno: cannot fetch ${url}: ${response.status} ${response.statusText}`)
const bytes = await response.arrayBuffer()

const context = createContext()
// A page that brings its own Buffer (a polyfill) gets Buffers, as in Node.
if (!context.feature.Buffer) context.feature.Buffer = Bytes
const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES })

const { napiModule } = await instantiateNapiModule(bytes, {
  context,
  wasi: new WASI({ version: 'preview1' }),
  // No workers: async work runs on this thread.
  asyncWorkPoolSize: 0,
  plugins: [emnapiAsyncWorkPlugin, emnapiTSFNPlugin],
  overwriteImports(imports) {
    imports.env = { ...imports.env, ...imports.napi, ...imports.emnapi, memory }
    return imports
  },
  beforeInit({ instance }) {
    // napi-rs registers each export through one of these (no constructors run in wasm).
    for (const name of Object.keys(instance.exports)) {
      if (name.startsWith('__napi_register__')) instance.exports[name]()
    }
  },
})

export default napiModule.exports
