// Every row of testdata/bad_input.tsv with a node answer: text rows against Id.parse (class,
// code and `.position`), call rows (`call:OP`) against the API call OP names.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import sno, { Generator, Id, Nanoflake, UlidFlake, newMany, newStrings } from '../index.mjs'
import { ALPHABET, VECTORS, expectedError } from './helpers.mjs'

const lines = readFileSync(join(VECTORS, '..', 'bad_input.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0 && !l.startsWith('#'))
assert.equal(lines[0], 'case\tinput\texpand\trust\tc\tpython\tnode')

/** The JS values of a row: strings, with bytes 0x80-0xFF as the code points U+0080-U+00FF. */
function inputs(text, expand) {
  if (expand === '-') return [text]
  const [kind, arg] = expand.split(/[:@]/)
  if (kind === 'repeat') return [text.repeat(Number(arg))]
  if (kind === 'ascii' || kind === 'high') {
    const p = Number(arg)
    const codes = kind === 'ascii' ? [...Array(0x80).keys()] : [...Array(0x80).keys()].map((b) => b + 0x80)
    return codes.filter((b) => !ALPHABET.includes(b)).map((b) => text.slice(0, p) + String.fromCharCode(b) + text.slice(p + 1))
  }
  if (kind === 'type') return [{ bytes: Buffer.from(text), int: 5, null: null }[arg]]
  throw new Error(`unknown expansion ${expand}`)
}

/** `ok`, or `Class:code` of what `fn` throws (the row's node column). */
function answer(fn) {
  try {
    fn()
    return 'ok'
  } catch (e) {
    return `${e.constructor.name}:${e.code}`
  }
}

/** The unit of the system clock now (4 ms since 2010), for snapshot fields written "now+N". */
function nowUnits() {
  return Math.floor((Date.now() - Date.UTC(2010, 0, 1)) / 4)
}

/** The functions a `call:OP` row runs with its JSON input; each must give the row's answer. */
function calls(op, arg, input) {
  const ns = arg === 'sno' ? null : sno[arg]
  switch (op) {
    case 'new_many':
      return ns === null ? [() => newStrings(input), () => newMany(input)] : [() => ns.newStrings(input), () => ns.newMany(input)]
    case 'restore_snapshot': {
      const snapshot = Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('now+') ? nowUnits() + Number(v.slice(4)) : v]),
      )
      return [() => new Generator({ snapshot })]
    }
    case 'generator_options':
      return [() => (ns === null ? new Generator(input) : new ns.Generator(input))]
    case 'id_from_bytes': {
      const bytes = () => (input.type === 'Buffer' ? Buffer.alloc(input.length) : new globalThis[input.type](input.length))
      return [() => Id.fromBytes(bytes())]
    }
    case 'nanoflake_unix_ms_at': {
      const n = Nanoflake.fromBigInt(123n << 22n)
      const f = UlidFlake.fromBigInt(123n << 20n)
      return [() => n.unixMsAt(input), () => n.dateAt(input), () => f.unixMsAt(input)]
    }
    default:
      throw new Error(`unknown call ${op}`)
  }
}

for (const line of lines.slice(1)) {
  const [name, text, expand, , , , expected] = line.split('\t')
  if (expected === '-') continue
  test(`bad input: ${name}`, () => {
    const input = JSON.parse(text)
    if (expand.startsWith('call:')) {
      const [, op, arg = 'sno'] = expand.split(':')
      for (const fn of calls(op, arg, input)) assert.equal(answer(fn), expected, `${op} ${text}`)
      return
    }
    const values = inputs(input, expand)
    assert.ok(values.length > 0)
    for (const value of values) {
      assert.equal(answer(() => Id.parse(value)), expected, JSON.stringify(value))
      // Decode errors say where: the UTF-8 byte position (the length, for a wrong length), and
      // for a bad byte the byte.
      if (typeof value === 'string' && expected !== 'ok') {
        const utf8 = Buffer.from(value, 'utf8')
        const at = (e) => e.position === expectedError(utf8)[1]
        const byte = (e) => (e.code === 'ERR_SNO_INVALID_BYTE' ? e.byte === utf8[e.position] : e.byte === undefined)
        assert.throws(() => Id.parse(value), (e) => at(e) && byte(e), JSON.stringify(value))
      }
    }
  })
}
