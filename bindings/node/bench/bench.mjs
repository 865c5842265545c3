// libsno against uuid, ulid, ulidx, @napi-rs/uuid and crypto.randomUUID, in one run.
//   npm ci && npm run build && npm run bench
// Prints ns/op (best of 7 rounds) and each peer's ratio to newString().
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'

import { Id, decodeMany, newId, newString, newStrings } from '../index.mjs'

const require = createRequire(import.meta.url)
const optional = (name) => {
  try {
    return require(name)
  } catch {
    console.error(`${name} not installed: skipped`)
    return null
  }
}

let sink = 0
function measure(fn, n = 500_000) {
  let best = Infinity
  for (let round = 0; round < 7; round++) {
    const t = process.hrtime.bigint()
    for (let i = 0; i < n; i++) {
      const v = fn()
      sink ^= typeof v === 'string' ? v.length : 1
    }
    best = Math.min(best, Number(process.hrtime.bigint() - t) / n)
  }
  return best
}

const text = newString()
const texts = newStrings(1000)
const rows = [
  ['newString()', measure(() => newString())],
  ['newId()', measure(() => newId())],
  ['Id.parse(s)', measure(() => Id.parse(text))],
  ['newId().toString()', measure(() => newId().toString())],
  ['newStrings(1000) per ID', measure(() => newStrings(1000), 2_000) / 1000],
  ['texts.map(Id.parse) per ID (1000)', measure(() => texts.map((t) => Id.parse(t)), 2_000) / 1000],
  ['decodeMany(texts) per ID (1000)', measure(() => decodeMany(texts), 2_000) / 1000],
  ['crypto.randomUUID()', measure(() => randomUUID())],
]
const uuid = optional('uuid')
if (uuid) rows.push(['uuid v4', measure(() => uuid.v4())], ['uuid v7', measure(() => uuid.v7(), 200_000)])
const ulid = optional('ulid')
if (ulid) {
  const mono = ulid.monotonicFactory()
  rows.push(['ulid monotonicFactory()', measure(() => mono(), 200_000)])
}
const ulidx = optional('ulidx')
if (ulidx) {
  const mono = ulidx.monotonicFactory()
  rows.push(['ulidx monotonicFactory()', measure(() => mono(), 200_000)])
}
const napiUuid = optional('@napi-rs/uuid')
if (napiUuid) rows.push(['@napi-rs/uuid v4()', measure(() => napiUuid.v4())])

const base = rows[0][1]
console.log(`Node ${process.version}, libsno (sink ${sink & 1})`)
console.log('| operation | ns/op | vs newString() |\n|---|---|---|')
for (const [name, ns] of rows) console.log(`| ${name} | ${ns.toFixed(0)} | ${(ns / base).toFixed(2)}x |`)
