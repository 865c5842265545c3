// The web build in Node.js (after scripts/build-web): the package's API over sno.wasm and
// formats.wasm, the core's errors as the Node package throws them, and bursts of 200 000 IDs of
// each monotonic format on a clock frozen as Cloudflare's workerd freezes it (Date.now() does
// not move during a request): in order, no repeats, and where a format must wait, the core's
// retryable error at once from the synchronous call, then a wait through nextAsync (the clock
// moving again when the timer fires, as workerd's does after I/O).
// Run: node --test bindings/web/test/
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as sno from '../js/index.js'

const realNow = Date.now

/** Runs `fn` with Date.now() frozen at its current reading. */
async function frozen(fn) {
  const at = realNow()
  Date.now = () => at
  try {
    return await fn()
  } finally {
    Date.now = realNow
  }
}

/** 200 000 values of `next`, waiting through `nextAsync` (clock released) where it refuses. */
async function burst(next, nextAsync) {
  let last
  let waits = 0
  for (let i = 0; i < 200_000; i++) {
    let v
    try {
      v = next()
    } catch (e) {
      assert.equal(typeof e.retryAtUnixNs, 'bigint', `${e.code}: ${e.message}`)
      assert.match(e.code, /^ERR_SNO_(SEQUENCE_EXHAUSTED|RANDOMNESS_EXHAUSTED)$/)
      waits++
      Date.now = realNow
      v = await nextAsync()
      // Frozen again, at the reading after the wait (workerd's clock after a timer).
      const at = realNow()
      Date.now = () => at
    }
    if (last !== undefined) assert.ok(v.compare(last) > 0, `${v} after ${last}`)
    last = v
  }
  return waits
}

test('sno: newString in order, parsed back, stamped with the clock', () => {
  const before = Date.now()
  const texts = Array.from({ length: 10_000 }, () => sno.newString())
  const after = Date.now()
  assert.ok(texts.every((t, i) => i === 0 || texts[i - 1] < t))
  for (const t of texts.slice(0, 100)) {
    const id = sno.Id.parse(t)
    assert.equal(String(id), t)
    assert.ok(id.unixMs >= before - 4 && id.unixMs <= after)
    assert.ok(sno.Id.fromBytes(id.bytes).equals(id))
    assert.ok(sno.Id.fromBigInt(id.bigint).equals(id))
    assert.ok(sno.Id.fromFields(id.fields()).equals(id))
  }
  assert.deepEqual(sno.decodeMany(texts).map(String), texts)
})

test('errors: the core code, message and class, with their properties', () => {
  assert.throws(() => sno.Id.parse('BRPK4Q72XWF2M63L'), (e) => e.constructor === Error && e.code === 'ERR_SNO_INVALID_BYTE' && e.position === 0 && /not in the alphabet/.test(e.message))
  assert.throws(() => sno.Id.parse('short'), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 5)
  assert.throws(() => sno.newStrings(2 ** 25), (e) => e.constructor === RangeError && e.code === 'ERR_SNO_BATCH_TOO_LARGE' && e.max === 2 ** 24)
  assert.throws(() => new sno.Generator({ clock: 'slow' }), (e) => e.constructor === RangeError && e.code === 'ERR_SNO_UNKNOWN_CLOCK')
  assert.throws(() => new sno.nanoflake.Generator({ epochMs: 0, generatorId: 2000 }), (e) => e.constructor === RangeError && e.code === 'ERR_SNO_INVALID_ARGUMENT' && /generatorId/.test(e.message))
  assert.throws(() => sno.Uuid7.fromBigInt(-1n), (e) => e.constructor === RangeError && e.code === 'ERR_SNO_VALUE_OVERFLOW')
  assert.throws(() => sno.TypeId.generate('User'), (e) => e.constructor === RangeError && e.code === 'ERR_SNO_INVALID_PREFIX')
  assert.throws(() => sno.detect('!'), (e) => e.code === 'ERR_SNO_UNRECOGNIZED_FORMAT')
  assert.throws(() => sno.Id.parse(5), (e) => e.constructor === TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  assert.throws(() => new sno.Generator({ lease: {} }), (e) => e.code === 'ERR_SNO_LEASE_INVALID_URL')
})

test('formats: values, fields, detection', () => {
  const u = sno.Ulid.parse('01arz3ndektsv4rrffq69g5fav')
  assert.equal(String(u), '01ARZ3NDEKTSV4RRFFQ69G5FAV')
  assert.equal(u.unixMs, 1469922850259)
  assert.equal(typeof u.randomness, 'bigint')
  assert.equal(sno.detect('01ARZ3NDEKTSV4RRFFQ69G5FAV').constructor, sno.Ulid)
  assert.equal(sno.detect('brpk4q72xwf2m63l').constructor, sno.Id)
  const t = sno.TypeId.generate('user')
  assert.match(String(t), /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/)
  assert.equal(String(t).slice(5), t.suffix)
  const v7 = sno.uuid7.new()
  assert.ok(sno.Uuid7.fromUuid(v7.uuid.toUpperCase()).equals(v7))
  assert.equal(sno.Ulid.fromUuid(v7.uuid).toUuid7().toString(), v7.toString())
  assert.throws(() => sno.Uuid7.fromUuid('not a uuid'), (e) => e.code === 'ERR_SNO_INVALID_LENGTH')
})

test('frozen clock: 200 000 sno IDs from one generator', async () => {
  const g = new sno.Generator()
  const waits = await frozen(() => burst(() => g.tryNext(), () => g.nextAsync()))
  // 65 536 per 4 ms unit: a frozen clock must refuse at least twice.
  assert.ok(waits >= 2, `${waits} waits`)
})

test('frozen clock: newString refuses with retryAtUnixNs, never hangs', async () => {
  await frozen(() => {
    let err
    try {
      for (let i = 0; i < 200_000; i++) sno.newString()
    } catch (e) {
      err = e
    }
    assert.equal(err?.code, 'ERR_SNO_SEQUENCE_EXHAUSTED')
    assert.ok(err.retryAtUnixNs > BigInt(Date.now()) * 1_000_000n)
  })
})

for (const name of ['ulid', 'uuid7', 'scru128', 'scru160', 'ulidflake', 'ksuid']) {
  test(`frozen clock: 200 000 ${name} values from one generator`, async () => {
    const g = new sno[name].Generator()
    await frozen(() => burst(() => g.next(), () => g.nextAsync()))
  })
}
