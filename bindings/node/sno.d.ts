// Public types of libsno for Node.js (the generated index.d.ts describes the native layer).
// Self-sufficient: they compile with or without @types/node. `Symbol.dispose` comes from
// TypeScript's own disposable library (TypeScript >= 5.2), and `bytes` is Node's Buffer where
// Node's types are loaded, else the Uint8Array every Buffer is.
/// <reference lib="esnext.disposable" />

/**
 * The type of the binary form: Node's `Buffer` when `@types/node` is loaded (a global `Buffer`
 * exists), else `Uint8Array` (which a Buffer is).
 */
export type Bytes = typeof globalThis extends { Buffer: { alloc(size: number): infer B } } ? B : Uint8Array

/**
 * What every ID class has (built natively from the core's format table). A value is immutable
 * and holds its canonical text; `String(v)`, `` `${v}` `` and `JSON.stringify` give that text.
 */
declare abstract class IdValue<Fields> {
  /** The canonical text. */
  toString(): string
  /** JSON form: the text. */
  toJSON(): string
  /** String conversion: the text. */
  [Symbol.toPrimitive](hint: string): string
  /** The binary form, as a new Buffer (`Bytes`: a `Uint8Array` without Node's types). */
  get bytes(): Bytes
  /** The binary form read as one unsigned big-endian integer. */
  get bigint(): bigint
  /**
   * node-postgres's parameter hook: the text the class's column (`columnType`) reads, so that
   * the value is a query parameter as it is (also inside an array parameter): `bytea`'s `\x`
   * hex form, the UUID text (a TypeID's suffix UUID), or the decimal integer.
   */
  toPostgres(): string
  /** The named fields (the core's, in camel case: numbers up to 53 bits, wider ones bigints). */
  fields(): Fields
  /** -1, 0 or 1 by value order (time first). */
  compare(other: this): -1 | 0 | 1
  /** Whether both are the same value. */
  equals(other: this): boolean
}

/** What the classes whose values carry their time have (all but `Nanoflake`). */
declare abstract class TimedValue<Fields> extends IdValue<Fields> {
  /** Milliseconds since the Unix epoch (for sno, the start of the ID's 4 ms unit). */
  get unixMs(): number
  /** Nanoseconds since the Unix epoch. */
  get unixNs(): bigint
  /** The time as a Date (an Invalid Date past the year 275760). */
  get timestamp(): Date
}

/** The named fields of an `Id`. */
export interface IdFields {
  /** The raw timestamp: 4 ms units since 2010-01-01T00:00:00Z. */
  units: number
  /** The tick-tock bit (flips when the generator survives a clock regression). */
  tickTock: boolean
  meta: number
  partition: number
  sequence: number
}

/** A sno ID: ordered by time; `String(id)` is the canonical 16-character form. */
export declare class Id extends TimedValue<IdFields> {
  /** Strictly decodes the text form (16 characters of `[2-9a-x]`); throws ERR_SNO_INVALID_*. */
  static parse(text: string): Id
  /** Takes the 10-byte binary form. */
  static fromBytes(bytes: Uint8Array): Id
  /** From the 80-bit integer (0 ..= 2^80 - 1, else a RangeError ERR_SNO_VALUE_OVERFLOW). */
  static fromBigInt(value: bigint): Id
  /** The recommended database column (the core's table): PostgreSQL `bytea`, SQLite `BLOB`. */
  static readonly columnType: 'bytes'
  /** From the fields (a timestamp above 2^39 - 1 units: ERR_SNO_TIMESTAMP_OVERFLOW). */
  static fromFields(fields: IdFields): Id
  /** Validates like `Id.parse`. */
  constructor(text: string)
  get units(): number
  get tickTock(): boolean
  /** The meta byte. */
  get meta(): number
  get partition(): number
  get sequence(): number
}

// The plain-object types are the native layer's, generated from the Rust structs.
import type { Snapshot, Stats } from './index'
export type { Snapshot, Stats }

/** The most IDs one batch call makes (`newStrings`, `newIds`, `newMany`): 16 777 216. */
export declare const MAX_BATCH: number

