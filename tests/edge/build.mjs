// Bundles an entry of this folder (harness.mjs, bench.mjs) with Vite for the edge runtimes:
//
//   'module'      one ES module, libsno left out (`import … from 'libsno'` stays): workerd, Deno
//                 and Bun load the installed package themselves, each by its export condition
//                 (workerd: web/module/, its WebAssembly imported as modules; Deno: web/source/;
//                 Bun: web/fs/).
//   'edge-light'  one script (IIFE) with libsno inside, resolved as Next.js resolves a Vercel
//                 Edge function's imports (conditions edge-light, worker, browser), each
//                 `*.wasm?module` import read from globalThis['wasm_<file>'], a WebAssembly.Module
//                 the runtime's host compiled (as Next.js's edge sandbox and Vercel do: Vercel's
//                 Edge runtime compiles no WebAssembly from bytes). Its manifest lists those files.
//
// The Node package's test files (../node-tests/) get the shims of shim/ for node:test,
// node:assert/strict, node:fs, node:path, node:url, node:child_process and node:worker_threads,
// and `libsno` in place of their `../index.mjs`; their hex of a value's `bytes` reads a Uint8Array.
import { basename, join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { build } from 'vite'

const here = new URL('.', import.meta.url).pathname
const SHIMS = {
  'node:test': 'test.mjs',
  'node:assert/strict': 'assert.mjs',
  'node:fs': 'fs.mjs',
  'node:path': 'path.mjs',
  'node:url': 'url.mjs',
  'node:child_process': 'unavailable.mjs',
  'node:worker_threads': 'unavailable.mjs',
}

/** `entry` bundled as `kind` into dist/<name>-<kind>.js; { file, wasm } (wasm: the edge-light manifest). */
export async function bundle(entry, kind) {
  const name = `${basename(entry, '.mjs')}-${kind}`
  const wasm = {}
  const plugin = {
    name: 'libsno-edge-harness',
    enforce: 'pre',
    resolveId(source, importer) {
      if (SHIMS[source]) return join(here, 'shim', SHIMS[source])
      const libsno = source === 'libsno' || (source === '../index.mjs' && importer?.includes('/node-tests/'))
      if (libsno && kind === 'module') return { id: 'libsno', external: true }
      if (libsno) return this.resolve('libsno', importer, { skipSelf: true })
      if (source.endsWith('.wasm?module')) {
        const file = new URL(source.replace(/\?module$/, ''), `file://${importer}`).pathname
        wasm[`wasm_${basename(file, '.wasm')}`] = file
        return `\0wasm-module:${basename(file, '.wasm')}`
      }
      return null
    },
    load(id) {
      if (id.startsWith('\0wasm-module:')) return `export default globalThis[${JSON.stringify(`wasm_${id.slice(13)}`)}]`
      return null
    },
    // The light build's `bytes` are Uint8Arrays (no Buffer outside Node.js: docs/wasm.md), whose
    // toString('hex') is not hex: the test files' hex of a value's bytes, written for either.
    transform(code, id) {
      if (!id.includes('/node-tests/')) return null
      return code.replaceAll(".bytes.toString('hex')", ".bytes.reduce((hex, b) => hex + b.toString(16).padStart(2, '0'), '')")
    },
  }
  await build({
    root: here,
    configFile: false,
    logLevel: 'error',
    plugins: [plugin],
    // helpers.mjs reads the vectors' folder from the environment first (fs.mjs serves it).
    // (and formats.test.mjs's skipped thread test an import.meta.url, which neither a script
    // nor a module named harness.js in workerd has).
    define: { 'process.env.SNO_VECTORS_DIR': JSON.stringify('/testdata/vectors'), 'import.meta.url': JSON.stringify('file:///edge/harness.js') },
    resolve: kind === 'edge-light' ? { conditions: ['edge-light', 'worker', 'browser', 'module', 'import', 'default'] } : {},
    build: {
      outDir: join(here, 'dist'),
      emptyOutDir: false,
      minify: false,
      target: 'esnext',
      lib: { entry: join(here, entry), formats: [kind === 'module' ? 'es' : 'iife'], name: 'harness', fileName: () => `${name}.js` },
      rollupOptions: { output: { codeSplitting: false } },
    },
  })
  const file = join(here, 'dist', `${name}.js`)
  if (kind === 'edge-light') writeFileSync(join(here, 'dist', `${name}.wasm.json`), JSON.stringify(wasm))
  return { file, wasm }
}
