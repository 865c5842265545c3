'use strict'
// Every format's class and namespace, built from the core's format table (`native.formats()`, JSON:
// names, lengths, named fields, what each format offers). A value is a JS object holding its
// canonical text; decoding, bytes, the integer, fields, times and generation are native calls
// taking the format's index, so this file holds no format's layout: only the JavaScript of the
// classes over the native calls; their base, the members every class gets alike from the table
// and the argument checks are value.js's, which the web build shares. sno's `Id` is built here
// like the others; its hot paths (`newString`, `newId`, the batches) are sno.js's own native
// entries.
const native = require('./native.js')
const { TRUSTED, MAKE, FIELDS, TextValue, typeError, describe, sameClass, checkOptions, numberOption, clockOption, waiting, defineMembers } = require('./value.js')
const { checkHeapRoom, split } = require('./heap.js')

/** The core's format table, in `Format::ALL` order (an entry's `index` is its position). */
const TABLE = JSON.parse(native.formats())

/** `epochMs` checked to be a number (its range is checked natively), then `unixMsAt`. */
function unixMsAt(value, epochMs, where) {
  if (typeof epochMs !== 'number') throw typeError(`${where}(epochMs): epochMs must be a number, got ${describe(epochMs)}`)
  return native.fmtUnixMsAt(value.constructor.FORMAT.index, value.toString(), epochMs, where)
}

/**
 * Formats whose every accepted text is canonical, with a native entry of their own that only
 * validates (sno's text is lower case only: `Id.parse` is one of its hot paths).
 */
const CHECK_ONLY = {
  Id(text) {
    native.checkText(text)
    return text
  },
}

