// Issue #22 in the Node layer: partitions leased from PostgreSQL and Redis (`Lease`), the
// lease's self-fencing generator (`Generator({ lease })`), every row of
// testdata/lease_bad_input.tsv, and the process-wide functions configured by SNO_PARTITION /
// SNO_LEASE_URL in child processes. Against real servers started for this file
// (scripts/store-server): if one cannot start, every test here fails.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { inspect } from 'node:util'

import fc from 'fast-check'

import { Generator, Lease, releaseProcessLease } from '../index.mjs'
import { freePort, pause, restart, restartAfter, startStores } from './stores.mjs'

const INDEX = fileURLToPath(new URL('../index.mjs', import.meta.url))
const SNO_JS = fileURLToPath(new URL('../sno.js', import.meta.url))
const TABLE = fileURLToPath(new URL('../../../testdata/lease_bad_input.tsv', import.meta.url))
// Every Redis lease of this file is in this namespace, with this TTL: a namespace's first grant
// waits one TTL (the store cannot know what an earlier life of it granted), once.
const NS = 'node-test'
const TTL_MS = 2000

const is = (Class, code) => (e) => e instanceof Class && e.constructor === Class && e.code === code

let stores
let closedPort
before(async () => {
  stores = await startStores(['pg', 'redis'])
  closedPort = await freePort()
})
after(() => stores?.stop())

/** The store URL of a backend. */
const url = (backend) => stores[backend]

test('Lease and Generator are exported by both entry points', () => {
  const cjs = createRequire(import.meta.url)('../sno.js')
  assert.equal(cjs.Lease, Lease)
  assert.equal(cjs.Generator, Generator)
})

