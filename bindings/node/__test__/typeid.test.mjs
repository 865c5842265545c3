// TypeID (the 8th format of the core's table): the spec's valid and invalid cases
// (testdata/vectors/typeid_valid.tsv, typeid_invalid.tsv), and what a TypeId has beyond the
// surface every class shares (uniform.test.mjs): generate, fromUuid, prefix, suffix, uuid.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { TypeId, Uuid7, typeid } from '../index.mjs'
import { rows } from './helpers.mjs'

const hexOf = (uuid) => Buffer.from(uuid.replaceAll('-', ''), 'hex')

test('the spec valid cases: parse, prefix, suffix, UUID, and back from the UUID', () => {
  const table = rows('typeid_valid.tsv')
  assert.equal(table.length, 9)
  for (const r of table) {
    const t = TypeId.parse(r.typeid)
    assert.equal(t.toString(), r.typeid, r.name)
    assert.equal(t.prefix, r.prefix)
    assert.equal(t.suffix, r.typeid.slice(-26))
    assert.equal(t.uuid, r.uuid)
    assert.deepEqual(t.bytes, hexOf(r.uuid))
    assert.equal(t.bigint, BigInt(`0x${hexOf(r.uuid).toString('hex')}`))
    assert.equal(t.fields().prefix, r.prefix)
    assert.ok(TypeId.fromUuid(r.prefix, hexOf(r.uuid)).equals(t))
    assert.ok(TypeId.fromBytes(t.bytes).equals(TypeId.fromUuid('', t.bytes)))
    const v7 = t.fields().version === 7 && t.fields().variant === 2
    assert.equal(t.unixMs === undefined, !v7, r.name)
    if (v7) {
      assert.ok(TypeId.fromUuid(r.prefix, r.uuid).equals(t))
      assert.ok(TypeId.fromUuid(r.prefix, Uuid7.parse(r.uuid)).equals(t))
      assert.equal(t.unixMs, Uuid7.parse(r.uuid).unixMs)
      assert.ok(TypeId.fromFields(t.fields()).equals(t))
    } else {
      assert.equal(t.timestamp, undefined)
      assert.throws(() => TypeId.fromUuid(r.prefix, r.uuid), { code: 'ERR_SNO_NOT_VERSION_7' })
    }
  }
})

test('the spec invalid cases: the core error code, with the position of a bad byte', () => {
  const table = rows('typeid_invalid.tsv')
  assert.equal(table.length, 21)
  for (const r of table) {
    const code = `ERR_SNO_${r.error_code.toUpperCase()}`
    assert.throws(() => TypeId.parse(r.typeid), (e) => e.constructor === Error && e.code === code, r.name)
    if (code === 'ERR_SNO_INVALID_BYTE') {
      const suffixAt = r.typeid.lastIndexOf('_') + 1
      const at = [...r.typeid.slice(suffixAt)].findIndex((c) => !/^[0-9a-hjkmnp-tv-z]$/.test(c))
      assert.throws(() => TypeId.parse(r.typeid), (e) => e.position === suffixAt + at, r.name)
    }
    if (code === 'ERR_SNO_INVALID_LENGTH') assert.throws(() => TypeId.parse(r.typeid), (e) => e.position === Buffer.byteLength(r.typeid), r.name)
  }
})

test('generate, typeid.new and typeid.newString: UUIDv7s with the prefix, in order', () => {
  const made = [TypeId.generate('user'), typeid.new('user'), TypeId.parse(typeid.newString('user'))]
  for (const t of made) {
    assert.equal(t.prefix, 'user')
    assert.ok(Uuid7.parse(t.uuid).equals(Uuid7.fromBytes(t.bytes)))
    assert.ok(Math.abs(t.unixMs - Date.now()) < 60_000)
    assert.equal(t.timestamp.getTime(), t.unixMs)
  }
  assert.ok(made.every((t, i) => i === 0 || made[i - 1].compare(t) === -1))
  assert.equal(TypeId.generate('').toString().length, 26)
  assert.ok(TypeId.generate('a').compare(TypeId.generate('b')) === -1, 'prefix first')
  for (const bad of ['User', '_a', 'a_', 'a'.repeat(64), 'é']) {
    assert.throws(() => TypeId.generate(bad), (e) => e instanceof RangeError && e.code === 'ERR_SNO_INVALID_PREFIX', bad)
    assert.throws(() => TypeId.fromUuid(bad, Buffer.alloc(16)), (e) => e instanceof RangeError && e.code === 'ERR_SNO_INVALID_PREFIX', bad)
  }
  assert.throws(() => TypeId.generate(1), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  // The message names every form the binary argument takes (as the web build's does).
  assert.throws(() => TypeId.fromUuid('a', 5), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE' && e.message === 'TypeId.fromUuid(prefix, uuid): uuid must be a Uuid7, a string or a Uint8Array, got number')
  assert.throws(() => TypeId.fromUuid('a', Buffer.alloc(15)), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 15)
  // The core's order of checks: the binary form's, then the prefix's (native and web alike).
  assert.throws(() => TypeId.fromUuid('Bad', Buffer.alloc(15)), (e) => e instanceof Error && !(e instanceof RangeError) && e.code === 'ERR_SNO_INVALID_LENGTH')
  assert.throws(() => TypeId.fromUuid('Bad', Buffer.alloc(16)), (e) => e instanceof RangeError && e.code === 'ERR_SNO_INVALID_PREFIX')
})
