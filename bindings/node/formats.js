'use strict'
// ULID, UUIDv7 and SCRU128 for Node.js: one class factory and one namespace factory, used for all
// three formats. As with `Id`, a value is a JS object holding its canonical text (upper-case ULID,
// lower-case UUID and SCRU128): in each format text order is byte order, so `compare` and
// `equals` need no native call; decoding, bytes, fields and generation are native.
const native = require('./index.js')
const { TextValue, typeError } = require('./value.js')

const TRUSTED = Symbol('sno.trusted')
// Symbol-keyed members: shared with the format extensions and the namespaces, not public API.
const MAKE = Symbol('sno.make')
const FIELD = Symbol('sno.field')

// The 64-bit big-endian unsigned integer at `offset` of `bytes`, as a bigint.
function u64(bytes, offset) {
  return bytes.readBigUInt64BE(offset)
}

/**
 * The value class of format `kind` (the native layer's number) named `name`; `extend` adds the
 * format's own getters and methods to the prototype.
 */
function defineClass(kind, name, extend) {
  const Cls = class extends TextValue {
    #fields

    /** Validates like `parse`. */
    constructor(text, trusted) {
      super(trusted === TRUSTED ? text : (native.fmtCanonical(kind, text) ?? text))
    }

    /** Strictly decodes the text form (either case); the value keeps the canonical text. */
    static parse(text) {
      return new Cls(native.fmtCanonical(kind, text) ?? text, TRUSTED)
    }

    /** Takes the 16-byte binary form (a Buffer or Uint8Array). */
    static fromBytes(bytes) {
      return new Cls(native.fmtFromBytes(kind, bytes), TRUSTED)
    }

    /** Wraps text already known to be canonical (the generators). */
    static [MAKE](text) {
      return new Cls(text, TRUSTED)
    }

    /** Field `i` of the native field list (decoded once, on first use). */
    [FIELD](i) {
      if (this.#fields === undefined) this.#fields = native.fmtFields(kind, this.toString())
      return this.#fields[i]
    }

    /** The 16 bytes, as a new Buffer. */
    get bytes() {
      return native.fmtToBytes(kind, this.toString())
    }

    /** The 128-bit value. */
    get bigint() {
      const b = this.bytes
      return (u64(b, 0) << 64n) | u64(b, 8)
    }

    /** Milliseconds since the Unix epoch. */
    get unixMs() {
      return this[FIELD](0)
    }

    /** The timestamp as a Date (an Invalid Date past the year 275760). */
    get timestamp() {
      return new Date(this[FIELD](0))
    }
  }
  Object.defineProperty(Cls, 'name', { value: name })
  extend(Cls)
  return Cls
}

function getters(Cls, table) {
  for (const [key, get] of Object.entries(table)) {
    Object.defineProperty(Cls.prototype, key, { get, configurable: true })
  }
}

const Ulid = defineClass(0, 'Ulid', (Cls) => {
  getters(Cls, {
    /** The 80 random bits. */
    randomness() {
      const b = this.bytes
      return (BigInt(b.readUInt16BE(6)) << 64n) | u64(b, 8)
    },
  })
  /** The UUIDv7 with the same 128 bits; throws ERR_SNO_NOT_VERSION_7 unless they carry v7. */
  Cls.prototype.toUuid7 = function toUuid7() {
    return Uuid7.fromBytes(this.bytes)
  }
})

const Uuid7 = defineClass(1, 'Uuid7', (Cls) => {
  getters(Cls, {
    /** The 12-bit rand_a field. */
    randA() {
      return this[FIELD](1)
    },
    /** The 62-bit rand_b field. */
    randB() {
      return u64(this.bytes, 8) & ((1n << 62n) - 1n)
    },
    /** The version: 7. */
    version() {
      return 7
    },
    /** The two variant bits: 0b10. */
    variant() {
      return 2
    },
  })
  /** Like parse, also accepting 32 bare hex digits and the braced form. */
  Cls.parseLenient = function parseLenient(text) {
    return Cls[MAKE](native.fmtCanonical(1, text, true) ?? text)
  }
  /** The ULID with the same 128 bits. */
  Cls.prototype.toUlid = function toUlid() {
    return Ulid.fromBytes(this.bytes)
  }
})

const Scru128 = defineClass(2, 'Scru128', (Cls) => {
  getters(Cls, {
    /** The 24-bit counter_hi field. */
    counterHi() {
      return this[FIELD](1)
    },
    /** The 24-bit counter_lo field. */
    counterLo() {
      return this[FIELD](2)
    },
    /** The 32-bit entropy field. */
    entropy() {
      return this[FIELD](3)
    },
  })
})

/** The namespace of one format: its class, `new`, `newString(s)`, `newMany` and `Generator`. */
function namespace(kind, Cls, classKey, width) {
  class Generator {
    #native = new native.FormatGenerator(kind)

    /** The next value, greater than every earlier one of this generator. */
    next() {
      return Cls[MAKE](this.#native.nextString())
    }

    /** Like next, but throws where next would wait (ERR_SNO_RANDOMNESS_EXHAUSTED, ULID only). */
    tryNext() {
      return Cls[MAKE](this.#native.tryNextString())
    }

    /** The next value for an explicit time in Unix milliseconds (the clock is not read). */
    nextAt(unixMs) {
      if (typeof unixMs !== 'number') throw typeError(`Generator.nextAt: unixMs must be a number, got ${typeof unixMs}`)
      return Cls[MAKE](this.#native.nextAtString(unixMs))
    }
  }
  function newStrings(n) {
    if (typeof n !== 'number') throw typeError(`newStrings: n must be a number, got ${typeof n}`)
    const text = native.fmtNewText(kind, n)
    const out = new Array(text.length / width)
    for (let i = 0; i < out.length; i++) out[i] = text.slice(width * i, width * i + width)
    return out
  }
  return Object.freeze({
    [classKey]: Cls,
    Generator,
    new: () => Cls[MAKE](native.fmtNewString(kind)),
    newString: () => native.fmtNewString(kind),
    newStrings,
    newMany: (n) => newStrings(n).map((text) => Cls[MAKE](text)),
  })
}

const ulid = namespace(0, Ulid, 'Ulid', 26)
const uuid7 = namespace(1, Uuid7, 'Uuid7', 36)
const scru128 = namespace(2, Scru128, 'Scru128', 25)

module.exports = { Ulid, Uuid7, Scru128, ulid, uuid7, scru128 }
