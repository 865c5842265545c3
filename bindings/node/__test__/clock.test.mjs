// The opt-in fast clock: `clock: 'fast'` on every Generator, SNO_CLOCK for the process-wide
// generators, and the errors for anything else. No timing assertions: bench/bench.mjs measures
// the speed-up.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import sno, { Generator } from '../index.mjs'

const INDEX = fileURLToPath(new URL('../index.mjs', import.meta.url))
const is = (Class, code) => (e) => e instanceof Class && e.code === code

test('a fast Generator never reads ahead of the OS clock and stays increasing', () => {
  const g = new Generator({ clock: 'fast' })
  let last = null
  for (let i = 0; i < 20_000; i++) {
    const id = g.next()
    assert.ok(id.unixMs <= Date.now())
    if (last) assert.ok(last.compare(id) < 0)
    last = id
  }
})

test('used-up units are waited through on the fast clock', () => {
  const g = new Generator({ sequenceMin: 0, sequenceMax: 3, clock: 'fast' })
  const ids = Array.from({ length: 100 }, () => g.next().toString())
  assert.deepEqual([...ids].sort(), ids)
  assert.equal(new Set(ids).size, 100)
})

test('every format Generator takes a clock', () => {
  const makers = {
    ulid: (clock) => new sno.ulid.Generator({ clock }),
    uuid7: (clock) => new sno.uuid7.Generator({ clock }),
    scru128: (clock) => new sno.scru128.Generator({ clock }),
    scru160: (clock) => new sno.scru160.Generator({ clock }),
    ulidflake: (clock) => new sno.ulidflake.Generator({ clock }),
    nanoflake: (clock) => new sno.nanoflake.Generator({ epochMs: 1_704_067_200_000, generatorId: 3, clock }),
  }
  for (const [name, make] of Object.entries(makers)) {
    for (const clock of ['fast', 'FAST', 'precise', undefined]) {
      const g = make(clock)
      const values = Array.from({ length: 2_000 }, () => g.next())
      for (let i = 1; i < values.length; i++) assert.ok(values[i - 1].compare(values[i]) < 0, `${name} ${clock}`)
    }
    assert.throws(() => make('slow'), is(RangeError, 'ERR_SNO_UNKNOWN_CLOCK'), name)
    assert.throws(() => make(1), is(TypeError, 'ERR_INVALID_ARG_TYPE'), name)
  }
})

test('unknown clocks are RangeErrors in the core words, other types TypeErrors', () => {
  for (const bad of ['', 'slow', 'fast ', 'coarse']) {
    assert.throws(() => new Generator({ clock: bad }), (e) => is(RangeError, 'ERR_SNO_UNKNOWN_CLOCK')(e) && e.message.includes('fast'))
  }
  for (const bad of [1, null, true, {}]) {
    assert.throws(() => new Generator({ clock: bad }), is(TypeError, 'ERR_INVALID_ARG_TYPE'))
  }
})

const PROBE = `
const sno = await import(${JSON.stringify(INDEX)})
try {
  const ids = sno.newStrings(1000)
  console.log(ids.every((s, i) => i === 0 || ids[i - 1] < s) ? 'ok' : 'unordered')
} catch (e) {
  console.log(e.code, e.variable)
}
`

function runChild(value) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SNO_')))
  if (value !== undefined) env.SNO_CLOCK = value
  return execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], { env, encoding: 'utf8' }).trim()
}

test('SNO_CLOCK selects the process-wide clock; another value is an error at first use', () => {
  for (const value of [undefined, 'precise', 'fast', 'Fast']) assert.equal(runChild(value), 'ok', String(value))
  for (const bad of ['', 'slow', '1']) assert.equal(runChild(bad), 'ERR_SNO_INVALID_ENVIRONMENT SNO_CLOCK', bad)
})
