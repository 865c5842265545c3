// What control.js imports dynamically: a fetch of a file of sno.wasm's size (its copy) in the
// chunk's code, as libsno's loader fetches sno.wasm, its bytes read and nothing done with them.
const response = await fetch(new URL('./control.wasm', import.meta.url))
export const size = (await response.arrayBuffer()).byteLength
