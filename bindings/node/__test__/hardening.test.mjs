// Issue #21 in the Node layer: batch counts checked before anything is made, waits bounded
// (`next`) or off the event loop (`nextAsync`), errors that carry what a caller acts on
// (`retryAtUnixNs`, `position`, `max`), and no N-API or Rust text from any argument.
import assert from 'node:assert/strict'
import { constants } from 'node:buffer'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import fc from 'fast-check'

import sno, { Generator, Id, MAX_BATCH, Nanoflake, Ulid, UlidFlake, nanoflake, newIds, newMany, newStrings, ulidflake, uuid7 } from '../index.mjs'

const FORMATS = ['ulid', 'uuid7', 'scru128', 'scru160', 'ulidflake']
const is = (Class, code) => (e) => e instanceof Class && e.code === code

/** The system clock's current sno unit (4 ms since 2010). */
const nowUnits = () => Math.floor((Date.now() - Date.UTC(2010, 0, 1)) / 4)

/** A snapshot whose marks lie `units` ahead of the clock in both timelines. */
function snapshotAhead(units) {
  const at = nowUnits() + units
  return { ...new Generator({ partition: 9 }).snapshot(), wallHi: at, wallSafe: at }
}

test('batch counts: MAX_BATCH, and the longest string V8 holds, checked before generating', () => {
  assert.equal(MAX_BATCH, 2 ** 24)
  assert.equal(sno.MAX_BATCH, MAX_BATCH)
  for (const make of [newStrings, newMany, newIds, ...FORMATS.flatMap((f) => [sno[f].newStrings, sno[f].newMany])]) {
    assert.throws(() => make(MAX_BATCH + 1), (e) => is(RangeError, 'ERR_SNO_BATCH_TOO_LARGE')(e) && e.max === MAX_BATCH && e.message.includes(String(MAX_BATCH)))
    assert.throws(() => make(Infinity), is(RangeError, 'ERR_SNO_BATCH_TOO_LARGE'))
    assert.throws(() => make(-0.5), is(RangeError, 'ERR_SNO_INVALID_ARGUMENT'))
    assert.throws(() => make(NaN), is(RangeError, 'ERR_SNO_INVALID_ARGUMENT'))
    assert.throws(() => make(3n), is(TypeError, 'ERR_INVALID_ARG_TYPE'))
    assert.equal(make(0).length, 0)
    assert.equal(make(-0).length, 0)
  }
  // 14.9 M UUIDs pass V8's longest string below MAX_BATCH: refused at once (it generated them
  // all, then threw an Error with an empty message).
  const max = Math.floor(constants.MAX_STRING_LENGTH / 36)
  const start = performance.now()
  for (const make of [uuid7.newStrings, uuid7.newMany]) {
    assert.throws(() => make(max + 1), (e) => is(RangeError, 'ERR_SNO_BATCH_TOO_LARGE')(e) && e.max === max && e.message.includes(String(max)))
  }
  assert.ok(performance.now() - start < 1000, 'refused before generating')
})

test('tryNext errors carry retryAtUnixNs; others do not', () => {
  const g = new Generator({ sequenceMin: 0, sequenceMax: 3 })
  let err
  for (let i = 0; i < 1000 && err === undefined; i++) {
    try {
      g.tryNext()
    } catch (e) {
      err = e
    }
  }
  assert.ok(is(Error, 'ERR_SNO_SEQUENCE_EXHAUSTED')(err))
  assert.equal(typeof err.retryAtUnixNs, 'bigint')
  assert.equal(err.retryAtUnixNs % 4_000_000n, 0n, 'the start of a 4 ms unit')
  assert.ok(Math.abs(Number(err.retryAtUnixNs / 1_000_000n) - Date.now()) < 1000)

  // A used-up millisecond: retry from the next one.
  const flake = new ulidflake.Generator({ sid: 7, entropySize: 2 })
  const ms = Date.UTC(2024, 0, 1) + 9
  assert.throws(() => {
    for (;;) flake.nextAtUnixMs(ms)
  }, (e) => e.code === 'ERR_SNO_RANDOMNESS_EXHAUSTED' && e.retryAtUnixNs === BigInt(ms + 1) * 1_000_000n)
  // A Nanoflakes clock gone back: retry once it is back where it was.
  const n = new nanoflake.Generator({ epochMs: 1000, generatorId: 1 })
  n.nextAtUnixMs(5000)
  assert.throws(() => n.nextAtUnixMs(4999), (e) => e.code === 'ERR_SNO_CLOCK_ROLLBACK' && e.retryAtUnixNs === 5_000_000_000n)

  assert.throws(() => Id.parse('x'), (e) => !('retryAtUnixNs' in e))
})

