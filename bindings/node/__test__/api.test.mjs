// API behaviour: values, errors, generators, snapshots, properties (fast-check).
import assert from 'node:assert/strict'
import { test } from 'node:test'

import fc from 'fast-check'

import sno, { Generator, Id, decodeMany, encodeMany, newId, newIds, newMany, newString, newStrings } from '../index.mjs'
import { ALPHABET, expectedError } from './helpers.mjs'

test('values', () => {
  const a = newId()
  const b = newId(7)
  assert.equal(a.compare(b), -1)
  assert.equal(b.compare(a), 1)
  assert.ok(a.equals(Id.parse(a.toString())))
  assert.equal(b.meta, 7)
  assert.ok(a.timestamp instanceof Date)
  assert.equal(typeof a.unixNs, 'bigint')
  assert.ok(Buffer.isBuffer(a.bytes) && a.bytes.length === 10)
  assert.equal(`${a}`, a.toString())
  const s = newString(3)
  assert.equal(s.length, 16)
  assert.equal(Id.parse(s).meta, 3)
  const many = newMany(500, 1)
  assert.equal(many.length, 500)
  for (let i = 1; i < many.length; i++) assert.equal(many[i - 1].compare(many[i]), -1)
  assert.ok(many.every((id) => id instanceof Id && id.meta === 1))
  assert.equal(sno.newId, newId)
  assert.equal(sno.newMany, newMany)
  // 0.2's name, deprecated: the same batch, in its own words.
  const old = newIds(3, 2)
  assert.ok(old.length === 3 && old.every((id) => id instanceof Id && id.meta === 2) && old[0].compare(many[499]) === 1)
})