for (const backend of ['pg', 'redis']) {
  test(`${backend}: new Lease and Lease.acquire: fields, distinct partitions, growing tokens, close, Symbol.dispose`, async () => {
    const t0 = Date.now()
    const sync = new Lease({ url: url(backend), namespace: NS, ttlMs: TTL_MS })
    const pending = Lease.acquire({ url: url(backend), namespace: NS, ttlMs: TTL_MS })
    assert.ok(pending instanceof Promise)
    const async = await pending
    for (const lease of [sync, async]) {
      assert.ok(lease instanceof Lease)
      assert.ok(Number.isInteger(lease.partition) && lease.partition >= 0 && lease.partition <= 65535)
      assert.equal(typeof lease.token, 'bigint')
      assert.ok(lease.token > 0n)
      assert.ok(lease.expiresAt instanceof Date)
      assert.ok(lease.expiresAt.getTime() > t0, 'the grant expires after it was asked for')
      assert.equal(lease.namespace, NS)
      assert.ok(lease.holder.includes(`/${process.pid}/`), lease.holder)
      assert.equal(lease.closed, false)
      assert.equal(lease.lastError, null)
      assert.equal(lease.renewalFailures, 0)
      assert.ok(Number.isInteger(lease.renewals) && lease.renewals >= 0)
      assert.ok(lease.expiresInMs > 0 && lease.expiresInMs <= TTL_MS, String(lease.expiresInMs))
      const [host, pid, program] = lease.holder.split('/')
      assert.ok(host && pid === String(process.pid) && program === 'node', lease.holder)
    }
    assert.notEqual(sync.partition, async.partition, 'two live leases of a namespace never share a partition')
    assert.ok(async.token > sync.token, 'fencing tokens only grow')
    sync.close()
    assert.equal(sync.closed, true)
    assert.equal(sync.expiresInMs, 0, 'a closed lease\'s grant is released')
    assert.equal(sync.lastError, null)
    sync.close()
    assert.equal(sync.closed, true)
    assert.equal(typeof Symbol.dispose, 'symbol')
    async[Symbol.dispose]()
    assert.equal(async.closed, true)
  })

  test(`${backend}: Generator({ lease }) mints on the leased partition; after close(), ERR_SNO_LEASE_EXPIRED`, async () => {
    const lease = new Lease({ url: url(backend), namespace: NS, ttlMs: TTL_MS })
    // What does not apply to a leased generator is refused before the lease's one generator is made.
    assert.throws(() => new Generator({ lease, partition: 1 }), is(TypeError, 'ERR_INCOMPATIBLE_OPTION_PAIR'))
    const snapshot = new Generator({ partition: 1 }).snapshot()
    assert.throws(() => new Generator({ lease, snapshot }), is(TypeError, 'ERR_INCOMPATIBLE_OPTION_PAIR'))
    assert.throws(() => new Generator({ lease, sequenceMin: 9, sequenceMax: 8 }), is(RangeError, 'ERR_SNO_INVALID_SEQUENCE_BOUNDS'))
    assert.throws(() => new Generator({ lease, maxWaitMs: -1 }), is(RangeError, 'ERR_SNO_INVALID_ARGUMENT'))
    for (const bad of [{}, lease.partition, 'lease', null, Object.create(Lease.prototype)]) {
      assert.throws(() => new Generator({ lease: bad }), is(TypeError, 'ERR_INVALID_ARG_TYPE'))
    }

    const gen = new Generator({ lease, sequenceMin: 0, sequenceMax: 4095, maxWaitMs: 1000 })
    assert.equal(gen.lease, lease)
    assert.equal(new Generator().lease, null)
    assert.equal(gen.partition, lease.partition)
    assert.equal(gen.capacity, 4096)
    assert.equal(gen.maxWaitMs, 1000)
    // More than one unit's pool: next() waits into the following units.
    const ids = Array.from({ length: 5000 }, () => gen.next())
    for (let i = 1; i < ids.length; i++) assert.equal(ids[i - 1].compare(ids[i]), -1, 'strictly increasing')
    ids.push(gen.tryNext(7), await gen.nextAsync(8))
    assert.deepEqual(ids.slice(-2).map((id) => id.meta), [7, 8])
    for (const id of ids) assert.equal(id.partition, lease.partition)
    assert.equal(new Set(ids.map(String)).size, ids.length)
    const stats = gen.stats()
    for (const key of ['overflows', 'overflowEpisodes', 'drifts', 'regressions', 'waits']) assert.equal(typeof stats[key], 'number')

    assert.throws(() => new Generator({ lease }), is(Error, 'ERR_SNO_LEASE_UNAVAILABLE'), 'one lease, one generator')
    // The core's words, the same in every language: what was asked for, and why not.
    const refused = (call) => (e) => is(TypeError, 'ERR_SNO_LEASED_GENERATOR')(e) && e.message.startsWith(`sno: ${call} is not for a leased generator: `)
    assert.throws(() => gen.snapshot(), refused('a snapshot'))
    assert.throws(() => gen.nextWithTime(0, new Date()), refused('an ID for a given time'))
    assert.throws(() => gen.nextAtUnixMs(0, Date.now()), refused('an ID for a given time'))

    const partition = lease.partition
    lease.close()
    const expired = (e) => is(Error, 'ERR_SNO_LEASE_EXPIRED')(e) && e.partition === partition && !('retryAtUnixNs' in e)
    assert.throws(() => gen.tryNext(), expired)
    assert.throws(() => gen.next(), expired, 'a closed lease is not waited for')
    await assert.rejects(gen.nextAsync(), expired)
    assert.throws(() => new Generator({ lease }), is(Error, 'ERR_SNO_LEASE_UNAVAILABLE'))
  })
}

test('pg: close() releases the partition: the next lease of it starts after the window of the last', async () => {
  const options = { url: url('pg'), namespace: 'node-release', partitions: [77, 77], ttlMs: 1000 }
  const first = new Lease(options)
  assert.equal(first.partition, 77)
  await assert.rejects(Lease.acquire(options), is(Error, 'ERR_SNO_LEASE_NO_FREE_PARTITION'))
  const last = new Generator({ lease: first }).next()
  first.close()
  // Acquired once the clock passes the end of the first grant's window (at most one TTL).
  const second = await Lease.acquire(options)
  assert.equal(second.partition, 77)
  assert.ok(second.token > first.token)
  const next = new Generator({ lease: second }).next()
  assert.equal(next.partition, 77)
  assert.equal(last.compare(next), -1, 'the new holder stamps after the old one')
  second.close()
})