/**
 * What the errors thrown by libsno carry besides `message`: `code` is `ERR_SNO_<KIND>` for
 * libsno's own errors, `ERR_INVALID_ARG_TYPE` / `ERR_INVALID_ARG_VALUE` (on a `TypeError`) for
 * an argument of the wrong type or an unknown option. Values out of range are `RangeError`s.
 */
export interface SnoError extends Error {
  code: string
  /** Decode errors: the UTF-8 byte position of the first bad byte (the length, for a wrong length). */
  position?: number
  /** ERR_SNO_SEQUENCE_EXHAUSTED, ERR_SNO_CLOCK_REGRESSION, ERR_SNO_RANDOMNESS_EXHAUSTED,
   * ERR_SNO_CLOCK_ROLLBACK: the Unix time (ns) from which a retry can succeed; null: never. */
  retryAtUnixNs?: bigint | null
  /** ERR_SNO_BATCH_TOO_LARGE: the largest count accepted. */
  max?: number
  /** `decodeMany`: the index of the bad item. */
  index?: number
  /** ERR_SNO_LEASE_EXPIRED, ERR_SNO_LEASE_LOST, ERR_SNO_FORKED: the partition concerned. */
  partition?: number
}

/** Options of `new Generator(options?)`; any other key is a TypeError. */
export interface GeneratorOptions {
  /** 0 ..= 65535 (default: a random partition per process, + 1 per generator). */
  partition?: number
  /** The sequence pool's bounds, at least 4 values (default 0 ..= 65535). */
  sequenceMin?: number
  sequenceMax?: number
  /** A state saved by `snapshot()`; refused (ERR_SNO_SNAPSHOT_AHEAD) when it lies more than
   * `maxWaitMs` ahead of the clock. */
  snapshot?: Snapshot
  /** The longest `next()` / `nextAsync()` wait, 0 ..= 2^31 - 1 ms (default 5000). */
  maxWaitMs?: number
  /**
   * Mint on this lease's partition, only inside the window of time its grant owns (one
   * generator per lease: a second is ERR_SNO_LEASE_UNAVAILABLE). Not with `partition` or
   * `snapshot` (a TypeError, ERR_INCOMPATIBLE_OPTION_PAIR).
   */
  lease?: Lease
  /** The clock (see `Clock`; default `'precise'`). */
  clock?: Clock
}

/**
 * A generator's time source: `'precise'` reads the operating system's clock on every call;
 * `'fast'` reads a cached `CLOCK_REALTIME` value that a ticker thread refreshes every 0.5 ms
 * (a few nanoseconds to read; never ahead of the OS clock, less than 1 ms behind it in steady state;
 * a stalled ticker only delays time, never repeats an ID). Another string is a RangeError
 * (ERR_SNO_UNKNOWN_CLOCK), another type a TypeError. The process-wide generators take theirs
 * from the `SNO_CLOCK` environment variable.
 */
export type Clock = 'precise' | 'fast'

/** Options of `new Lease(options)` and `Lease.acquire(options)`; any other key is a TypeError. */
export interface LeaseOptions {
  /**
   * The store: `postgres://user:password@host:port/db` (its table is created on first use; also
   * libpq's key=value form) or `redis://:password@host:port/` (also `redis+unix://`). TLS:
   * PostgreSQL's `sslmode=disable|allow|prefer|require|verify-ca|verify-full` and
   * `sslrootcert=<PEM file>|system`, Redis' `rediss://…?ssl_ca_certs=<PEM file>` (the system's
   * roots without it). Messages never show the password.
   */
  url: string
  /** The set of partitions leased together: 1 ..= 64 bytes of `A-Z a-z 0-9 _ - . :` (default 'default'). */
  namespace?: string
  /** How long a grant lasts without renewal, 1000 ..= 3600000 ms (default 15000); renewed every third of it. */
  ttlMs?: number
  /** The partitions leased from, inclusive (default [0, 65535]). */
  partitions?: readonly [first: number, last: number]
  /** How much before the store's expiry minting stops (default a tenth of the TTL, at most 1000);
   * at most half the TTL. */
  marginMs?: number
  /** The longest one call to the store may take, 100 ..= 60000 ms (default 10000). */
  timeoutMs?: number
}

