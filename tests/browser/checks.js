// The checks of the page, run by run.mjs in headless Chromium (window.libsnoChecks(tsv)): libsno
// imported as an app imports it (Vite picks the package's `browser` condition: the light web
// build), IDs made in order and parsed back, the platform's clock and randomness reached (and
// Math.random never), every row of testdata/bad_input.tsv that has a Node answer answered the
// same (class and code), and the lease API refused with its code. Returns what it found; run.mjs
// judges it.
import { calls, instances, memoryBytes } from './probe.js'
import sno, { Generator, Id, Lease, Nanoflake, UlidFlake, newMany, newString, newStrings, ulid, uuid7 } from 'libsno'

// Both modules are instantiated once libsno's imports are evaluated: their memory at start.
const startMemory = memoryBytes()
const startInstances = instances.length

/** `ok`, or `Class:code` of what `fn` throws (bad_input.tsv's node column). */
function answer(fn) {
  try {
    fn()
    return 'ok'
  } catch (e) {
    return `${e.constructor.name}:${e.code}`
  }
}

const ALPHABET = new TextEncoder().encode('23456789abcdefghijklmnopqrstuvwx')

/** bad_input.tsv's text expansions (as bindings/node/__test__/bad_input.test.mjs reads them). */
function inputs(text, expand) {
  if (expand === '-') return [text]
  const [kind, arg] = expand.split(/[:@]/)
  if (kind === 'repeat') return [text.repeat(Number(arg))]
  if (kind === 'ascii' || kind === 'high') {
    const p = Number(arg)
    const codes = kind === 'ascii' ? [...Array(0x80).keys()] : [...Array(0x80).keys()].map((b) => b + 0x80)
    return codes.filter((b) => !ALPHABET.includes(b)).map((b) => text.slice(0, p) + String.fromCharCode(b) + text.slice(p + 1))
  }
  // The page has no Buffer: the bytes row is the same text as a Uint8Array (a Buffer is one).
  if (kind === 'type') return [{ bytes: new TextEncoder().encode(text), int: 5, null: null }[arg]]
  throw new Error(`unknown expansion ${expand}`)
}

/** The unit of the clock now (4 ms since 2010), for snapshot fields written "now+N". */
const nowUnits = () => Math.floor((Date.now() - Date.UTC(2010, 0, 1)) / 4)

/** The calls of a `call:OP` row (as bad_input.test.mjs makes them). */
function rowCalls(op, arg, input) {
  const ns = arg === 'sno' ? null : sno[arg]
  switch (op) {
    case 'new_many':
      return ns === null ? [() => newStrings(input), () => newMany(input)] : [() => ns.newStrings(input), () => ns.newMany(input)]
    case 'restore_snapshot': {
      const snapshot = Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('now+') ? nowUnits() + Number(v.slice(4)) : v]),
      )
      return [() => new Generator({ snapshot })]
    }
    case 'generator_options':
      return [() => (ns === null ? new Generator(input) : new ns.Generator(input))]
    case 'id_from_bytes': {
      // No Buffer in a page: a Buffer row is a Uint8Array of that length.
      const type = input.type === 'Buffer' ? 'Uint8Array' : input.type
      return [() => Id.fromBytes(new globalThis[type](input.length))]
    }
    case 'nanoflake_unix_ms_at': {
      const n = Nanoflake.fromBigInt(123n << 22n)
      const f = UlidFlake.fromBigInt(123n << 20n)
      return [() => n.unixMsAt(input), () => n.dateAt(input), () => f.unixMsAt(input)]
    }
    default:
      throw new Error(`unknown call ${op}`)
  }
}

/** Every bad_input.tsv row with a Node answer: [case, expected, [answers that differ]]. */
function badInput(tsv) {
  const lines = tsv.split('\n').filter((l) => l.length > 0 && !l.startsWith('#'))
  if (lines[0] !== 'case\tinput\texpand\trust\tc\tpython\tnode') throw new Error('bad_input.tsv: unexpected header')
  const rows = []
  for (const line of lines.slice(1)) {
    const [name, text, expand, , , , expected] = line.split('\t')
    if (expected === '-') continue
    const input = JSON.parse(text)
    const [, op, arg = 'sno'] = expand.split(':')
    const got = expand.startsWith('call:')
      ? rowCalls(op, arg, input).map(answer)
      : inputs(input, expand).map((value) => answer(() => Id.parse(value)))
    rows.push({ name, expected, wrong: [...new Set(got.filter((a) => a !== expected))], tried: got.length })
  }
  return rows
}

async function run(tsv) {
  const result = { startMemory, startInstances }

  // sno IDs: in order, parsed back, stamped with this page's clock.
  const before = Date.now()
  const texts = Array.from({ length: 20000 }, () => newString())
  const after = Date.now()
  result.count = texts.length
  result.ordered = texts.every((t, i) => i === 0 || texts[i - 1] < t)
  result.parsed = texts.every((t) => Id.parse(t).toString() === t)
  const ids = texts.map((t) => Id.parse(t))
  // A sno ID keeps time in 4 ms units: its time is at most 4 ms before the reading.
  result.inClock = ids.every((id) => id.unixMs >= before - 4 && id.unixMs <= after)
  result.sample = texts[0]
  const id = ids[0]
  result.bytes = { type: Object.prototype.toString.call(id.bytes), length: id.bytes.length, roundTrip: Id.fromBytes(id.bytes).equals(id) }
  result.generator = (() => {
    const g = new Generator({ partition: 0x1234 })
    const made = Array.from({ length: 1000 }, () => g.next(5))
    return { ordered: made.every((x, i) => i === 0 || made[i - 1].compare(x) < 0), partition: made[0].partition, meta: made[0].meta }
  })()

  // The platform's clock (Date.now) and randomness (crypto.getRandomValues): the modules' imports.
  const clockBefore = calls.dateNow
  newString()
  result.clockCalls = calls.dateNow - clockBefore
  // The first random ID seeds the CSPRNG of the random formats: from crypto.getRandomValues.
  const randomBefore = calls.getRandomValues
  const mathBefore = calls.mathRandom
  const ulids = Array.from({ length: 1000 }, () => ulid.new().toString())
  const uuids = Array.from({ length: 1000 }, () => uuid7.new().toString())
  result.randomCalls = calls.getRandomValues - randomBefore
  result.randomBefore = randomBefore
  result.mathRandomCalls = calls.mathRandom - mathBefore
  result.ulidOrdered = ulids.every((u, i) => i === 0 || ulids[i - 1] < u)
  result.uuidOrdered = uuids.every((u, i) => i === 0 || uuids[i - 1] < u)
  result.ulidSample = ulids[0]
  result.uuidSample = uuids[0]

  // Leases: no stores in WebAssembly, refused with the code a build without them gives.
  result.lease = answer(() => new Lease({ url: 'postgres://db.invalid/sno' }))
  result.leaseAsync = await Lease.acquire({ url: 'redis://db.invalid' }).then(
    () => 'ok',
    (e) => `${e.constructor.name}:${e.code}`,
  )

  result.badInput = badInput(tsv)
  return result
}

window.libsnoChecks = run
document.getElementById('out').textContent = `ready: ${newString()}`
