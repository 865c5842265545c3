// testdata/clock_out_of_range.tsv: every process-wide generator with the system clock faked by
// libfaketime (Debian's `faketime`) to times inside and outside each format's range answers `ok`
// or the typed error's code (ERR_SNO_<CODE>), never a GenericFailure from a Rust panic.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { VECTORS } from './helpers.mjs'

const INDEX = fileURLToPath(new URL('../index.mjs', import.meta.url))
const PROBE = `
const sno = await import(${JSON.stringify(INDEX)})
const answer = (make) => {
  try { make(); return 'ok' } catch (e) { return String(e.code).replace(/^ERR_SNO_/, '').toLowerCase() }
}
const news = [sno.newId, sno.ulid.new, sno.uuid7.new, sno.scru128.new, sno.scru160.new, sno.ulidflake.new]
console.log(news.map(answer).join('\\t'))
`

const lines = readFileSync(join(VECTORS, '..', 'clock_out_of_range.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
assert.equal(lines[0], 'faketime\tsno\tulid\tuuid7\tscru128\tscru160\tulidflake')

for (const line of lines.slice(1)) {
  const [when, ...expected] = line.split('\t')
  test(`process-wide generators at ${when}`, () => {
    const out = execFileSync('faketime', [when, process.execPath, '--input-type=module', '-e', PROBE], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    assert.deepEqual(out.trimEnd().split('\t'), expected)
  })
}

// faketime starts the clock in the last 4 ms unit of the sno range and slows it down 100 000
// times: a used-up pool there has no next unit, so retryAtUnixNs is null and next() throws at once.
test('the last unit of the range can never be retried', () => {
  const probe = `
const { Generator } = await import(${JSON.stringify(INDEX)})
const g = new Generator({ partition: 1, sequenceMin: 0, sequenceMax: 3 })
for (let i = 0; i < 4; i++) g.next()
for (const call of [() => g.tryNext(), () => g.next()]) {
  try { call(); console.log('made an ID') } catch (e) { console.log(e.code, e.retryAtUnixNs) }
}
`
  const out = execFileSync('faketime', ['-f', '@2079-09-07 15:47:35.550 x0.00001', process.execPath, '--input-type=module', '-e', probe], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  assert.deepEqual(out.trimEnd().split('\n'), ['ERR_SNO_SEQUENCE_EXHAUSTED null', 'ERR_SNO_SEQUENCE_EXHAUSTED null'])
})