/**
 * A partition of a namespace leased from PostgreSQL or Redis for this process: renewed by a
 * thread of its own every third of the TTL, released by `close()` (an unclosed lease lapses
 * when its TTL runs out). Errors: ERR_SNO_LEASE_INVALID_URL, ERR_SNO_LEASE_INVALID_OPTIONS (a
 * RangeError), ERR_SNO_LEASE_UNREACHABLE, ERR_SNO_LEASE_AUTHENTICATION_FAILED,
 * ERR_SNO_LEASE_TLS_FAILED (the store's certificate refused: unknown CA, wrong host name,
 * expired; or the TLS handshake failed), ERR_SNO_LEASE_NO_FREE_PARTITION, ERR_SNO_LEASE_STORE.
 */
export declare class Lease {
  /**
   * Leases a partition, **blocking the thread** (the event loop included) for the calls to the
   * store (each at most `timeoutMs`) and, for a partition released a moment ago or a Redis
   * namespace's first grant, until the grant's window starts (at most one TTL). In servers
   * prefer `Lease.acquire`.
   */
  constructor(options: LeaseOptions)
  /** Leases a partition on a worker thread; the event loop runs on. */
  static acquire(options: LeaseOptions): Promise<Lease>
  /**
   * Leases from `SNO_LEASE_URL`, with `SNO_LEASE_NAMESPACE`, `SNO_LEASE_TTL` and
   * `SNO_LEASE_PARTITIONS` (blocking, as the constructor). Unset: ERR_SNO_INVALID_ENVIRONMENT.
   */
  static fromEnv(): Lease
  /** The partition leased now (if the lease is lost, a new one is leased and this changes). */
  get partition(): number
  /** The fencing token of the current grant: above every earlier grant's in the namespace. */
  get token(): bigint
  /** When the store lets the grant lapse unless it is renewed (the store's clock). */
  get expiresAt(): Date
  get namespace(): string
  /** The holder name stored with the grant: `host/pid/random`. */
  get holder(): string
  get closed(): boolean
  /** The last renewal's error (ERR_SNO_LEASE_*), or null once a renewal succeeds. */
  get lastError(): SnoError | null
  /** Stops renewing and releases the partition (one call to the store, blocking, at most
   * `timeoutMs`); the generator then throws ERR_SNO_LEASE_EXPIRED. Idempotent. */
  close(): void
  /** `close()`: `using lease = new Lease(...)` (Node 24). */
  [Symbol.dispose](): void
}

/** A thread-safe generator with its own partition and sequence bounds, or a lease's. */
export declare class Generator {
  constructor(options?: GeneratorOptions | null)
  /**
   * The next ID; when the pool is used up or the clock went back, **blocks the thread** (the
   * event loop included) until a retry can succeed, for at most `maxWaitMs`; then throws as
   * `tryNext` does. A leased generator also waits while its lease is not renewed. In servers
   * prefer `nextAsync`.
   */
  next(meta?: number): Id
  /** The next ID; waits with a timer, never blocking the event loop (at most `maxWaitMs`; then
   * rejects with the error `tryNext` throws). */
  nextAsync(meta?: number): Promise<Id>
  /** The next ID, or at once ERR_SNO_SEQUENCE_EXHAUSTED / ERR_SNO_CLOCK_REGRESSION (with
   * `retryAtUnixNs`); leased, also ERR_SNO_LEASE_EXPIRED (the lease closed, or not renewed in
   * time: with `partition`). */
  tryNext(meta?: number): Id
  /** An ID for a given time, with its own wrapping sequence (porting, back-filling). Not for a
   * leased generator (a TypeError, ERR_SNO_LEASED_GENERATOR). */
  nextWithTime(meta: number, date: Date): Id
  /** The state as a plain object that round-trips through JSON. Not for a leased generator
   * (a TypeError, ERR_SNO_LEASED_GENERATOR). */
  snapshot(): Snapshot
  stats(): Stats
  get partition(): number
  get capacity(): number
  /** The longest `next()` / `nextAsync()` wait, in ms. */
  get maxWaitMs(): number
  /** The lease given as option `lease`, or null. */
  get lease(): Lease | null
}

