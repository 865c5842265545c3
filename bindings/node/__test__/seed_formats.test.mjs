// Scru160, Nanoflake and UlidFlake: every vector row, the reference runs, generator rules,
// property tests and errors (worker_threads and child processes: formats.test.mjs).
import assert from 'node:assert/strict'
import { test } from 'node:test'

import fc from 'fast-check'

import { Nanoflake, Scru160, UlidFlake, nanoflake, scru160, ulidflake } from '../index.mjs'
import { rows } from './helpers.mjs'

const NANO_EPOCH = 1640995200000
const FLAKE_EPOCH = 1704067200000
const YEAR_9999_END_MS = 253402300799999

function throwsCode(fn, code, message) {
  assert.throws(fn, (e) => e.code === code, message)
}

/** [code, position] of a strict decoder's error, worked out without the library. */
function expectedError(text, lengths, ok) {
  const bytes = Buffer.from(text, 'utf8')
  if (!lengths.includes(bytes.length)) return ['ERR_SNO_INVALID_LENGTH', bytes.length]
  const at = [...bytes].findIndex((b) => !ok(String.fromCharCode(b)))
  return ['ERR_SNO_INVALID_BYTE', at]
}

/** [code, position] of the error `fn` throws (the message names the byte position or the length). */
function errorOf(fn) {
  try {
    fn()
  } catch (e) {
    const m = /at position (\d+)/.exec(e.message) ?? /invalid length (\d+)/.exec(e.message)
    return [e.code, m ? Number(m[1]) : undefined]
  }
  return null
}

test('SCRU160 vector rows', () => {
  const table = rows('scru160_vectors.tsv')
  assert.equal(table.length, 297)
  for (const r of table) {
    const s = Scru160.fromBytes(Buffer.from(r.hex, 'hex'))
    assert.equal(s.toString(), r.base32hex, r.note)
    assert.equal(s.hex, r.hex)
    for (const text of [r.base32hex, r.base32hex.toLowerCase(), r.hex, r.hex.toUpperCase()]) {
      assert.ok(Scru160.parse(text).equals(s), text)
    }
    assert.equal(s.unixMs, Number(r.timestamp_ms))
    assert.equal(s.counter, Number(r.counter))
    assert.equal(s.random16, Number(r.random16))
    assert.equal(s.random80, BigInt(`0x${r.random80_hex}`))
    assert.equal(s.bigint, BigInt(`0x${r.hex}`))
    assert.equal(r.inspect_cli.startsWith('crash'), s.unixMs > YEAR_9999_END_MS)
  }
})

test('SCRU160 invalid rows', () => {
  const table = rows('scru160_invalid.tsv')
  assert.equal(table.length, 24)
  const b32hex = (c) => /^[0-9A-Va-v]$/.test(c)
  const hex = (c) => /^[0-9a-fA-F]$/.test(c)
  for (const r of table) {
    const text = JSON.parse(r.input_json)
    if (r.expected === 'accept') {
      const s = Scru160.parse(text)
      if (r.scru160_inspect_cli.startsWith('accept:')) assert.equal(s.hex, r.scru160_inspect_cli.slice(7))
      continue
    }
    const isHex = Buffer.byteLength(text) === 40
    assert.deepEqual(errorOf(() => Scru160.parse(text)), expectedError(text, isHex ? [40] : [32], isHex ? hex : b32hex), r.case)
  }
})

