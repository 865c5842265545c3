// The first ID's time after the import of libsno (a dynamic import of a module that uses
// newString() alone: the chunk fetched, sno.wasm fetched and compiled, instantiated, then
// newString()), and the memory the WebAssembly instances hold then. Read by run.mjs as
// window.libsnoFirst (checks.html reports the memory with every format).
import { instances, memoryBytes } from './probe.js'

const start = performance.now()
const { firstId } = await import('./first-id.js')
const id = firstId()
const firstMs = performance.now() - start
// When sno.wasm had arrived (its fetch's end, from resource timing): the rest is compiling,
// instantiating and the first newString().
const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'))
const afterWasmMs = wasm ? start + firstMs - wasm.responseEnd : undefined
window.libsnoFirst = { id, firstMs, afterWasmMs, memory: memoryBytes(), instances: instances.length }
document.getElementById('out').textContent = `ready: ${id}`
