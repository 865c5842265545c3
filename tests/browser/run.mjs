// Builds the pages of this folder with Vite (production builds, against the libsno installed
// beside them: its `browser` condition, the light web build) and drives headless Chromium
// (playwright-core, with Debian's chromium as executablePath) over them, served by server.mjs.
//
//   node run.mjs --chromium PATH --tsv testdata/bad_input.tsv   the checks and the bundle-size check
//   node run.mjs --chromium PATH --bench                        the benchmark (markdown tables: the
//     pages' sizes, memory and first ID (median of 7 loads), then the speed against npm uuid)
//
// The bundle-size check (issue #44's targets; gzip -9 of what a page fetches, JavaScript and
// WebAssembly; sizes only, never a timing):
//   sno.html  (newString only)          at most  6 000 bytes
//   all.html  (every format)            at most 40 000 bytes
//   first.html: memory of the instances at start, at most 1 MiB
// It also prints the first ID's time after the import (target 20 ms, not asserted: first.html,
// the median of 5 loads in fresh contexts after one load not counted; where the time went, from
// the resource timings; and control.html, the same two fetches in sequence without libsno, the
// floor that the browser, the server and the machine set at the time) and what each build wrote
// to its dist/ (Vite writes every `new URL(…, import.meta.url)` asset of the module graph, also
// one a page never references: that is written, not fetched).
// Exits non-zero when a check fails, after printing every result.
import { cpus } from 'node:os'
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { build } from 'vite'
import { serve } from './server.mjs'

const { values: args } = parseArgs({
  options: {
    chromium: { type: 'string' },
    tsv: { type: 'string' },
    bench: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '7' },
  },
})
if (!args.chromium || (!args.bench && !args.tsv)) {
  console.error('usage: node run.mjs --chromium PATH (--tsv FILE | --bench)')
  process.exit(2)
}

const TARGETS = { sno: 6000, all: 40000, memory: 1 << 20 }
const here = new URL('.', import.meta.url).pathname
const failures = []
const check = (ok, what) => {
  if (!ok) failures.push(what)
}
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length

/** A production build of `pages` (HTML files of this folder) into dist-<name>/. */
async function vite(name, pages) {
  const outDir = join(here, `dist-${name}`)
  await build({
    root: here,
    logLevel: 'warn',
    configFile: false,
    build: { outDir, emptyOutDir: true, rollupOptions: { input: Object.fromEntries(pages.map((p) => [p, join(here, `${p}.html`)])) } },
  })
  return outDir
}

/** Every file a build wrote under assets/, with its size and gzip -9 size. */
function written(dist) {
  return readdirSync(join(dist, 'assets')).map((f) => {
    const bytes = readFileSync(join(dist, 'assets', f))
    return { file: f, raw: bytes.length, gz: gz(bytes) }
  })
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`

const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox'] })
const servers = []

/** Loads `page` of `dist` in a fresh context; what it fetched (JS and WebAssembly) and its errors. */
async function open(dist, page) {
  const server = await serve(dist)
  servers.push(server)
  const base = `http://127.0.0.1:${server.address().port}/`
  const context = await browser.newContext()
  const tab = await context.newPage()
  const errors = []
  tab.on('pageerror', (e) => errors.push(e.message))
  tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  const fetched = []
  tab.on('response', async (r) => {
    const url = r.url()
    if (/\.(js|wasm)$/.test(url)) fetched.push({ url, file: url.slice(url.lastIndexOf('/') + 1), type: r.headers()['content-type'], status: r.status() })
  })
  await tab.goto(base + page)
  await tab.waitForFunction((id) => document.getElementById(id).textContent !== 'loading…', page.startsWith('sno') || page.startsWith('all') ? 'id' : 'out', { timeout: 60_000 }).catch(() => {})
  return { tab, fetched, errors, context, base }
}

