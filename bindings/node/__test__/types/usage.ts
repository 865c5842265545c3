// Compiled (not run) by tsc.test.mjs, with and without @types/node: a program using every export
// of `libsno` and `libsno/pg` through the package's own name (package.json `exports`), written
// with nothing of Node's (no Buffer, no process), as a browser or Deno program would be.
import sno, {
  Generator,
  Id,
  Lease,
  MAX_BATCH,
  Nanoflake,
  Scru128,
  Scru160,
  TypeId,
  Ulid,
  UlidFlake,
  Uuid7,
  decodeMany,
  detect,
  encodeMany,
  nanoflake,
  newId,
  newIds,
  newString,
  newStrings,
  releaseProcessLease,
  scru128,
  scru160,
  typeid,
  ulid,
  ulidflake,
  uuid7,
} from 'libsno'
import type { Clock, FormatGenerator, GeneratorOptions, LeaseOptions, SnoError, Snapshot, Stats } from 'libsno'
import pg, { registerTypes } from 'libsno/pg'
import type { PgColumns, TypeRegistry } from 'libsno/pg'

// sno IDs and the process-wide generator.
const id: Id = newId(7)
const text: string = newString() + newString(1)
const batch: [Id[], string[], string[], Id[]] = [newIds(2), newStrings(2, 3), encodeMany([id]), decodeMany([text])]
const raw: Uint8Array = id.bytes
const again: Id[] = [Id.parse(text), new Id(text), Id.fromBytes(raw), Id.fromBigInt(id.bigint), Id.fromFields(id.fields())]
const facts: [number, bigint, Date, number, boolean, number] = [id.unixMs, id.unixNs, id.timestamp, id.meta, id.tickTock, MAX_BATCH]
const released: boolean = releaseProcessLease()
const found = detect(text)

// A generator of one's own, its snapshot, stats and clock.
const clock: Clock = 'fast'
const options: GeneratorOptions = { partition: 1, sequenceMin: 0, sequenceMax: 4095, maxWaitMs: 0, clock }
const gen = new Generator(options)
const snap: Snapshot = gen.snapshot()
const stats: Stats = new Generator({ snapshot: snap }).stats()
const minted: [Id, Id, Promise<Id>, Id] = [gen.next(), gen.tryNext(1), gen.nextAsync(2), gen.nextWithTime(0, new Date())]

// Every other format: classes and namespaces.
const u: Ulid = ulid.new()
const v: Uuid7 = uuid7.Uuid7.parse(uuid7.newString())
const s: Scru128 = new scru128.Generator({ clock: 'precise' }).nextAt(1_700_000_000_000)
const t: Scru160 = scru160.new()
const f: UlidFlake = new ulidflake.Generator({ epochMs: 0, sid: 1 }).next()
const nanoGen: FormatGenerator<Nanoflake> = new nanoflake.Generator({ epochMs: 0, generatorId: 1 })
const n: Nanoflake = nanoGen.next()
const ti: TypeId = typeid.new('user')
const bytes: Uint8Array[] = [u.bytes, v.bytes, s.bytes, t.bytes, f.bytes, n.bytes, ti.bytes]
const more = [Ulid.fromUuid(u.uuid), Uuid7.parseLenient(v.uuid.replaceAll('-', '')), Scru128.fromBytes(s.bytes), Scru160.parse(t.hex), UlidFlake.fromBigInt(f.bigint), Nanoflake.parse(n.padded), TypeId.fromUuid('user', v)]
const times: [number, number, number | undefined, Date] = [f.unixMsAt(0), n.unixMsAt(0), ti.unixMs, n.dateAt(0)]
const all = [sno.Id, sno.Ulid, sno.Uuid7, sno.Scru128, sno.Scru160, sno.UlidFlake, sno.Nanoflake, sno.TypeId, sno.ulid, sno.uuid7, sno.scru128, sno.scru160, sno.ulidflake, sno.nanoflake, sno.typeid]

// Errors: a coded Error.
const failure = (e: unknown): string | undefined => {
  const err = e as SnoError
  return err instanceof Error ? `${err.code} ${err.position ?? ''} ${err.retryAtUnixNs ?? ''}` : undefined
}

// Leases: sync, async, from the environment; disposed by `using` or by its symbol.
const leaseOptions: LeaseOptions = { url: 'redis://127.0.0.1:6379/', namespace: 'orders', ttlMs: 15_000, partitions: [0, 1023] }
const acquire = async (): Promise<Id> => {
  using lease = await Lease.acquire(leaseOptions)
  const leased = new Generator({ lease })
  return leased.nextAsync()
}
const lease = new Lease(leaseOptions)
const grant: [number, bigint, Date, string, string, boolean, string | undefined] = [lease.partition, lease.token, lease.expiresAt, lease.namespace, lease.holder, lease.closed, lease.lastError?.code]
lease[Symbol.dispose]()
const fromEnv = (): Lease => sno.Lease.fromEnv()

// libsno/pg: a structural registry (pg.types has this shape).
const parsers = new Map<number, (text: string) => unknown>()
const registry: TypeRegistry = {
  getTypeParser: (oid) => parsers.get(oid) ?? ((value: string) => value),
  setTypeParser: (oid, _format, parse) => void parsers.set(oid, parse),
}
const columns: PgColumns = { bytea: Id, uuid: { type: TypeId, prefix: 'user' }, bigint: Nanoflake }
registerTypes(registry, columns)
pg.registerTypes(registry, { uuid: Ulid })

export { batch, again, facts, released, found, minted, stats, bytes, more, times, all, failure, acquire, grant, fromEnv }