test('redis: while renewals fail the generator stops; nextAsync waits for the renewal, the event loop running', async () => {
  const lease = new Lease({ url: url('redis'), namespace: NS, ttlMs: TTL_MS })
  const gen = new Generator({ lease, maxWaitMs: 60_000 })
  gen.next()
  pause(stores, 'redis', true)
  try {
    // The window ends a margin before the store's expiry; wait for it (bounded generously).
    let expired
    for (let i = 0; i < 400 && expired === undefined; i++) {
      try {
        gen.tryNext()
        await sleep(25)
      } catch (e) {
        expired = e
      }
    }
    assert.ok(is(Error, 'ERR_SNO_LEASE_EXPIRED')(expired), String(expired))
    const renewal = lease.lastError
    assert.ok(renewal instanceof Error && /^ERR_SNO_LEASE_/.test(renewal.code), String(renewal?.code))
    assert.ok(lease.renewalFailures > 0, 'the failed renewals are counted')
    assert.equal(lease.closed, false)

    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    const waits = gen.stats().waits
    const pending = gen.nextAsync(3)
    await sleep(100)
    pause(stores, 'redis', false)
    const id = await pending
    clearInterval(timer)
    assert.ok(ticks > 0, 'timers fired while nextAsync waited')
    assert.equal(id.meta, 3)
    assert.equal(id.partition, lease.partition)
    assert.equal(gen.stats().waits, waits + 1, 'one wait, however often the lease was looked at')
    assert.equal(lease.lastError, null)
  } finally {
    pause(stores, 'redis', false)
    lease.close()
  }
})

// testdata/lease_bad_input.tsv: each request fails, synchronously and asynchronously, with the
// row's code as ERR_SNO_<CODE>; option values out of range are RangeErrors, the rest Errors.
const lines = readFileSync(TABLE, 'utf8')
  .split('\n')
  .filter((l) => l.length > 0 && !l.startsWith('#'))
assert.equal(lines[0], 'case\turl\toptions\tcode\tsecret')

/** The row's options as `Lease` options, and whether to hold the namespace's range first. */
function rowOptions(text) {
  const options = {}
  let holdFirst = false
  if (text === '-') return { options, holdFirst }
  for (const pair of text.split(';')) {
    const [key, value] = pair.split(/=(.*)/s)
    switch (key) {
      case 'namespace':
        options.namespace = value
        break
      case 'ttl_ms':
        options.ttlMs = Number(value)
        break
      case 'margin_ms':
        options.marginMs = Number(value)
        break
      case 'timeout_ms':
        options.timeoutMs = Number(value)
        break
      case 'partitions':
        options.partitions = value.split('-').map(Number)
        break
      case 'hold_first':
        holdFirst = value === '1'
        break
      default:
        throw new Error(`unknown option ${key}`)
    }
  }
  return { options, holdFirst }
}

/** The row's URL with the servers' values in its placeholders. */
function rowUrl(rawUrl) {
  const target = rawUrl
    .replaceAll('{pg}', stores.pg)
    .replaceAll('{redis}', stores.redis)
    .replaceAll('{pg_port}', String(stores.pgPort))
    .replaceAll('{redis_port}', String(stores.redisPort))
    .replaceAll('{redis_tls_port}', String(stores.redisTlsPort))
    .replaceAll('{closed_port}', String(closedPort))
    .replaceAll('{wrong_ca}', join(stores.certs, 'wrong-ca.pem'))
    .replaceAll('{ca}', join(stores.certs, 'ca.pem'))
  assert.ok(!target.includes('{'), `a placeholder is left in ${target}`)
  return target
}

/** Fails (without showing it) if `secret` is in any of `texts`. */
function assertHidden(secret, texts, what) {
  if (secret === '-') return
  const found = texts.map((t, i) => (String(t).includes(secret) ? i : -1)).filter((i) => i >= 0)
  assert.deepEqual(found, [], `${what}: the row's secret is shown (in items ${found})`)
}

/** Everything an error shows: its message, String(), util.inspect() (stack, code, properties). */
const shown = (e) => [e?.message, String(e), inspect(e), inspect(e, { showHidden: true, depth: 5 })]

const rows = lines.slice(1).map((line) => line.split('\t'))