/** gzip -9 bytes of what a page fetched (read from dist), per file and in all. */
function fetchedSize(dist, fetched) {
  const files = [...new Set(fetched.map((f) => f.file))]
  const sizes = files.map((f) => ({ file: f, gz: gz(readFileSync(join(dist, 'assets', f))) }))
  return { files: sizes, total: sizes.reduce((n, s) => n + s.gz, 0) }
}

/**
 * The bundle-size check's pages, each built alone so that its build holds nothing of another:
 * what each fetched (gzip -9, JavaScript and WebAssembly), printed. The targets are checked by
 * the caller.
 */
async function pageSizes() {
  const sizes = {}
  for (const page of ['sno', 'all']) {
    const dist = await vite(page, [page])
    const { tab, fetched, errors, context } = await open(dist, `${page}.html`)
    const shown = await tab.textContent('#id')
    await context.close()
    check(errors.length === 0, `${page}.html: ${errors.join(' | ')}`)
    check(/^[2-9a-x]{16}/.test(shown), `${page}.html shows ${JSON.stringify(shown)}`)
    check(fetched.every((f) => f.status === 200) && fetched.filter((f) => f.file.endsWith('.wasm')).every((f) => f.type === 'application/wasm'), `${page}.html fetched ${JSON.stringify(fetched)}`)
    const got = fetchedSize(dist, fetched)
    const wrote = written(dist)
    sizes[page] = got
    console.log(`  ${page}.html: fetched ${got.files.map((f) => `${f.file} ${kB(f.gz)}`).join(' + ')} = ${kB(got.total)} gzipped (-9), target ${kB(TARGETS[page])}`)
    console.log(`    the build wrote ${wrote.map((f) => `${f.file} ${kB(f.raw)} (${kB(f.gz)} gzipped)`).join(', ')}`)
    if (page === 'sno') check(!got.files.some((f) => f.file.startsWith('formats')), 'sno.html fetched formats.wasm: not tree-shaken')
  }
  return sizes
}

/** The installed libsno's sno.wasm (the package's web/), found from its entry. */
function installedSnoWasm() {
  for (let dir = dirname(fileURLToPath(import.meta.resolve('libsno'))); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'web', 'sno.wasm'))) return join(dir, 'web', 'sno.wasm')
  }
  throw new Error('run.mjs: no web/sno.wasm in the installed libsno')
}

/**
 * The first ID of first.html (built alone: a build with a page of every format would put both
 * modules in one chunk; with control.html, whose control.wasm is a copy of sno.wasm), loaded
 * `loads` times in fresh contexts (empty caches) after one load not counted (the browser's and
 * the server's first), each followed by a load of control.html: the medians of the time from
 * import('libsno') to the first ID, of each step (first.js), and of control.html's two fetches;
 * the memory at start. Null when a page failed.
 */