test('Nanoflakes vector rows', () => {
  const table = rows('nanoflakes_vectors.tsv')
  assert.equal(table.length, 245)
  for (const r of table) {
    const n = Nanoflake.fromBigInt(BigInt(r.value))
    assert.deepEqual(n.bytes, Buffer.from(r.hex, 'hex'))
    assert.equal(n.toString(), r.base36, r.note)
    assert.equal(n.bigint, BigInt(r.value))
    assert.equal(n.padded, r.base36.padStart(13, '0'))
    for (const text of [r.base36, r.base36.toUpperCase(), n.padded]) assert.ok(Nanoflake.parse(text).equals(n))
    assert.equal(n.timestampMs, Number(r.timestamp_field))
    assert.equal(n.generatorId, Number(r.generator_id))
    assert.equal(n.sequence, Number(r.sequence))
    assert.equal(n.unixMsAt(Number(r.epoch_ms)), Number(r.unix_ms))
    assert.equal(n.referenceTimestampMs, Number(r.ref_timestampValue))
    assert.equal(Number(r.epoch_ms) + n.referenceTimestampMs, Number(r.ref_creationTimeMillis))
    assert.equal(n.unixMs, undefined)
  }
})

test('Nanoflakes invalid rows', () => {
  const table = rows('nanoflakes_invalid.tsv')
  assert.equal(table.length, 20)
  const alnum = (c) => /^[0-9a-zA-Z]$/.test(c)
  for (const r of table) {
    const text = JSON.parse(r.input_json)
    const java = r.java_new_Nanoflake_radix36
    // Accepted rows, the decimal ("n/a") rows and "0x1f" (four base36 digits; padded text can
    // start with 0x) agree with Java's radix-36 parse.
    if (r.expected.startsWith('accept') || r.expected.startsWith('n/a') || r.case === 'format: 0x prefix') {
      if (java.startsWith('accept:')) assert.equal(Nanoflake.parse(text).bigint, BigInt(java.slice(7)), r.case)
      else assert.throws(() => Nanoflake.parse(text))
      continue
    }
    if (r.case.startsWith('overflow')) {
      throwsCode(() => Nanoflake.parse(text), 'ERR_SNO_VALUE_OVERFLOW', r.case)
    } else {
      const n = Buffer.byteLength(text)
      const lengths = n >= 1 && n <= 13 ? [n] : []
      assert.deepEqual(errorOf(() => Nanoflake.parse(text)), expectedError(text, lengths, alnum), r.case)
    }
  }
})

test('Nanoflakes: the Java run replayed through nextAtUnixMs', () => {
  const table = rows('nanoflakes_generated.tsv')
  assert.equal(table.length, 238)
  const g = new nanoflake.Generator({ epochMs: NANO_EPOCH, generatorId: 5 })
  let last = null
  for (const r of table) {
    const ts = Number(r.timestamp_field)
    const seq = Number(r.sequence)
    const first = last && last[0] === ts ? last[1] + 1 : 0
    if (first === 0 && last && last[1] === 4095) {
      throwsCode(() => g.nextAtUnixMs(NANO_EPOCH + last[0]), 'ERR_SNO_RANDOMNESS_EXHAUSTED')
    }
    for (let s = first; s < seq; s++) g.nextAtUnixMs(NANO_EPOCH + ts)
    const n = g.nextAtUnixMs(NANO_EPOCH + ts)
    assert.equal(n.bigint, BigInt(r.value), r.index)
    assert.equal(n.toString(), r.base36)
    assert.equal(n.referenceTimestampMs, Number(r.ref_timestampValue))
    assert.equal(n.generatorId, Number(r.generator_id))
    last = [ts, seq]
  }
})

test('Ulid-Flake vector rows', () => {
  const table = rows('ulidflake_vectors.tsv')
  assert.equal(table.length, 223)
  for (const r of table) {
    const f = UlidFlake.fromBigInt(BigInt(r.value))
    assert.deepEqual(f.bytes, Buffer.from(r.hex, 'hex'))
    assert.equal(f.toString(), r.ulidflake, r.note)
    assert.ok(UlidFlake.parse(r.ulidflake.toLowerCase()).equals(f))
    assert.equal(f.timestampMs, Number(r.timestamp_ms))
    assert.equal(f.unixMs, Number(r.unix_ms))
    assert.equal(f.unixMsAt(0), f.timestampMs)
    assert.equal(f.randomness, Number(r.randomness20))
    assert.equal(f.scalableRandomness, Number(r.scalable_randomness15))
    assert.equal(f.sid, Number(r.scalable_sid))
  }
})

