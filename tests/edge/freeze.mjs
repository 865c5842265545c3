// The clock as Cloudflare's deployed Workers keep it: Date.now() and performance.now() (which
// there returns what Date.now() does) stand still while code runs, and move on only when the
// Worker waits on I/O or a timer. Local workerd advances them during execution (measured: 150 ms
// over a 3e8-iteration loop in one request), as Deno, Bun and edge-runtime do, so the burst tests
// freeze them here, in each runtime, that way: the reading refreshed when a timer fires.
//
// `reads` counts the readings (a wait that spun on the clock would read it without end).
export function freezeClock() {
  const realNow = Date.now
  const realPerf = performance.now
  const realSetTimeout = globalThis.setTimeout
  const clock = { at: realNow(), reads: 0 }
  Date.now = () => {
    clock.reads++
    return clock.at
  }
  performance.now = () => {
    clock.reads++
    return clock.at
  }
  globalThis.setTimeout = (fn, ms, ...args) =>
    realSetTimeout(() => {
      clock.at = realNow()
      fn(...args)
    }, ms)
  clock.restore = () => {
    Date.now = realNow
    performance.now = realPerf
    globalThis.setTimeout = realSetTimeout
  }
  return clock
}
