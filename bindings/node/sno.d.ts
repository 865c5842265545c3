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

declare const sno: {
  Id: typeof Id
  Generator: typeof Generator
  newId: typeof newId
  newIds: typeof newIds
  newString: typeof newString
  newStrings: typeof newStrings
  encodeMany: typeof encodeMany
  decodeMany: typeof decodeMany
}
export default sno
