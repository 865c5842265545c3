// Bursts on a frozen clock (freeze.mjs: as Cloudflare's Workers keep it), in every runtime the
// harness runs in: 200 000 values of each monotonic format from one generator, in one synchronous
// burst, taking the synchronous call where it answers and the asynchronous one (a timer: the
// clock moves on) where it refuses. Each value must follow the previous one (in order, so no
// repeat); a refusal must be the core's retryable error with `retryAtUnixNs`, at once; the clock
// must be read a bounded number of times per value (a wait that spun on a clock that does not
// move would hang, or read it without end). sno must refuse at least 3 times (65 536 IDs per 4 ms
// unit), and newString() too, at once.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import sno, { Generator, newString } from 'libsno'
import { freezeClock } from './freeze.mjs'

const N = 200_000
const RETRYABLE = /^ERR_SNO_(SEQUENCE_EXHAUSTED|RANDOMNESS_EXHAUSTED|CLOCK_ROLLBACK)$/

/** N values of generator `g` on a frozen clock: { refusals, reads, ms }. */
async function burst(g) {
  const clock = freezeClock()
  const start = clock.at
  try {
    let last
    let refusals = 0
    for (let i = 0; i < N; i++) {
      let v
      try {
        v = g.next()
      } catch (e) {
        assert.match(String(e.code), RETRYABLE, `${e.code}: ${e.message}`)
        assert.equal(typeof e.retryAtUnixNs, 'bigint', `${e.code} without retryAtUnixNs`)
        refusals++
        v = await g.nextAsync()
      }
      if (last !== undefined) assert.ok(v.compare(last) > 0, `value ${i}: ${v} after ${last}`)
      last = v
    }
    assert.ok(clock.reads <= 4 * N, `${clock.reads} clock readings for ${N} values: a spin`)
    return { refusals, reads: clock.reads, frozenMs: clock.at - start }
  } finally {
    clock.restore()
  }
}

const GENERATORS = {
  sno: () => new Generator(),
  ulid: () => new sno.ulid.Generator(),
  uuid7: () => new sno.uuid7.Generator(),
  scru128: () => new sno.scru128.Generator(),
  scru160: () => new sno.scru160.Generator(),
  nanoflake: () => new sno.nanoflake.Generator({ epochMs: Date.UTC(2020, 0, 1), generatorId: 1 }),
  ulidflake: () => new sno.ulidflake.Generator(),
  ksuid: () => new sno.ksuid.Generator(),
}

for (const [name, make] of Object.entries(GENERATORS)) {
  test(`frozen clock: ${N} ${name} values from one generator, in order`, async () => {
    const got = await burst(make())
    if (name === 'sno') assert.ok(got.refusals >= 3, `sno refused ${got.refusals} times for ${N} IDs in a frozen 4 ms unit`)
    return got
  })
}

test('frozen clock: newString() refuses at once with retryAtUnixNs, never waits', () => {
  const clock = freezeClock()
  try {
    let err
    let made = 0
    try {
      for (; made < N; made++) newString()
    } catch (e) {
      err = e
    }
    assert.equal(err?.code, 'ERR_SNO_SEQUENCE_EXHAUSTED', `${made} IDs, then ${err?.code}`)
    assert.ok(err.retryAtUnixNs > BigInt(clock.at) * 1_000_000n, 'retryAtUnixNs is not ahead of the clock')
    assert.ok(made <= 65_536, `${made} IDs in one frozen 4 ms unit`)
    assert.ok(clock.reads <= 2 * made + 10, `${clock.reads} clock readings for ${made} IDs`)
    return { made, reads: clock.reads }
  } finally {
    clock.restore()
  }
})
