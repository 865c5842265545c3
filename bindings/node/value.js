'use strict'
// What the two JavaScript builds share, beside the classes each builds from the core's format
// table (formats.js here, bindings/web/js/formats.js in the web build): the base of every value
// class (`Id`, `Ulid`, `Uuid7`, …, an immutable object holding the canonical text; canonical
// text is one per value, so equality needs no call into the core, nor does comparing in the
// formats whose text order is value order), the members each class gets alike from the table
// (`defineMembers`), the checks of arguments and options objects, and the wait of every
// `nextAsync` on a timer. It requires nothing: the web build's
// copy (bindings/web/js/value.js, an ES module) is written from this file by tests/surfaces.
// Edit this one.

const INSPECT = Symbol.for('nodejs.util.inspect.custom')
// The second argument of a class's constructor that marks its text as canonical already (made
// by the core), and the symbol-keyed members the classes share: not public API.
const TRUSTED = Symbol('sno.trusted')
const MAKE = Symbol('sno.make')
const FIELDS = Symbol('sno.fields')

/** A TypeError with code ERR_INVALID_ARG_TYPE (an argument of the wrong type), or `code`. */
function typeError(message, code = 'ERR_INVALID_ARG_TYPE') {
  const err = new TypeError(message)
  err.code = code
  return err
}

/** `typeof value`, with null and arrays named. */
function describe(value) {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}

/**
 * The options object of `where`: `undefined` (or, where `nullable`, `null`) reads as `{}`; any
 * other non-object is a TypeError, and so is a key not in `keys` (ERR_INVALID_ARG_VALUE).
 */
function checkOptions(options, where, keys, nullable = true) {
  if (options === undefined || (nullable && options === null)) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw typeError(`${where}: options must be an object, got ${describe(options)}`)
  }
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) {
      throw typeError(`${where}: unknown option '${key}' (known: ${keys.join(', ')})`, 'ERR_INVALID_ARG_VALUE')
    }
  }
  return options
}

/** The `clock` option: undefined (the precise clock) or a string the core names ('precise',
 * 'fast'; another string is a RangeError ERR_SNO_UNKNOWN_CLOCK from the core). */
function clockOption(options, where) {
  const value = options.clock
  if (value !== undefined && typeof value !== 'string') {
    throw typeError(`${where}: option clock must be a string ('precise' or 'fast'), got ${describe(value)}`)
  }
  return value
}

/** Option `key` of `options`: a value of `type` ('number', 'string'), or undefined when absent (a
 * TypeError where `required`). */
function typedOption(type, options, key, where, required = false, label = key) {
  const value = options[key]
  if (value === undefined && !required) return undefined
  if (typeof value !== type) {
    const what = value === undefined ? 'missing' : `got ${describe(value)}`
    throw typeError(`${where}: option ${label} must be a ${type}, ${what}`)
  }
  return value
}

/** Option `key` of `options`: a number, or undefined when absent (a TypeError where `required`). */
const numberOption = (...args) => typedOption('number', ...args)

// The JavaScript names of a generator's snapshot fields and the ranges JavaScript numbers hold of
// them, and the names of its stats counters, in the order of the core's `Snapshot::FIELDS` and
// `Stats::FIELDS`, from which tests/surfaces writes these three lines (the native addon checks
// the ranges itself: only the web build reads them).
const SNAPSHOT_KEYS = ['partition', 'sequenceMin', 'sequenceMax', 'sequence', 'now', 'wallHi', 'wallSafe', 'drifts']
const SNAPSHOT_RANGES = [[0, 65535], [0, 65535], [0, 65535], [0, 4294967295], [-9007199254740991, 9007199254740991], [-9007199254740991, 9007199254740991], [-9007199254740991, 9007199254740991], [0, 4294967295]]
const STATS_KEYS = ['overflows', 'overflowEpisodes', 'drifts', 'regressions', 'waits']

/** The object of `keys` and `values`, in order: a snapshot or stats from the core's numbers. */
function record(keys, values) {
  return Object.fromEntries(keys.map((key, i) => [key, values[i]]))
}

/**
 * `nextAsync` of every generator: `step(budgetMs, deadlineMs, after, tokenBefore)` (the native
 * `stepString`: one attempt) until it gives a text, sleeping on a timer (never blocking the event
 * loop) for the milliseconds it gives in between (negative: a look at an expired lease). The wait
 * policy is the core's, in the native step: it throws the last error once the wait gives up, when
 * less than a retry's distance is left of `maxWaitMs` (the timers may fire a little late, as
 * timers do), or gives 0 where a leased generator's new grant (`token()`, read when the wait
 * began) starts a whole `maxWaitMs` again.
 */
async function waiting(step, maxWaitMs, token = () => 0n) {
  let after = 0
  for (;;) {
    const start = performance.now()
    const deadlineMs = Date.now() + maxWaitMs
    const tokenBefore = token()
    for (;;) {
      const got = step(maxWaitMs - (performance.now() - start), deadlineMs, after, tokenBefore)
      if (typeof got === 'string') return got
      after = got < 0 ? 2 : 1
      if (got === 0) break
      await new Promise((resolve) => setTimeout(resolve, Math.abs(got)))
    }
  }
}

