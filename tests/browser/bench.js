// The browser benchmark (run.mjs --bench): libsno's newString() against npm's ulid and uuid v7
// in the same page, and libsno's own ULID and UUIDv7 text for the same formats. The cases take
// turns, round after round (about 200 ms each, after a warm-up round), so that a busy machine
// slows them alike; each case's result is its median round.
import { newString, ulid as snoUlid, uuid7 } from 'libsno'
import { ulid } from 'ulid'
import { v7 } from 'uuid'

const CASES = [
  ['libsno newString() (sno)', () => newString()],
  ['libsno ulid.newString()', () => snoUlid.newString()],
  ['libsno uuid7.newString()', () => uuid7.newString()],
  ['npm ulid ulid()', () => ulid()],
  ['npm uuid v7()', () => v7()],
]

let sink = 0

/** Calls per second of `fn` over about `ms` milliseconds, in batches of `batch` calls. */
function round(fn, batch, ms) {
  let calls = 0
  const start = performance.now()
  let now = start
  while (now - start < ms) {
    for (let i = 0; i < batch; i++) sink += fn().length
    calls += batch
    now = performance.now()
  }
  return (calls / (now - start)) * 1000
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

window.libsnoBench = ({ rounds = 7, ms = 200 } = {}) => {
  // Batches of about a millisecond between clock reads, from the warm-up round.
  const batches = CASES.map(([, fn]) => Math.max(100, Math.round(round(fn, 100, ms) / 1000)))
  const rates = CASES.map(() => [])
  for (let r = 0; r < rounds; r++) CASES.forEach(([, fn], i) => rates[i].push(round(fn, batches[i], ms)))
  if (sink === 0) throw new Error('no output')
  return CASES.map(([name, fn], i) => ({ name, opsPerSec: median(rates[i]), sample: fn() }))
}
document.getElementById('out').textContent = 'ready'
