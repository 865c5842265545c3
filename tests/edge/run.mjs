// libsno's light web build in the edge runtimes, each the real one from npm: Cloudflare's
// workerd, Vercel's edge-runtime, Deno and Bun. scripts/test-wasm lays out the app this runs in:
// app/node_modules (libsno's packed tarball, this folder's package.json), app/edge (this folder),
// app/node-tests (copies of the Node package's vector-driven test files), app/testdata.
//
//   node run.mjs [--only workerd,edge-runtime,deno,bun]           the tests
//   node run.mjs --bench [--only …]                                 newString() vs uuid's v7(), a table
//
// The tests, in each runtime: the vector tests (harness.mjs: the Node package's test files over
// testdata/vectors and testdata/bad_input.tsv) in one request, then the frozen-clock bursts
// (burst.mjs: 200 000 values of each monotonic format) in another; in workerd also the Worker
// quickstart (worker.js) in a Worker with no compatibility flag. libsno is resolved by each
// runtime itself (its export condition), but in edge-runtime, which runs one script: there it is
// bundled as Next.js bundles an Edge function (build.mjs). Every runtime runs under a time limit:
// a hang fails. Exits non-zero when anything fails, after printing every result.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { Buffer } from 'node:buffer'
import { EdgeRuntime } from 'edge-runtime'
import { bundle } from './build.mjs'

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'workerd,edge-runtime,deno,bun' },
    bench: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '7' },
    'time-limit': { type: 'string', default: '600' },
  },
})
const here = new URL('.', import.meta.url).pathname
const app = join(here, '..')
const bin = (name) => join(app, 'node_modules', '.bin', name)
const limitMs = Number(args['time-limit']) * 1000
const failures = []
const check = (ok, what) => {
  if (!ok) failures.push(what)
}
const RUNTIMES = args.only.split(',')
for (const r of RUNTIMES) if (!['workerd', 'edge-runtime', 'deno', 'bun'].includes(r)) throw new Error(`unknown runtime ${r}`)

/** A child process's stdout, or a rejection with its output when it fails or outlives the limit. */
function exec(cmd, argv, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: here, stdio: ['ignore', 'pipe', 'pipe'], ...options })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(out)
      else reject(new Error(`${cmd} ${argv.join(' ')}: ${signal ? `killed (${signal}${signal === 'SIGKILL' ? `: over ${limitMs / 1000} s, a hang` : ''})` : `exit ${code}`}\n${out}${err}`.trim()))
    })
  })
}

/** The last line of a runtime's output, as JSON. */
const lastJson = (out) => JSON.parse(out.trim().split('\n').at(-1))

// --- workerd --------------------------------------------------------------------------------

/** The files of libsno's build a condition of its exports names: its folder and entry. */
function packageBuild(condition) {
  const root = join(app, 'node_modules', 'libsno')
  const entry = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports['.'][condition]
  const path = join(root, entry)
  return { root, entry: relative(app, path), dir: join(path, '..') }
}

/** Every file below `dir`. */
function walk(dir) {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
}

/**
 * A workerd config of two Workers: `tests` (Node.js compatibility, the default since 2026-08-04:
 * the test files use Buffer) serving the harness, `quickstart` (no_nodejs_compat: a Worker
 * without it) serving worker.js. Each has libsno's `workerd` build as
 * its modules are uploaded: every JavaScript file of web/module/ an ES module, each
 * `*.wasm?module` a WebAssembly module, and `libsno` the entry (as wrangler resolves it).
 */