test('decode errors carry position (UTF-8 bytes; the length for a wrong length)', () => {
  assert.throws(() => Id.parse('2222228A2222G222'), (e) => e.code === 'ERR_SNO_INVALID_BYTE' && e.position === 7)
  assert.throws(() => Id.parse('222'), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 3)
  assert.throws(() => Id.fromBytes(Buffer.alloc(11)), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 11)
  assert.throws(() => Ulid.parse('01ARZ3NDEKTSV4RRFFQ69G5FAU'), (e) => e.code === 'ERR_SNO_INVALID_BYTE' && e.position === 25)
  assert.throws(() => uuid7.Uuid7.parse('é'), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 2)
  assert.throws(() => sno.decodeMany([Id.fromBytes(Buffer.alloc(10)).toString(), '2222228a2222g22z']), (e) => e.index === 1 && e.position === 15)
})

test('nextAsync waits out a used-up pool without blocking the event loop', async () => {
  const g = new Generator({ sequenceMin: 0, sequenceMax: 3 })
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  const ids = []
  try {
    // 200 IDs at 4 per 4 ms unit: about 200 ms of waiting.
    for (let i = 0; i < 200; i++) ids.push(await g.nextAsync(1))
  } finally {
    clearInterval(timer)
  }
  assert.ok(ticks >= 10, `${ticks} interval callbacks ran`)
  assert.ok(ids.every((id, i) => id.meta === 1 && (i === 0 || ids[i - 1].compare(id) === -1)))
  assert.ok(g.stats().waits > 0)
})

test('nextAsync waits out a clock regression (a snapshot ahead of the clock) without blocking', async () => {
  const g = new Generator({ snapshot: snapshotAhead(100) }) // 400 ms ahead
  assert.throws(() => g.tryNext(), (e) => e.code === 'ERR_SNO_CLOCK_REGRESSION' && typeof e.retryAtUnixNs === 'bigint')
  let fired = 0
  const timer = setTimeout(() => fired++, 50)
  const start = performance.now()
  const id = await g.nextAsync()
  clearTimeout(timer)
  assert.equal(fired, 1, 'a 50 ms timer ran while nextAsync waited')
  assert.ok(performance.now() - start >= 250)
  assert.ok(id instanceof Id)
})

test('nextAsync on every format generator', async () => {
  for (const f of FORMATS) {
    const g = new sno[f].Generator()
    const [a, b] = [await g.nextAsync(), await g.nextAsync()]
    assert.ok(a.compare(b) < 0, f)
  }
  const n = new nanoflake.Generator({ epochMs: Date.UTC(2020, 0, 1), generatorId: 3 })
  assert.ok((await n.nextAsync()) instanceof Nanoflake)
  // 15 random bits a millisecond, incremented by up to 2^16 - 1: used up within a few calls.
  const g = new ulidflake.Generator({ sid: 7, entropySize: 2 })
  const made = []
  for (let i = 0; i < 100; i++) made.push(await g.nextAsync())
  assert.ok(made.every((v, i) => v instanceof UlidFlake && (i === 0 || made[i - 1].compare(v) < 0)))
  assert.throws(() => {
    for (;;) g.tryNext()
  }, (e) => e.code === 'ERR_SNO_RANDOMNESS_EXHAUSTED' && typeof e.retryAtUnixNs === 'bigint')
})

