'use strict'
// node:v8 in a browser (package.json `browser` field), for value.js's check that a batch fits in
// the JavaScript heap: Chromium's performance.memory where the page has it; elsewhere no limit is
// known and the check passes (the batch is still bounded by MAX_BATCH and by what the
// WebAssembly memory can hold).
function getHeapStatistics() {
  const memory = globalThis.performance?.memory
  if (memory && typeof memory.jsHeapSizeLimit === 'number') {
    return { heap_size_limit: memory.jsHeapSizeLimit, used_heap_size: memory.usedJSHeapSize }
  }
  return { heap_size_limit: Infinity, used_heap_size: 0 }
}

module.exports = { getHeapStatistics }