/** The class of table entry `info`. */
function defineClass(info) {
  const f = info.index
  const name = info.className
  /** The canonical text of `text`, strictly decoded. */
  const canonical = CHECK_ONLY[name] ?? ((text) => native.fmtCanonical(f, text) ?? text)
  const Cls = class extends TextValue {
    #fields

    /** Validates like `parse`. */
    constructor(text, trusted) {
      super(trusted === TRUSTED ? text : canonical(text))
    }

    /** Strictly decodes the text form (either case where the format allows); the value keeps the canonical text. */
    static parse(text) {
      return new Cls(canonical(text), TRUSTED)
    }

    /** Takes the binary form (a Buffer or Uint8Array of `binaryLen` bytes). */
    static fromBytes(bytes) {
      return new Cls(native.fmtFromBytes(f, bytes), TRUSTED)
    }

    /** Takes the binary form read as one unsigned big-endian integer. */
    static fromBigInt(value) {
      return new Cls(native.fmtFromBigint(f, value), TRUSTED)
    }

    /** The value with these named fields (the keys `fields()` gives). */
    static fromFields(fields) {
      return new Cls(native.fmtFromFields(f, fields), TRUSTED)
    }

    /** Wraps text already known to be canonical (the generators). */
    static [MAKE](text) {
      return new Cls(text, TRUSTED)
    }

    /** The native fields object (decoded once, on first use). */
    [FIELDS]() {
      if (this.#fields === undefined) this.#fields = native.fmtFields(f, this.toString())
      return this.#fields
    }

    /** The named fields, as a new plain object. */
    fields() {
      return { ...this[FIELDS]() }
    }

    /** The binary form, as a new Buffer. */
    get bytes() {
      return native.fmtToBytes(f, this.toString())
    }

    /** The binary form as one unsigned big-endian integer. */
    get bigint() {
      return native.fmtBigint(f, this.toString())
    }

    /** Milliseconds since the Unix epoch (for sno, the start of the ID's 4 ms unit). */
    get unixMs() {
      return native.fmtUnixMs(f, this.toString()) ?? undefined
    }

    /** Nanoseconds since the Unix epoch, as a bigint. */
    get unixNs() {
      return native.fmtUnixNs(f, this.toString()) ?? undefined
    }

    /** The time as a Date (an Invalid Date past the year 275760; undefined without a time). */
    get timestamp() {
      const ms = this.unixMs
      return ms === undefined ? undefined : new Date(ms)
    }
  }
  const proto = defineMembers(Cls, info, classes, unixMsAt)
  if (info.binaryLen === 16) {
    /** The 128 bits as a hyphenated lower-case UUID (whatever their version). */
    Object.defineProperty(proto, 'uuid', {
      get() {
        return native.fmtUuid(f, this.toString())
      },
      configurable: true,
    })
  }
  if (info.columnType === 'uuid') {
    /** Takes the 128 bits from a hyphenated UUID text (either case, any version bits the format allows). */
    Cls.fromUuid = function fromUuid(uuid) {
      return new Cls(native.fmtFromBytes(f, native.uuidBytes(uuid)), TRUSTED)
    }
  }
  // What the core states the format has beyond the model: other text forms and numbers
  // (getters), a lenient decoder (`parseLenient`).
  for (const { name: key, coreName } of info.textForms) {
    Object.defineProperty(proto, key, { get() { return native.fmtTextForm(f, this.toString(), coreName) }, configurable: true })
  }
  for (const { name: key, coreName } of info.numbers) {
    Object.defineProperty(proto, key, { get() { return native.fmtNumber(f, this.toString(), coreName) }, configurable: true })
  }
  if (info.lenient) {
    /** Like parse, also accepting the forms of the format's lenient decoder. */
    Cls.parseLenient = function parseLenient(text) {
      return Cls[MAKE](native.fmtCanonicalLenient(f, text) ?? text)
    }
  }
  if (info.param) {
    const { name: param, binary: binaryName, fromName, sourceClass } = info.param
    /** The value of `param` and a binary form: a value of the source format, its text, or bytes. */
    Cls[fromName] = function (value, binary) {
      const bytes = binary instanceof classes[sourceClass] ? binary.toString() : binary
      return Cls[MAKE](native.fmtWithParam(f, value, bytes, `${name}.${fromName}(${param}, ${binaryName})`))
    }
    /** @deprecated 0.2's class-level form of the namespace's `new(param)`. */
    Cls.generate = function generate(value) {
      return Cls[MAKE](native.fmtNewWithParam(f, value, `${name}.generate(${param})`))
    }
  }
  if (!info.textOrder) {
    /** -1, 0 or 1 by value order (the text does not sort like the values). */
    proto.compare = function (other) {
      return native.fmtCompare(f, this.toString(), sameClass(this, other, 'compare').toString())
    }
  }
  return Cls
}

const classes = {}
for (const info of TABLE) classes[info.className] = defineClass(info)

/**
 * The namespace of table entry `info` (every format but sno, whose functions are sno.js's):
 * its class; `Generator` where the format has one; `new`, `newString`, `newStrings` and
 * `newMany` where it has a process-wide generator.
 */
function namespace(info) {
  const f = info.index
  const Cls = classes[info.className]
  const ns = { [info.className]: Cls }
  if (info.generatorOptions) {
    const where = `${info.name}.Generator`
    const numbers = [...info.generatorOptions, 'maxWaitMs']
    const known = [...numbers, 'clock']
    ns.Generator = class Generator {
      #native
      #maxWaitMs

      /** A generator of your own (settings: the table's `generatorOptions`). */
      constructor(options) {
        const o = checkOptions(options, where, known, false)
        const settings = {}
        for (const key of numbers) settings[key] = numberOption(o, key, where, info.generatorRequired.includes(key))
        settings.clock = clockOption(o, where)
        this.#native = new native.FormatGenerator(f, settings)
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
      async nextAsync() {
        return Cls[MAKE](await waiting((budgetMs, deadlineMs, after) => this.#native.stepString(budgetMs, deadlineMs, after), this.#maxWaitMs))
      }

      /** The next value for an explicit time in Unix milliseconds (the clock is not read). */
      nextAtUnixMs(unixMs) {
        if (typeof unixMs !== 'number') throw typeError(`Generator.nextAtUnixMs: unixMs must be a number, got ${describe(unixMs)}`)
        return Cls[MAKE](this.#native.nextAtString(unixMs))
      }

      /** @deprecated renamed `nextAtUnixMs`. */
      nextAt(unixMs) {
        return this.nextAtUnixMs(unixMs)
      }

      /** The longest `next` / `nextAsync` waits, in milliseconds. */
      get maxWaitMs() {
        return this.#maxWaitMs
      }
    }
  }
  if (info.param) {
    const where = (method) => `${info.name}.${method}(${info.param.name})`
    /** A new value of `param` and a binary form from the source format's process-wide generator. */
    ns.new = (param) => Cls[MAKE](native.fmtNewWithParam(f, param, where('new')))
    ns.newString = (param) => native.fmtNewWithParam(f, param, where('newString'))
  }
  if (info.hasGlobal) {
    const width = info.textLen
    // V8 heap bytes per result (see sno.js): the text, its slice and array slot, and an object.
    const heapPerText = width + 48
    const texts = (n, heapEach, where) => {
      if (typeof n !== 'number') throw typeError(`${where}: n must be a number, got ${typeof n}`)
      checkHeapRoom(n, heapEach, where)
      return split(native.fmtNewText(f, n), width)
    }
    ns.new = () => Cls[MAKE](native.fmtNewString(f))
    ns.newString = () => native.fmtNewString(f)
    ns.newStrings = (n) => texts(n, heapPerText, 'newStrings')
    ns.newMany = (n) => texts(n, heapPerText + 112, 'newMany').map((text) => Cls[MAKE](text))
  }
  return Object.freeze(ns)
}

const namespaces = Object.fromEntries(TABLE.filter((info) => info.name !== 'sno').map((info) => [info.name, namespace(info)]))

/** The value of the one format `text` is written in (the core's detection, as `sno inspect`). */
function detect(text) {
  const [index, canonical] = native.detect(text)
  return classes[TABLE[index].className][MAKE](canonical)
}

module.exports = { ...classes, ...namespaces, detect }
