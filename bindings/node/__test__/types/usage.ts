// Compiled (not run) by tsc.test.mjs with `tsc --strict`, with and without @types/node: every
// class, function, namespace and member of the public API (sno.d.ts, pg.d.ts) is used here
// with the type it must have, through the package's own name (package.json `exports`), and with
// nothing of Node's (no Buffer, no process), as a browser or
// Deno program would be; a declaration that is missing or wrong fails the compilation. Node's own
// types (Buffer, the pg module) are in node.ts.
import sno, {
  Generator,
  Id,
  Ksuid,
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
  ksuid,
  nanoflake,
  newId,
  newIds,
  newMany,
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
import pgHelpers, { registerTypes } from 'libsno/pg'
import type { PgColumns, TypeIdColumn, TypeRegistry } from 'libsno/pg'
import type {
  Bytes,
  Clock,
  FormatGenerator,
  FormatNamespace,
  GeneratorOptions,
  IdFields,
  KsuidFields,
  LeaseOptions,
  NanoflakeFields,
  NanoflakeOptions,
  Scru128Fields,
  Scru160Fields,
  SnoError,
  Snapshot,
  Stats,
  TypeIdFields,
  UlidFields,
  UlidFlakeFields,
  UlidFlakeOptions,
  Uuid7Fields,
  WaitOptions,
} from 'libsno'

// sno: the process-wide functions and batches.
const id: Id = sno.newId(1)
const plain: Id = newId()
const text: string = newString() + newString(3)
const ids: Id[] = newMany(10, 2)
const oldIds: Id[] = newIds(10, 2)
const texts: string[] = newStrings(10).concat(newStrings(3, 1))
const released: boolean = releaseProcessLease() || sno.releaseProcessLease()
const encoded: string[] = encodeMany(ids)
const decoded: Id[] = decodeMany(texts)
const detected: Id | Ulid | Uuid7 | Scru128 | Scru160 | Nanoflake | UlidFlake | TypeId | Ksuid = detect('brpk4q72xwf2m63l')
void detected
const max: number = MAX_BATCH + sno.MAX_BATCH

// The class every format shares, on Id.
const parsed: Id = Id.parse(text)
const made: Id[] = [new Id(text), Id.fromBytes(new Uint8Array(10)), Id.fromBigInt(1n), Id.fromFields(id.fields())]
const idFields: IdFields = { units: id.units, tickTock: id.tickTock, meta: id.meta, partition: id.partition, sequence: id.sequence }
const idTime: [number, bigint, Date] = [id.unixMs, id.unixNs, id.timestamp]
const idText: [string, string, string, string] = [id.toString(), id.toJSON(), `${id}`, id[Symbol.toPrimitive]('string')]
const idRaw: [Bytes, bigint, -1 | 0 | 1, boolean] = [id.bytes, id.bigint, id.compare(plain), id.equals(plain)]

// The sno Generator, its snapshot and stats (sno.d.ts's `Snapshot` and `Stats`, from the core's lists).
const gen = new Generator({ partition: 3 })
const next: Id = gen.next()
const later: Promise<Id> = gen.nextAsync(2)
const tried: Id = gen.tryNext(1)
const back: Id = gen.nextWithTime(0, new Date())
const snap: Snapshot = gen.snapshot()
const options: GeneratorOptions = { snapshot: snap, maxWaitMs: 10, sequenceMin: 0, sequenceMax: 4095 }
const stats: Stats = new Generator(options).stats()
const counts: number[] = [stats.overflows, stats.overflowEpisodes, stats.drifts, stats.regressions, stats.waits]
const state: number[] = [snap.partition, snap.sequenceMin, snap.sequenceMax, snap.sequence, snap.now, snap.wallHi, snap.wallSafe, snap.drifts]
const shape: number[] = [gen.partition, gen.capacity, gen.maxWaitMs]
const none: Lease | null = new Generator(null).lease

// Errors.
const retry = (e: SnoError): bigint | null | undefined => e.retryAtUnixNs
const where = (e: SnoError): [string, number | undefined, number | undefined, number | undefined, number | undefined] => [
  e.code,
  e.position,
  e.max,
  e.index,
  e.partition,
]

// Leases.
const leaseOptions: LeaseOptions = { url: 'redis://:pw@127.0.0.1:6379/', namespace: 'orders', ttlMs: 15_000, partitions: [0, 1023], marginMs: 500, timeoutMs: 2000 }
const lease: Lease = new Lease(leaseOptions)
const acquired: Promise<Lease> = Lease.acquire({ url: 'postgres://app@db/app', marginMs: 500 })
const fromEnv: Lease = sno.Lease.fromEnv()
const leased = new Generator({ lease, sequenceMax: 4095 })
const held: Lease | null = leased.lease
const grant: [number, bigint, Date, string, string, boolean] = [lease.partition, lease.token, lease.expiresAt, lease.namespace, lease.holder, lease.closed]
const renewal: string | undefined = lease.lastError?.code
lease.close()
lease[Symbol.dispose]()

// ULID.
const a: Ulid = ulid.new()
const ulidMade: Ulid[] = [ulid.Ulid.parse(a.toString()), new Ulid(a.toString()), Ulid.fromBytes(a.bytes), Ulid.fromBigInt(a.bigint), Ulid.fromFields(a.fields())]
const ulidFields: UlidFields = { unixMs: a.unixMs, randomness: a.randomness }
const ulidMore: [string, bigint, Date, Uuid7, string] = [a.uuid, a.unixNs, a.timestamp, a.toUuid7(), ulid.newString()]
const ulids: [Ulid[], string[]] = [ulid.newMany(2), ulid.newStrings(2)]
const ulidGen: FormatGenerator<Ulid> = new ulid.Generator({ maxWaitMs: 0 })
const ulidNext: [Ulid, Ulid, Ulid, Promise<Ulid>, number] = [ulidGen.next(), ulidGen.tryNext(), ulidGen.nextAtUnixMs(1), ulidGen.nextAsync(), ulidGen.maxWaitMs]

// UUIDv7.
const u: Uuid7 = new uuid7.Generator().nextAtUnixMs(1_700_000_000_000)
const uuidMade: Uuid7[] = [Uuid7.parse(u.toString()), Uuid7.parseLenient('017f22e279b07cc398c4dc0c0c07398f'), Uuid7.fromBytes(u.bytes), Uuid7.fromBigInt(u.bigint), Uuid7.fromFields(u.fields()), uuid7.new()]
const uuidFields: Uuid7Fields = { unixMs: u.unixMs, version: u.version, randA: u.randA, variant: u.variant, randB: u.randB }
const uuidMore: [Ulid, string, -1 | 0 | 1] = [u.toUlid(), u.uuid, u.compare(uuid7.new())]

// SCRU128.
const s: Scru128 = scru128.Scru128.fromBytes(new Uint8Array(16))
const scruMade: Scru128[] = [Scru128.parse(s.toString()), Scru128.fromBigInt(0n), Scru128.fromFields(s.fields()), scru128.new()]
const scruFields: Scru128Fields = { unixMs: s.unixMs, counterHi: s.counterHi, counterLo: s.counterLo, entropy: s.entropy }
const scruMore: [string, Date, string[]] = [s.uuid, s.timestamp, sno.uuid7.newStrings(2)]

// SCRU160.
const t: Scru160 = scru160.new()
const s160Made: Scru160[] = [Scru160.parse(t.hex), Scru160.fromBytes(t.bytes), Scru160.fromBigInt(t.bigint), Scru160.fromFields(t.fields()), new scru160.Generator().next()]
const s160Fields: Scru160Fields = { unixMs: t.unixMs, counter: t.counter, random16: t.random16, random80: t.random80 }
const s160More: [bigint, string[], Scru160[]] = [t.unixNs, scru160.newStrings(1), scru160.newMany(1)]

// Ulid-Flake.
const flakeOptions: UlidFlakeOptions = { epochMs: 0, sid: 3, entropySize: 1, maxWaitMs: 5 }
const f: UlidFlake = new ulidflake.Generator(flakeOptions).next()
const flakeMade: UlidFlake[] = [UlidFlake.parse(f.toString()), UlidFlake.fromBytes(f.bytes), UlidFlake.fromBigInt(f.bigint), UlidFlake.fromFields(f.fields()), ulidflake.new()]
const flakeFields: UlidFlakeFields = { timestampMs: f.timestampMs, randomness: f.randomness, scalableRandomness: f.scalableRandomness, sid: f.sid }
const flakeTime: [number, Date, bigint, number, Date, number] = [f.unixMs, f.timestamp, f.unixNs, f.unixMsAt(0), f.dateAt(0), f.unixMsWithEpoch(0)]
const flakes: [string, string[], UlidFlake[]] = [ulidflake.newString(), ulidflake.newStrings(1), ulidflake.newMany(1)]

// Nanoflakes.
const nanoOptions: NanoflakeOptions = { epochMs: 0, generatorId: 1, maxWaitMs: 5 }
const nanoGen: FormatGenerator<Nanoflake> = new nanoflake.Generator(nanoOptions)
const n: Nanoflake = nanoGen.next()
const nanoMade: Nanoflake[] = [Nanoflake.parse(n.padded), nanoflake.Nanoflake.fromBytes(n.bytes), Nanoflake.fromBigInt(n.bigint), Nanoflake.fromFields(n.fields())]
const nanoFields: NanoflakeFields = { timestampMs: n.timestampMs, generatorId: n.generatorId, sequence: n.sequence }
const nanoTime: [number, Date, number, undefined, undefined, undefined] = [n.unixMsAt(0), n.dateAt(0), n.referenceTimestampMs, n.unixMs, n.unixNs, n.timestamp]
const flakesAsync: Promise<Nanoflake> = new nanoflake.Generator({ epochMs: 0, generatorId: 1 }).nextAsync()

// TypeID.
const ti: TypeId = TypeId.generate('user')
const tiMade: TypeId[] = [TypeId.parse(ti.toString()), new TypeId(ti.toString()), TypeId.fromBytes(ti.bytes), TypeId.fromBigInt(ti.bigint), TypeId.fromFields(ti.fields())]
const tiUuid: TypeId[] = [TypeId.fromUuid('user', ti.uuid), TypeId.fromUuid('user', u), TypeId.fromUuid('', new Uint8Array(16)), typeid.new('a'), typeid.TypeId.generate('b')]
const tiFields: TypeIdFields = { prefix: ti.prefix, unixMs: ti.fields().unixMs, version: ti.version, randA: ti.randA, variant: ti.variant, randB: ti.randB }
const tiMore: [string, string, number | undefined, bigint | undefined, Date | undefined, string, -1 | 0 | 1] = [ti.suffix, ti.uuid, ti.unixMs, ti.unixNs, ti.timestamp, typeid.newString('c'), ti.compare(tiMade[0])]

// KSUID.
const k: Ksuid = ksuid.new()
const ksuidMade: Ksuid[] = [Ksuid.parse(k.toString()), Ksuid.fromBytes(k.bytes), Ksuid.fromBigInt(k.bigint), Ksuid.fromFields(k.fields()), new ksuid.Generator().next(), sno.ksuid.Ksuid.parse(ksuid.newString())]
const ksuidFields: KsuidFields = { timestampSecs: k.timestampSecs, payload: k.payload }
const ksuidMore: [number, Date, string[], Ksuid[], 'bytes'] = [k.unixMs, k.timestamp, ksuid.newStrings(1), ksuid.newMany(1), Ksuid.columnType]

// Databases: column types, toPostgres, fromUuid, libsno/pg's parsers on pg.types and a client's.
const columns: ['bytes', 'uuid', 'uuid', 'uuid', 'bytes', 'bigint', 'bigint', 'uuid'] = [
  Id.columnType, Ulid.columnType, Uuid7.columnType, Scru128.columnType, Scru160.columnType, UlidFlake.columnType, Nanoflake.columnType, TypeId.columnType,
]
const params: string[] = [id.toPostgres(), a.toPostgres(), u.toPostgres(), s.toPostgres(), t.toPostgres(), f.toPostgres(), n.toPostgres(), ti.toPostgres()]
const fromUuids: [Ulid, Uuid7, Scru128] = [Ulid.fromUuid(a.uuid), Uuid7.fromUuid(u.uuid), Scru128.fromUuid(s.uuid)]
const tiColumn: TypeIdColumn = { type: TypeId, prefix: 'user' }
const pgColumns: PgColumns[] = [{ bytea: Id, uuid: Ulid, bigint: Nanoflake }, { bytea: Scru160, uuid: tiColumn, bigint: UlidFlake }, { uuid: Uuid7 }, { uuid: Scru128 }, { bytea: Ksuid }]
// A structural registry (pg.types and pg.TypeOverrides have this shape; node.ts uses them).
const parsers = new Map<number, (text: string) => unknown>()
const registry: TypeRegistry = {
  getTypeParser: (oid) => parsers.get(oid) ?? ((value: string) => value),
  setTypeParser: (oid, _format, parse) => void parsers.set(oid, parse),
}
registerTypes(registry, pgColumns[0])
pgHelpers.registerTypes(registry, pgColumns[1])
const registries: TypeRegistry[] = [registry]

// Clocks, `using` a lease, and an unknown error narrowed to a coded one.
const clock: Clock = 'fast'
const clocked = [new Generator({ partition: 1, clock }), new ulid.Generator({ clock: 'precise' })]
const acquireAndMint = async (): Promise<Id> => {
  using held = await Lease.acquire(leaseOptions)
  return new Generator({ lease: held }).nextAsync()
}
const failure = (e: unknown): string | undefined => {
  const err = e as SnoError
  return err instanceof Error ? `${err.code} ${err.position ?? ''} ${err.retryAtUnixNs ?? ''}` : undefined
}

// The namespace and option types.
const wait: WaitOptions = { maxWaitMs: 1 }
const namespaces: FormatNamespace<Ulid>[] = [ulid, sno.ulid]
const all = [sno.Ulid, sno.Uuid7, sno.Scru128, sno.Scru160, sno.UlidFlake, sno.Nanoflake, sno.TypeId, sno.typeid, sno.uuid7, sno.scru128, sno.scru160, sno.ulidflake, sno.nanoflake, sno.Id, sno.Generator, sno.newMany, sno.newIds, sno.newStrings, sno.newString, sno.encodeMany, sno.decodeMany, sno.detect]

export {
  clocked, acquireAndMint, failure,
  made, idFields, idTime, idText, idRaw, parsed, next, later, tried, back, counts, state, shape, none, retry, where, acquired, fromEnv, held, grant, renewal,
  ulidMade, ulidFields, ulidMore, ulids, ulidNext, uuidMade, uuidFields, uuidMore, scruMade, scruFields, scruMore, s160Made, s160Fields, s160More,
  tiMade, tiUuid, tiFields, tiMore, ksuidMade, ksuidFields, ksuidMore, columns, params, fromUuids, registries, flakeMade, flakeFields, flakeTime, flakes, nanoMade, nanoFields, nanoTime, flakesAsync, wait, namespaces, all, encoded, decoded, max,
}