for (const [name, rawUrl, rawOptions, code, secret] of rows) {
  test(`lease bad input: ${name}`, async () => {
    const target = rowUrl(rawUrl)
    const { options, holdFirst } = rowOptions(rawOptions)
    const request = { url: target, ...options }
    const expected = `ERR_SNO_${code.toUpperCase()}`
    const Class = code === 'lease_invalid_options' ? RangeError : Error
    // The holder takes the TTL of this file's leases when the row sets none: a fresh Redis
    // namespace's first grant waits one TTL, which need not be the default 15 s here.
    const holder = holdFirst ? await Lease.acquire({ ttlMs: TTL_MS, ...request }) : undefined
    const texts = holder ? [inspect(holder, { showHidden: true })] : []
    try {
      assert.throws(
        () => new Lease(request),
        (e) => (texts.push(...shown(e)), is(Class, expected)(e)),
      )
      await assert.rejects(Lease.acquire(request), (e) => (texts.push(...shown(e)), is(Class, expected)(e)))
    } finally {
      holder?.close()
    }
    assertHidden(secret, texts, name)
  })
}

// The same URLs as the process-wide generator's SNO_LEASE_URL in a child process whose first
// newId() throws, uncaught: Node prints the error (stack, code) to stderr. No row's secret may be
// in it. (Rows with other options need a Lease: above.)
test('lease bad input as SNO_LEASE_URL: nothing a child prints shows the secret', () => {
  const probe = `require(${JSON.stringify(SNO_JS)}).newId()`
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SNO_')))
  let checked = 0
  for (const [name, rawUrl, rawOptions, code, secret] of rows) {
    if (secret === '-' || !['-', 'timeout_ms=2000'].includes(rawOptions)) continue
    const out = spawnSync(process.execPath, ['-e', probe], {
      env: { ...clean, SNO_LEASE_URL: rowUrl(rawUrl), SNO_LEASE_TTL: `${TTL_MS}ms` },
      encoding: 'utf8',
      timeout: 60_000,
    })
    assert.notEqual(out.status, 0, `${name}: the child minted`)
    assert.ok(out.stderr.includes(`ERR_SNO_${code.toUpperCase()}`), `${name}: ${out.stderr.split('\n').find((l) => l.includes('ERR_SNO_'))}`)
    assertHidden(secret, [out.stdout, out.stderr], `${name} (child)`)
    checked++
  }
  assert.ok(checked >= 40, `${checked} rows checked`)
})

// The process-wide functions in a child process whose environment holds only the variables given.
const PROBE = `
const sno = await import(${JSON.stringify(INDEX)})
const calls = [
  () => sno.newId().partition,
  () => sno.newMany(3).map((id) => id.partition).join(','),
  () => sno.Id.parse(sno.newString()).partition,
  () => sno.newStrings(2).map((t) => sno.Id.parse(t).partition).join(','),
]
console.log(calls.map((call) => {
  try { return String(call()) } catch (e) { return e.constructor.name + ' ' + e.code }
}).join(' | '))
`

function child(env, probe = PROBE) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SNO_')))
  return execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  }).trimEnd()
}

/** The probe's line when every call mints on `partition`. */
const all = (partition) => [partition, `${partition},${partition},${partition}`, partition, `${partition},${partition}`].join(' | ')
/** The probe's line when every call throws `error` ('Class CODE'). */
const throws = (error) => Array(4).fill(error).join(' | ')

test('process-wide: SNO_LEASE_URL leases the partition (PostgreSQL and Redis)', () => {
  const pg = { SNO_LEASE_URL: url('pg'), SNO_LEASE_NAMESPACE: 'node-env', SNO_LEASE_PARTITIONS: '4321-4321', SNO_LEASE_TTL: '60s' }
  assert.equal(child(pg), all('4321'))
  // While the child runs, its lease is live: nobody else gets the partition (asked from inside it).
  const held = `${PROBE}
try {
  new sno.Lease({ url: process.env.SNO_LEASE_URL, namespace: process.env.SNO_LEASE_NAMESPACE, partitions: [4321, 4321] })
  console.log('free')
} catch (e) {
  console.log(e.code, e.namespace, e.first, e.last)
}
`
  assert.equal(child(pg, held), `${all('4321')}\nERR_SNO_LEASE_NO_FREE_PARTITION node-env 4321 4321`)
  // It ended normally and released the lease on its way out (not one 60 s TTL later).
  new Lease({ url: url('pg'), namespace: 'node-env', partitions: [4321, 4321] }).close()
  const redis = { SNO_LEASE_URL: url('redis'), SNO_LEASE_NAMESPACE: NS, SNO_LEASE_PARTITIONS: '4322-4322', SNO_LEASE_TTL: `${TTL_MS}ms` }
  assert.equal(child(redis), all('4322'))
})

