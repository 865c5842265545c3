// formats.wasm imported as a WebAssembly module (see sno.js).
import module from '../../formats.wasm?module'

export { module }
