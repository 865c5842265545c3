'use strict'
// ULID, UUIDv7, SCRU128, SCRU160, Ulid-Flake and Nanoflakes for Node.js: one class factory and
// one namespace factory, used for every format. As with `Id`, a value is a JS object holding its
// canonical text (upper-case ULID, SCRU160 and Ulid-Flake, lower-case UUID, SCRU128 and
// Nanoflake); decoding, bytes, fields and generation are native. In each fixed-width format text
// order is byte order, so `compare` and `equals` need no native call; Nanoflakes (unpadded
// base36) compare by length first, which is numeric order.
const native = require('./index.js')
const { TextValue, typeError, describe, checkOptions, numberOption, retrying, checkHeapRoom } = require('./value.js')

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

    /** Takes the binary form (a Buffer or Uint8Array: 16 bytes, SCRU160 20, the 64-bit formats 8). */
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

    /** The binary form, as a new Buffer. */
    get bytes() {
      return native.fmtToBytes(kind, this.toString())
    }

    /** The value as an unsigned big-endian integer. */
    get bigint() {
      const b = this.bytes
      let v = 0n
      for (let i = 0; i < b.length; i += 4) v = (v << 32n) | BigInt(b.readUInt32BE(i))
      return v
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

/**
 * The namespace of one format: its class, `new`, `newString(s)`, `newMany` and `Generator`.
 * `keys` are the generator's settings besides `maxWaitMs`; `settings(options)` gives the
 * native constructor's `[epochMs, id, entropySize]`.
 */
function namespace(kind, Cls, classKey, width, keys = [], settings = () => []) {
  const where = `${classKey.toLowerCase()}.Generator`
  const known = [...keys, 'maxWaitMs']
  class Generator {
    #native
    #maxWaitMs

    /** A generator of your own (settings: see the format's namespace). */
    constructor(options) {
      const o = checkOptions(options, where, known, false)
      const s = settings(o, where)
      this.#native = new native.FormatGenerator(kind, s[0], s[1], s[2], numberOption(o, 'maxWaitMs', where))
      this.#maxWaitMs = this.#native.maxWaitMs
    }

    /** The next value, greater than every earlier one of this generator; sleeps (blocking)
     * through a used-up millisecond for at most `maxWaitMs`. */
    next() {
      return Cls[MAKE](this.#native.nextString())
    }

    /** Like next, but throws where next would wait (ERR_SNO_RANDOMNESS_EXHAUSTED, or for
     * Nanoflakes ERR_SNO_CLOCK_ROLLBACK), with `retryAtUnixNs`. */
    tryNext() {
      return Cls[MAKE](this.#native.tryNextString())
    }

    /** Like next, but waits with a timer (the event loop runs on) and returns a Promise. */
    nextAsync() {
      return retrying(() => this.tryNext(), this.#maxWaitMs, () => {})
    }

    /** The next value for an explicit time in Unix milliseconds (the clock is not read). */
    nextAt(unixMs) {
      if (typeof unixMs !== 'number') throw typeError(`Generator.nextAt: unixMs must be a number, got ${describe(unixMs)}`)
      return Cls[MAKE](this.#native.nextAtString(unixMs))
    }

    /** The longest `next` / `nextAsync` waits, in milliseconds. */
    get maxWaitMs() {
      return this.#maxWaitMs
    }
  }
  // V8 heap bytes per result (see sno.js): the text, its slice and array slot, and an object.
  const heapPerText = width + 48
  function texts(n, heapEach, where) {
    if (typeof n !== 'number') throw typeError(`${where}: n must be a number, got ${typeof n}`)
    checkHeapRoom(n, heapEach, where)
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
    newStrings: (n) => texts(n, heapPerText, 'newStrings'),
    newMany: (n) => texts(n, heapPerText + 112, 'newMany').map((text) => Cls[MAKE](text)),
  })
}

const Scru160 = defineClass(3, 'Scru160', (Cls) => {
  getters(Cls, {
    /** The 16-bit counter field. */
    counter() {
      return this[FIELD](1)
    },
    /** The 16-bit random16 field. */
    random16() {
      return this[FIELD](2)
    },
    /** The 80-bit random80 field. */
    random80() {
      const b = this.bytes
      return (BigInt(b.readUInt16BE(10)) << 64n) | u64(b, 12)
    },
    /** The 40 lower-case hex digits (the other text form). */
    hex() {
      return this.bytes.toString('hex')
    },
  })
})

/** Unix ms of a 64-bit value given its epoch (an integer number of ms; the sum is native). */
function unixMsOf(kind, value, epochMs, where) {
  if (typeof epochMs !== 'number') throw typeError(`${where}(epochMs): epochMs must be a number, got ${describe(epochMs)}`)
  return native.fmtUnixMsAt(kind, value.toString(), epochMs)
}

/** `fromBigInt` for a 64-bit format: 0 ..= 2^63 - 1, else RangeError / ERR_SNO_VALUE_OVERFLOW. */
function withBigInt(Cls) {
  Cls.fromBigInt = function fromBigInt(value) {
    if (typeof value !== 'bigint') throw typeError(`fromBigInt: value must be a bigint, got ${typeof value}`)
    const b = Buffer.alloc(8)
    b.writeBigInt64BE(value)
    return Cls.fromBytes(b)
  }
}

const UlidFlake = defineClass(4, 'UlidFlake', (Cls) => {
  withBigInt(Cls)
  getters(Cls, {
    /** Milliseconds since the epoch (43 bits). */
    timestampMs() {
      return this[FIELD](1)
    },
    /** The low 20 bits: a stand-alone value's randomness. */
    randomness() {
      return this[FIELD](2)
    },
    /** Bits 5-19: a scalable value's randomness. */
    scalableRandomness() {
      return this[FIELD](3)
    },
    /** The low 5 bits: a scalable value's scalability id. */
    sid() {
      return this[FIELD](4)
    },
  })
  /** Milliseconds since 1970 for IDs made with another epoch (`unixMs` uses 2024-01-01). */
  Cls.prototype.unixMsWithEpoch = function unixMsWithEpoch(epochMs) {
    return unixMsOf(4, this, epochMs, 'UlidFlake.unixMsWithEpoch')
  }
})

const Nanoflake = defineClass(5, 'Nanoflake', (Cls) => {
  withBigInt(Cls)
  // The value does not carry its epoch: the time is a method taking it.
  for (const key of ['unixMs', 'timestamp']) Object.defineProperty(Cls.prototype, key, { value: undefined })
  getters(Cls, {
    /** Milliseconds since the application's epoch (41 bits). */
    timestampMs() {
      return this[FIELD](0)
    },
    /** The 10-bit generator id. */
    generatorId() {
      return this[FIELD](1)
    },
    /** The 12-bit sequence. */
    sequence() {
      return this[FIELD](2)
    },
    /** `value >> 24`: the timestamp as the Java/Kotlin/TypeScript references read it. */
    referenceTimestampMs() {
      return this[FIELD](3)
    },
    /** The 13-digit zero-padded text, which sorts like the values. */
    padded() {
      return this.toString().padStart(13, '0')
    },
  })
  /** Milliseconds since 1970, given the epoch the ID was made with. */
  Cls.prototype.unixMsAt = function unixMsAt(epochMs) {
    return unixMsOf(5, this, epochMs, 'Nanoflake.unixMsAt')
  }
  /** The time as a Date, given the epoch the ID was made with. */
  Cls.prototype.dateAt = function dateAt(epochMs) {
    return new Date(unixMsOf(5, this, epochMs, 'Nanoflake.dateAt'))
  }
  /** Numeric order: unpadded base36 compares by length first. */
  Cls.prototype.compare = function compare(other) {
    if (!(other instanceof Cls)) throw typeError('compare: other must be a Nanoflake')
    const [a, b] = [this.toString(), other.toString()]
    return a.length !== b.length ? Math.sign(a.length - b.length) : a < b ? -1 : a > b ? 1 : 0
  }
})

const ulid = namespace(0, Ulid, 'Ulid', 26)
const uuid7 = namespace(1, Uuid7, 'Uuid7', 36)
const scru128 = namespace(2, Scru128, 'Scru128', 25)
const scru160 = namespace(3, Scru160, 'Scru160', 32)
// Ulid-Flake: { epochMs = 2024-01-01, sid (0..31; omitted: stand-alone), entropySize = 1 }.
const ulidflake = namespace(4, UlidFlake, 'UlidFlake', 13, ['epochMs', 'sid', 'entropySize'], (o, where) => [
  numberOption(o, 'epochMs', where),
  numberOption(o, 'sid', where) ?? -1,
  numberOption(o, 'entropySize', where),
])
// Nanoflakes have no process-wide generator: each needs { epochMs, generatorId } of your own.
const { new: _n, newString: _s, newStrings: _ss, newMany: _m, ...nanoflakeNs } = namespace(
  5,
  Nanoflake,
  'Nanoflake',
  0,
  ['epochMs', 'generatorId'],
  (o, where) => [numberOption(o, 'epochMs', where, true), numberOption(o, 'generatorId', where, true), undefined],
)
const nanoflake = Object.freeze(nanoflakeNs)

module.exports = { Ulid, Uuid7, Scru128, Scru160, UlidFlake, Nanoflake, ulid, uuid7, scru128, scru160, ulidflake, nanoflake }
