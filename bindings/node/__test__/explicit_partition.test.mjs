// A partition chosen by hand is refused while SNO_LEASE_URL is set: the process is one of a fleet
// whose partitions are leased, and the partition may be one another process holds by lease (the
// same IDs twice). One rule for every layer (sno_lease::check_explicit_partition), here through
// `new Generator({ partition })` and `{ snapshot }`; against a real PostgreSQL holding the
// partition by lease.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'

import { Generator, Lease, nanoflake, ulidflake } from '../index.mjs'
import { startStores } from './stores.mjs'

let stores
before(async () => {
  stores = await startStores(['pg'])
})
after(() => stores?.stop())

const refused = (e) => e.constructor === Error && e.code === 'ERR_SNO_INVALID_ENVIRONMENT' && e.message.includes('SNO_LEASE_URL: set beside a partition chosen by hand')

test('a partition chosen by hand is refused beside SNO_LEASE_URL', () => {
  const namespace = `node-explicit-${process.pid}`
  // Another process of the fleet holds partition 5 by lease.
  const held = new Lease({ url: stores.pg, namespace, partitions: [5, 5], ttlMs: 60_000 })
  const snapshot = new Generator().snapshot()
  process.env.SNO_LEASE_URL = stores.pg
  try {
    assert.throws(() => new Generator({ partition: 5 }), refused)
    assert.throws(() => new Generator({ snapshot }), refused)
    assert.throws(() => new Generator({ partition: 5, snapshot }), refused)
    // A default partition is no choice; a lease's generator takes the lease's.
    assert.ok(new Generator().next())
    const mine = new Lease({ url: stores.pg, namespace, partitions: [6, 6], ttlMs: 60_000 })
    assert.equal(new Generator({ lease: mine }).next().partition, 6)
    mine.close()
    // A Nanoflake generator id and a Ulid-Flake sid are no sno partitions: nothing leases them.
    assert.equal(new nanoflake.Generator({ epochMs: 1704067200000, generatorId: 5 }).next().generatorId, 5)
    assert.equal(new ulidflake.Generator({ sid: 5 }).next().sid, 5)
  } finally {
    delete process.env.SNO_LEASE_URL
    held.close()
  }
  assert.equal(new Generator({ partition: 5 }).partition, 5)
})