/**
 * A new ID from the process-wide generator: on the partition `SNO_PARTITION` fixes, or on one
 * leased from the store `SNO_LEASE_URL` names (the first call leases it, blocking), else on a
 * random one. Both variables set, or an invalid value, throw at every call.
 */
export declare function newId(meta?: number): Id
/** `n` new IDs from the process-wide generator (`n` at most `MAX_BATCH`, else a RangeError). */
export declare function newIds(n: number, meta?: number): Id[]
/**
 * Releases the process-wide generator's lease (`SNO_LEASE_URL`), if this process took one: its
 * partition is free for the next holder at once instead of one TTL later. Returns whether one
 * was released. Called on the process's `exit` event (main thread); call it yourself before a
 * signal ends the process. A later `newId()` leases anew. Blocks for one call to the store.
 */
export declare function releaseProcessLease(): boolean
/** A new ID's text form: the fastest way to get an ID. */
export declare function newString(meta?: number): string
/** `n` new IDs' text forms, encoded in one SIMD batch. */
export declare function newStrings(n: number, meta?: number): string[]
/** The text forms of `ids` (an `Id` holds its text, so this is a type-checked map). */
export declare function encodeMany(ids: readonly Id[]): string[]
/**
 * Strictly decodes many text forms, validated in one SIMD batch. A bad item throws the same
 * error as `Id.parse` would, with `index` set to the item and `item N: ` before the message.
 */
export declare function decodeMany(texts: readonly string[]): Id[]
/**
 * The value of the one format `text` is written in, through the core's detection (as
 * `sno inspect`). Throws an `Error` with code `ERR_SNO_AMBIGUOUS_FORMAT` when several formats (or
 * only a Nanoflake) read it, `ERR_SNO_UNRECOGNIZED_FORMAT` when none does.
 */
export declare function detect(text: string): Id | Ulid | Uuid7 | Scru128 | Scru160 | Nanoflake | UlidFlake | TypeId | Ksuid

/** What the 128-bit classes share (ULID, UUIDv7, SCRU128). */
declare abstract class Value128<Fields> extends TimedValue<Fields> {
  /** The 128 bits as a hyphenated lower-case UUID (whatever their version): UUID interop by text. */
  get uuid(): string
}

/** The named fields of a `Ulid`. */
export interface UlidFields {
  unixMs: number
  /** The 80 random bits. */
  randomness: bigint
}

/** A ULID: 48-bit ms timestamp + 80 random bits; 26 Crockford base32 characters. */
export declare class Ulid extends Value128<UlidFields> {
  /** Strictly decodes 26 Crockford base32 characters, either case; throws ERR_SNO_*. */
  static parse(text: string): Ulid
  /** Takes the 16-byte binary form. */
  static fromBytes(bytes: Uint8Array): Ulid
  /** From the 128-bit integer (ERR_SNO_VALUE_OVERFLOW: a RangeError, for a negative or wider one). */
  static fromBigInt(value: bigint): Ulid
  /** The recommended database column (the core's table): PostgreSQL `uuid`, SQLite `BLOB (16 bytes)`. */
  static readonly columnType: 'uuid'
  /** Takes the 128 bits from a hyphenated UUID text (either case; a `uuid` column's value). */
  static fromUuid(uuid: string): Ulid
  /** From the fields. */
  static fromFields(fields: UlidFields): Ulid
  /** Validates like `Ulid.parse`. */
  constructor(text: string)
  get randomness(): bigint
  /** The UUIDv7 with the same bits; throws ERR_SNO_NOT_VERSION_7 unless they carry v7. */
  toUuid7(): Uuid7
}

/** The named fields of a `Uuid7`. */
export interface Uuid7Fields {
  unixMs: number
  /** Always 7. */
  version: number
  /** The 12-bit rand_a field (the high part of the RFC 9562 Method 1 counter). */
  randA: number
  /** Always 2 (0b10). */
  variant: number
  /** The 62-bit rand_b field. */
  randB: bigint
}

