// The surface every format shares, checked for every entry of the core's format table (a
// format added to the core is tested here with no edit): fromBigInt / bigint, fromFields /
// fields() by name, fromBytes / bytes, `.position` on decode errors, order, the time (unixMs,
// unixNs, timestamp; unixMsAt for epoch-based formats), UUID text for the 128-bit ones. The
// named fields are compared with the vector files' columns, read without the library.
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'
import { inspect } from 'node:util'

import fc from 'fast-check'

import sno from '../index.mjs'
import { rows } from './helpers.mjs'

const require = createRequire(import.meta.url)
const TABLE = JSON.parse(require('../index.js').formats())

const NANO_EPOCH = 1640995200000
const FLAKE_EPOCH = 1704067200000

/** Some values of a format: from its generators, else the zero bytes' value. */
function samples(info) {
  const Cls = sno[info.className]
  if (info.name === 'sno') return sno.newMany(5, 7)
  if (typeof Cls.generate === 'function') return ['a', 'some_type', ''].map((prefix) => Cls.generate(prefix))
  if (info.hasGlobal) return sno[info.name].newMany(5)
  if (info.generatorOptions) return Array.from({ length: 5 }, () => new sno[info.name].Generator({ epochMs: NANO_EPOCH, generatorId: 3 }).next())
  return [Cls.fromBytes(Buffer.alloc(info.binaryLen))]
}

const num = (s) => Number(s)
const big = (hex) => BigInt(`0x${hex}`)
/** Per format: a vector file, the column of each value's bytes, and each named field's column. */
const VECTORS = {
  sno: ['sno_codec.tsv', (r) => r.hex, { units: ['ts_units', num], tickTock: ['tick', (t) => t === '1'], meta: ['meta', num], partition: ['partition', num], sequence: ['sequence', num] }],
  ulid: ['ulid_vectors.tsv', (r) => r.hex, { unixMs: ['timestamp_ms', num], randomness: ['randomness_hex', big] }],
  uuid7: ['uuidv7_vectors.tsv', (r) => r.hex, { unixMs: ['unix_ts_ms', num], version: [null, () => 7], randA: ['rand_a_hex', (h) => parseInt(h, 16)], variant: [null, () => 2], randB: ['rand_b_hex', big] }],
  scru128: ['scru128_vectors.tsv', (r) => r.hex, { unixMs: ['timestamp_ms', num], counterHi: ['counter_hi', num], counterLo: ['counter_lo', num], entropy: ['entropy', num] }],
  scru160: ['scru160_vectors.tsv', (r) => r.hex, { unixMs: ['timestamp_ms', num], counter: ['counter', num], random16: ['random16', num], random80: ['random80_hex', big] }],
  nanoflake: ['nanoflakes_vectors.tsv', (r) => r.hex, { timestampMs: ['timestamp_field', num], generatorId: ['generator_id', num], sequence: ['sequence', num] }],
  ulidflake: ['ulidflake_vectors.tsv', (r) => r.hex, { timestampMs: ['timestamp_ms', num], randomness: ['randomness20', num], scalableRandomness: ['scalable_randomness15', num], sid: ['scalable_sid', num] }],
  ksuid: ['ksuid_vectors.tsv', (r) => r.hex, { timestampSecs: ['timestamp', num], payload: ['payload_hex', big] }],
}

test('the table lists every exported class, in the core order', () => {
  assert.deepEqual(TABLE.map((i) => i.index), [...TABLE.keys()])
  assert.deepEqual(TABLE.slice(0, 7).map((i) => i.name), ['sno', 'ulid', 'uuid7', 'scru128', 'scru160', 'nanoflake', 'ulidflake'])
  for (const info of TABLE) {
    assert.equal(typeof sno[info.className], 'function', info.className)
    assert.ok(info.fields.length > 0, `${info.className} has named fields`)
    for (const f of info.fields) assert.match(f.name, /^[a-z][A-Za-z0-9]*$/)
  }
})

