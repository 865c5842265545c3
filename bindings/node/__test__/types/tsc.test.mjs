// The published declarations (sno.d.ts and pg.d.ts) compile with
// `tsc --strict` both WITH @types/node and WITHOUT it (types/typeRoots empty, lib es2022 only:
// a browser, Deno or Bun project), for a program using every export through the package's own
// name, as CommonJS (usage.ts) and ESM (esm.mts). The probe shows that the second setup really
// hides Node's types: the same compiler options refuse a file that uses Buffer.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))
const run = (config) => {
  const project = fileURLToPath(new URL(config, import.meta.url))
  const out = spawnSync(process.execPath, [tsc, '--project', project], { encoding: 'utf8' })
  return { status: out.status, text: out.stdout + out.stderr }
}

test('the declarations type-check with @types/node (tsconfig.node.json)', () => {
  const { status, text } = run('./tsconfig.node.json')
  assert.equal(status, 0, text)
})

test('the declarations type-check without @types/node (tsconfig.no-node.json)', () => {
  const { status, text } = run('./tsconfig.no-node.json')
  assert.equal(status, 0, text)
})

test('without @types/node, Node globals are out of sight (the probe fails on Buffer)', () => {
  const { status, text } = run('./tsconfig.probe.json')
  assert.notEqual(status, 0, 'probe-buffer.ts compiled: @types/node is visible in the no-node setup')
  assert.match(text, /probe-buffer\.ts\(\d+,\d+\): error TS\d+: Cannot find name 'Buffer'/)
  assert.doesNotMatch(text, /(sno|pg|index)\.d\.ts/, 'the declarations themselves must not fail')
})