test('wrong types are TypeErrors, bad values carry ERR_SNO codes', () => {
  for (const f of [() => Id.parse(42), () => Id.parse(null), () => Id.fromBytes('x'), () => newId('1'), () => newString({}),
    () => new Generator(3), () => new Generator({ partition: 'x' }), () => new Generator().nextWithTime(0, 'x'), () => newId(1).compare({})]) {
    assert.throws(f, (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  }
  assert.throws(() => Id.parse('BRPK4Q72XWF2M63L'), (e) => e.code === 'ERR_SNO_INVALID_BYTE' && /position 0/.test(e.message))
  assert.throws(() => Id.parse('brpk'), { code: 'ERR_SNO_INVALID_LENGTH' })
  assert.throws(() => newId(256), { code: 'ERR_SNO_INVALID_ARGUMENT' })
  assert.throws(() => newId(-1), { code: 'ERR_SNO_INVALID_ARGUMENT' })
  assert.throws(() => newMany(1.5), { code: 'ERR_SNO_INVALID_ARGUMENT' })
  assert.throws(() => newIds(1.5), { code: 'ERR_SNO_INVALID_ARGUMENT' })
  assert.throws(() => newMany('3'), (e) => e instanceof TypeError && /^newMany: n must be a number/.test(e.message))
  assert.throws(() => new Generator({ partition: 65536 }), { code: 'ERR_SNO_INVALID_ARGUMENT' })
  assert.throws(() => new Generator({ sequenceMin: 0, sequenceMax: 2 }), { code: 'ERR_SNO_INVALID_SEQUENCE_BOUNDS' })
  assert.throws(() => new Generator().nextWithTime(0, new Date(0)), { code: 'ERR_SNO_TIME_OUT_OF_RANGE' })
})

test('generator: exhaustion, blocking next, snapshot through JSON', () => {
  const g = new Generator({ partition: 258, sequenceMin: 0, sequenceMax: 3 })
  assert.ok(g instanceof Generator)
  assert.equal(g.partition, 258)
  assert.equal(g.capacity, 4)
  let made = 0
  let exhausted = 0
  for (let i = 0; i < 12; i++) {
    try {
      g.tryNext()
      made++
    } catch (e) {
      assert.equal(e.code, 'ERR_SNO_SEQUENCE_EXHAUSTED')
      exhausted++
    }
  }
  assert.ok(made >= 4 && exhausted > 0)
  const blocking = Array.from({ length: 12 }, () => g.next(1))
  for (let i = 1; i < blocking.length; i++) assert.equal(blocking[i - 1].compare(blocking[i]), -1)
  const stats = g.stats()
  assert.ok(stats.overflows >= exhausted && stats.overflowEpisodes >= 1)
  const snap = JSON.parse(JSON.stringify(g.snapshot()))
  assert.equal(snap.partition, 258)
  const restored = new Generator({ snapshot: snap })
  assert.equal(restored.next().compare(blocking.at(-1)), 1)
  assert.equal(new Generator({ snapshot: snap, partition: 9 }).partition, 9)
  assert.throws(() => new Generator({ snapshot: { ...snap, wallHi: -1 } }), { code: 'ERR_SNO_INVALID_SNAPSHOT' })
  const t = g.nextAtUnixMs(85, Date.parse('2020-04-06T12:34:56.789Z'))
  assert.equal(t.units, 80968124197)
  assert.equal(t.meta, 85)
  assert.throws(() => g.nextAtUnixMs(0, 0), { code: 'ERR_SNO_TIME_OUT_OF_RANGE' })
  assert.throws(() => g.nextAtUnixMs(0, 1.5), { code: 'ERR_SNO_INVALID_ARGUMENT' })
  assert.throws(() => g.nextAtUnixMs(0, new Date()), TypeError)
})

test('a plain generator keeps its maxWaitMs as given (the core keeps 4 ms units)', () => {
  for (const ms of [0, 1, 1001, 5000, 2 ** 31 - 1]) assert.equal(new Generator({ maxWaitMs: ms }).maxWaitMs, ms)
  assert.equal(new Generator().maxWaitMs, 5000)
})

test('the deprecated names give what their new names give', () => {
  const g = new Generator()
  const t = g.nextWithTime(85, new Date('2020-04-06T12:34:56.789Z'))
  assert.equal(t.units, 80968124197)
  assert.equal(new sno.ulid.Generator().nextAt(1_700_000_000_000).unixMs, 1_700_000_000_000)
  const typeid = sno.TypeId.generate('user')
  assert.equal(typeid.prefix, 'user')
  assert.equal(sno.typeid.new('user').prefix, 'user')
})

test('property: bytes and text round trip, order preserved', () => {
  const bytes10 = fc.uint8Array({ minLength: 10, maxLength: 10 })
  fc.assert(fc.property(bytes10, (raw) => {
    const id = Id.fromBytes(raw)
    const text = id.toString()
    assert.ok([...Buffer.from(text)].every((c) => ALPHABET.includes(c)))
    assert.deepEqual(Id.parse(text).bytes, Buffer.from(raw))
  }), { numRuns: 2000 })
  fc.assert(fc.property(bytes10, bytes10, (x, y) => {
    const [a, b] = [Id.fromBytes(x), Id.fromBytes(y)]
    const byBytes = Math.sign(Buffer.compare(Buffer.from(x), Buffer.from(y)))
    const byText = a.toString() < b.toString() ? -1 : a.toString() > b.toString() ? 1 : 0
    assert.equal(a.compare(b), byBytes)
    assert.equal(byText, byBytes)
  }), { numRuns: 2000 })
})

test('property: arbitrary strings are decoded or refused with the first bad byte', () => {
  fc.assert(fc.property(fc.string({ maxLength: 20 }), (text) => {
    const want = expectedError(Buffer.from(text, 'utf8'))
    if (want === null) assert.equal(Id.parse(text).toString(), text)
    else assert.throws(() => Id.parse(text), { code: want[0] })
  }), { numRuns: 3000 })
})

test('batch API: newStrings, encodeMany, decodeMany', () => {
  const texts = newStrings(1000, 3)
  assert.equal(texts.length, 1000)
  assert.deepEqual([...texts].sort(), texts)
  assert.equal(new Set(texts).size, 1000)
  const ids = decodeMany(texts)
  assert.ok(ids.every((id) => id instanceof Id && id.meta === 3))
  assert.deepEqual(encodeMany(ids), texts)
  assert.deepEqual(decodeMany([]), [])
  assert.throws(() => decodeMany('x'), TypeError)
  assert.throws(() => encodeMany([ids[0], 'x']), TypeError)
  assert.throws(() => decodeMany([texts[0], 42]), (e) => e instanceof TypeError && e.index === 1)
  assert.throws(() => newStrings('3'), TypeError)
  assert.throws(() => newStrings(-1), (e) => e instanceof RangeError && e.code === 'ERR_SNO_BATCH_TOO_LARGE')
})

test('property: decodeMany equals Id.parse item by item', () => {
  const item = fc.oneof(
    fc.uint8Array({ minLength: 10, maxLength: 10 }).map((b) => Id.fromBytes(b).toString()),
    fc.string({ minLength: 16, maxLength: 16 }),
  )
  fc.assert(fc.property(fc.array(item, { maxLength: 12 }), (texts) => {
    let want = null
    for (let i = 0; i < texts.length && want === null; i++) {
      try { Id.parse(texts[i]) } catch (e) { want = [i, e.code] }
    }
    if (want === null) assert.deepEqual(decodeMany(texts).map(String), texts)
    else assert.throws(() => decodeMany(texts), (e) => e.index === want[0] && e.code === want[1])
  }), { numRuns: 2000 })
})
