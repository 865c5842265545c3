// Numbers passed to the module as f64s after a text in the I/O buffer (a generator's settings,
// a snapshot) reach it whatever the buffer's address: a sno Generator made first in a fresh
// process (its own file: node --test runs each file in a new process), then the other formats'
// Generators after inputs of every length up to 64 bytes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as sno from '../js/index.js'

test("a Generator's numbers, the module's first input", () => {
  assert.equal(new sno.Generator({ partition: 9 }).next().partition, 9)
})

test("generators' numbers after inputs of any length", () => {
  for (let n = 1; n <= 64; n++) {
    assert.throws(() => sno.Id.parse('z'.repeat(n)), { code: n === 16 ? 'ERR_SNO_INVALID_BYTE' : 'ERR_SNO_INVALID_LENGTH' })
    const g = new sno.nanoflake.Generator({ epochMs: Date.UTC(2020, 0, 1), generatorId: n, clock: n % 2 ? 'fast' : undefined })
    assert.equal(g.next().generatorId, n)
    const s = new sno.Generator({ partition: n, clock: 'precise' }).snapshot()
    assert.equal(new sno.Generator({ snapshot: s }).next().partition, n)
  }
})
