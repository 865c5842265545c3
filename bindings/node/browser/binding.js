'use strict'
// Where browser.mjs puts the WebAssembly binding it instantiated, before it loads the JS layer
// (sno.js, formats.js, value.js), whose `require('./native.js')` reads it (browser/native.js).
module.exports = { binding: undefined }
