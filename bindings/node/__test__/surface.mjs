// The public surface of the package as text: every export of `libsno` and `libsno/pg` (CommonJS),
// each namespace's members, each class's static and prototype members (getters marked) with the
// functions' arity, and whether sno.d.ts / pg.d.ts declare each export. surface.test.mjs compares
// it with the committed baseline __test__/surface.txt, so the public names do not change by
// accident.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const require = createRequire(import.meta.url)
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

function kindOf(value) {
  if (typeof value === 'function') {
    return /^class[\s{]/.test(Function.prototype.toString.call(value)) || value.prototype?.constructor === value &&
      Object.getOwnPropertyNames(value.prototype).length > 1
      ? 'class'
      : 'function'
  }
  if (value !== null && typeof value === 'object') return Object.isFrozen(value) ? 'frozen object' : 'object'
  return typeof value
}

function members(object, skip) {
  const lines = []
  for (const name of Object.getOwnPropertyNames(object).sort()) {
    if (skip.has(name)) continue
    const d = Object.getOwnPropertyDescriptor(object, name)
    if (d.get || d.set) lines.push(`${d.get ? 'get' : ''}${d.set ? (d.get ? '/set' : 'set') : ''} ${name}`)
    else if (typeof d.value === 'function') lines.push(`${kindOf(d.value) === 'class' ? 'class' : 'function'} ${name}/${d.value.length}`)
    else lines.push(`${kindOf(d.value)} ${name}`)
  }
  for (const symbol of Object.getOwnPropertySymbols(object)) lines.push(`symbol ${symbol.description}`)
  return lines
}

const STATIC_SKIP = new Set(['length', 'name', 'prototype', 'arguments', 'caller'])
const PROTO_SKIP = new Set(['constructor'])

function describe(moduleName, exports, declarations, lines, classes) {
  lines.push(`module ${moduleName}`)
  for (const name of Object.keys(exports).sort()) {
    const value = exports[name]
    const kind = kindOf(value)
    const declared =
      new RegExp(`export (declare )?(const|let|function|class|namespace|enum)\\s+${name}\\b`).test(declarations) ||
      new RegExp(`export (type )?\\{[^}]*\\b${name}\\b[^}]*\\}`).test(declarations)
    lines.push(`  ${kind} ${name}${typeof value === 'function' ? `/${value.length}` : ''}${declared ? '' : '  (not declared)'}`)
    if (kind === 'class') classes.set(`${moduleName}.${name}`, value)
    else if (kind === 'object' || kind === 'frozen object') {
      for (const member of members(value, new Set())) lines.push(`    ${member}`)
      for (const [key, inner] of Object.entries(value)) {
        if (kindOf(inner) === 'class') classes.set(`${moduleName}.${name}.${key}`, inner)
      }
    }
  }
}

export function surface() {
  const lines = []
  const classes = new Map()
  describe('libsno', require(root), readFileSync(path.join(root, 'sno.d.ts'), 'utf8'), lines, classes)
  describe('libsno/pg', require(path.join(root, 'pg.js')), readFileSync(path.join(root, 'pg.d.ts'), 'utf8'), lines, classes)
  // The base classes the exported ones extend (their members are inherited API too).
  for (const cls of [...classes.values()]) {
    for (let base = Object.getPrototypeOf(cls); base && base !== Function.prototype; base = Object.getPrototypeOf(base)) {
      if (![...classes.values()].includes(base)) classes.set(`(base) ${base.name}`, base)
    }
  }
  const seen = new Map()
  for (const key of [...classes.keys()].sort()) {
    const cls = classes.get(key)
    if (seen.has(cls)) {
      lines.push(`class ${key} = ${seen.get(cls)}`)
      continue
    }
    seen.set(cls, key)
    const base = Object.getPrototypeOf(cls)
    lines.push(`class ${key}${base && base.name ? ` extends ${base.name}` : ''}`)
    for (const member of members(cls, STATIC_SKIP)) lines.push(`  static ${member}`)
    for (const member of members(cls.prototype, PROTO_SKIP)) lines.push(`  ${member}`)
  }
  return lines.join('\n') + '\n'
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(surface())
