// detect(text): the core's format detection (the one `sno inspect` uses), from JavaScript.
import { test } from 'node:test'
import assert from 'node:assert/strict'

import sno, { detect, Id, Ulid, Uuid7, Scru128, Scru160, TypeId } from '../index.mjs'

test('detect returns the value of the one format a text is written in', () => {
  assert.ok(detect('brpk4q72xwf2m63l') instanceof Id)
  assert.equal(detect('brpk4q72xwf2m63l').toString(), 'brpk4q72xwf2m63l')
  assert.ok(detect('01ARZ3NDEKTSV4RRFFQ69G5FAV') instanceof Ulid)
  assert.ok(detect('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') instanceof Uuid7)
  assert.equal(detect('017F22E2-79B0-7CC3-98C4-DC0C0C07398F').toString(), '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')
  assert.ok(detect('0372hg16csmsm50l8dikcvukc') instanceof Scru128)
  assert.ok(detect('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4') instanceof Scru160)
  const t = detect('user_01h455vb4pex5vsknk084sn02q')
  assert.ok(t instanceof TypeId)
  assert.equal(t.prefix, 'user')
  assert.equal(sno.detect, detect)
})

test('detect says when a text is ambiguous or of no format', () => {
  for (const [text, code] of [
    ['00CMXB6TAK4SA', 'ERR_SNO_AMBIGUOUS_FORMAT'], // Ulid-Flake and Nanoflake
    ['hello', 'ERR_SNO_AMBIGUOUS_FORMAT'], // only a Nanoflake: any short word is one
    ['01h455vb4pex5vsknk084sn02q', 'ERR_SNO_AMBIGUOUS_FORMAT'], // ULID and prefix-less TypeID
    ['not an id!', 'ERR_SNO_UNRECOGNIZED_FORMAT'],
  ]) {
    assert.throws(() => detect(text), (e) => e instanceof Error && e.code === code && /sno: /.test(e.message), text)
  }
  assert.throws(() => detect(42), TypeError)
})