test('process-wide: SNO_PARTITION fixes the partition; neither variable keeps a random one', () => {
  assert.equal(child({ SNO_PARTITION: '4242' }), all('4242'))
  assert.equal(child({ SNO_PARTITION: ' 0 ' }), all('0'))
  const [p] = child({}).split(' | ')
  assert.ok(Number.isInteger(Number(p)) && Number(p) >= 0 && Number(p) <= 65535, p)
  assert.equal(child({}).split(' | ')[1].split(',').length, 3)
})

test('process-wide: both variables, or invalid values, throw the code at every call', () => {
  const both = { SNO_PARTITION: '4242', SNO_LEASE_URL: url('pg') }
  assert.equal(child(both), throws('Error ERR_SNO_INVALID_ENVIRONMENT'))
  for (const value of ['abc', '65536', '-1', '', '1.5']) {
    assert.equal(child({ SNO_PARTITION: value }), throws('Error ERR_SNO_INVALID_ENVIRONMENT'), `SNO_PARTITION=${JSON.stringify(value)}`)
  }
  assert.equal(child({ SNO_LEASE_URL: 'mysql://127.0.0.1/db' }), throws('Error ERR_SNO_LEASE_INVALID_URL'))
  assert.equal(child({ SNO_LEASE_URL: url('pg'), SNO_LEASE_TTL: 'soon' }), throws('RangeError ERR_SNO_LEASE_INVALID_OPTIONS'))
  assert.equal(child({ SNO_LEASE_URL: url('pg'), SNO_LEASE_PARTITIONS: '9-8' }), throws('RangeError ERR_SNO_LEASE_INVALID_OPTIONS'))
  assert.equal(child({ SNO_LEASE_URL: `redis://:sno-test@127.0.0.1:${closedPort}/` }), throws('Error ERR_SNO_LEASE_UNREACHABLE'))
  const wrong = `postgres://sno_auth:wrong@127.0.0.1:${stores.pgPort}/postgres`
  assert.equal(child({ SNO_LEASE_URL: wrong }), throws('Error ERR_SNO_LEASE_AUTHENTICATION_FAILED'))
})

// Releasing the process lease: on the `exit` event, and by hand.
const MINT = `
const sno = await import(${JSON.stringify(INDEX)})
const id = sno.newId()
console.log(JSON.stringify([id.partition, id.unixMs, String(id)]))
`

/** The process lease of a namespace with one partition (5) and a 15 s TTL. */
const onePartition = (namespace) => ({
  SNO_LEASE_URL: url('pg'),
  SNO_LEASE_NAMESPACE: namespace,
  SNO_LEASE_PARTITIONS: '5-5',
  SNO_LEASE_TTL: '15s',
})

test('process-wide: a process that exits normally releases its lease (the next one gets the partition at once)', () => {
  const env = onePartition('node-exit')
  const [p1, t1, id1] = JSON.parse(child(env, MINT))
  const started = Date.now()
  // Without the release at exit the one partition would be held for 15 s: NO_FREE_PARTITION.
  const [p2, t2, id2] = JSON.parse(child(env, MINT))
  const took = Date.now() - started
  assert.deepEqual([p1, p2], [5, 5])
  assert.ok(t2 >= t1 && id2 > id1, `${id1} then ${id2}`)
  assert.ok(took < 5000, `the second process took ${took} ms`)
})

