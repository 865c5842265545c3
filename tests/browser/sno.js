// The browser quickstart (docs/wasm.md, bindings/node/README.md): a page whose whole use of
// libsno is newString(). Built alone by run.mjs: what it fetches is the bundle-size check's first
// target (at most 6 kB gzipped, JavaScript and WebAssembly).
import { newString } from 'libsno'

document.querySelector('#id').textContent = newString()