async function firstIds(loads) {
  copyFileSync(installedSnoWasm(), join(here, 'control.wasm'))
  const dist = await vite('first', ['first', 'control'])
  const runs = []
  const controls = []
  for (let i = 0; i <= loads; i++) {
    const { tab, errors, context } = await open(dist, 'first.html')
    check(errors.length === 0, `first.html: ${errors.join(' | ')}`)
    const r = errors.length === 0 ? await tab.evaluate(() => window.libsnoFirst) : null
    await context.close()
    if (!r) return null
    check(/^[2-9a-x]{16}$/.test(r.id), `first.html made ${r.id}`)
    check(r.instances === 1, `the first ID made ${r.instances} instances (sno.wasm alone expected)`)
    check(r.steps !== undefined, 'first.html: no resource timing of the chunk and sno.wasm')
    const c = await open(dist, 'control.html')
    check(c.errors.length === 0, `control.html: ${c.errors.join(' | ')}`)
    const control = c.errors.length === 0 ? await c.tab.evaluate(() => window.libsnoControl) : null
    await c.context.close()
    if (!control) return null
    if (i === 0) continue
    runs.push(r)
    controls.push(control)
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
  const step = (name) => median(runs.map((x) => x.steps?.[name] ?? NaN))
  const r = runs[0]
  return {
    loads,
    firstMs: median(runs.map((x) => x.firstMs)),
    chunkMs: step('chunkMs'),
    toWasmRequestMs: step('toWasmRequestMs'),
    wasmMs: step('wasmMs'),
    afterWasmMs: step('afterWasmMs'),
    controlMs: median(controls.map((x) => x.controlMs)),
    memory: r.memory,
    instances: r.instances,
  }
}

/** Where the first ID's time went (medians of each step: they need not add up to the whole's). */
const steps = (f) =>
  `the chunk arrived after ${ms(f.chunkMs)}, sno.wasm was requested ${ms(f.toWasmRequestMs)} later and arrived in ${ms(f.wasmMs)}, ` +
  `then ${ms(f.afterWasmMs)} to compile, instantiate and make the ID; control.html's same two fetches without libsno: ${ms(f.controlMs)}`

const ms = (x) => `${x.toFixed(1)} ms`

try {
  if (args.bench) {
    const sizes = await pageSizes()
    const first = await firstIds(7)
    if (first) console.log(`first.html, medians of ${first.loads} loads: ${steps(first)}`)
    const dist = await vite('bench', ['bench'])
    const { tab, errors } = await open(dist, 'bench.html')
    check(errors.length === 0, `bench.html: ${errors.join(' | ')}`)
    if (errors.length === 0 && first) {
      const rows = await tab.evaluate((rounds) => window.libsnoBench({ rounds }), Number(args.rounds))
      const sno = rows[0].opsPerSec
      const cpu = cpus()
      console.log(`Chromium ${browser.version()} (headless), ${cpu[0].model}, ${cpu.length} CPUs, ${new Date().toISOString().slice(0, 10)}`)
      console.log()
      // The pages of the bundle-size check, and first.html's first ID (median of 7 loads; its
      // steps and control.html's two fetches printed above).
      console.log('| page (Vite production build) | fetched, gzip -9 | target | memory at start | first ID after the import |')
      console.log('|---|---:|---:|---:|---:|')
      console.log(`| \`newString\` only | ${sizes.sno.total.toLocaleString('en-US')} B | ${TARGETS.sno.toLocaleString('en-US')} B | ${first.memory / 1024} KiB | ${ms(first.firstMs)} (${ms(first.afterWasmMs)} after sno.wasm arrived; the same two fetches without libsno ${ms(first.controlMs)}; target 20 ms) |`)
      console.log(`| every format | ${sizes.all.total.toLocaleString('en-US')} B | ${TARGETS.all.toLocaleString('en-US')} B | | |`)
      console.log()
      // As BENCHMARKS.md's Node table: a case's time per call over newString()'s.
      console.log('| case | ops/s | µs/op | vs newString() |')
      console.log('|---|---:|---:|---:|')
      for (const r of rows) {
        console.log(`| ${r.name} | ${Math.round(r.opsPerSec).toLocaleString('en-US')} | ${(1e6 / r.opsPerSec).toFixed(3)} | ${(sno / r.opsPerSec).toFixed(2)}x |`)
      }
    }
  } else {
    const sizes = await pageSizes()
    for (const page of ['sno', 'all']) {
      check(sizes[page].total <= TARGETS[page], `${page}.html fetches ${sizes[page].total} bytes gzipped: over the target of ${TARGETS[page]}`)
    }
    const memory = {}
    const first = await firstIds(5)
    if (first) {
      console.log(`  first.html: the first ID ${ms(first.firstMs)} after import('libsno') began (median of ${first.loads} loads; target 20 ms, not asserted)`)
      console.log(`    medians: ${steps(first)}`)
      console.log(`    memory at start: ${first.memory / 1024} KiB in ${first.instances} instance(s) (target 1024 KiB)`)
      check(first.memory <= TARGETS.memory, `memory at start: ${first.memory} bytes, over 1 MiB`)
      memory.sno = first.memory
    }
    {
      const { tab, errors, fetched, context, base } = await open(await vite('checks', ['checks']), 'checks.html')
      check(errors.length === 0, `checks.html: ${errors.join(' | ')}`)
      if (errors.length === 0) {
        const r = await tab.evaluate((text) => window.libsnoChecks(text), readFileSync(args.tsv, 'utf8'))
        const wasm = fetched.filter((f) => f.file.endsWith('.wasm'))
        check(wasm.length === 2 && wasm.every((f) => f.status === 200 && f.type === 'application/wasm'), `the modules' fetches: ${JSON.stringify(wasm)}`)
        check(r.startInstances === 2 && r.startMemory <= TARGETS.memory, `every format: ${r.startMemory} bytes of memory at start in ${r.startInstances} instances (1 MiB at most, 2 modules)`)
        memory.all = r.startMemory
        check(r.count === 20000 && r.ordered, 'newString(): not in ascending order')
        check(r.parsed, 'Id.parse(newString()) does not give the text back')
        check(r.inClock, "the IDs' times are not the page's clock (Date.now)")
        check(r.bytes.type === '[object Uint8Array]' && r.bytes.length === 10 && r.bytes.roundTrip, `id.bytes: ${JSON.stringify(r.bytes)}`)
        check(r.generator.ordered && r.generator.partition === 0x1234 && r.generator.meta === 5, `Generator: ${JSON.stringify(r.generator)}`)
        check(r.clockCalls > 0, 'newString() did not read Date.now')
        check(r.randomCalls > 0, 'the first ULIDs called no crypto.getRandomValues')
        check(r.mathRandomCalls === 0, `the modules called Math.random ${r.mathRandomCalls} times`)
        check(r.ulidOrdered && r.uuidOrdered, 'ulid / uuid7 IDs out of order')
        check(r.lease === 'Error:ERR_SNO_LEASE_INVALID_URL', `new Lease(): ${r.lease}`)
        check(r.leaseAsync === 'Error:ERR_SNO_LEASE_INVALID_URL', `Lease.acquire(): ${r.leaseAsync}`)
        check(r.badInput.length >= 60, `only ${r.badInput.length} bad_input.tsv rows`)
        for (const row of r.badInput.filter((x) => x.wrong.length > 0)) check(false, `bad_input.tsv "${row.name}": ${row.wrong.join(', ')}, Node answers ${row.expected}`)
        const tried = r.badInput.reduce((n, row) => n + row.tried, 0)
        console.log(`  checks.html in Chromium ${browser.version()}: modules ${wasm.map((f) => f.url.replace(base, '')).join(', ')} (${wasm[0]?.type})`)
        console.log(`    ${r.count} sno IDs in order and parsed back (${r.sample}); ULID ${r.ulidSample}, UUIDv7 ${r.uuidSample}`)
        console.log(`    ${r.clockCalls} Date.now call(s) per newString(); ${r.randomCalls} crypto.getRandomValues call(s) for the first 2000 ULIDs and UUIDv7s (${r.randomBefore} before), ${r.mathRandomCalls} Math.random`)
        console.log(`    bad_input.tsv: ${r.badInput.length} rows (${tried} calls) answered as in Node; leases: ${r.lease}`)
      }
      await context.close()
    }
    console.log(`  sizes: newString page ${sizes.sno.total} bytes, every format ${sizes.all.total} bytes (gzip -9 of what each page fetched); ` +
      `memory at start ${memory.sno} bytes (sno), ${memory.all} bytes (every format)`)
  }
} finally {
  await browser.close()
  for (const s of servers) s.close()
}
if (failures.length > 0) {
  for (const f of failures) console.error(`  FAIL ${f}`)
  process.exit(1)
}
