// Drives headless Chromium (playwright-core with Debian's chromium as executablePath) over the
// built app (dist/), served by server.mjs without COOP/COEP headers.
//
//   node run.mjs --chromium PATH --dist DIR --tsv testdata/bad_input.tsv   the checks (index.html)
//   node run.mjs --chromium PATH --dist DIR --bench                         the benchmark table
//
// Exits non-zero when a check fails.
import { cpus } from 'node:os'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import { serve } from './server.mjs'

const { values: args } = parseArgs({
  options: {
    chromium: { type: 'string' },
    dist: { type: 'string' },
    tsv: { type: 'string' },
    bench: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '7' },
  },
})
if (!args.chromium || !args.dist || (!args.bench && !args.tsv)) {
  console.error('usage: node run.mjs --chromium PATH --dist DIR (--tsv FILE | --bench)')
  process.exit(2)
}

const failures = []
const check = (ok, what) => {
  if (!ok) failures.push(what)
}

const server = await serve(args.dist)
const base = `http://127.0.0.1:${server.address().port}/`
// --no-sandbox: Chromium's sandbox needs user namespaces, which a container run as root lacks.
const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox'] })
try {
  const page = await browser.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  const wasm = []
  page.on('response', (r) => r.url().endsWith('.wasm') && wasm.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] }))

  const name = args.bench ? 'bench.html' : 'index.html'
  const response = await page.goto(base + name)
  const headers = response.headers()
  check(!headers['cross-origin-opener-policy'] && !headers['cross-origin-embedder-policy'], 'the page was served with COOP/COEP headers')
  await page.waitForFunction(() => document.getElementById('out').textContent !== 'loading…', null, { timeout: 60_000 }).catch(() => {})
  check(errors.length === 0, `page errors: ${errors.join(' | ')}`)
  check(wasm.length === 1 && wasm[0].status === 200 && wasm[0].type === 'application/wasm', `the module's fetch: ${JSON.stringify(wasm)}`)
  if (failures.length > 0) {
    // The page did not load: nothing more to ask it.
  } else if (args.bench) {
    const rows = await page.evaluate((rounds) => window.libsnoBench({ rounds }), Number(args.rounds))
    const sno = rows[0].opsPerSec
    const cpu = cpus()
    console.log(`Chromium ${browser.version()} (headless), ${cpu[0].model}, ${cpu.length} CPUs, ${new Date().toISOString().slice(0, 10)}`)
    // As BENCHMARKS.md's Node table: a case's time per call over newString()'s.
    console.log('| case | ops/s | µs/op | vs newString() |')
    console.log('|---|---:|---:|---:|')
    for (const r of rows) {
      const ops = Math.round(r.opsPerSec).toLocaleString('en-US')
      console.log(`| ${r.name} | ${ops} | ${(1e6 / r.opsPerSec).toFixed(2)} | ${(sno / r.opsPerSec).toFixed(2)}x |`)
    }
  } else {
    const tsv = readFileSync(args.tsv, 'utf8')
    const r = await page.evaluate((text) => window.libsnoChecks(text), tsv)
    check(r.crossOriginIsolated === false, `crossOriginIsolated is ${r.crossOriginIsolated}`)
    check(r.count === 20000 && r.ordered, 'newString(): not in ascending order')
    check(r.parsed, 'Id.parse(newString()) does not give the text back')
    check(r.inClock, "the IDs' times are not the page's clock (Date.now)")
    check(r.bytes.type === '[object Uint8Array]' && r.bytes.length === 10 && r.bytes.roundTrip, `id.bytes: ${JSON.stringify(r.bytes)}`)
    check(r.generator.ordered && r.generator.partition === 0x1234 && r.generator.meta === 5, `Generator: ${JSON.stringify(r.generator)}`)
    check(r.clockCalls > 0, 'newString() did not read Date.now (WASI clock_time_get)')
    check(r.randomCalls > 0, 'the first ULIDs called no crypto.getRandomValues (WASI random_get)')
    check(r.mathRandomCalls === 0, `the module called Math.random ${r.mathRandomCalls} times`)
    check(r.ulidOrdered && r.uuidOrdered, 'ulid / uuid7 IDs out of order')
    check(r.lease === 'Error:ERR_SNO_LEASE_INVALID_URL', `new Lease(): ${r.lease}`)
    check(r.leaseAsync === 'Error:ERR_SNO_LEASE_INVALID_URL', `Lease.acquire(): ${r.leaseAsync}`)
    const wrong = r.badInput.filter((row) => row.wrong.length > 0)
    check(r.badInput.length >= 60, `only ${r.badInput.length} bad_input.tsv rows`)
    for (const row of wrong) check(false, `bad_input.tsv "${row.name}": ${row.wrong.join(', ')}, Node answers ${row.expected}`)
    const tried = r.badInput.reduce((n, row) => n + row.tried, 0)
    console.log(`  Chromium ${browser.version()}: crossOriginIsolated ${r.crossOriginIsolated}, SharedArrayBuffer ${r.sharedArrayBuffer}; ` +
      `module ${wasm[0].url.replace(base, '')} (${wasm[0].type})`)
    console.log(`  ${r.count} sno IDs in order and parsed back (${r.sample}); ULID ${r.ulidSample}, UUIDv7 ${r.uuidSample}`)
    console.log(`  WASI: ${r.clockCalls} Date.now call(s) per newString(); ${r.randomCalls} crypto.getRandomValues call(s) ` +
      `for the first 2000 ULIDs and UUIDv7s (${r.randomBefore} before), ${r.mathRandomCalls} Math.random`)
    console.log(`  bad_input.tsv: ${r.badInput.length} rows (${tried} calls) answered as in Node; leases: ${r.lease}`)
  }
} finally {
  await browser.close()
  server.close()
}
if (failures.length > 0) {
  for (const f of failures) console.error(`  FAIL ${f}`)
  process.exit(1)
}