test('Ulid-Flake invalid rows', () => {
  const table = rows('ulidflake_invalid.tsv')
  assert.equal(table.length, 27)
  const crockford = (c) => /^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]$/.test(c)
  for (const r of table) {
    const text = JSON.parse(r.input_json)
    if (r.expected.startsWith('accept')) {
      // Case-insensitive as the spec and the Python reference (Go's is not).
      assert.equal(UlidFlake.parse(text).bigint, BigInt(r.python_UlidFlake_parse.slice(7)), r.case)
    } else if (r.expected.includes('overflow')) {
      throwsCode(() => UlidFlake.parse(text), 'ERR_SNO_VALUE_OVERFLOW', r.case)
    } else {
      assert.deepEqual(errorOf(() => UlidFlake.parse(text)), expectedError(text, [13], crockford), r.case)
    }
  }
})

test('Ulid-Flake: every ID of the Go run reads back (the draws are replayed in Rust)', () => {
  const table = rows('ulidflake_generated.tsv')
  assert.equal(table.length, 210)
  const ok = table.filter((r) => r.result === 'ok')
  assert.equal(table.length - ok.length, 28)
  let prev = null
  for (const r of ok) {
    const f = UlidFlake.parse(r.ulidflake)
    assert.equal(f.timestampMs, Number(r.timestamp_ms))
    assert.equal(f.randomness, Number(r.randomness20))
    if (prev) assert.equal(prev.compare(f), -1)
    prev = f
  }
})

