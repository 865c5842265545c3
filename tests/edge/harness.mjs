// The tests each edge runtime runs (run.mjs bundles this with Vite, build.mjs): the Node
// package's vector-driven test files (bindings/node/__test__: vectors, seed_formats, formats,
// typeid, detect, bad_input; run.mjs copies them to ../node-tests/ with `libsno` in place of the
// source tree) over shims of node:test, node:assert/strict, node:fs, node:path and node:url
// (shim/), and the frozen-clock bursts (burst.mjs). libsno itself is the package as installed,
// resolved by each runtime's export condition. run() answers what happened, test by test.
import '../node-tests/vectors.test.mjs'
import '../node-tests/seed_formats.test.mjs'
import '../node-tests/formats.test.mjs'
import '../node-tests/typeid.test.mjs'
import '../node-tests/detect.test.mjs'
import '../node-tests/bad_input.test.mjs'
import './burst.mjs'
import { run as runTests } from './shim/test.mjs'

// What an edge runtime cannot run: processes and threads.
const SKIP = {
  'worker_threads and child processes: no duplicate in any format': 'no processes or worker threads in an edge runtime',
}
// edge-runtime replaces the global Error with a Proxy of it (so that `instanceof` works across its
// realms), so `e.constructor === Error` is false for every error there, libsno's or not: the test
// that compares them runs in the other runtimes (the codes are checked by bad_input there too).
const SKIP_EDGE_RUNTIME = {
  'the spec invalid cases: the core error code, with the position of a bad byte': "edge-runtime's Error is a Proxy: e.constructor !== Error for every error",
}

/** The results of the vector tests (`part` 'vectors') or of the bursts ('burst'); `runtime` names where. */
export function run(part, runtime) {
  return runTests((name) => name.startsWith('frozen clock:') === (part === 'burst'), runtime === 'edge-runtime' ? { ...SKIP, ...SKIP_EDGE_RUNTIME } : SKIP)
}
