// Compiled (not run) by types.test.mjs with `tsc --strict`: the public types describe the API.
import sno, { Generator, Id, Lease, MAX_BATCH, Nanoflake, Scru128, Ulid, Uuid7, newString, nanoflake, scru128, ulid, uuid7 } from '../sno'
import type { GeneratorOptions, LeaseOptions, SnoError } from '../sno'

const id: Id = sno.newId(1)
const text: string = newString()
const gen = new Generator({ partition: 3 })
const next: Id = gen.next()
const later: Promise<Id> = gen.nextAsync(2)
const options: GeneratorOptions = { snapshot: gen.snapshot(), maxWaitMs: 10 }
const waits: number = new Generator(options).maxWaitMs + MAX_BATCH
const flakes: Promise<Nanoflake> = new nanoflake.Generator({ epochMs: 0, generatorId: 1, maxWaitMs: 5 }).nextAsync()
const ulids: Promise<Ulid> = new ulid.Generator({ maxWaitMs: 0 }).nextAsync()
const retry = (e: SnoError): bigint | null | undefined => e.retryAtUnixNs
const a: Ulid = ulid.new()
const fromNs: Ulid = ulid.Ulid.parse(a.toString())
const u: Uuid7 = new uuid7.Generator().nextAt(1_700_000_000_000)
const lenient: Uuid7 = Uuid7.parseLenient('017f22e279b07cc398c4dc0c0c07398f')
const randB: bigint = u.randB
const back: Ulid = u.toUlid()
const s: Scru128 = scru128.Scru128.fromBytes(new Uint8Array(16))
const fields: number[] = [s.counterHi, s.counterLo, s.entropy, a.unixMs]
const texts: string[] = sno.uuid7.newStrings(2)
const ordered: -1 | 0 | 1 = a.compare(back)
const when: Date = s.timestamp
const raw: Buffer = a.bytes
const leaseOptions: LeaseOptions = { url: 'redis://:pw@127.0.0.1:6379/', namespace: 'orders', ttlMs: 15_000, partitions: [0, 1023], timeoutMs: 2000 }
const lease: Lease = new Lease(leaseOptions)
const acquired: Promise<Lease> = Lease.acquire({ url: 'postgres://app@db/app', marginMs: 500 })
const fromEnv: Lease = sno.Lease.fromEnv()
const leased = new Generator({ lease, sequenceMax: 4095 })
const held: Lease | null = leased.lease
const grant: [number, bigint, Date, string, string, boolean] = [lease.partition, lease.token, lease.expiresAt, lease.namespace, lease.holder, lease.closed]
const renewal: string | undefined = lease.lastError?.code
const expiredOn = (e: SnoError): number | undefined => e.partition
lease.close()
lease[Symbol.dispose]()
export { id, text, next, later, waits, flakes, ulids, retry, fromNs, lenient, randB, fields, texts, ordered, when, raw, acquired, fromEnv, held, grant, renewal, expiredOn }
