'use strict'
// Which build of libsno Node.js runs (sno.js asks first): the native addon (native.js), or where
// none loads for this machine (no package published for the platform, optional dependencies
// left out, an addon that does not load), the light WebAssembly build of the package's web/fs/
// folder (docs/wasm.md): the same API, the same core, without leases.
//
//   SNO_WASM=1  the WebAssembly build even where an addon loads (comparisons, tests)
//   SNO_WASM=0  never: ERR_SNO_NATIVE_MISSING where no addon loads, as before the fallback
//
// The light build is an ES module graph without top-level await, which `require()` loads on
// Node.js >= 20.19 and >= 22.12 (require(esm)); on an older Node the error says so.
//
// What differs from the addon, on purpose:
// - `bytes` are Buffers, as the addon's (the web build makes Uint8Arrays; a Buffer is one);
// - leases throw ERR_SNO_LEASE_INVALID_URL (native-only.js), and so do the process-wide sno
//   functions while SNO_LEASE_URL is set: minting on a random partition where the fleet expects
//   leased ones could repeat IDs. SNO_PARTITION is refused the same way (ERR_SNO_INVALID_ENVIRONMENT):
//   the WebAssembly build reads no environment, and ignoring a partition chosen by hand could
//   repeat another process's IDs. `new Generator({ partition })` takes one explicitly.
// - no wait in a synchronous call (a used-up 4 ms unit throws ERR_SNO_SEQUENCE_EXHAUSTED with
//   `retryAtUnixNs` where the addon sleeps); `nextAsync` waits.
const { Buffer } = require('node:buffer')

/** The error of a light build that cannot load, after the native addon did not. */
function unloadable(missing, cause) {
  const why =
    cause?.code === 'ERR_REQUIRE_ESM'
      ? `this Node.js (${process.version}) cannot require() an ES module: Node.js >= 20.19 or >= 22.12 can`
      : cause.message
  const error = new Error(`${missing ? `${missing.message}; the WebAssembly build (web/fs/) did not load either` : 'libsno: the WebAssembly build (web/fs/) did not load'}: ${why}`)
  error.code = 'ERR_SNO_NATIVE_MISSING'
  error.cause = cause
  return error
}

/** An error of code `code` from every process-wide sno call, while `variable` is set. */
function refusing(variable, code, why) {
  const refuse = () => {
    const error = new Error(`libsno: ${variable} is set, and ${why}`)
    error.code = code
    throw error
  }
  return { newString: refuse, newStrings: refuse, newId: refuse, newMany: refuse, newIds: refuse }
}

/** The public API over the light build: web/fs/'s exports, with Buffers and the environment's rules. */
function light(missing) {
  let web
  try {
    web = require('../web/fs/libsno.mjs')
  } catch (e) {
    throw unloadable(missing, e)
  }
  const api = { ...web }
  // (require() of an ES module with a default export marks the namespace __esModule.)
  delete api.default
  delete api.__esModule
  // Every class of a value has `bytes`: give Buffers over the same memory.
  for (const Cls of Object.values(api)) {
    if (typeof Cls !== 'function' || Cls.prototype === undefined) continue
    for (let proto = Cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      const own = Object.getOwnPropertyDescriptor(proto, 'bytes')
      if (!own?.get) continue
      Object.defineProperty(Cls.prototype, 'bytes', {
        configurable: true,
        get() {
          const bytes = own.get.call(this)
          return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
        },
      })
      break
    }
  }
  const env = process.env
  if (env.SNO_LEASE_URL) {
    Object.assign(api, refusing('SNO_LEASE_URL', 'ERR_SNO_LEASE_INVALID_URL', 'leases need PostgreSQL or Redis, which only the native addon of Node.js reaches (no addon loaded for this machine: this is the WebAssembly build, without sockets)'))
  } else if (env.SNO_PARTITION) {
    Object.assign(api, refusing('SNO_PARTITION', 'ERR_SNO_INVALID_ENVIRONMENT', 'the WebAssembly build (no native addon loaded for this machine) reads no environment: use new Generator({ partition })'))
  }
  return api
}

/** { native } where the addon loads (and SNO_WASM is not 1), else { fallback }: the light build's API. */
function select() {
  const mode = process.env.SNO_WASM
  if (mode === '1') return { fallback: light(null) }
  try {
    return { native: require('../native.js') }
  } catch (e) {
    if (e.code !== 'ERR_SNO_NATIVE_MISSING' || mode === '0') throw e
    return { fallback: light(e) }
  }
}

module.exports = { select }
