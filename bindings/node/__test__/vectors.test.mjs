// Every row of sno_codec.tsv, sno_decode_invalid.tsv and sno_decode_api.tsv through the addon.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { Id, decodeMany, encodeMany } from '../index.mjs'
import { expectedError, rows } from './helpers.mjs'

test('codec rows', () => {
  const table = rows('sno_codec.tsv')
  assert.equal(table.length, 5974)
  for (const r of table) {
    const bytes = Buffer.from(r.hex, 'hex')
    const id = Id.fromBytes(bytes)
    assert.equal(id.toString(), r.encoded, r.label)
    assert.ok(Id.parse(r.encoded).equals(id), r.label)
    assert.deepEqual(id.bytes, bytes)
    assert.equal(id.units, Number(r.ts_units))
    assert.equal(Number(id.tickTock), Number(r.tick))
    assert.equal(id.unixNs, BigInt(r.unix_ns))
    assert.equal(id.timestamp.toISOString(), r.time_utc)
    assert.equal(id.meta, Number(r.meta))
    assert.equal(id.partition, Number(r.partition))
    assert.equal(id.sequence, Number(r.sequence))
    assert.equal(JSON.stringify(id), JSON.stringify(r.encoded))
  }
})

test('codec rows in batches (every length up to 9, then the whole file)', () => {
  const table = rows('sno_codec.tsv')
  const texts = table.map((r) => r.encoded)
  const ids = decodeMany(texts)
  assert.deepEqual(ids.map((id) => id.bytes.toString('hex')), table.map((r) => r.hex))
  assert.deepEqual(encodeMany(ids), texts)
  for (let n = 0; n <= 9; n++) {
    assert.deepEqual(decodeMany(texts.slice(0, n)).map(String), texts.slice(0, n))
  }
})

test('invalid rows inside a batch: the single error plus the index', () => {
  const good = 'brpk4q72xwf2m63l'
  for (const r of rows('sno_decode_invalid.tsv')) {
    const text = Buffer.from(r.input_hex, 'hex').toString('latin1')
    const want = expectedError(Buffer.from(text, 'utf8'))
    const batch = [good, good, good, good, good, text, good, good, good]
    if (want === null) {
      assert.equal(decodeMany(batch)[5].toString(), Id.parse(text).toString(), r.label)
      continue
    }
    assert.throws(() => decodeMany(batch), (e) => e.code === want[0] && e.index === 5 && e.message.startsWith('item 5: '), r.label)
  }
})

test('invalid rows are rejected with code and position', () => {
  const table = rows('sno_decode_invalid.tsv')
  assert.equal(table.length, 625)
  for (const r of table) {
    const raw = Buffer.from(r.input_hex, 'hex')
    // JS strings hold code points: each byte becomes one (latin-1), sent to Rust as UTF-8.
    const text = raw.toString('latin1')
    const want = expectedError(Buffer.from(text, 'utf8'))
    if (want === null) {
      assert.equal(Id.parse(text).bytes.toString('hex'), r.result_amd64_simd, r.label)
      continue
    }
    assert.throws(() => Id.parse(text), (e) => e.code === want[0] && e.message.includes(want[0] === 'ERR_SNO_INVALID_BYTE' ? `position ${want[1]}` : `length ${want[1]}`), r.label)
  }
})

test('decode API rows: text and binary lengths', () => {
  const table = rows('sno_decode_api.tsv')
  assert.equal(table.length, 69)
  for (const r of table) {
    const data = r.input_hex === '' || r.input_hex === '-' ? Buffer.alloc(0) : Buffer.from(r.input_hex, 'hex')
    const binary = ['FromBinaryBytes', 'ID.UnmarshalBinary'].includes(r.api) || (r.api === 'ID.Scan' && r.input_kind.startsWith('[]byte'))
    const text = ['FromEncodedString', 'FromEncodedBytes', 'ID.UnmarshalText'].includes(r.api) || (r.api === 'ID.Scan' && r.input_kind === 'string')
    if (binary) {
      if (data.length === 10) assert.equal(Id.fromBytes(data).bytes.toString('hex'), r.result)
      else assert.throws(() => Id.fromBytes(data), { code: 'ERR_SNO_INVALID_LENGTH' })
    } else if (text) {
      const want = expectedError(data)
      if (want === null) assert.equal(Id.parse(data.toString()).bytes.toString('hex'), r.result)
      else assert.throws(() => Id.parse(data.toString()), { code: want[0] })
    } else {
      // Scan of another Go type: in JS a wrong type is a TypeError.
      const value = { '<nil>': null, int64: 69, float64: 3.5, bool: true, 'time.Time': new Date(0) }[r.input_kind]
      if (r.input_kind === 'sno.ID') assert.ok(Id.parse('2622222222222222'))
      else assert.throws(() => Id.parse(value), TypeError)
    }
  }
})