/** A UUIDv7 (RFC 9562); hyphenated lower case out. */
export declare class Uuid7 extends Value128<Uuid7Fields> {
  /** Strictly decodes the hyphenated form (either case) or `urn:uuid:` + it; must be v7. */
  static parse(text: string): Uuid7
  /** Like `parse`, also accepting 32 bare hex digits and `{...}`. */
  static parseLenient(text: string): Uuid7
  /** Takes the 16-byte binary form (version 7 and the RFC variant required). */
  static fromBytes(bytes: Uint8Array): Uuid7
  /** From the 128-bit integer (version 7 and the RFC variant required). */
  static fromBigInt(value: bigint): Uuid7
  /** The recommended database column (the core's table): PostgreSQL `uuid`, SQLite `BLOB (16 bytes)`. */
  static readonly columnType: 'uuid'
  /** Takes the 128 bits from a hyphenated UUID text (either case; a `uuid` column's value). */
  static fromUuid(uuid: string): Uuid7
  /** From the fields (version and variant are set). */
  static fromFields(fields: Omit<Uuid7Fields, 'version' | 'variant'>): Uuid7
  /** Validates like `Uuid7.parse`. */
  constructor(text: string)
  get randA(): number
  get randB(): bigint
  get version(): number
  get variant(): number
  /** The ULID with the same 128 bits. */
  toUlid(): Ulid
}

/** The named fields of a `Scru128`. */
export interface Scru128Fields {
  unixMs: number
  counterHi: number
  counterLo: number
  entropy: number
}

/** A SCRU128 ID: 48-bit ms, 24-bit counter_hi, 24-bit counter_lo, 32-bit entropy; 25 base36 digits. */
export declare class Scru128 extends Value128<Scru128Fields> {
  /** Strictly decodes 25 base36 digits, either case; throws ERR_SNO_*. */
  static parse(text: string): Scru128
  /** Takes the 16-byte binary form. */
  static fromBytes(bytes: Uint8Array): Scru128
  /** From the 128-bit integer (at most the SCRU128 maximum). */
  static fromBigInt(value: bigint): Scru128
  /** The recommended database column (the core's table): PostgreSQL `uuid`, SQLite `BLOB (16 bytes)`. */
  static readonly columnType: 'uuid'
  /** Takes the 128 bits from a hyphenated UUID text (either case; a `uuid` column's value). */
  static fromUuid(uuid: string): Scru128
  /** From the fields. */
  static fromFields(fields: Scru128Fields): Scru128
  /** Validates like `Scru128.parse`. */
  constructor(text: string)
  get counterHi(): number
  get counterLo(): number
  get entropy(): number
}

/** The named fields of a `Scru160`. */
export interface Scru160Fields {
  unixMs: number
  counter: number
  random16: number
  random80: bigint
}

/** A SCRU160 ID (deprecated by SCRU128; for existing data): 48-bit ms, 16-bit counter, 16-bit
 * random16, 80-bit random80; 32 base32hex characters (or 40 hex digits). */
export declare class Scru160 extends TimedValue<Scru160Fields> {
  /** Strictly decodes 32 base32hex characters or 40 hex digits, either case; throws ERR_SNO_*. */
  static parse(text: string): Scru160
  /** Takes the 20-byte binary form. */
  static fromBytes(bytes: Uint8Array): Scru160
  /** From the 160-bit integer. */
  static fromBigInt(value: bigint): Scru160
  /** The recommended database column (the core's table): PostgreSQL `bytea`, SQLite `BLOB`. */
  static readonly columnType: 'bytes'
  /** From the fields. */
  static fromFields(fields: Scru160Fields): Scru160
  /** Validates like `Scru160.parse`. */
  constructor(text: string)
  get counter(): number
  get random16(): number
  get random80(): bigint
  /** The 40 lower-case hex digits. */
  get hex(): string
}

/** The named fields of a `UlidFlake`. */
export interface UlidFlakeFields {
  /** Milliseconds since the epoch (43 bits). */
  timestampMs: number
  /** The low 20 bits: a stand-alone value's randomness. */
  randomness: number
  /** Bits 5-19: a scalable value's randomness. */
  scalableRandomness: number
  /** The low 5 bits: a scalable value's scalability id. */
  sid: number
}

/** A Ulid-Flake: 43-bit ms since an epoch (2024-01-01 by default), then 20 random bits, or 15
 * random bits and a 5-bit sid; 13 Crockford base32 characters; a non-negative int64. */
