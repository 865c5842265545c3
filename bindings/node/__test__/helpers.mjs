// Shared by the tests: the repository's test-data folder and a literal TSV reader.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// SNO_VECTORS_DIR: where scripts/install-test runs copies of the tests outside the repository.
export const VECTORS =
  process.env.SNO_VECTORS_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'testdata', 'vectors')
export const ALPHABET = Buffer.from('23456789abcdefghijklmnopqrstuvwx')

/** Every row of a vector file as an object (tabs split literally, no quoting). */
export function rows(name) {
  const lines = readFileSync(join(VECTORS, name), 'utf8').split('\n').filter((l) => l.length > 0)
  const header = lines[0].split('\t')
  return lines.slice(1).map((line) => {
    const cells = line.split('\t')
    if (cells.length !== header.length) throw new Error(`${name}: bad row ${line}`)
    return Object.fromEntries(header.map((h, i) => [h, cells[i]]))
  })
}

/** [code, position] our strict decoder must report for these UTF-8 bytes, or null. */
export function expectedError(bytes) {
  if (bytes.length !== 16) return ['ERR_SNO_INVALID_LENGTH', bytes.length]
  const i = bytes.findIndex((c) => !ALPHABET.includes(c))
  return i < 0 ? null : ['ERR_SNO_INVALID_BYTE', i]
}
