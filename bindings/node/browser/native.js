'use strict'
// native.js in a browser (the package.json `browser` field maps it here): the WebAssembly
// binding (@libsno/libsno-wasm32-wasi) that browser.mjs instantiated before it loaded sno.js.
const { binding } = require('./binding.js')
if (binding === undefined) {
  const error = new Error(
    "libsno: the WebAssembly binding is not loaded: import 'libsno' (its browser entry, browser.mjs), not its files",
  )
  error.code = 'ERR_SNO_NATIVE_MISSING'
  throw error
}
module.exports = binding
