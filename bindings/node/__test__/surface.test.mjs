// The package's public names (and arities, and their declarations) against the committed
// baseline __test__/surface.txt. A deliberate change rewrites it: SNO_UPDATE_SURFACE=1 node --test
// __test__/surface.test.mjs, committed with a CHANGELOG line that says what changed.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { surface } from './surface.mjs'

const baselinePath = fileURLToPath(new URL('./surface.txt', import.meta.url))

test('the public surface is the committed baseline', () => {
  const current = surface()
  if (process.env.SNO_UPDATE_SURFACE === '1') writeFileSync(baselinePath, current)
  const baseline = readFileSync(baselinePath, 'utf8')
  if (current !== baseline) {
    const was = new Set(baseline.split('\n'))
    const now = new Set(current.split('\n'))
    const removed = [...was].filter((l) => !now.has(l)).map((l) => `- ${l}`)
    const added = [...now].filter((l) => !was.has(l)).map((l) => `+ ${l}`)
    assert.fail(
      'the public surface of libsno changed; if on purpose, rewrite __test__/surface.txt with ' +
        `SNO_UPDATE_SURFACE=1 and say so in CHANGELOG.md:\n${[...removed, ...added].join('\n')}`,
    )
  }
  assert.ok(!current.includes('(not declared)'), 'every export is declared in sno.d.ts / pg.d.ts')
})