/** `other`, checked to be of the class of `value` (`method`: the call, in the error). */
function sameClass(value, other, method) {
  const name = value.constructor.name
  if (!(other instanceof value.constructor)) throw typeError(`${name}.${method}(other): other must be an instance of ${name}`)
  return other
}

/** The base of every value class: an immutable object holding the canonical text. */
class TextValue {
  #text

  constructor(text) {
    this.#text = text
  }

  toString() {
    return this.#text
  }

  toJSON() {
    return this.#text
  }

  /** `${id}`, `id + ''`: the text. */
  [Symbol.toPrimitive]() {
    return this.#text
  }

  /** -1, 0 or 1 by time order; `other` must be of the same class (formats.js overrides it where
   * the text does not sort like the values). */
  compare(other) {
    const a = this.#text
    const b = sameClass(this, other, 'compare').#text
    return a < b ? -1 : a > b ? 1 : 0
  }

  /** Whether `other` (of the same class) is the same value. */
  equals(other) {
    return this.#text === sameClass(this, other, 'equals').#text
  }

  [INSPECT]() {
    return `${this.constructor.name}('${this.#text}')`
  }
}

/** Each byte's two lower-case hex digits. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))

/** Bytes as lower-case hex digits. */
function hex(bytes) {
  let text = ''
  for (const b of bytes) text += HEX[b]
  return text
}

/**
 * `toPostgres()` (node-postgres's query parameter hook) by the format's column type: the text
 * PostgreSQL reads into that column. Text for `bytea` too (its `\x` hex form), not bytes:
 * node-postgres serializes a Buffer returned by `toPostgres` as a lone parameter but not inside
 * an array parameter (`unnest($1::bytea[])`), while the text works in both.
 */
const TO_POSTGRES = {
  bytes() {
    return `\\x${hex(this.bytes)}`
  },
  uuid() {
    return this.uuid
  },
  bigint() {
    return this.bigint.toString()
  },
}

/**
 * The members of value class `Cls` (table entry `info`) that both builds make alike from the
 * core's table: `name`, `FORMAT`, `columnType` and `toPostgres`; a getter per named field (read
 * from `this[FIELDS]()`); no time in a value that does not carry its epoch, and `unixMsAt` /
 * `dateAt` where the epoch is the caller's to give (`unixMsAt(value, epochMs, where)`: the
 * build's); `to<Class>()` per format of the same bits (`classes`: every class by name); and
 * Ulid-Flake's 0.2 name. Returns the prototype, for the build's own members.
 */
function defineMembers(Cls, info, classes, unixMsAt) {
  const name = info.className
  Object.defineProperty(Cls, 'name', { value: name })
  Object.defineProperty(Cls, 'FORMAT', { value: Object.freeze(info) })
  /** The recommended database column (the core's table): 'bytes', 'uuid' or 'bigint'. */
  Object.defineProperty(Cls, 'columnType', { value: info.columnType, enumerable: true })
  const proto = Cls.prototype
  Object.defineProperty(proto, 'toPostgres', { value: TO_POSTGRES[info.columnType], writable: true, configurable: true })
  // A value that does not carry its epoch has no time of its own: `unixMsAt(epochMs)` gives it.
  if (!info.hasUnixMs) for (const key of ['unixMs', 'unixNs', 'timestamp']) Object.defineProperty(proto, key, { value: undefined })
  for (const { name: key } of info.fields) {
    if (!(key in proto)) Object.defineProperty(proto, key, { get() { return this[FIELDS]()[key] }, configurable: true })
  }
  if (info.hasEpoch) {
    /** Milliseconds since 1970, given the epoch the value was made with (an integer of ms). */
    proto.unixMsAt = function (epochMs) {
      return unixMsAt(this, epochMs, `${name}.unixMsAt`)
    }
    /** The time as a Date, given the epoch the value was made with. */
    proto.dateAt = function (epochMs) {
      return new Date(unixMsAt(this, epochMs, `${name}.dateAt`))
    }
  }
  for (const to of info.conversions) {
    /** The value of class `to` with the same bits (`to.fromBytes(this.bytes)`, its errors). */
    const method = `to${to}`
    proto[method] = { [method]() { return classes[to].fromBytes(this.bytes) } }[method]
  }
  if (name === 'UlidFlake') {
    /** @deprecated renamed `unixMsAt`. */
    proto.unixMsWithEpoch = function unixMsWithEpoch(epochMs) {
      return unixMsAt(this, epochMs, 'UlidFlake.unixMsWithEpoch')
    }
  }
  return proto
}

module.exports = { TRUSTED, MAKE, FIELDS, TextValue, typeError, describe, sameClass, hex, checkOptions, typedOption, numberOption, clockOption, waiting, defineMembers, SNAPSHOT_KEYS, SNAPSHOT_RANGES, STATS_KEYS, record }