function workerdConfig(harness, testsMain, quickstart) {
  const { entry: libsno, dir } = packageBuild('workerd')
  const web = join(dir, '..')
  const q = (s) => JSON.stringify(s)
  // An embedded file's path is relative to the config's folder (dist/).
  const embed = (f) => `embed ${q(relative(join(here, 'dist'), f))}`
  const modules = [`(name = "libsno", esModule = ${q(`export * from "./${libsno}"; export { default } from "./${libsno}";`)})`]
  for (const f of walk(dir).filter((f) => /\.m?js$/.test(f))) modules.push(`(name = ${q(relative(app, f))}, esModule = ${embed(f)})`)
  for (const f of readdirSync(web).filter((f) => f.endsWith('.wasm'))) modules.push(`(name = ${q(`${relative(app, join(web, f))}?module`)}, wasm = ${embed(join(web, f))})`)
  const worker = (main, mainFile, flags, more = []) =>
    `(compatibilityDate = "2026-11-01", compatibilityFlags = [${flags.map(q).join(', ')}], modules = [${[`(name = ${q(main)}, esModule = ${embed(mainFile)})`, ...more, ...modules].join(', ')}])`
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "tests", worker = ${worker('tests.js', testsMain, [], [`(name = "harness.js", esModule = ${embed(harness)})`])}),
    (name = "quickstart", worker = ${worker('worker.js', quickstart, ['no_nodejs_compat'])}),
  ],
  sockets = [
    (name = "tests", address = "127.0.0.1:0", http = (), service = "tests"),
    (name = "quickstart", address = "127.0.0.1:0", http = (), service = "quickstart"),
  ],
);
`
}

/** A Worker module that answers a request with `call` (an expression over harness.js's exports). */
function workerdMain(name, imports, call) {
  const file = join(here, 'dist', name)
  writeFileSync(file, `import { ${imports} } from './harness.js'\nexport default { async fetch(request) { return Response.json(await ${call}) } }\n`)
  return file
}

/** Runs workerd over `config`; `fn(ports)` talks to it; workerd is stopped after. */
async function withWorkerd(config, fn) {
  const file = join(here, 'dist', 'workerd.capnp')
  writeFileSync(file, config)
  const child = spawn(bin('workerd'), ['serve', file, '--control-fd=3'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
  let log = ''
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const ports = {}
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(`workerd exited (${code ?? signal}): ${log}`)))
  try {
    await Promise.race([
      new Promise((resolve) => {
        let buffer = ''
        child.stdio[3].on('data', (d) => {
          buffer += d
          for (const line of buffer.split('\n').slice(0, -1)) {
            const e = JSON.parse(line)
            if (e.event === 'listen') ports[e.socket] = e.port
          }
          buffer = buffer.slice(buffer.lastIndexOf('\n') + 1)
          if (ports.tests && ports.quickstart) resolve()
        })
      }),
      exited.then((why) => Promise.reject(new Error(why))),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`workerd did not listen within 60 s: ${log}`)), 60_000)),
    ])
    return await fn(ports)
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/** A request to workerd, as JSON, under the time limit. */
async function get(port, path) {
  const response = await fetch(`http://127.0.0.1:${port}/${path}`, { signal: AbortSignal.timeout(limitMs) })
  const text = await response.text()
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}: ${text}`)
  return JSON.parse(text)
}

const version = {
  workerd: async () => `workerd ${(await exec(bin('workerd'), ['--version'])).trim().replace(/^workerd /, '')} (npm workerd ${JSON.parse(readFileSync(join(app, 'node_modules/workerd/package.json'))).version})`,
  'edge-runtime': async () => `edge-runtime ${JSON.parse(readFileSync(join(app, 'node_modules/edge-runtime/package.json'))).version}`,
  deno: async () => `Deno ${(await exec(bin('deno'), ['--version'])).split('\n')[0].split(' ')[1]}`,
  bun: async () => `Bun ${(await exec(bin('bun'), ['--version'])).trim()}`,
}

// --- edge-runtime -----------------------------------------------------------------------------

/**
 * An edge-runtime VM with `script` evaluated, as Vercel runs an Edge function: WebAssembly
 * compiled from bytes refused (codeGeneration.wasm off), the bundle's `*.wasm?module` files
 * compiled by the host and handed in, and Node's Buffer for the test files (Vercel's Edge
 * runtime has node:buffer).
 */
function edgeVm(script, wasm) {
  const runtime = new EdgeRuntime({
    codeGeneration: { strings: false, wasm: false },
    extend(context) {
      context.Buffer = Buffer
      for (const [name, file] of Object.entries(wasm)) context[name] = new WebAssembly.Module(readFileSync(file))
      return context
    },
  })
  // As Vercel: compiling WebAssembly from bytes is refused in the function.
  const refused = runtime.evaluate(`(() => { try { new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); return 'compiled' } catch (e) { return e.message } })()`)
  check(refused !== 'compiled', 'edge-runtime compiles WebAssembly from bytes: not as Vercel runs a function')
  runtime.evaluate(script)
  return runtime
}

// --- the runs ---------------------------------------------------------------------------------

/** Summarises one part's results for `runtime` and records its failures. */
function report(runtime, part, results) {
  const count = (s) => results.filter((r) => r.status === s).length
  console.log(`  ${runtime}, ${part}: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`)
  for (const r of results) {
    if (r.status === 'fail') check(false, `${runtime}: ${r.name}: ${r.error.split('\n')[0].slice(0, 300)}`)
    if (r.status === 'skip') console.log(`    skipped: ${r.name} (${r.why})`)
    if (part === 'burst' && r.stats) console.log(`    ${r.name.replace('frozen clock: ', '')}: ${JSON.stringify(r.stats)} (${r.ms} ms)`)
  }
  check(results.length > 0 && count('pass') > 0, `${runtime}, ${part}: no test ran`)
}

async function tests() {
  const module = await bundle('harness.mjs', 'module')
  const light = RUNTIMES.includes('edge-runtime') ? await bundle('harness.mjs', 'edge-light') : null
  writeFileSync(join(here, 'dist', 'local.mjs'), `import { run } from './harness-module.js'
