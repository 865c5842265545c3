// sno's process-wide generator in the web build (docs/wasm.md), over sno.wasm: `newString` and
// `newStrings`. A page that imports only these ships this file, runtime.js (with the two error
// helpers it takes from value.js) and sno.wasm; `Id`, `newId`, `Generator` and the batch codecs
// are formats.js's (formats.wasm holds every codec).
import { ascii, count, meta, out, split, wrap } from './runtime.js'
import { module } from './load/sno.js'

const x = wrap(module)
const e = x.exports

/**
 * A new ID's text from the process-wide generator (a random partition per instance). Never
 * waits: where the native package would sleep (the 4 ms unit's 65 536 IDs used up), it throws
 * the core's `ERR_SNO_SEQUENCE_EXHAUSTED` with `retryAtUnixNs` (`Generator#nextAsync` waits).
 */
export function newString(m) {
  return ascii(x, e.sno_new(m === undefined ? 0 : meta(m, 'newString')))
}

/** `n` new IDs' texts, made and encoded in one call (at most MAX_BATCH: the core checks). */
export function newStrings(n, m) {
  return split(out(x, e.sno_new_text(count(n, 'newStrings'), meta(m, 'newStrings'))), 16)
}

/**
 * A default partition for a `Generator` given none (formats.js): the next of the pool the
 * process-wide generator took its own from, so that no two default-partitioned generators of
 * this realm share one (as natively within a process).
 */
export function defaultPartition() {
  const p = e.sno_partition()
  if (p < 0) out(x, p)
  return p
}
