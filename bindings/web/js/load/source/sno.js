// sno.wasm imported as a WebAssembly module by a source phase import (Deno: no read permission
// needed, where reading the file would ask for one). scripts/release-npm.mjs puts this folder's
// files in web/source/load/ of the npm package, beside a copy of the JavaScript of web/
// (docs/wasm.md): `../../` is web/, where the modules are.
import source module from '../../sno.wasm'

export { module }