test('nextAsync follows the core wait policy: a clock gone back more than 1 s is not waited for', async () => {
  // nextAt a moment ahead of the clock: to the generator, the clock then went back that far.
  const ahead = (ms) => {
    const g = new nanoflake.Generator({ epochMs: Date.UTC(2020, 0, 1), generatorId: 3, maxWaitMs: 10_000 })
    g.nextAtUnixMs(Date.now() + ms)
    return g
  }
  const rollback = (e) => e.code === 'ERR_SNO_CLOCK_ROLLBACK' && typeof e.retryAtUnixNs === 'bigint'
  // 3 s back is within maxWaitMs, but past the core's 1 s rollback limit: an answer at once,
  // from next() and nextAsync() alike.
  assert.throws(() => ahead(3000).next(), rollback)
  await assert.rejects(ahead(3000).nextAsync(), rollback)
  // A small rollback is waited out.
  assert.ok((await ahead(30).nextAsync()) instanceof Nanoflake)
  assert.ok(ahead(30).next() instanceof Nanoflake)
})

test('nextAsync rejects (never throws) a bad meta, and throws nothing past maxWaitMs', async () => {
  const g = new Generator({ sequenceMin: 0, sequenceMax: 3, maxWaitMs: 0 })
  const pending = g.nextAsync('1')
  assert.ok(pending instanceof Promise)
  await assert.rejects(pending, TypeError)
  // Four IDs per 4 ms unit and no wait allowed: the fifth in a unit is refused, not waited for.
  await assert.rejects(
    (async () => {
      for (;;) await g.nextAsync()
    })(),
    (e) => e.code === 'ERR_SNO_SEQUENCE_EXHAUSTED',
  )
  assert.equal(g.stats().waits, 0)
})

test('next() waits at most maxWaitMs; snapshots further ahead are refused at restore', async () => {
  const g = new Generator({ sequenceMin: 0, sequenceMax: 3, maxWaitMs: 0 })
  assert.equal(g.maxWaitMs, 0)
  assert.equal(new Generator().maxWaitMs, 5000)
  assert.equal(new sno.ulid.Generator().maxWaitMs, 5000)
  assert.throws(() => {
    for (let i = 0; i < 1000; i++) g.next()
  }, (e) => e.code === 'ERR_SNO_SEQUENCE_EXHAUSTED' && typeof e.retryAtUnixNs === 'bigint')
  await assert.rejects(async () => {
    for (let i = 0; i < 1000; i++) await g.nextAsync()
  }, (e) => e.code === 'ERR_SNO_SEQUENCE_EXHAUSTED')
  const f = new sno.ulidflake.Generator({ sid: 1, entropySize: 2, maxWaitMs: 0 })
  assert.throws(() => {
    for (;;) f.next()
  }, (e) => e.code === 'ERR_SNO_RANDOMNESS_EXHAUSTED')

  // 200 ms ahead, within the default 5 s: next() sleeps until the clock gets there.
  const start = performance.now()
  new Generator({ snapshot: snapshotAhead(50) }).next()
  const waited = performance.now() - start
  assert.ok(waited >= 150 && waited < 1500, `${waited} ms`)
  // Further ahead than maxWaitMs: refused (it slept until 2079 when the marks were at the end).
  assert.throws(() => new Generator({ snapshot: snapshotAhead(100), maxWaitMs: 100 }), is(RangeError, 'ERR_SNO_SNAPSHOT_AHEAD'))
  assert.throws(() => new Generator({ snapshot: snapshotAhead(1500) }), is(RangeError, 'ERR_SNO_SNAPSHOT_AHEAD'))
})

// Whatever the arguments, errors are typed, coded and in the API's words: never N-API's
// conversion text or a Rust panic.
const CODE = /^ERR_(SNO_[A-Z0-9_]+|INVALID_ARG_TYPE|INVALID_ARG_VALUE)$/
function typedOrOk(fn) {
  try {
    fn()
  } catch (e) {
    assert.ok(e instanceof Error && CODE.test(e.code), `${e?.constructor?.name} ${e?.code}: ${e?.message}`)
    assert.doesNotMatch(e.message, /napi|rust|panic|Failed to convert|Expected/i)
    assert.ok(e.message.length > 0)
  }
}