test('process-wide: releaseProcessLease() frees the partition at once; the next newId() leases anew', () => {
  const probe = `
const sno = await import(${JSON.stringify(INDEX)})
const out = { before: sno.releaseProcessLease() }
const first = sno.newId()
out.released = sno.releaseProcessLease()
out.again = sno.releaseProcessLease()
const started = Date.now()
const lease = new sno.Lease({ url: process.env.SNO_LEASE_URL, namespace: process.env.SNO_LEASE_NAMESPACE, partitions: [5, 5], ttlMs: 1000, timeoutMs: 5000 })
out.took = Date.now() - started
out.other = lease.partition
try { sno.newId(); out.whileHeld = 'ok' } catch (e) { out.whileHeld = e.code }
lease.close()
const second = sno.newId()
out.partitions = [first.partition, second.partition]
out.ordered = String(first) < String(second)
console.log(JSON.stringify(out))
`
  const out = JSON.parse(child(onePartition('node-release'), probe))
  assert.deepEqual(out, { ...out, before: false, released: true, again: false, other: 5, whileHeld: 'ERR_SNO_LEASE_NO_FREE_PARTITION', partitions: [5, 5], ordered: true })
  assert.ok(out.took < 5000, `acquiring the released partition took ${out.took} ms`)
  assert.equal(releaseProcessLease(), false, 'this process holds no process lease')
})

test('process-wide: a worker thread that exits does not release the process lease', () => {
  const probe = `
const { Worker } = await import('node:worker_threads')
const sno = await import(${JSON.stringify(INDEX)})
const first = sno.newId()
await new Promise((resolve, reject) => {
  const w = new Worker(${JSON.stringify(`const sno = require(${JSON.stringify(SNO_JS)}); sno.newId()`)}, { eval: true, execArgv: [] })
  w.on('error', reject)
  w.on('exit', resolve)
})
let held
try { new sno.Lease({ url: process.env.SNO_LEASE_URL, namespace: process.env.SNO_LEASE_NAMESPACE, partitions: [5, 5] }).close(); held = 'free' } catch (e) { held = e.code }
console.log(JSON.stringify([first.partition, sno.newId().partition, held]))
`
  assert.deepEqual(JSON.parse(child(onePartition('node-worker'), probe)), [5, 5, 'ERR_SNO_LEASE_NO_FREE_PARTITION'])
})

test('Lease.fromEnv() leases from SNO_LEASE_URL with the SNO_LEASE_* options', () => {
  const probe = `
const { Lease } = await import(${JSON.stringify(INDEX)})
try {
  const lease = Lease.fromEnv()
  console.log(lease.namespace, lease.partition)
  lease.close()
} catch (e) {
  console.log(e.constructor.name, e.code)
}
`
  const env = { SNO_LEASE_URL: url('pg'), SNO_LEASE_NAMESPACE: 'node-from-env', SNO_LEASE_PARTITIONS: '4400-4400' }
  assert.equal(child(env, probe), 'node-from-env 4400')
  assert.equal(child({}, probe), 'Error ERR_SNO_INVALID_ENVIRONMENT')
  assert.equal(child({ ...env, SNO_LEASE_TTL: '0' }, probe), 'RangeError ERR_SNO_LEASE_INVALID_OPTIONS')
})

let usingSyntax = true
try {
  new Function('{ using x = null }')
} catch {
  usingSyntax = false
}
test('`using lease = new Lease(...)` closes it at the end of the block', { skip: !usingSyntax && 'this Node has no `using` declarations' }, () => {
  const run = new Function(
    'Lease',
    'options',
    `let kept
     { using lease = new Lease(options); kept = lease; if (lease.closed) throw new Error('closed early') }
     return kept`,
  )
  assert.equal(run(Lease, { url: url('pg'), namespace: NS, ttlMs: TTL_MS }).closed, true)
})