console.log(JSON.stringify(await run((globalThis.Deno?.args ?? process.argv.slice(2))[0])))
`)
  for (const runtime of RUNTIMES) {
    const name = await version[runtime]()
    console.log(`${name}:`)
    try {
      if (runtime === 'workerd') {
        const main = workerdMain('workerd-tests.js', 'run', 'run(new URL(request.url).pathname.slice(1))')
        await withWorkerd(workerdConfig(module.file, main, join(here, 'worker.js')), async (ports) => {
          const q = await get(ports.quickstart, '')
          check(/^[2-9a-x]{16}$/.test(q.id) && /^[2-9a-x]{16}$/.test(q.text) && /^[0-9A-Z]{26}$/.test(q.ulid), `the Worker quickstart answered ${JSON.stringify(q)}`)
          console.log(`  worker.js (the quickstart, without Node.js compatibility): ${JSON.stringify(q)}`)
          for (const part of ['vectors', 'burst']) report(runtime, part, await get(ports.tests, part))
        })
      } else if (runtime === 'edge-runtime') {
        const vm = edgeVm(readFileSync(light.file, 'utf8'), light.wasm)
        vm.evaluate(`addEventListener('fetch', (event) => event.respondWith(harness.run(new URL(event.request.url).pathname.slice(1), 'edge-runtime').then((r) => Response.json(r))))`)
        console.log(`  libsno bundled with the edge-light condition; WebAssembly from bytes refused; modules ${Object.keys(light.wasm).join(', ')} handed in`)
        for (const part of ['vectors', 'burst']) {
          const response = await vm.dispatchFetch(`http://edge.test/${part}`)
          report(runtime, part, await response.json())
        }
      } else {
        // Deno with no permission at all (--no-prompt: a permission asked for fails).
        const argv = runtime === 'deno' ? ['run', '--quiet', '--no-prompt', 'dist/local.mjs'] : ['dist/local.mjs']
        const resolved = await exec(bin(runtime), runtime === 'deno' ? ['eval', "console.log(import.meta.resolve('libsno'))"] : ['-e', "console.log(import.meta.resolve('libsno'))"], { cwd: app })
        console.log(`  libsno resolves to ${relative(app, new URL(resolved.trim()).pathname)}`)
        for (const part of ['vectors', 'burst']) report(runtime, part, lastJson(await exec(bin(runtime), [...argv, part])))
      }
    } catch (e) {
      check(false, `${runtime}: ${e.message}`)
    }
  }
}

async function bench() {
  const module = await bundle('bench.mjs', 'module')
  const light = RUNTIMES.includes('edge-runtime') ? await bundle('bench.mjs', 'edge-light') : null
  writeFileSync(join(here, 'dist', 'bench-local.mjs'), `import { bench } from './bench-module.js'
console.log(JSON.stringify(bench(Number((globalThis.Deno?.args ?? process.argv.slice(2))[0]))))
`)
  const cpu = cpus()
  console.log(`${cpu[0].model}, ${cpu.length} CPUs, ${new Date().toISOString().slice(0, 10)}; newString() against npm uuid's v7() in the same runtime (median of ${args.rounds} rounds)`)
  console.log('| runtime | newString() ops/s | uuid v7() ops/s | newString() vs v7() |')
  console.log('|---|---:|---:|---:|')
  for (const runtime of RUNTIMES) {
    const name = await version[runtime]()
    let rows
    try {
      if (runtime === 'workerd') {
        const main = workerdMain('workerd-bench.js', 'bench', `bench(${Number(args.rounds)})`)
        rows = await withWorkerd(workerdConfig(module.file, main, join(here, 'worker.js')), (ports) => get(ports.tests, ''))
      } else if (runtime === 'edge-runtime') {
        rows = edgeVm(readFileSync(light.file, 'utf8'), light.wasm).evaluate(`harness.bench(${Number(args.rounds)})`)
      } else {
        rows = lastJson(await exec(bin(runtime), [...(runtime === 'deno' ? ['run', '--quiet', '--no-prompt'] : []), 'dist/bench-local.mjs', args.rounds]))
      }
    } catch (e) {
      check(false, `${runtime}: ${e.message}`)
      continue
    }
    const [sno, v7] = rows
    const ops = (r) => Math.round(r.opsPerSec).toLocaleString('en-US')
    console.log(`| ${name} | ${ops(sno)} | ${ops(v7)} | ${(sno.opsPerSec / v7.opsPerSec).toFixed(2)}x |`)
  }
}

mkdirSync(join(here, 'dist'), { recursive: true })
if (!existsSync(join(app, 'node_modules', 'libsno'))) throw new Error(`no libsno installed in ${app}`)
await (args.bench ? bench() : tests())
if (failures.length > 0) {
  for (const f of failures) console.error(`  FAIL ${f}`)
  process.exit(1)
}
