// npm pack, install the tarball into a fresh project, then require() and import it.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

test('packed tarball installs and loads with require and import', () => {
  const work = mkdtempSync(join(tmpdir(), 'sno-install-'))
  try {
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], pkgDir))
    const files = packed[0].files.map((f) => f.path)
    for (const f of ['sno.js', 'sno.d.ts', 'formats.js', 'value.js', 'heap.js', 'native.js', 'index.js', 'index.mjs', 'pg.js', 'pg.d.ts', 'pg.mjs', 'sno.linux-x64-gnu.node']) assert.ok(files.includes(f), `${f} missing from the tarball`)
    // The native layer's declarations (napi-rs's index.d.ts) are the repository's, not the package's: its types are sno.d.ts and pg.d.ts.
    assert.ok(!files.includes('index.d.ts'), 'index.d.ts in the tarball')
    const project = join(work, 'app')
    execFileSync('mkdir', ['-p', project])
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
    npm(['install', '--no-audit', '--no-fund', '--offline', join(work, packed[0].filename)], project)
    const cjs = execFileSync('node', ['-e', "const s = require('libsno'); const id = s.newId(5); console.log(s.Id.parse(String(id)).meta)"], { cwd: project, encoding: 'utf8' })
    assert.equal(cjs.trim(), '5')
    const esm = execFileSync('node', ['--input-type=module', '-e', "import { newString, Id } from 'libsno'; console.log(Id.parse(newString(9)).meta)"], { cwd: project, encoding: 'utf8' })
    assert.equal(esm.trim(), '9')
    const formats = execFileSync('node', ['--input-type=module', '-e', "import { ulid, Uuid7 } from 'libsno'; import s from 'libsno'; console.log(ulid.new().toString().length, Uuid7.parse(s.uuid7.newString()).version)"], { cwd: project, encoding: 'utf8' })
    assert.equal(formats.trim(), '26 7')
    // libsno/pg, without pg installed (an optional peer dependency: npm leaves it out).
    const pg = execFileSync('node', ['--input-type=module', '-e', "import { registerTypes } from 'libsno/pg'; import { createRequire } from 'node:module'; let pg = 'absent'; try { createRequire(process.cwd() + '/').resolve('pg'); pg = 'present' } catch {} console.log(typeof registerTypes, typeof require, pg)"], { cwd: project, encoding: 'utf8' })
    assert.equal(pg.trim(), 'function undefined absent')
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('without its addon and its web build the package names the platform package it needs', () => {
  const work = mkdtempSync(join(tmpdir(), 'sno-noaddon-'))
  try {
    // The JavaScript of the package, no addon and no web/ (the light build Node falls back to,
    // laid out by the release): what an install without optional dependencies leaves of a
    // package packed without --web.
    mkdirSync(join(work, 'wasm'))
    for (const f of ['sno.js', 'formats.js', 'value.js', 'heap.js', 'native.js', 'index.js', 'package.json', 'wasm/fallback.js']) {
      writeFileSync(join(work, f), readFileSync(join(pkgDir, f)))
    }
    const out = execFileSync('node', ['-e', `
      try { require(${JSON.stringify(join(work, 'sno.js'))}); console.log('loaded') }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, cause: !!e.cause })) }`], { encoding: 'utf8' })
    const e = JSON.parse(out)
    assert.equal(e.code, 'ERR_SNO_NATIVE_MISSING')
    assert.match(e.message, /@libsno\/libsno-linux-x64-(gnu|musl)/)
    assert.match(e.message, /optional/)
    assert.ok(e.cause, 'the loader\'s errors are kept as the cause')
    assert.match(e.message, /the WebAssembly build \(web\/fs\/\) did not load either/)
    // An addon that is there but does not load (damaged, another architecture, a glibc too
    // old): the error says so, with the loader's reason, not "not installed".
    writeFileSync(join(work, 'sno.linux-x64-gnu.node'), 'not an ELF file')
    const out2 = execFileSync('node', ['-e', `
      try { require(${JSON.stringify(join(work, 'sno.js'))}); console.log('loaded') }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }`], { encoding: 'utf8' })
    const e2 = JSON.parse(out2)
    assert.equal(e2.code, 'ERR_SNO_NATIVE_MISSING')
    assert.match(e2.message, /installed but did not load/)
    assert.match(e2.message, /sno\.linux-x64-gnu\.node|invalid ELF header/)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})
