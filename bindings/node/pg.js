'use strict'
// libsno/pg: node-postgres (`pg`) type parsers that read ID columns as libsno values. This
// module never loads `pg` (an optional peer dependency): the caller hands it the type registry
// to fill (`pg.types`, or a `new pg.TypeOverrides()` given to one client or pool). Writing needs
// nothing from here: every ID class has `toPostgres()`, so an ID is a query parameter as it is.
//
// Which class goes with which column comes from the core's format table (`Cls.columnType`,
// `Cls.FORMAT.postgresType`): sno, SCRU160 and KSUID in `bytea`, the 128-bit formats in
// `uuid`, the 64-bit ones in `bigint` (pg.d.ts lists them, generated from the table).
const native = require('./native.js')
const formats = require('./formats.js')
const { typeError, describe, checkOptions } = require('./value.js')

// PostgreSQL's type OIDs (pg_type.oid, fixed for the built-in types) of the column types.
const OIDS = { bytea: 17, uuid: 2950, bigint: 20 }

// The registry's own bytea parser behind each bytea parser set here, so that registering again
// (another class, another registry built on this one) decodes with it, not with an ID parser.
const BYTEA_BASE = new WeakMap()

const CLASSES = new Set(Object.values(formats).filter((v) => typeof v === 'function' && v.FORMAT !== undefined))

/** The ID class `Cls`, or a TypeError naming `where`. */
function checkClass(Cls, where) {
  if (!CLASSES.has(Cls)) throw typeError(`${where} must be a libsno ID class (Id, Ulid, …), got ${describe(Cls)}`)
  return Cls
}

// The params (a text part outside the binary form, such as a prefix: the core's table) the
// classes take, by name, with the classes that take each.
const PARAMS = {}
for (const Cls of CLASSES) if (Cls.FORMAT.param) (PARAMS[Cls.FORMAT.param.name] ??= []).push(Cls.name)

/**
 * The parser of `Cls`'s PostgreSQL column (its text form → a value of `Cls`); `base` is the
 * registry's own parser of that column (for bytea: the `\x` hex text → a Buffer). A class with a
 * param needs the column's (it is not stored); the others take none.
 */
function columnParser(Cls, options, where, base) {
  const given = checkOptions(options, where, Object.keys(PARAMS))
  const param = Cls.FORMAT.param
  for (const key of Object.keys(PARAMS)) {
    const own = key === param?.name
    if (own ? typeof given[key] !== 'string' : given[key] !== undefined) {
      const want = own ? `the column's ${Cls.FORMAT.displayName} ${key} (a string, '' for none: it is not stored), got ${describe(given[key])}` : `no ${key} (only ${PARAMS[key].join(', ')} takes one)`
      throw typeError(`${where}: ${Cls.name} needs ${want}`, own ? 'ERR_INVALID_ARG_TYPE' : 'ERR_INVALID_ARG_VALUE')
    }
  }
  const fromBinary = param && ((binary) => Cls[param.fromName](given[param.name], binary))
  // A param its rules refuse fails here (RangeError with the core's code), not at every read.
  if (fromBinary) fromBinary(new Uint8Array(Cls.FORMAT.binaryLen))
  switch (Cls.FORMAT.postgresType) {
    case 'bytea': {
      const decode = BYTEA_BASE.get(base) ?? base
      const parse = fromBinary ? (text) => fromBinary(decode(text)) : (text) => Cls.fromBytes(decode(text))
      BYTEA_BASE.set(parse, decode)
      return parse
    }
    case 'uuid':
      return fromBinary ? (text) => fromBinary(native.uuidBytes(text)) : (text) => Cls.fromUuid(text)
    case 'bigint':
      return (text) => Cls.fromBigInt(BigInt(text))
    default:
      throw new Error(`${where}: no PostgreSQL column type for ${Cls.name}`)
  }
}

/** [class, options] of a `registerTypes` entry: a class, or `{ type, <param> }` (`{ type, prefix }`). */
function entry(value, where) {
  if (typeof value === 'function') return [checkClass(value, where), undefined]
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { type, ...options } = value
    return [checkClass(type, `${where}.type`), options]
  }
  throw typeError(`${where} must be a libsno ID class or { type, prefix }, got ${describe(value)}`)
}

/**
 * Sets the text parsers of the columns named in `columns` on `types` (`pg.types`, or a
 * `pg.TypeOverrides` for one client): `{ bytea: Id, uuid: Ulid, bigint: Nanoflake }`, and for
 * a class with a param, the column's (`{ uuid: { type, <param>: … } }`: pg.d.ts names them).
 * Every column of that type then reads as the class (NULL stays null); a value the class
 * cannot hold throws the libsno error, and the query rejects with it. A class in a column of
 * another type is a TypeError.
 */
function registerTypes(types, columns) {
  const where = 'registerTypes'
  if (types === null || typeof types !== 'object' || typeof types.setTypeParser !== 'function' || typeof types.getTypeParser !== 'function') {
    throw typeError(`${where}(types, columns): types must be pg.types or a pg.TypeOverrides, got ${describe(types)}`)
  }
  const spec = checkOptions(columns, `${where}(types, columns)`, Object.keys(OIDS), false)
  // Every entry checked before any parser is set.
  const parsers = Object.entries(spec).map(([column, value]) => {
    const at = `${where}: columns.${column}`
    const [Cls, options] = entry(value, at)
    if (Cls.FORMAT.postgresType !== column) {
      throw typeError(`${at}: ${Cls.name} is stored in ${Cls.FORMAT.postgresType} columns, not ${column}`, 'ERR_INVALID_ARG_VALUE')
    }
    return [OIDS[column], columnParser(Cls, options, at, types.getTypeParser(OIDS[column], 'text'))]
  })
  for (const [oid, parse] of parsers) types.setTypeParser(oid, 'text', parse)
}

module.exports = { registerTypes }