export declare class UlidFlake extends TimedValue<UlidFlakeFields> {
  /** Strictly decodes 13 Crockford base32 characters, either case, first at most '7'. */
  static parse(text: string): UlidFlake
  /** Takes the 8-byte big-endian binary form. */
  static fromBytes(bytes: Uint8Array): UlidFlake
  /** From the integer (0 ..= 2^63 - 1, else a RangeError ERR_SNO_VALUE_OVERFLOW). */
  static fromBigInt(value: bigint): UlidFlake
  /** The recommended database column (the core's table): PostgreSQL `bigint`, SQLite `INTEGER`. */
  static readonly columnType: 'bigint'
  /** From the timestamp and the 20 random bits (a scalable value's are its randomness and sid). */
  static fromFields(fields: Pick<UlidFlakeFields, 'timestampMs' | 'randomness'>): UlidFlake
  /** Validates like `UlidFlake.parse`. */
  constructor(text: string)
  /** Milliseconds since 1970, with the default epoch. */
  get unixMs(): number
  /** The time with the default epoch, as a Date. */
  get timestamp(): Date
  get timestampMs(): number
  get randomness(): number
  get scalableRandomness(): number
  get sid(): number
  /** Milliseconds since 1970 for IDs made with another epoch (an integer of ms: a TypeError / RangeError else). */
  unixMsAt(epochMs: number): number
  /** The time as a Date, given the epoch (as `unixMsAt`). */
  dateAt(epochMs: number): Date
  /** @deprecated renamed `unixMsAt`. */
  unixMsWithEpoch(epochMs: number): number
}

/** The named fields of a `Nanoflake`. */
export interface NanoflakeFields {
  /** Milliseconds since the application's epoch (41 bits). */
  timestampMs: number
  generatorId: number
  sequence: number
}

/** A Nanoflake: 41-bit ms since your epoch, 10-bit generator id, 12-bit sequence; base36 text
 * without padding; a non-negative int64. The value does not carry its epoch. */
export declare class Nanoflake extends IdValue<NanoflakeFields> {
  /** Strictly decodes 1 to 13 base36 digits, either case, at most 2^63 - 1. */
  static parse(text: string): Nanoflake
  /** Takes the 8-byte big-endian binary form. */
  static fromBytes(bytes: Uint8Array): Nanoflake
  /** From the integer (0 ..= 2^63 - 1, else a RangeError ERR_SNO_VALUE_OVERFLOW). */
  static fromBigInt(value: bigint): Nanoflake
  /** The recommended database column (the core's table): PostgreSQL `bigint`, SQLite `INTEGER`. */
  static readonly columnType: 'bigint'
  /** From the fields. */
  static fromFields(fields: NanoflakeFields): Nanoflake
  /** Validates like `Nanoflake.parse`. */
  constructor(text: string)
  /** Undefined: the value does not carry its epoch (`unixMsAt(epochMs)`). */
  readonly unixMs: undefined
  readonly unixNs: undefined
  readonly timestamp: undefined
  get timestampMs(): number
  get generatorId(): number
  get sequence(): number
  /** The timestamp as the Java/Kotlin/TypeScript references read it (`value >> 24`). */
  get referenceTimestampMs(): number
  /** The 13-digit zero-padded text, which sorts like the values. */
  get padded(): string
  /** Milliseconds since 1970, given the epoch (an integer of ms: a TypeError / RangeError else). */
  unixMsAt(epochMs: number): number
  /** The time as a Date, given the epoch (as `unixMsAt`). */
  dateAt(epochMs: number): Date
}

/** The named fields of a `TypeId`: its prefix, then its UUID's bits in the UUIDv7 layout. */
export interface TypeIdFields {
  /** The type prefix: empty, or 1 to 63 of `a-z` and `_`, starting and ending with a letter. */
  prefix: string
  unixMs: number
  version: number
  randA: number
  variant: number
  randB: bigint
}

/**
 * A TypeID (jetify-com/typeid, spec v0.3): a type prefix, `_`, and a UUID as 26 lower-case
 * Crockford base32 characters (`user_01h455vb4pex5vsknk084sn02q`). Any UUID is a valid suffix;
 * generation makes UUIDv7s. The binary form (`bytes`, `fromBytes`, `bigint`, `fromBigInt`) is
 * the UUID's 16 bytes, without the prefix (`fromBytes` gives an empty prefix: `fromUuid` attaches
 * one). Ordered by prefix, then by UUID.
 */