// Whatever the options (never a usable URL: nothing is connected), errors are typed and coded.
test('property: no Lease option gives an untyped error (fast-check)', async () => {
  const CODE = /^ERR_(SNO_[A-Z0-9_]+|INVALID_ARG_TYPE|INVALID_ARG_VALUE)$/
  const value = fc.oneof(fc.anything(), fc.string(), fc.integer(), fc.double(), fc.constantFrom(null, undefined, 2 ** 63, -1, 1.5, NaN, [], [1], [1, 2], [2, 1]))
  const keys = ['url', 'namespace', 'ttlMs', 'partitions', 'marginMs', 'timeoutMs']
  const options = fc.oneof(value, fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] }), fc.dictionary(fc.string(), value))
  const unusable = (o) => (o !== null && typeof o === 'object' && typeof o.url === 'string' && o.url.includes(':') ? { ...o, url: 'no-scheme' } : o)
  const check = (e) => {
    assert.ok(e instanceof Error && CODE.test(e.code), `${e?.constructor?.name} ${e?.code}: ${e?.message}`)
    assert.doesNotMatch(e.message, /napi|rust|panic|Failed to convert|Expected/i)
  }
  await fc.assert(
    fc.asyncProperty(options.map(unusable), async (o) => {
      assert.throws(() => new Lease(o), (e) => (check(e), true))
      await assert.rejects(Lease.acquire(o), (e) => (check(e), true))
    }),
    { numRuns: 300 },
  )
})

test('a store away longer than the window: nextAsync waits for the new grant, which gets a whole maxWaitMs (#42)', async () => {
  // TTL 4 s: the default maxWaitMs is 6 s. The holder mints until its window ends, waits, and
  // Redis answers again after 6 s away, within that wait; the new grant's window opens one TTL
  // later, past 6 s from the start of the wait (before the fix nextAsync rejected with
  // ERR_SNO_LEASE_PENDING there). A new grant starts a whole maxWaitMs again.
  const own = await startStores(['redis']) // its own server: the test restarts it
  try {
    const lease = new Lease({ url: own.redis, namespace: `${NS}-outage`, ttlMs: 4000 })
    try {
      const gen = new Generator({ lease })
      assert.equal(gen.maxWaitMs, 6000)
      const ids = [await gen.nextAsync()]
      const firstToken = lease.token
      const minting = (async () => {
        for (const end = Date.now() + 16_000; Date.now() < end; ) {
          ids.push(await gen.nextAsync())
          await sleep(10)
        }
      })()
      await sleep(1000)
      await restartAfter(own, 6)
      const back = BigInt(Date.now()) * 1_000_000n
      await minting
      assert.ok(ids.some((id) => id.unixNs > back), 'no ID after the store came back')
      assert.ok(lease.token > firstToken, 'a new grant')
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i].compare(ids[i - 1]) > 0, 'in order')
    } finally {
      lease.close()
    }
  } finally {
    own.stop()
  }
})

test('redis restart: the generator mints on, then ERR_SNO_LEASE_PENDING until the new window opens; nextAsync waits through it (#42)', async () => {
  const own = await startStores(['redis']) // its own server: the test restarts it
  try {
    const lease = new Lease({ url: own.redis, namespace: NS, ttlMs: 4000 })
    try {
      const other = new Lease({ url: own.redis, namespace: NS, ttlMs: 4000 })
      assert.equal(new Generator({ lease: other }).maxWaitMs, 6000, 'the default: TTL + 2 s')
      other.close()
      const gen = new Generator({ lease, maxWaitMs: 100 })
      assert.equal(gen.maxWaitMs, 100, 'a chosen wait is kept')
      const before = gen.next()
      restart(own, 'redis')
      let pending
      let after
      for (const deadline = Date.now() + 30_000; after === undefined; ) {
        assert.ok(Date.now() < deadline, 'never minted again after the restart')
        try {
          const id = gen.tryNext()
          if (pending !== undefined) after = id
        } catch (e) {
          if (e.code === 'ERR_SNO_LEASE_PENDING') pending = e
          else assert.equal(e.code, 'ERR_SNO_LEASE_EXPIRED', String(e))
        }
        await sleep(5)
      }
      assert.ok(is(Error, 'ERR_SNO_LEASE_PENDING')(pending), String(pending))
      assert.match(pending.message, /restart or failover/)
      assert.equal(typeof pending.partition, 'number')
      assert.equal(typeof pending.retryAtUnixNs, 'bigint')
      assert.ok(after.unixNs >= pending.retryAtUnixNs && after.compare(before) > 0)
    } finally {
      lease.close()
    }
  } finally {
    own.stop()
  }
})
