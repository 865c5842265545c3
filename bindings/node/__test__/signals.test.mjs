// releaseOnSignals(): SIGINT (Ctrl-C), SIGTERM and SIGHUP release the process-wide lease, then
// the process ends as it would have. Child processes lease on SNO_LEASE_URL from a real
// PostgreSQL with 600 s grants: a partition freed only by its grant's expiry would still show
// as held (the store is asked directly, sno_partition_leases.expires_at).
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { startStores } from './stores.mjs'

const INDEX = fileURLToPath(new URL('../index.mjs', import.meta.url))

let stores
before(async () => {
  stores = await startStores(['pg'])
})
after(() => stores?.stop())

// Leases, says on which partition, then waits (a timer keeps the loop alive). argv: 'release'
// calls releaseOnSignals() (twice: idempotent), 'graceful' then adds a SIGTERM listener of the
// application's.
const HOLDER = `
const sno = await import(${JSON.stringify(INDEX)})
const args = process.argv.slice(1)
if (args.includes('release')) {
  sno.releaseOnSignals()
  sno.releaseOnSignals()
  if (process.listenerCount('SIGTERM') !== 1) throw new Error('not idempotent')
}
if (args.includes('graceful')) process.on('SIGTERM', () => { console.log('graceful'); process.exit(3) })
console.log(sno.newId().partition)
setInterval(() => {}, 1 << 30)
`

/** Whether the store holds a live grant of `partition` in `namespace`. */
function held(namespace, partition) {
  const sql = `SELECT count(*) FROM sno_partition_leases WHERE namespace = '${namespace}' AND partition = ${partition} AND expires_at > clock_timestamp()`
  const out = execFileSync('psql', ['-qtA', '-h', '127.0.0.1', '-p', String(stores.pgPort), '-U', 'postgres', '-d', 'postgres', '-c', sql], { encoding: 'utf8' })
  return out.trim() === '1'
}

/** A child leasing `partition` (600 s) in a namespace of its own, once it holds the lease. */
async function start(partition, ...args) {
  const namespace = `node-signals-${process.pid}-${partition}`
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SNO_')))
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER, ...args], {
    env: { ...clean, SNO_LEASE_URL: stores.pg, SNO_LEASE_NAMESPACE: namespace, SNO_LEASE_TTL: '600s', SNO_LEASE_PARTITIONS: `${partition}-${partition}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const lines = []
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => lines.push(...d.split('\n').filter(Boolean)))
  // 'close': the process ended and its output was read to the end.
  const ended = once(child, 'close')
  let closed = false
  while (lines.length === 0 && !closed) closed = await Promise.race([once(child.stdout, 'data').then(() => false), ended.then(() => true)])
  assert.deepEqual(lines, [String(partition)], stderr)
  assert.ok(held(namespace, partition), 'leased')
  return { child, namespace, lines, ended, stderr: () => stderr }
}

for (const [signal, partition] of [['SIGTERM', 31], ['SIGINT', 32], ['SIGHUP', 33]]) {
  test(`${signal}: released at once, then the process ends by the signal`, async () => {
    const { child, namespace, ended, stderr } = await start(partition, 'release')
    child.kill(signal)
    const [code, by] = await ended
    assert.deepEqual([code, by], [null, signal], stderr())
    assert.equal(held(namespace, partition), false, 'the 600 s grant was released')
  })
}

test('without releaseOnSignals(), SIGTERM keeps the partition for the TTL (the documented default)', async () => {
  const { child, namespace, ended } = await start(34)
  child.kill('SIGTERM')
  assert.deepEqual(await ended, [null, 'SIGTERM'])
  assert.equal(held(namespace, 34), true)
})

test("a listener of the application's decides how the process ends, the partition released first", async () => {
  const { child, namespace, lines, ended, stderr } = await start(35, 'release', 'graceful')
  child.kill('SIGTERM')
  assert.deepEqual(await ended, [3, null], stderr())
  assert.deepEqual(lines, ['35', 'graceful'])
  assert.equal(held(namespace, 35), false)
})
