// The control of first.html: the same two fetches in sequence without libsno (a dynamic import
// of a chunk whose code fetches a copy of sno.wasm, control.wasm, which run.mjs writes beside
// this file before the build), and nothing else: the floor that the page, the server and the
// machine set at the time of the measurement. Read by run.mjs as window.libsnoControl.
const start = performance.now()
const { size } = await import('./control-chunk.js')
const controlMs = performance.now() - start
window.libsnoControl = { controlMs, size }
document.getElementById('out').textContent = `ready: ${size} bytes`