test('property: no argument gives an untyped error (fast-check)', () => {
  const value = fc.oneof(fc.anything(), fc.integer(), fc.double(), fc.bigInt(), fc.constantFrom(null, undefined, 2 ** 63, -1, 1.5, NaN))
  const optional = (keys) => fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] })
  const snapshotKeys = ['partition', 'sequenceMin', 'sequenceMax', 'sequence', 'now', 'wallHi', 'wallSafe', 'drifts']
  const options = fc.oneof(
    value,
    optional(['partition', 'sequenceMin', 'sequenceMax', 'maxWaitMs']),
    optional(['partition', 'snapshot']).map((o) => ({ ...o, maxWaitMs: 0 })),
    fc.record({ snapshot: fc.oneof(value, optional(snapshotKeys)) }),
    fc.dictionary(fc.string(), value),
  )
  fc.assert(
    fc.property(options, (o) => {
      typedOrOk(() => new Generator(o))
      for (const f of [...FORMATS, 'nanoflake']) typedOrOk(() => new sno[f].Generator(o))
    }),
    { numRuns: 300 },
  )
  const flakeOptions = optional(['epochMs', 'generatorId', 'sid', 'entropySize', 'maxWaitMs'])
  fc.assert(
    fc.property(flakeOptions, value, (o, v) => {
      typedOrOk(() => new nanoflake.Generator(o))
      typedOrOk(() => new ulidflake.Generator(o))
      typedOrOk(() => Nanoflake.fromBigInt(1n << 40n).unixMsAt(v))
      typedOrOk(() => Nanoflake.fromBigInt(1n << 40n).dateAt(v))
      typedOrOk(() => UlidFlake.fromBigInt(1n << 40n).unixMsAt(v))
      typedOrOk(() => Id.fromBytes(v))
      typedOrOk(() => Ulid.fromBytes(v))
      typedOrOk(() => new sno.ulid.Generator().nextAtUnixMs(v))
      typedOrOk(() => new Generator().nextWithTime(0, v))
      typedOrOk(() => new Generator().nextAtUnixMs(0, v))
      typedOrOk(() => sno.newId(v))
    }),
    { numRuns: 300 },
  )
  for (const T of [Int8Array, Uint8ClampedArray, Uint16Array, Int32Array, Float32Array, Float64Array, BigUint64Array, DataView]) {
    const bytes = T === DataView ? new DataView(new ArrayBuffer(10)) : new T(10)
    assert.throws(() => Id.fromBytes(bytes), is(TypeError, 'ERR_INVALID_ARG_TYPE'))
    assert.throws(() => Ulid.fromBytes(bytes), is(TypeError, 'ERR_INVALID_ARG_TYPE'))
  }
})

// V8 ends the process when its heap is full instead of throwing: a batch whose results cannot
// fit in what the heap has left is refused first (before: a fatal "heap out of memory" abort
// under a small --max-old-space-size).
test('a batch larger than the V8 heap left is a RangeError, not an abort', () => {
  const index = fileURLToPath(new URL('../index.mjs', import.meta.url))
  const probe = `
const sno = await import(${JSON.stringify(index)})
for (const call of [() => sno.newMany(sno.MAX_BATCH), () => sno.newStrings(sno.MAX_BATCH), () => sno.ulid.newMany(sno.MAX_BATCH)]) {
  try { call(); console.log('made') } catch (e) { console.log(e.constructor.name, e.code) }
}
`
  const out = execFileSync(process.execPath, ['--max-old-space-size=96', '--input-type=module', '-e', probe], {
    encoding: 'utf8',
    timeout: 120_000,
  })
  assert.deepEqual(out.trimEnd().split('\n'), Array(3).fill('RangeError ERR_MEMORY_ALLOCATION_FAILED'))
})
