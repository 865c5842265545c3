'use strict'
// The base of every JS value class (`Id`, `Ulid`, `Uuid7`, `Scru128`): an immutable object
// holding the canonical text. In every format text order is byte order, so comparing and
// equality need no native call.
const INSPECT = Symbol.for('nodejs.util.inspect.custom')

function typeError(message) {
  const err = new TypeError(message)
  err.code = 'ERR_INVALID_ARG_TYPE'
  return err
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

module.exports = { TextValue, typeError }
