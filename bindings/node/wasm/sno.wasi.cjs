'use strict'
// The WebAssembly binding of libsno for Node.js (and Deno and Bun), in the package
// @libsno/libsno-wasm32-wasi: what napi-rs's loader (index.js) falls back to where no native
// addon matches the machine (NAPI_RS_FORCE_WASI=error forces it). `sno.wasm32-wasi.wasm` is the
// addon built for Rust's wasm32-wasip1: one thread, memory that is not a SharedArrayBuffer, no
// lease stores. The same module serves browsers (sno.wasi-browser.js); docs/wasm.md.
//
// Instantiated synchronously through @napi-rs/wasm-runtime: emnapi implements Node-API over
// the module, and @tybys/wasm-util's WASI gives it the platform: the clock is Date.now()
// (millisecond readings), random_get is crypto.getRandomValues (on memory that is not shared;
// on shared memory that WASI falls back to Math.random, the reason this build has none), the
// environment is process.env (SNO_PARTITION, SNO_CLOCK, SNO_LEASE_URL), and there are no files.
const { readFileSync } = require('node:fs')
const { join } = require('node:path')
const {
  createContext,
  emnapiAsyncWorkPlugin,
  emnapiTSFNPlugin,
  instantiateNapiModuleSync,
  WASI,
} = require('@napi-rs/wasm-runtime')

// The module's declared minimum, in 64 KiB pages (scripts/release.d/wasm.sh checks the two
// agree): napi-build links a 64 MB stack into linear memory.
const INITIAL_PAGES = 978
const MAXIMUM_PAGES = 65536

const env = {}
for (const [key, value] of Object.entries(process.env)) if (typeof value === 'string') env[key] = value

const wasi = new WASI({ version: 'preview1', env })
const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES })
const context = createContext()
// emnapi tears its context down on the first 'beforeExit'; the module must outlive it, as a
// native addon does: sno.js calls into it on 'exit' (releaseProcessLease).
context.suppressDestroy()

const { napiModule } = instantiateNapiModuleSync(readFileSync(join(__dirname, 'sno.wasm32-wasi.wasm')), {
  context,
  wasi,
  // No worker threads: async work (Lease.acquire's) runs on this thread.
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

module.exports = napiModule.exports
