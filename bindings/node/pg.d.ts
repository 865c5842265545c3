// Types of libsno/pg: node-postgres type parsers for ID columns. The module never loads `pg`.
import type { Id, Nanoflake, Scru128, Scru160, TypeId, Ulid, UlidFlake, Uuid7 } from './sno'

/** What `registerTypes` needs of a type registry: `pg.types` and a `pg.TypeOverrides` have it. */
export interface TypeRegistry {
  getTypeParser(oid: number, format: 'text'): (value: any) => unknown
  setTypeParser(oid: number, format: 'text', parseFn: (text: string) => any): void
}

/** A TypeID column: the prefix its values are read with (it is not stored: `''` for none). */
export interface TypeIdColumn {
  type: typeof TypeId
  prefix: string
}

/**
 * The class each PostgreSQL column type reads as (`Cls.columnType`, from the core's table, says
 * which column a class goes in: `bytes` in `bytea`, `uuid` in `uuid`, `bigint` in `bigint`).
 */
export interface PgColumns {
  /** sno or SCRU160 (their binary form). */
  bytea?: typeof Id | typeof Scru160
  /** ULID, UUIDv7, SCRU128 (the 128 bits), or a TypeID with its column's prefix. */
  uuid?: typeof Ulid | typeof Uuid7 | typeof Scru128 | TypeIdColumn
  /** Nanoflake or Ulid-Flake (the 64 bits; never negative). */
  bigint?: typeof Nanoflake | typeof UlidFlake
}

/**
 * Sets the text parsers of the column types named in `columns` on `types` (`pg.types`, or a
 * `new pg.TypeOverrides()` given to one client or pool): every column of that type then reads
 * as the class; NULL stays null. A value the class cannot hold (a `bytea` of the wrong length, a
 * negative `bigint`, a UUID that is not a version 7 one for `Uuid7`) throws libsno's error
 * (`code` `ERR_SNO_*`) and the query rejects with it. A class in a column of another type, or
 * an unknown key, or a TypeId without its prefix is a TypeError, a prefix the TypeID spec refuses
 * a RangeError (ERR_SNO_INVALID_PREFIX), all checked before any parser is set.
 *
 * Writing needs nothing from here: an ID's `toPostgres()` gives the text its column reads.
 */
export declare function registerTypes(types: TypeRegistry, columns: PgColumns): void

declare const pg: {
  registerTypes: typeof registerTypes
}
export default pg
