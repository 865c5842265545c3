// node:test for the runtimes that have none (workerd, edge-runtime) and for Deno and Bun alike:
// the harness (../harness.mjs) bundles the Node package's test files with this module in
// node:test's place. `test(name, fn)` registers; run() runs every test in order, awaiting each,
// and returns what happened (the runtime's driver, ../run.mjs, judges it).
const tests = []

export function test(name, fn) {
  tests.push({ name, fn, skip: false })
}
test.skip = (name, fn) => tests.push({ name, fn, skip: true })

/** Runs the tests whose name `select` accepts; a test named in `skip` (name → why) is skipped. */
export async function run(select = () => true, skip = {}) {
  const results = []
  for (const t of tests) {
    if (!select(t.name)) continue
    if (t.skip || skip[t.name]) {
      results.push({ name: t.name, status: 'skip', why: skip[t.name] ?? 'test.skip' })
      continue
    }
    const start = Date.now()
    try {
      const stats = await t.fn()
      results.push({ name: t.name, status: 'pass', ms: Date.now() - start, stats: stats ?? null })
    } catch (e) {
      results.push({ name: t.name, status: 'fail', ms: Date.now() - start, error: `${e?.constructor?.name}: ${e?.code ? `${e.code}: ` : ''}${e?.message}` })
    }
  }
  return results
}

export default test
