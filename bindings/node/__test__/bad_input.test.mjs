// Every row of testdata/bad_input.tsv against Id.parse (the Node layer).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import { Id } from '../index.mjs'
import { ALPHABET, VECTORS } from './helpers.mjs'

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

function answer(value) {
  try {
    Id.parse(value)
    return 'ok'
  } catch (e) {
    return `${e.constructor.name}:${e.code}`
  }
}

for (const line of lines.slice(1)) {
  const [name, text, expand, , , , expected] = line.split('\t')
  if (expected === '-') continue
  test(`bad input: ${name}`, () => {
    const values = inputs(JSON.parse(text), expand)
    assert.ok(values.length > 0)
    for (const value of values) assert.equal(answer(value), expected, JSON.stringify(value))
  })
}
