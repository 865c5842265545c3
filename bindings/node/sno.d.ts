// Public types of libsno for Node.js (the generated index.d.ts describes the native layer).

/** A sno ID: immutable, ordered by time; `String(id)` is the canonical 16-character form. */
export declare class Id {
  /** Strictly decodes the text form (16 characters of `[2-9a-x]`); throws ERR_SNO_INVALID_*. */
  static parse(text: string): Id
  /** Takes the 10-byte binary form. */
  static fromBytes(bytes: Uint8Array): Id
  /** Validates like `Id.parse`. */
  constructor(text: string)
  /** The 16-character text form. */
  toString(): string
  /** JSON form: the text. */
  toJSON(): string
  /** The 10 bytes, as a new Buffer. */
  get bytes(): Buffer
  /** Start of the ID's 4 ms unit. */
  get timestamp(): Date
  /** Start of the ID's 4 ms unit in milliseconds since the Unix epoch. */
  get unixMs(): number
  /** Start of the ID's 4 ms unit in nanoseconds since the Unix epoch. */
  get unixNs(): bigint
  /** The raw timestamp: 4 ms units since 2010-01-01T00:00:00Z. */
  get units(): number
  /** The tick-tock bit (flips when the generator survives a clock regression). */
  get tickTock(): boolean
  /** The meta byte. */
  get meta(): number
  /** The partition. */
  get partition(): number
  /** The sequence. */
  get sequence(): number
  /** -1, 0 or 1 by time order. */
  compare(other: Id): -1 | 0 | 1
  /** Whether both IDs are the same. */
  equals(other: Id): boolean
}

// The plain-object types are the native layer's, generated from the Rust structs.
import type { GeneratorOptions, Snapshot, Stats } from './index'
export type { GeneratorOptions, Snapshot, Stats }

/** A thread-safe generator with its own partition and sequence bounds. */
export declare class Generator {
  constructor(options?: GeneratorOptions | null)
  /** The next ID; blocks (at most until the next 4 ms unit) if the pool is used up. */
  next(meta?: number): Id
  /** The next ID, or at once ERR_SNO_SEQUENCE_EXHAUSTED / ERR_SNO_CLOCK_REGRESSION. */
  tryNext(meta?: number): Id
  /** An ID for a given time, with its own wrapping sequence (porting, back-filling). */
  nextWithTime(meta: number, date: Date): Id
  /** The state as a plain object that round-trips through JSON. */
  snapshot(): Snapshot
  stats(): Stats
  get partition(): number
  get capacity(): number
}

/** A new ID from the process-wide generator. */
export declare function newId(meta?: number): Id
/** `n` new IDs from the process-wide generator. */
export declare function newIds(n: number, meta?: number): Id[]
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

/** What ULID, UUIDv7 and SCRU128 values share. Values hold their canonical text. */
declare abstract class Value128 {
  /** The canonical text (upper-case ULID, lower-case UUID and SCRU128). */
  toString(): string
  /** JSON form: the text. */
  toJSON(): string
  /** The 16 bytes, as a new Buffer. */
  get bytes(): Buffer
  /** The 128-bit value. */
  get bigint(): bigint
  /** Milliseconds since the Unix epoch (48 bits). */
  get unixMs(): number
  /** The timestamp as a Date. */
  get timestamp(): Date
}

/** A ULID: 48-bit ms timestamp + 80 random bits; 26 Crockford base32 characters. */
export declare class Ulid extends Value128 {
  /** Strictly decodes 26 Crockford base32 characters, either case; throws ERR_SNO_*. */
  static parse(text: string): Ulid
  /** Takes the 16-byte binary form. */
  static fromBytes(bytes: Uint8Array): Ulid
  /** Validates like `Ulid.parse`. */
  constructor(text: string)
  /** The 80 random bits. */
  get randomness(): bigint
  /** The UUIDv7 with the same bits; throws ERR_SNO_NOT_VERSION_7 unless they carry v7. */
  toUuid7(): Uuid7
  compare(other: Ulid): -1 | 0 | 1
  equals(other: Ulid): boolean
}

/** A UUIDv7 (RFC 9562); hyphenated lower case out. */
export declare class Uuid7 extends Value128 {
  /** Strictly decodes the hyphenated form (either case) or `urn:uuid:` + it; must be v7. */
  static parse(text: string): Uuid7
  /** Like `parse`, also accepting 32 bare hex digits and `{...}`. */
  static parseLenient(text: string): Uuid7
  /** Takes the 16-byte binary form (version 7 and the RFC variant required). */
  static fromBytes(bytes: Uint8Array): Uuid7
  /** Validates like `Uuid7.parse`. */
  constructor(text: string)
  /** The 12-bit rand_a field (the high part of the RFC 9562 Method 1 counter). */
  get randA(): number
  /** The 62-bit rand_b field. */
  get randB(): bigint
  /** Always 7. */
  get version(): number
  /** Always 2 (0b10). */
  get variant(): number
  /** The ULID with the same 128 bits. */
  toUlid(): Ulid
  compare(other: Uuid7): -1 | 0 | 1
  equals(other: Uuid7): boolean
}

/** A SCRU128 ID: 48-bit ms, 24-bit counter_hi, 24-bit counter_lo, 32-bit entropy; 25 base36 digits. */
export declare class Scru128 extends Value128 {
  /** Strictly decodes 25 base36 digits, either case; throws ERR_SNO_*. */
  static parse(text: string): Scru128
  /** Takes the 16-byte binary form. */
  static fromBytes(bytes: Uint8Array): Scru128
  /** Validates like `Scru128.parse`. */
  constructor(text: string)
  get counterHi(): number
  get counterLo(): number
  get entropy(): number
  compare(other: Scru128): -1 | 0 | 1
  equals(other: Scru128): boolean
}

/** A thread-safe monotonic generator of one format (`ulid.Generator`, ...). */
export interface FormatGenerator<T> {
  /** The next value, greater than every earlier one of this generator. */
  next(): T
  /** Like `next`, but throws ERR_SNO_RANDOMNESS_EXHAUSTED where `next` would wait (ULID). */
  tryNext(): T
  /** The next value for an explicit time in Unix milliseconds (the clock is not read). */
  nextAt(unixMs: number): T
}

/** The functions of one format, drawing from its process-wide generator. */
export interface FormatNamespace<T> {
  Generator: new () => FormatGenerator<T>
  /** A new value. */
  new: () => T
  /** A new value's text. */
  newString(): string
  /** `n` new values' texts. */
  newStrings(n: number): string[]
  /** `n` new values. */
  newMany(n: number): T[]
}

export declare const ulid: FormatNamespace<Ulid> & { Ulid: typeof Ulid }
export declare const uuid7: FormatNamespace<Uuid7> & { Uuid7: typeof Uuid7 }
export declare const scru128: FormatNamespace<Scru128> & { Scru128: typeof Scru128 }

declare const sno: {
  Id: typeof Id
  Generator: typeof Generator
  newId: typeof newId
  newIds: typeof newIds
  newString: typeof newString
  newStrings: typeof newStrings
  encodeMany: typeof encodeMany
  decodeMany: typeof decodeMany
  Ulid: typeof Ulid
  Uuid7: typeof Uuid7
  Scru128: typeof Scru128
  ulid: typeof ulid
  uuid7: typeof uuid7
  scru128: typeof scru128
}
export default sno