export declare class TypeId extends IdValue<TypeIdFields> {
  /** Strictly decodes the text (lower case only); errors: ERR_SNO_INVALID_PREFIX, ERR_SNO_INVALID_LENGTH, ERR_SNO_INVALID_BYTE (with `position`), ERR_SNO_VALUE_OVERFLOW. */
  static parse(text: string): TypeId
  /** Takes the UUID's 16 bytes (an empty prefix). */
  static fromBytes(bytes: Uint8Array): TypeId
  /** From the UUID as a 128-bit integer (an empty prefix). */
  static fromBigInt(value: bigint): TypeId
  /** The recommended database column (the core's table): PostgreSQL `uuid`, SQLite `BLOB (16 bytes)`. */
  static readonly columnType: 'uuid'
  /** From the prefix and a UUIDv7's fields (version and variant are set). */
  static fromFields(fields: Omit<TypeIdFields, 'version' | 'variant'>): TypeId
  /** A new TypeID: `prefix` (a RangeError ERR_SNO_INVALID_PREFIX if the spec refuses it) and a
   * UUIDv7 from the process-wide generator. */
  static generate(prefix: string): TypeId
  /** The TypeID of `prefix` and a UUID: a `Uuid7`, a UUIDv7's text, or 16 bytes of any version. */
  static fromUuid(prefix: string, uuid: Uuid7 | string | Uint8Array): TypeId
  /** Validates like `TypeId.parse`. */
  constructor(text: string)
  /** Milliseconds since 1970 when the UUID is a version 7 one, else undefined. */
  get unixMs(): number | undefined
  /** Nanoseconds since 1970 when the UUID is a version 7 one, else undefined. */
  get unixNs(): bigint | undefined
  /** The time as a Date when the UUID is a version 7 one, else undefined. */
  get timestamp(): Date | undefined
  get prefix(): string
  /** The 26-character base32 suffix. */
  get suffix(): string
  /** The UUID as hyphenated lower-case text. */
  get uuid(): string
  get version(): number
  get randA(): number
  get variant(): number
  get randB(): bigint
}

/** The named fields of a `Ksuid`. */
export interface KsuidFields {
  /** Seconds since the KSUID epoch, 2014-05-13T16:53:20Z (32 bits). */
  timestampSecs: number
  /** The 128-bit payload (random; +1 within a second from one generator). */
  payload: bigint
}

/** A KSUID (segmentio/ksuid): 32-bit seconds since 2014-05-13T16:53:20Z, then a 128-bit
 * payload; 27 base62 characters (`0-9A-Za-z`: case is part of the value). */
export declare class Ksuid extends TimedValue<KsuidFields> {
  /** Strictly decodes 27 base62 characters (above `aWgEPTl1tmebfsQzFP4bxwgy80V`: ERR_SNO_VALUE_OVERFLOW). */
  static parse(text: string): Ksuid
  /** Takes the 20-byte binary form. */
  static fromBytes(bytes: Uint8Array): Ksuid
  /** From the 160-bit integer. */
  static fromBigInt(value: bigint): Ksuid
  /** The recommended database column (the core's table): PostgreSQL `bytea`, SQLite `BLOB`. */
  static readonly columnType: 'bytes'
  /** From the fields. */
  static fromFields(fields: KsuidFields): Ksuid
  /** Validates like `Ksuid.parse`. */
  constructor(text: string)
  get timestampSecs(): number
  get payload(): bigint
}

/** A thread-safe monotonic generator of one format (`ulid.Generator`, ...). */
export interface FormatGenerator<T> {
  /** The next value, greater than every earlier one of this generator; **blocks** through a
   * used-up millisecond (or a Nanoflakes clock gone back) for at most `maxWaitMs`. */
  next(): T
  /** As `next`, but waits with a timer, never blocking the event loop. */
  nextAsync(): Promise<T>
  /** Like `next`, but throws where `next` would wait: ERR_SNO_RANDOMNESS_EXHAUSTED, or for
   * Nanoflakes ERR_SNO_CLOCK_ROLLBACK (with `retryAtUnixNs`). */
  tryNext(): T
  /** The next value for an explicit time in Unix milliseconds (the clock is not read). */
  nextAt(unixMs: number): T
  /** The longest `next()` / `nextAsync()` wait, in ms. */
  readonly maxWaitMs: number
}

