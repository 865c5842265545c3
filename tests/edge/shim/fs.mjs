// node:fs's readFileSync for the bundled harness (../harness.mjs): the test data embedded at
// build time (Vite's import.meta.glob), looked up by file name: the runtimes here have no file
// system, or no permission to read one. ../run.mjs copies testdata/ beside the harness.
const files = import.meta.glob(['../../testdata/vectors/*.tsv', '../../testdata/bad_input.tsv'], { query: '?raw', import: 'default', eager: true })

export function readFileSync(path) {
  const name = String(path).slice(String(path).lastIndexOf('/') + 1)
  const key = Object.keys(files).find((k) => k.endsWith(`/${name}`))
  if (key === undefined) throw new Error(`no embedded test data ${path}`)
  return files[key]
}
