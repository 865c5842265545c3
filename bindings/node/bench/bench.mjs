// libsno against uuid, ulid, ulidx, scru128, @napi-rs/uuid and crypto.randomUUID, in one run.
//   npm ci && npm run build && npm run bench   (-- --cpu: CPU time instead of wall time)
// Prints ns/op (best of 7 rounds): sno with each peer's ratio to newString(), then each 128-bit
// format against its peer (peer / libsno: above 1 means libsno is faster).
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

import { Generator, Id, Scru128, Ulid, Uuid7, decodeMany, newId, newString, newStrings, scru128, ulid as ulidNs, uuid7 } from '../index.mjs'

const require = createRequire(import.meta.url)
const optional = (name) => {
  try {
    return require(name)
  } catch {
    console.error(`${name} not installed: skipped`)
    return null
  }
}

// `--cpu`: time this process's CPU time (user + system) instead of the wall clock, for a
// machine shared with other work (a preempted round then costs nothing).
const now = process.argv.includes('--cpu')
  ? () => {
      const { user, system } = process.cpuUsage()
      return (user + system) * 1000
    }
  : () => Number(process.hrtime.bigint())

let sink = 0
function measure(fn, n = 500_000) {
  let best = Infinity
  for (let round = 0; round < 7; round++) {
    const t = now()
    for (let i = 0; i < n; i++) {
      const v = fn()
      sink ^= typeof v === 'string' ? v.length : 1
    }
    best = Math.min(best, (now() - t) / n)
  }
  return best
}

/**
 * ns per call of `fn` timed only in batches of 20 000 that start at a fresh 4 ms unit, so that
 * the partition's 65 536 IDs per unit (one ID per 61 ns sustained) never run out: the cost of a
 * call, not the format's cap (as the Rust bench's "unsaturated" rows). Best of 7 rounds of 25.
 */
function measureUnsaturated(fn, batch = 20_000, batches = 25) {
  let best = Infinity
  for (let round = 0; round < 7; round++) {
    let total = 0
    for (let b = 0; b < batches; b++) {
      const unit = Math.floor(Date.now() / 4)
      while (Math.floor(Date.now() / 4) === unit) {}
      const t = now()
      for (let i = 0; i < batch; i++) sink ^= fn().length
      total += now() - t
    }
    best = Math.min(best, total / (batch * batches))
  }
  return best
}

// A child run (`--new-string-ns`): newString() alone, on the clock SNO_CLOCK names.
if (process.argv.includes('--new-string-ns')) {
  console.log(measureUnsaturated(() => newString()))
  process.exit(0)
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

// Each 128-bit format against its peer, in the same run.
const cases = []
if (ulid) {
  const mono = ulid.monotonicFactory()
  const u = ulidNs.newString()
  cases.push(
    ['ULID new (text)', () => ulidNs.newString(), 'ulid monotonicFactory()()', () => mono()],
    ['ULID parse / validate', () => Ulid.parse(u), 'ulid isValid(s) (validates only)', () => ulid.isValid(u)],
  )
}
if (uuid) {
  const v = uuid7.newString()
  cases.push(
    ['UUIDv7 new (text)', () => uuid7.newString(), 'uuid v7()', () => uuid.v7()],
    ['UUIDv7 parse', () => Uuid7.parse(v), 'uuid parse(s) (to bytes)', () => uuid.parse(v)],
  )
}
const peerScru = optional('scru128')
if (peerScru) {
  const s = scru128.newString()
  cases.push(
    ['SCRU128 new (text)', () => scru128.newString(), 'scru128 scru128String()', () => peerScru.scru128String()],
    ['SCRU128 new (object)', () => scru128.new(), 'scru128 scru128()', () => peerScru.scru128()],
    ['SCRU128 parse', () => Scru128.parse(s), 'scru128 Scru128Id.fromString', () => peerScru.Scru128Id.fromString(s)],
  )
}
console.log('\n| operation | libsno ns/op | peer | peer ns/op | libsno speed-up |\n|---|---|---|---|---|')
for (const [name, ours, peerName, theirs] of cases) {
  const a = measure(ours)
  const b = measure(theirs, 200_000)
  console.log(`| ${name} | ${a.toFixed(0)} | ${peerName} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}x |`)
}

// newString() on the precise and on the fast clock: SNO_CLOCK is read once per process, so each
// figure comes from a child process (three per clock, interleaved, best kept); and a Generator of
// each clock in this process.
const clockBest = { precise: Infinity, fast: Infinity }
for (let round = 0; round < 3; round++) {
  for (const kind of Object.keys(clockBest)) {
    const args = [fileURLToPath(import.meta.url), '--new-string-ns', ...process.argv.slice(2)]
    const out = execFileSync(process.execPath, args, { env: { ...process.env, SNO_CLOCK: kind }, encoding: 'utf8' })
    clockBest[kind] = Math.min(clockBest[kind], Number(out))
  }
}
console.log('\n| clock | newString() ns (SNO_CLOCK; unsaturated) | new Generator({ clock }).next() ns |\n|---|---|---|')
for (const [kind, ns] of Object.entries(clockBest)) {
  const g = new Generator({ clock: kind })
  console.log(`| ${kind} | ${ns.toFixed(0)} | ${measure(() => g.next()).toFixed(0)} |`)
}
console.log(
  `\nfast clock: newString() ${(clockBest.precise - clockBest.fast).toFixed(0)} ns faster than on the precise clock` +
    ` (${clockBest.precise.toFixed(0)} -> ${clockBest.fast.toFixed(0)} ns)`,
)
