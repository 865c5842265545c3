// The committed sno.d.ts type-checks a program using every part of the API (tsc --strict).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

test('sno.d.ts describes the public API', () => {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
  const file = fileURLToPath(new URL('./types-check.ts', import.meta.url))
  const out = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', file], { encoding: 'utf8' })
  assert.equal(out.status, 0, out.stdout + out.stderr)
})
