// The committed sno.d.ts declares exactly what the module exports, and every format of the core's
// table with its named fields (types/tsc.test.mjs compiles a program using every part of it).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { test } from 'node:test'

import * as esm from '../index.mjs'

const require = createRequire(import.meta.url)
const sno = require('../sno.js')
const native = require('../index.js')
const dts = readFileSync(new URL('../sno.d.ts', import.meta.url), 'utf8')

test('sno.d.ts declares exactly what sno.js and index.mjs export', () => {
  const block = /^declare const sno: \{\n([\s\S]*?)\n\}/m.exec(dts)[1]
  const declared = [...block.matchAll(/^ {2}(\w+): /gm)].map((m) => m[1]).sort()
  assert.deepEqual(Object.keys(sno).sort(), declared)
  assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), declared)
  for (const name of declared) assert.match(dts, new RegExp(`^export declare (const|class|function) ${name}\\b`, 'm'), name)
})

test('pg.d.ts declares exactly what libsno/pg exports', () => {
  const pgDts = readFileSync(new URL('../pg.d.ts', import.meta.url), 'utf8')
  const declared = [...pgDts.matchAll(/^export declare function (\w+)/gm)].map((m) => m[1]).sort()
  assert.deepEqual(Object.keys(require('../pg.js')).sort(), declared)
  const block = /^declare const pg: \{\n([\s\S]*?)\n\}/m.exec(pgDts)[1]
  assert.deepEqual([...block.matchAll(/^ {2}(\w+): /gm)].map((m) => m[1]).sort(), declared)
})

test('every format of the core table: its class, namespace and named fields are declared', () => {
  for (const info of JSON.parse(native.formats())) {
    const Cls = sno[info.className]
    assert.equal(Cls?.name, info.className)
    if (info.name !== 'sno') assert.equal(sno[info.name][info.className], Cls)
    const body = new RegExp(`^export interface ${info.className}Fields \\{\\n([\\s\\S]*?)\\n\\}`, 'm').exec(dts)
    assert.ok(body, `${info.className}Fields is declared`)
    const declared = Object.fromEntries([...body[1].matchAll(/^ {2}(\w+): (\w+)$/gm)].map((m) => [m[1], m[2]]))
    assert.deepEqual(declared, Object.fromEntries(info.fields.map((f) => [f.name, f.kind])), info.className)
    const cls = new RegExp(`^export declare class ${info.className} extends[\\s\\S]*?\\n\\}`, 'm').exec(dts)[0]
    assert.match(cls, new RegExp(`^ {2}static readonly columnType: '${info.columnType}'$`, 'm'), `${info.className}.columnType`)
    if (typeof Cls.fromUuid === 'function') assert.match(cls, /^ {2}static fromUuid\(/m, `${info.className}.fromUuid`)
    for (const f of info.fields) {
      if (f.name === 'unixMs') continue // declared once, on the base of the timed classes
      assert.match(cls, new RegExp(`^ {2}get ${f.name}\\(\\): ${f.kind}$`, 'm'), `${info.className}.${f.name}`)
    }
  }
})
