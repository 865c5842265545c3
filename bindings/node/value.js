'use strict'
// The base of every JS value class (`Id`, `Ulid`, `Uuid7`, …): an immutable object holding the
// canonical text. Canonical text is one per value, so equality needs no native call, nor does
// comparing in the formats whose text order is value order (formats.js overrides `compare`
// for the others).
const v8 = require('node:v8')

const INSPECT = Symbol.for('nodejs.util.inspect.custom')
// The second argument of a class's constructor that marks its text as canonical already (made
// natively): shared by the modules of the package, not public API.
const TRUSTED = Symbol('sno.trusted')
const MAX_BATCH = require('./native.js').MAX_BATCH

/**
 * Before a batch of `n` results, each taking about `bytesEach` bytes of V8's heap: a RangeError
 * (ERR_MEMORY_ALLOCATION_FAILED) when they cannot fit in what the heap has left, since V8 ends
 * the process on a full heap instead of throwing. Counts the native call refuses anyway (not an
 * integer in 0 ..= MAX_BATCH) are left to it.
 */
function checkHeapRoom(n, bytesEach, where) {
  if (!Number.isInteger(n) || n < 0 || n > MAX_BATCH) return
  const { heap_size_limit: limit, used_heap_size: used } = v8.getHeapStatistics()
  const need = n * bytesEach
  if (need > limit - used) {
    const mib = (bytes) => Math.ceil(bytes / 2 ** 20)
    const err = new RangeError(
      `${where}: ${n} results need about ${mib(need)} MiB of V8's heap, which has ${mib(limit - used)} MiB left ` +
        '(node --max-old-space-size raises the limit; or ask for fewer)',
    )
    err.code = 'ERR_MEMORY_ALLOCATION_FAILED'
    throw err
  }
}

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

/** Option `key` of `options`: a number, or undefined when absent (a TypeError where `required`). */
function numberOption(options, key, where, required = false, label = key) {
  const value = options[key]
  if (value === undefined && !required) return undefined
  if (typeof value !== 'number') {
    const what = value === undefined ? 'missing' : `got ${describe(value)}`
    throw typeError(`${where}: option ${label} must be a number, ${what}`)
  }
  return value
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

  /** -1, 0 or 1 by time order; `other` must be of the same class. */
  compare(other) {
    const name = this.constructor.name
    if (!(other instanceof this.constructor)) throw typeError(`${name}.compare(other): other must be an instance of ${name}`)
    const a = this.#text
    const b = other.#text
    return a < b ? -1 : a > b ? 1 : 0
  }

  /** Whether `other` (of the same class) is the same value. */
  equals(other) {
    const name = this.constructor.name
    if (!(other instanceof this.constructor)) throw typeError(`${name}.equals(other): other must be an instance of ${name}`)
    return this.#text === other.#text
  }

  [INSPECT]() {
    return `${this.constructor.name}('${this.#text}')`
  }
}

module.exports = { TRUSTED, TextValue, typeError, describe, checkOptions, numberOption, clockOption, waiting, checkHeapRoom }
