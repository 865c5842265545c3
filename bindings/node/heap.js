'use strict'
// Room in V8's heap before a batch (the native package's: the web build's batches are checked
// by its module's memory), and a batch's one string split into its texts.
const v8 = require('node:v8')
const { MAX_BATCH } = require('./native.js')

/**
 * Before a batch of `n` results, each taking about `bytesEach` bytes of V8's heap: a RangeError
 * (ERR_MEMORY_ALLOCATION_FAILED) when they cannot fit in what the heap has left, since V8 ends
 * the process on a full heap instead of throwing. Counts the native call refuses anyway (not an
 * integer in 0 ..= MAX_BATCH) are left to it.
 */
function checkHeapRoom(n, bytesEach, where) {
  if (!Number.isInteger(n) || n < 0 || n > MAX_BATCH) return
  const { heap_size_limit: limit, used_heap_size: used } = v8.getHeapStatistics()
  const need = n * bytesEach
  if (need > limit - used) {
    const mib = (bytes) => Math.ceil(bytes / 2 ** 20)
    const err = new RangeError(
      `${where}: ${n} results need about ${mib(need)} MiB of V8's heap, which has ${mib(limit - used)} MiB left ` +
        '(node --max-old-space-size raises the limit; or ask for fewer)',
    )
    err.code = 'ERR_MEMORY_ALLOCATION_FAILED'
    throw err
  }
}

/** The `width`-character pieces of one native string of a batch (cheap slices of it in V8). */
function split(text, width) {
  const out = new Array(text.length / width)
  for (let i = 0; i < out.length; i++) out[i] = text.slice(width * i, width * i + width)
  return out
}

module.exports = { checkHeapRoom, split }