test('generator rules and settings', () => {
  const g = new nanoflake.Generator({ epochMs: 1000, generatorId: 1023 })
  const a = g.nextAtUnixMs(5000)
  assert.deepEqual([a.timestampMs, a.generatorId, a.sequence], [4000, 1023, 0])
  throwsCode(() => g.nextAtUnixMs(4999), 'ERR_SNO_CLOCK_ROLLBACK')
  assert.equal(g.nextAtUnixMs(5000).sequence, 1)
  throwsCode(() => g.nextAtUnixMs(999), 'ERR_SNO_MILLIS_OUT_OF_RANGE')
  throwsCode(() => new nanoflake.Generator({ epochMs: 0, generatorId: 1024 }), 'ERR_SNO_INVALID_ARGUMENT')
  assert.throws(() => new nanoflake.Generator({ generatorId: 1 }), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  assert.throws(() => new nanoflake.Generator({ epochMs: '0', generatorId: 1 }), TypeError)
  assert.throws(() => new nanoflake.Generator(null), TypeError)
  assert.equal(nanoflake.new, undefined)
  const live = new nanoflake.Generator({ epochMs: NANO_EPOCH, generatorId: 1 })
  const [x, y, z] = [live.next(), live.next(), live.tryNext()]
  assert.ok(x.compare(y) < 0 && y.compare(z) < 0)

  const s = new ulidflake.Generator({ sid: 7, entropySize: 2 })
  const made = []
  assert.throws(() => {
    for (;;) made.push(s.nextAtUnixMs(FLAKE_EPOCH + 9))
  }, (e) => e.code === 'ERR_SNO_RANDOMNESS_EXHAUSTED')
  assert.ok(made.length > 0 && made.every((v, i) => i === 0 || made[i - 1].compare(v) < 0))
  assert.equal(made[0].sid, 7)
  assert.ok(s.nextAtUnixMs(FLAKE_EPOCH + 10).compare(made.at(-1)) > 0)
  for (const bad of [{ sid: 32 }, { sid: 1, entropySize: 3 }, { entropySize: 0 }, { epochMs: -5 }]) {
    throwsCode(() => new ulidflake.Generator(bad), 'ERR_SNO_INVALID_ARGUMENT', JSON.stringify(bad))
  }
  const d = new ulidflake.Generator()
  assert.ok(d.next().compare(d.tryNext()) < 0)
  assert.ok(ulidflake.new().compare(ulidflake.new()) < 0)
  assert.equal(ulidflake.newStrings(3).length, 3)

  const g160 = new scru160.Generator()
  const [p, q] = [g160.nextAtUnixMs(1631540490683), g160.nextAtUnixMs(1631540490683)]
  assert.equal(q.counter, p.counter + 1)
  assert.ok(p.counter < 0x8000)
  throwsCode(() => g160.nextAtUnixMs(0), 'ERR_SNO_MILLIS_OUT_OF_RANGE')
  assert.ok(scru160.new().compare(scru160.new()) < 0)
})

test('wrong types, lengths and ranges', () => {
  for (const Cls of [Scru160, Nanoflake, UlidFlake]) {
    assert.throws(() => Cls.parse(42), TypeError)
    assert.throws(() => Cls.fromBytes('00'), TypeError)
    throwsCode(() => Cls.fromBytes(Buffer.alloc(3)), 'ERR_SNO_INVALID_LENGTH')
  }
  for (const Cls of [Nanoflake, UlidFlake]) {
    throwsCode(() => Cls.fromBigInt(-1n), 'ERR_SNO_VALUE_OVERFLOW')
    throwsCode(() => Cls.fromBytes(Buffer.from('8000000000000000', 'hex')), 'ERR_SNO_VALUE_OVERFLOW')
    assert.throws(() => Cls.fromBigInt(2n ** 63n), RangeError)
    assert.throws(() => Cls.fromBigInt(5), TypeError)
  }
  throwsCode(() => UlidFlake.parse('G000000000000'), 'ERR_SNO_VALUE_OVERFLOW')
  throwsCode(() => Nanoflake.parse('1y2p0ij32e8e8'), 'ERR_SNO_VALUE_OVERFLOW')
  assert.equal(JSON.stringify(Nanoflake.parse('0JNXXR658JLKW')), '"jnxxr658jlkw"')
})

test('round trips and order (fast-check)', () => {
  const int63 = fc.bigInt(0n, 2n ** 63n - 1n)
  fc.assert(
    fc.property(int63, int63, (a, b) => {
      const want = a < b ? -1 : a > b ? 1 : 0
      for (const Cls of [Nanoflake, UlidFlake]) {
        const [x, y] = [Cls.fromBigInt(a), Cls.fromBigInt(b)]
        assert.ok(Cls.parse(x.toString()).equals(x) && Cls.fromBytes(x.bytes).equals(x))
        assert.equal(x.bigint, a)
        assert.equal(x.compare(y), want)
      }
      const [p, q] = [Nanoflake.fromBigInt(a).padded, Nanoflake.fromBigInt(b).padded]
      assert.equal(p < q ? -1 : p > q ? 1 : 0, want)
    }),
  )
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.uint8Array({ minLength: 20, maxLength: 20 }), (a, b) => {
      const [x, y] = [Scru160.fromBytes(a), Scru160.fromBytes(b)]
      assert.ok(Scru160.parse(x.toString().toLowerCase()).equals(x) && Scru160.parse(x.hex).equals(x))
      assert.equal(x.compare(y), Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))))
    }),
  )
})

test('arbitrary strings never crash a decoder (fast-check)', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 45 }), (text) => {
      for (const Cls of [Scru160, Nanoflake, UlidFlake]) {
        try {
          Cls.parse(text)
        } catch (e) {
          assert.ok(['ERR_SNO_INVALID_LENGTH', 'ERR_SNO_INVALID_BYTE', 'ERR_SNO_VALUE_OVERFLOW'].includes(e.code), e.code)
        }
      }
    }),
  )
})

test('a Nanoflakes generator never repeats (it waits when a millisecond is full)', () => {
  const g = new nanoflake.Generator({ epochMs: NANO_EPOCH, generatorId: 9 })
  const all = Array.from({ length: 20000 }, () => g.next().toString())
  assert.equal(new Set(all).size, all.length)
})