for (const info of TABLE) {
  const Cls = sno[info.className]
  const name = info.className

  test(`${name}: fields() by name, as the vector file's columns`, () => {
    const spec = VECTORS[info.name]
    if (!spec) return
    const [file, hex, columns] = spec
    assert.deepEqual(Object.keys(columns), info.fields.map((f) => f.name), 'the fields, in layout order')
    for (const r of rows(file)) {
      const v = Cls.fromBytes(Buffer.from(hex(r), 'hex'))
      const want = Object.fromEntries(Object.entries(columns).map(([key, [col, read]]) => [key, read(r[col])]))
      assert.deepEqual(v.fields(), want, `${name} ${hex(r)}`)
      for (const key of Object.keys(want)) assert.equal(v[key], want[key], `${name}.${key}`)
    }
  })

  test(`${name}: fromBigInt, fromBytes, fromFields and parse round trips`, () => {
    for (const v of samples(info)) {
      const bytes = v.bytes
      assert.equal(bytes.length, info.binaryLen)
      assert.equal(v.bigint, BigInt(`0x${bytes.toString('hex')}`))
      const [fromInt, fromBytes] = [Cls.fromBigInt(v.bigint), Cls.fromBytes(bytes)]
      assert.ok(fromInt.equals(fromBytes) && fromInt.bigint === v.bigint && fromBytes.bytes.equals(bytes))
      // The binary form is the whole value, but for a TypeID's prefix (text only).
      if (!('prefix' in v.fields())) assert.ok(fromInt.equals(v))
      assert.ok(Cls.parse(v.toString()).equals(v) && new Cls(v.toString()).equals(v))
      const fields = v.fields()
      assert.ok(Cls.fromFields(fields).equals(v), `${name}.fromFields(${inspect(fields)})`)
      for (const f of info.fields) assert.equal(typeof fields[f.name], f.kind, `${name}.${f.name}`)
      assert.notEqual(v.fields(), v.fields(), 'a new object each time')
      assert.equal(`${v}`, v.toString())
      assert.equal(inspect(v), `${name}('${v}')`)
      assert.equal(JSON.stringify([v]), JSON.stringify([v.toString()]))
    }
    for (const bad of [-1n, 1n << BigInt(8 * info.binaryLen)]) {
      assert.throws(() => Cls.fromBigInt(bad), (e) => e instanceof RangeError && e.code === 'ERR_SNO_VALUE_OVERFLOW', `${name} ${bad}`)
    }
    assert.throws(() => Cls.fromBigInt(1), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
    assert.throws(() => Cls.fromFields('x'), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
    assert.throws(() => Cls.fromFields({}), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  })

  test(`${name}: decode errors carry code and position`, () => {
    const text = samples(info)[0].toString()
    const at = text.length - 1
    const bad = text.slice(0, at) + '!' + text.slice(at + 1)
    assert.throws(() => Cls.parse(bad), (e) => e.constructor === Error && e.code === 'ERR_SNO_INVALID_BYTE' && e.position === at, bad)
    const long = 'x'.repeat(info.maxTextLen + 1)
    assert.throws(() => Cls.parse(long), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === long.length)
    assert.throws(() => Cls.parse(''), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 0)
    assert.throws(() => Cls.fromBytes(Buffer.alloc(info.binaryLen + 1)), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === info.binaryLen + 1)
    assert.throws(() => Cls.parse(7), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  })

  test(`${name}: compare is value order, equals is value equality`, () => {
    const value = fc.bigInt(0n, (1n << BigInt(8 * info.binaryLen)) - 1n).map((b) => {
      try {
        return Cls.fromBigInt(b)
      } catch {
        return null
      }
    })
    fc.assert(
      fc.property(value, value, (a, b) => {
        if (a === null || b === null) return
        assert.equal(a.compare(b), a.bigint < b.bigint ? -1 : a.bigint > b.bigint ? 1 : 0)
        assert.equal(a.equals(b), a.bigint === b.bigint)
      }),
      { numRuns: 300 },
    )
  })

  test(`${name}: time`, () => {
    const v = samples(info)[0]
    if (info.hasUnixMs) {
      assert.equal(typeof v.unixMs, 'number')
      assert.equal(v.timestamp.getTime(), v.unixMs)
      assert.equal(v.unixNs / 1_000_000n, BigInt(v.unixMs))
    } else {
      assert.deepEqual([v.unixMs, v.unixNs, v.timestamp], [undefined, undefined, undefined])
    }
    if (info.hasEpoch) {
      for (const epoch of [0, NANO_EPOCH, FLAKE_EPOCH, -8.64e15, 8.64e15 - 2 ** 44]) {
        assert.equal(v.unixMsAt(epoch), epoch + v.timestampMs)
        assert.equal(v.dateAt(epoch).getTime(), epoch + v.timestampMs)
      }
      if (info.hasUnixMs) assert.equal(v.unixMsAt(FLAKE_EPOCH), v.unixMs)
      assert.throws(() => v.unixMsAt(1.5), (e) => e instanceof RangeError && e.code === 'ERR_SNO_INVALID_ARGUMENT')
      assert.throws(() => v.unixMsAt(8.64e15 + 1), RangeError)
      assert.throws(() => v.unixMsAt('0'), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
    } else {
      assert.equal(v.unixMsAt, undefined)
    }
  })

  if (info.binaryLen === 16) {
    test(`${name}: the 128 bits as UUID text`, () => {
      for (const v of samples(info)) {
        const hex = v.bytes.toString('hex')
        assert.equal(v.uuid, `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`)
        if (v.bytes[6] >> 4 === 7 && v.bytes[8] >> 6 === 2) assert.equal(sno.Uuid7.parse(v.uuid).bigint, v.bigint)
      }
    })
  }
}

test('UlidFlake.unixMsWithEpoch: the deprecated name of unixMsAt', () => {
  const f = sno.UlidFlake.fromBigInt(123n << 20n)
  assert.equal(f.unixMsWithEpoch(5), f.unixMsAt(5))
  assert.throws(() => f.unixMsWithEpoch(0.5), (e) => e instanceof RangeError && /unixMsWithEpoch/.test(e.message))
})

test('fromFields: fields above their width are RangeErrors with the core codes', () => {
  const is = (code) => (e) => e instanceof RangeError && e.code === code
  assert.throws(() => sno.Ulid.fromFields({ unixMs: 2 ** 48, randomness: 0n }), is('ERR_SNO_MILLIS_OUT_OF_RANGE'))
  assert.throws(() => sno.Ulid.fromFields({ unixMs: 0, randomness: 1n << 80n }), is('ERR_SNO_VALUE_OVERFLOW'))
  assert.throws(() => sno.Id.fromFields({ units: 2 ** 39, tickTock: false, meta: 0, partition: 0, sequence: 0 }), is('ERR_SNO_TIMESTAMP_OVERFLOW'))
  assert.throws(() => sno.Id.fromFields({ units: 0, tickTock: false, meta: 256, partition: 0, sequence: 0 }), is('ERR_SNO_VALUE_OVERFLOW'))
  assert.throws(() => sno.Id.fromFields({ units: 0, tickTock: 0, meta: 0, partition: 0, sequence: 0 }), TypeError)
  assert.throws(() => sno.Nanoflake.fromFields({ timestampMs: 0, generatorId: 1024, sequence: 0 }), is('ERR_SNO_VALUE_OVERFLOW'))
  assert.throws(() => sno.Uuid7.fromFields({ unixMs: 1.5, randA: 0, randB: 0n }), is('ERR_SNO_INVALID_ARGUMENT'))
  assert.equal(sno.Uuid7.fromFields({ unixMs: 1645557742000, randA: 0xcc3, randB: 0x18c4dc0c0c07398fn }).toString(), '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')
})

test('property: any argument to fromBigInt / fromFields / unixMsAt gives a value or a typed error (fast-check)', () => {
  const CODE = /^ERR_(SNO_[A-Z0-9_]+|INVALID_ARG_TYPE)$/
  const typedOrOk = (fn) => {
    try {
      fn()
    } catch (e) {
      assert.ok((e instanceof TypeError || e instanceof RangeError || e.constructor === Error) && CODE.test(e.code), `${e?.constructor?.name} ${e?.code}: ${e?.message}`)
      assert.doesNotMatch(e.message, /napi|rust|panic|Failed to convert|Expected/i)
    }
  }
  const value = fc.oneof(fc.anything(), fc.bigInt(), fc.double(), fc.constantFrom(null, undefined, 2 ** 63, -1, NaN, -(2n ** 200n)))
  const fieldsOf = (info) => fc.record(Object.fromEntries(info.fields.map((f) => [f.name, value])), { requiredKeys: [] })
  for (const info of TABLE) {
    const Cls = sno[info.className]
    fc.assert(
      fc.property(value, fieldsOf(info), (v, fields) => {
        typedOrOk(() => Cls.fromBigInt(v))
        typedOrOk(() => Cls.fromFields(fields))
        typedOrOk(() => Cls.fromFields(v))
        if (info.hasEpoch) typedOrOk(() => Cls.fromBigInt(1n).unixMsAt(v))
      }),
      { numRuns: 200 },
    )
  }
})
