// The browser benchmark (run.mjs --bench, scripts/bench): libsno's newString() against npm's
// uuid v7() in the same page, and libsno's own ULID and UUIDv7 texts. The cases take turns,
// round after round (about 200 ms each, after a warm-up round), so that a busy machine slows
// them alike; each case's result is its median round. tests/edge/bench.mjs runs the same cases
// in the edge runtimes (ratio.mjs: the shared loop).
import { newString, ulid, uuid7 } from 'libsno'
import { v7 } from 'uuid'
import { measure } from '../edge/ratio.mjs'

const CASES = [
  ['libsno newString() (sno)', () => newString()],
  ['libsno ulid.newString()', () => ulid.newString()],
  ['libsno uuid7.newString()', () => uuid7.newString()],
  ['npm uuid v7()', () => v7()],
]

window.libsnoBench = (options) => measure(CASES, options)
document.getElementById('out').textContent = 'ready'