/** What every format generator takes; any other key is a TypeError. */
export interface WaitOptions {
  /** The longest `next()` / `nextAsync()` wait, 0 ..= 2^31 - 1 ms (default 5000). */
  maxWaitMs?: number
  /** The clock (see `Clock`; default `'precise'`). */
  clock?: Clock
}

/** The functions of one format, drawing from its process-wide generator. */
export interface FormatNamespace<T, Options = WaitOptions> {
  Generator: new (options?: Options) => FormatGenerator<T>
  /** A new value. */
  new: () => T
  /** A new value's text. */
  newString(): string
  /** `n` new values' texts (`n` at most `MAX_BATCH`, and their total length a string V8 can
   * hold: about 14.9 M UUIDs; else a RangeError ERR_SNO_BATCH_TOO_LARGE). */
  newStrings(n: number): string[]
  /** `n` new values. */
  newMany(n: number): T[]
}

export declare const ulid: FormatNamespace<Ulid> & { Ulid: typeof Ulid }
export declare const uuid7: FormatNamespace<Uuid7> & { Uuid7: typeof Uuid7 }
export declare const scru128: FormatNamespace<Scru128> & { Scru128: typeof Scru128 }
export declare const scru160: FormatNamespace<Scru160> & { Scru160: typeof Scru160 }
export declare const ksuid: FormatNamespace<Ksuid> & { Ksuid: typeof Ksuid }

/** Settings of a Ulid-Flake generator. */
export interface UlidFlakeOptions extends WaitOptions {
  /** The epoch in Unix ms (default 2024-01-01). */
  epochMs?: number
  /** The scalable version's id, 0 ..= 31 (omitted: stand-alone). */
  sid?: number
  /** Random bytes per same-millisecond increment: 1 ..= 3 (scalable 1 ..= 2). */
  entropySize?: number
}
export declare const ulidflake: FormatNamespace<UlidFlake, UlidFlakeOptions> & { UlidFlake: typeof UlidFlake }

/** Settings of a Nanoflakes generator (both required). */
export interface NanoflakeOptions extends WaitOptions {
  /** The application's epoch in Unix ms. */
  epochMs: number
  /** 0 ..= 1023, distinct per generator. */
  generatorId: number
}
/** Nanoflakes have no process-wide generator: make one with your epoch and generator id. */
export declare const nanoflake: {
  Nanoflake: typeof Nanoflake
  Generator: new (options: NanoflakeOptions) => FormatGenerator<Nanoflake>
}

/** TypeIDs: generated with a prefix of your own. */
export declare const typeid: {
  TypeId: typeof TypeId
  /** A new TypeID (as `TypeId.generate`). */
  new: (prefix: string) => TypeId
  /** A new TypeID's text. */
  newString(prefix: string): string
}

declare const sno: {
  MAX_BATCH: number
  Id: typeof Id
  Generator: typeof Generator
  Lease: typeof Lease
  newId: typeof newId
  newIds: typeof newIds
  newString: typeof newString
  newStrings: typeof newStrings
  releaseProcessLease: typeof releaseProcessLease
  encodeMany: typeof encodeMany
  decodeMany: typeof decodeMany
  detect: typeof detect
  Ulid: typeof Ulid
  Uuid7: typeof Uuid7
  Scru128: typeof Scru128
  Scru160: typeof Scru160
  UlidFlake: typeof UlidFlake
  Nanoflake: typeof Nanoflake
  TypeId: typeof TypeId
  Ksuid: typeof Ksuid
  ulid: typeof ulid
  uuid7: typeof uuid7
  scru128: typeof scru128
  scru160: typeof scru160
  ulidflake: typeof ulidflake
  nanoflake: typeof nanoflake
  typeid: typeof typeid
  ksuid: typeof ksuid
}
export default sno
