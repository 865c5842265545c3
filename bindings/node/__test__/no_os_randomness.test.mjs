// Without the operating system's randomness source (getrandom(2) failing for a CSPRNG seed and
// /dev/urandom missing, through the preloaded sno-ffi/tests/c/fail_random.c), the random-based
// formats throw ERR_SNO_RANDOMNESS_UNAVAILABLE, never a GenericFailure from a Rust panic; sno IDs,
// which need no seed, are still made.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const INDEX = fileURLToPath(new URL('../index.mjs', import.meta.url))
const SOURCE = fileURLToPath(new URL('../../../sno-ffi/tests/c/fail_random.c', import.meta.url))
const PROBE = `
const sno = await import(${JSON.stringify(INDEX)})
console.log(String(sno.newId()).length)
for (const ns of [sno.ulid, sno.uuid7, sno.scru128, sno.scru160, sno.ulidflake]) {
  try { ns.new(); console.log('made a value') } catch (e) { console.log(e.constructor.name, e.code) }
}
`

test('random formats report the missing randomness source', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sno-'))
  try {
    const library = join(dir, 'libfail_random.so')
    execFileSync('cc', ['-shared', '-fPIC', '-O1', SOURCE, '-o', library])
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, LD_PRELOAD: library },
    })
    const lines = out.trimEnd().split('\n')
    assert.equal(lines[0], '16')
    assert.deepEqual(lines.slice(1), Array(5).fill('Error ERR_SNO_RANDOMNESS_UNAVAILABLE'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
