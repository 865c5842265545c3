// The benchmark loop shared by the browser page (tests/browser/bench.js) and the edge runtimes
// (bench.mjs): each case's calls per second, the cases taking turns round after round (about
// `ms` each, after a warm-up round) so that a busy machine slows them alike; a case's result is
// its median round. Timed with performance.now(), which every runtime here advances during a
// synchronous loop but for Cloudflare's deployed Workers (where it stands still: there the ratio
// cannot be measured; local workerd advances it).

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

/** [{ name, opsPerSec, sample }] of `cases` ([name, fn] pairs, fn returning a string). */
export function measure(cases, { rounds = 7, ms = 200 } = {}) {
  // Batches of about a millisecond between clock reads, from the warm-up round.
  const batches = cases.map(([, fn]) => Math.max(100, Math.round(round(fn, 100, ms) / 1000)))
  const rates = cases.map(() => [])
  for (let r = 0; r < rounds; r++) cases.forEach(([, fn], i) => rates[i].push(round(fn, batches[i], ms)))
  if (sink === 0) throw new Error('no output')
  return cases.map(([name, fn], i) => ({ name, opsPerSec: median(rates[i]), sample: fn() }))
}
