// The first ID's time after the import of libsno (a dynamic import of a module that uses
// newString() alone: the chunk fetched, sno.wasm fetched and compiled, instantiated, then
// newString()), where it went (the resource timings of the chunk and of sno.wasm), and the
// memory the WebAssembly instances hold then. Read by run.mjs as window.libsnoFirst, beside
// control.html's same two fetches without libsno (checks.html reports the memory with every
// format).
import { instances, memoryBytes } from './probe.js'

const start = performance.now()
const { firstId } = await import('./first-id.js')
const id = firstId()
const end = performance.now()
const firstMs = end - start
// Each fetch's start and end (resource timing), in ms after the import began: the chunk, then
// sno.wasm, whose request only the chunk's code can make.
const resource = (suffix) => performance.getEntriesByType('resource').find((r) => r.name.endsWith(suffix) && r.startTime >= start)
const chunk = resource('.js')
const wasm = resource('.wasm')
const steps = chunk && wasm && {
  // import() began → the chunk (libsno's JavaScript and the page's module) arrived
  chunkMs: chunk.responseEnd - start,
  // → the chunk evaluated up to its fetch of sno.wasm
  toWasmRequestMs: wasm.startTime - chunk.responseEnd,
  // → sno.wasm arrived
  wasmMs: wasm.responseEnd - wasm.startTime,
  // → compiled, instantiated, the first newString()
  afterWasmMs: end - wasm.responseEnd,
}
window.libsnoFirst = { id, firstMs, afterWasmMs: steps?.afterWasmMs, steps, memory: memoryBytes(), instances: instances.length }
document.getElementById('out').textContent = `ready: ${id}`
