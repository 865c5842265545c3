// The targets of issue #44 on the modules themselves (after scripts/build-web): a page that
// uses newString ships sno.wasm, one that uses every format both; memory at start. Sizes only
// (gzip -9), never a timing. The JavaScript's share is counted by the Vite builds of tests/browser.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const gz = (name) => gzipSync(readFileSync(new URL(`../js/${name}`, import.meta.url)), { level: 9 }).length
const pages = (name) => {
  const module = new WebAssembly.Module(readFileSync(new URL(`../js/${name}`, import.meta.url)))
  const instance = new WebAssembly.Instance(module, { sno: { now_unix_ms: Date.now, random_fill() {} } })
  return instance.exports.memory.buffer.byteLength / 65536
}

test('a page with newString: sno.wasm at most 6 kB gzipped', () => {
  const size = gz('sno.wasm')
  console.log(`sno.wasm: ${size} bytes gzipped`)
  assert.ok(size <= 6000, `sno.wasm is ${size} bytes gzipped`)
})

test('a page with every format: at most 40 kB gzipped', () => {
  const size = gz('sno.wasm') + gz('formats.wasm')
  console.log(`sno.wasm + formats.wasm: ${size} bytes gzipped`)
  assert.ok(size <= 40000, `the modules are ${size} bytes gzipped`)
})

test('memory at start: at most 1 MiB', () => {
  for (const name of ['sno.wasm', 'formats.wasm']) assert.ok(pages(name) <= 16, `${name}: ${pages(name)} pages`)
})
