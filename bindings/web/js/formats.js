// Every format's values in the web build (docs/wasm.md), over formats.wasm: each format's class
// (sno's `Id` among them), built from the core's format table (`table.js`, which scripts/build-web
// writes from the core: names, lengths, named fields, what each format offers) as the Node
// package's formats.js builds them from the native one, on the base and helpers both share
// (value.js: written from the Node package's by tests/surfaces); each namespace (`new`, `newString`,
// `newStrings`, `newMany`, `Generator`, where the table gives them), sno's `Generator`, `newId`,
// `newMany` (and 0.2's `newIds`), the batch codecs, and `detect`. A value is an object holding its
// canonical text; every codec, field, time and generator is a call into the module (`sno_op` and
// the generators' exports): no format's layout is written here.
import { ascii, bytes, count, int, meta, out, put, rangeError, split, wrap } from './runtime.js'
import { FIELDS, MAKE, SNAPSHOT_KEYS, SNAPSHOT_RANGES, STATS_KEYS, TRUSTED, TextValue, checkOptions, clockOption, defineMembers, describe, hex, record, sameClass, typeError, waiting } from './value.js'
import { defaultPartition, newString, newStrings } from './sno.js'
import { module } from './load/formats.js'
// The core's format table, in `Format::ALL` order (an entry's `index` is its position), as
// scripts/build-web writes it.
import { TABLE } from './table.js'

const x = wrap(module)
const e = x.exports

// What `sno_op` does (bindings/web/src/values.rs, `Op`).
const CANONICAL = 0
const BYTES = 1
const FROM_BYTES = 2
const FROM_HEX = 3
const FIELDS_OF = 4
const TIME = 5
const FROM_FIELDS = 6
const UUID = 7
const DETECT = 8
const UNIX_MS_AT = 9
const LENIENT = 10
const TEXT_FORM = 11
const NUMBER = 12
const COMPARE = 13
const WITH_PARAM = 14
const UUID_BYTES = 15
const FIRST_INVALID = 16

/** `op` of format `f` on `input` (a string or bytes), its output as text. */
const op = (code, f, input, arg = 0) => out(x, e.sno_op(code, f, put(x, input), arg))

/**
 * A clock's name as the input, and after it (8-aligned) `numbers` as f64s, in the I/O buffer:
 * the input's length and where the numbers are.
 */
function withNumbers(clock, numbers) {
  // UTF-8 takes at most 3 bytes per UTF-16 unit; the buffer itself may start anywhere.
  const room = clock.length * 3
  const ptr = e.sno_io(room + 7 + 8 * numbers.length)
  const { written } = new TextEncoder().encodeInto(clock, new Uint8Array(e.memory.buffer, ptr, room))
  const at = (ptr + room + 7) & ~7
  new Float64Array(e.memory.buffer, at, numbers.length).set(numbers)
  return [written, at]
}


/** The core's default longest wait of a generator, in milliseconds. */
const DEFAULT_MAX_WAIT_MS = e.sno_default_max_wait_ms()

/** A string argument `text` of `where`. */
function text(value, where) {
  if (typeof value !== 'string') throw typeError(`${where} must be a string, got ${describe(value)}`)
  return value
}

/** `epochMs` checked to be an integer of the `Date` range (the core reads the value), then `unixMsAt`. */
function unixMsAt(value, epochMs, where) {
  const epoch = int(`${where}(epochMs): epochMs`, epochMs, -8.64e15, 8.64e15)
  return Number(op(UNIX_MS_AT, value.constructor.FORMAT.index, value.toString(), epoch))
}

/** A step of a generator's `nextAsync` in the module (`=` and the value's text, or `+` and the
 * milliseconds to sleep, at least 1, by the core's wait policy) as value.js's `waiting` takes
 * it: the text, or the number. */
const stepped = (got) => (got[0] === '=' ? got.slice(1) : Number(got.slice(1)))

/** A field's value as fields() gives it, from the module's text, by the table's kind. */
const READ = { number: Number, bigint: BigInt, boolean: (v) => v === '1', string: (v) => v }

/** Each format's field kinds by name (fields() reads the module's text by them). */
const KINDS = TABLE.map((info) => Object.fromEntries(info.fields.map((field) => [field.name, field.kind])))

/** The line `fromFields` gives the module for input `input` of `fields` (types checked here). */
function inputLine(fields, input) {
  const v = fields[input.name]
  const wrong = (what) => typeError(`fromFields(fields): fields.${input.name} must be ${what}, got ${describe(v)}`)
  if (input.kind === 'boolean') {
    if (typeof v !== 'boolean') throw wrong('a boolean')
    return v ? '1' : '0'
  }
  if (input.kind === 'string') {
    if (typeof v !== 'string') throw wrong('a string')
    return v
  }
  if (typeof v === 'bigint') return v.toString()
  if (typeof v !== 'number') throw wrong('a number or a bigint')
  return String(int(`fromFields(fields): fields.${input.name}`, v, 0, Number.MAX_SAFE_INTEGER))
}

/** The class of table entry `info`. */
function defineClass(info) {
  const f = info.index
  const name = info.className
  const canonical = (value) => op(CANONICAL, f, text(value, `${name}.parse(text): text`))
  const Cls = class extends TextValue {
    #fields

    /** Validates like `parse`. */
    constructor(value, trusted) {
      super(trusted === TRUSTED ? value : canonical(value))
    }

    /** Strictly decodes the text form (either case where the format allows); the value keeps the canonical text. */
    static parse(value) {
      return new Cls(canonical(value), TRUSTED)
    }

    /** Takes the binary form (a Uint8Array of `binaryLen` bytes; a Buffer is one). */
    static fromBytes(bytes) {
      if (!(bytes instanceof Uint8Array)) throw typeError(`${name}.fromBytes(bytes): bytes must be a Uint8Array, got ${describe(bytes)}`)
      return new Cls(op(FROM_BYTES, f, bytes), TRUSTED)
    }

    /** Takes the binary form read as one unsigned big-endian integer. */
    static fromBigInt(value) {
      if (typeof value !== 'bigint') throw typeError(`${name}.fromBigInt(value): value must be a bigint, got ${describe(value)}`)
      return new Cls(op(FROM_HEX, f, value.toString(16)), TRUSTED)
    }

    /** The value with these named fields (the keys `fields()` gives). */
    static fromFields(fields) {
      if (fields === null || typeof fields !== 'object') throw typeError(`fromFields(fields): fields must be an object, got ${describe(fields)}`)
      return new Cls(op(FROM_FIELDS, f, info.inputs.map((input) => inputLine(fields, input)).join('\n')), TRUSTED)
    }

    /** Wraps text already known to be canonical (the generators). */
    static [MAKE](value) {
      return new Cls(value, TRUSTED)
    }

    /** The fields (decoded once, on first use). */
    [FIELDS]() {
      if (this.#fields === undefined) {
        const kinds = KINDS[f]
        const out = {}
        for (const line of op(FIELDS_OF, f, this.toString()).split('\n')) {
          const at = line.indexOf('=')
          if (at > 0) out[line.slice(0, at)] = READ[kinds[line.slice(0, at)]](line.slice(at + 1))
        }
        this.#fields = out
      }
      return this.#fields
    }

    /** The named fields, as a new plain object. */
    fields() {
      return { ...this[FIELDS]() }
    }

    /** The binary form, as new bytes. */
    get bytes() {
      return bytes(x, e.sno_op(BYTES, f, put(x, this.toString()), 0))
    }

    /** The binary form as one unsigned big-endian integer. */
    get bigint() {
      return BigInt(`0x${hex(this.bytes)}`)
    }

    /** Milliseconds since the Unix epoch (for sno, the start of the ID's 4 ms unit). */
    get unixMs() {
      const t = op(TIME, f, this.toString())
      return t === '' ? undefined : Number(t.slice(0, t.indexOf(' ')))
    }

    /** Nanoseconds since the Unix epoch, as a bigint. */
    get unixNs() {
      const t = op(TIME, f, this.toString())
      return t === '' ? undefined : BigInt(t.slice(t.indexOf(' ') + 1))
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
        return op(UUID, f, this.toString())
      },
      configurable: true,
    })
  }
  if (info.columnType === 'uuid') {
    /** Takes the 128 bits from a hyphenated UUID text (either case, any version bits the format allows). */
    Cls.fromUuid = function fromUuid(uuid) {
      const raw = bytes(x, e.sno_op(UUID_BYTES, f, put(x, text(uuid, `${name}.fromUuid(uuid): uuid`)), 0))
      return new Cls(op(FROM_BYTES, f, raw), TRUSTED)
    }
  }
  // What the core states the format has beyond the model: other text forms and numbers
  // (getters), a lenient decoder (`parseLenient`), a param (`from<Binary>(param, binary)`).
  for (const { name: key, coreName } of info.textForms) {
    Object.defineProperty(proto, key, { get() { return op(TEXT_FORM, f, `${this}\n${coreName}`) }, configurable: true })
  }
  for (const { name: key, coreName } of info.numbers) {
    Object.defineProperty(proto, key, { get() { return Number(op(NUMBER, f, `${this}\n${coreName}`)) }, configurable: true })
  }
  if (info.lenient) {
    /** Like parse, also accepting the forms of the format's lenient decoder. */
    Cls.parseLenient = function parseLenient(value) {
      return Cls[MAKE](op(LENIENT, f, text(value, `${name}.parseLenient(text): text`)))
    }
  }
  if (info.param) {
    const { name: param, binary: binaryName, fromName, sourceClass } = info.param
    const where = `${name}.${fromName}(${param}, ${binaryName})`
    /** The value of `param` and a binary form: a value of the source format, its text, or bytes. */
    Cls[fromName] = function (value, binary) {
      const head = new TextEncoder().encode(`${text(value, `${where}: ${param}`)}\n`)
      let rest
      if (binary instanceof classes[sourceClass] || typeof binary === 'string') rest = new TextEncoder().encode(`t${binary}`)
      else if (binary instanceof Uint8Array) rest = Uint8Array.of(0x62, ...binary)
      else throw typeError(`${where}: ${binaryName} must be a ${sourceClass}, a string or a Uint8Array, got ${describe(binary)}`)
      const input = new Uint8Array(head.length + rest.length)
      input.set(head)
      input.set(rest, head.length)
      return Cls[MAKE](op(WITH_PARAM, f, input, classes[sourceClass].FORMAT.index))
    }
    /** @deprecated 0.2's class-level form of the namespace's `new(param)`. */
    Cls.generate = function generate(value) {
      return Cls[MAKE](newWithParam(f, value, `${name}.generate(${param}): ${param}`))
    }
  }
  if (!info.textOrder) {
    /** -1, 0 or 1 by value order (the text does not sort like the values). */
    proto.compare = function (other) {
      return { '<': -1, '=': 0, '>': 1 }[op(COMPARE, f, `${this}\n${sameClass(this, other, 'compare')}`)]
    }
  }
  return Cls
}

const classes = {}
for (const info of TABLE) classes[info.className] = defineClass(info)

/** A new value's text of format `f` (a format with a param) with `param` and a binary form of
 * the param's source format's process-wide generator (`where`: the call, in errors). */
function newWithParam(f, param, where) {
  const source = classes[TABLE[f].param.sourceClass].FORMAT.index
  return out(x, e.sno_fmt_new_param(f, source, put(x, text(param, where))))
}

/** Registers `owner` so that its handle of the module's `free` table is freed with it. */
const freeing = (free) => new FinalizationRegistry((handle) => free(handle))

/**
 * The namespace of table entry `info` (every format but sno, whose functions are sno.js's and
 * this file's): its class; `Generator` where the format has one; `new`, `newString`,
 * `newStrings` and `newMany` where it has a process-wide generator.
 */
function namespace(info) {
  const f = info.index
  const Cls = classes[info.className]
  const ns = { [info.className]: Cls }
  if (info.generatorOptions) {
    const where = `${info.name}.Generator`
    const known = [...info.generatorOptions, 'maxWaitMs', 'clock']
    const FREE = freeing(e.sno_fmt_gen_free)
    ns.Generator = class Generator {
      #handle
      #maxWaitMs

      /** A generator of your own (settings: the table's `generatorOptions`). */
      constructor(options) {
        const o = checkOptions(options, where, known, false)
        const clock = clockOption(o, where) ?? ''
        // NaN: not given (the core's default).
        const values = info.generatorOptions.map((key) =>
          o[key] === undefined && !info.generatorRequired.includes(key) ? NaN : int(`${where}: option ${key}`, o[key], Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
        )
        this.#maxWaitMs = int(`${where}: option maxWaitMs`, o.maxWaitMs, 0, 2 ** 31 - 1, DEFAULT_MAX_WAIT_MS)
        const [len, at] = withNumbers(clock, values)
        this.#handle = Number(out(x, e.sno_fmt_gen_new(f, len, at)))
        FREE.register(this, this.#handle)
      }

      /** The next value, greater than every earlier one of this generator; where the native
       * package would wait (a used-up millisecond), the core's retryable error at once. */
      next() {
        return Cls[MAKE](ascii(x, e.sno_fmt_gen_next(this.#handle)))
      }

      /** Like next: the core's error (ERR_SNO_RANDOMNESS_EXHAUSTED, …, with `retryAtUnixNs`) where it would wait. */
      tryNext() {
        return Cls[MAKE](ascii(x, e.sno_fmt_gen_next(this.#handle)))
      }

      /** Like next, but waits with a timer (the core's wait policy) and returns a Promise. */
      async nextAsync() {
        return Cls[MAKE](await waiting((budget, deadline) => stepped(out(x, e.sno_fmt_gen_step(this.#handle, budget, deadline))), this.#maxWaitMs))
      }

      /** The next value for an explicit time in Unix milliseconds (the clock is not read). */
      nextAtUnixMs(unixMs) {
        return Cls[MAKE](ascii(x, e.sno_fmt_gen_next_at(this.#handle, int('Generator.nextAtUnixMs: unixMs', unixMs, -(2 ** 63), 2 ** 63))))
      }

      /** @deprecated renamed `nextAtUnixMs`. */
      nextAt(unixMs) {
        return this.nextAtUnixMs(unixMs)
      }

      /** The longest `nextAsync` waits, in milliseconds. */
      get maxWaitMs() {
        return this.#maxWaitMs
      }
    }
  }
  if (info.param) {
    const where = (method) => `${info.name}.${method}(${info.param.name}): ${info.param.name}`
    /** A new value of `param` and a binary form from the source format's process-wide generator. */
    ns.new = (param) => Cls[MAKE](newWithParam(f, param, where('new')))
    ns.newString = (param) => newWithParam(f, param, where('newString'))
  }
  if (info.hasGlobal) {
    const width = info.textLen ?? info.maxTextLen
    const strings = (n) => split(out(x, e.sno_fmt_new_text(f, count(n, 'newStrings'))), width)
    ns.new = () => Cls[MAKE](ascii(x, e.sno_fmt_new(f)))
    ns.newString = () => ascii(x, e.sno_fmt_new(f))
    ns.newStrings = (n) => strings(n)
    ns.newMany = (n) => strings(n).map((t) => Cls[MAKE](t))
  }
  return Object.freeze(ns)
}

// The two export lists (every class, every namespace) are written from the core's table by
// tests/surfaces (`SNO_BLESS=1 cargo test -p sno-surfaces`).
export const { Id, Ulid, Uuid7, Scru128, Scru160, Nanoflake, UlidFlake, TypeId, Ksuid } = classes
const namespaces = Object.fromEntries(TABLE.filter((info) => info.name !== 'sno').map((info) => [info.name, namespace(info)]))
export const { ulid, uuid7, scru128, scru160, nanoflake, ulidflake, typeid, ksuid } = namespaces

/** The value of the one format `text` is written in (the core's detection, as `sno inspect`). */
export function detect(value) {
  const out = op(DETECT, 0, text(value, 'detect(text): text'))
  const at = out.indexOf(' ')
  return classes[TABLE[Number(out.slice(0, at))].className][MAKE](out.slice(at + 1))
}

/** A new ID from the process-wide generator (as `newString`). */
export function newId(m) {
  return Id[MAKE](newString(m))
}

/** `n` new IDs, made in one call (sno.wasm's batch). */
export function newMany(n, m) {
  return newStrings(n, m).map((t) => Id[MAKE](t))
}

/** @deprecated renamed `newMany` (the name of every format's batch). */
export function newIds(n, m) {
  return newMany(n, m)
}

/** The text forms of `ids`. */
export function encodeMany(ids) {
  if (!Array.isArray(ids)) throw typeError(`encodeMany: ids must be an array, got ${typeof ids}`)
  return ids.map((id, i) => {
    if (!(id instanceof Id)) throw typeError(`encodeMany: item ${i} is not an Id`)
    return id.toString()
  })
}

/** Strictly decodes many texts in one batch; a bad item throws `Id.parse`'s error with `index`. */
export function decodeMany(texts) {
  if (!Array.isArray(texts)) throw typeError(`decodeMany: texts must be an array, got ${typeof texts}`)
  // Up to the first item that cannot be 16 bytes of ASCII (its UTF-8 would shift the batch's items).
  let limit = texts.findIndex((t) => typeof t !== 'string' || t.length !== 16 || !/^[\x00-\x7f]*$/.test(t))
  if (limit < 0) limit = texts.length
  const found = op(FIRST_INVALID, 0, texts.slice(0, limit).join(''))
  const bad = found !== '' ? Number(found) : limit < texts.length ? limit : -1
  if (bad >= 0) {
    try {
      Id.parse(texts[bad])
    } catch (err) {
      err.message = `item ${bad}: ${err.message}`
      err.index = bad
      throw err
    }
  }
  return texts.map((t) => Id[MAKE](t))
}

const GENERATOR_OPTIONS = ['partition', 'sequenceMin', 'sequenceMax', 'snapshot', 'maxWaitMs', 'lease', 'clock']
const SNO_FREE = freeing(e.sno_gen_free)

/** A sno generator with its own partition and sequence bounds (leases: Node's native package only). */
export class Generator {
  #handle

  /** new Generator({ partition?, sequenceMin?, sequenceMax?, snapshot?, maxWaitMs?, clock? }) */
  constructor(options) {
    const o = checkOptions(options, 'Generator', GENERATOR_OPTIONS)
    if (o.lease !== undefined) {
      const err = new Error('libsno: Generator: leases need PostgreSQL or Redis, which only the native addon of Node.js reaches (this is the WebAssembly build: no sockets)')
      err.code = 'ERR_SNO_LEASE_INVALID_URL'
      throw err
    }
    let snapshot
    if (o.snapshot !== undefined) {
      const s = checkOptions(o.snapshot, 'Generator: option snapshot', SNAPSHOT_KEYS, false)
      snapshot = SNAPSHOT_KEYS.map((k, i) => int(`Generator: option snapshot.${k}`, s[k], ...SNAPSHOT_RANGES[i]))
    }
    const number = (key, max) => (o[key] === undefined ? undefined : int(`Generator: option ${key}`, o[key], 0, max))
    let partition = number('partition', 65535)
    const sequenceMin = number('sequenceMin', 65535) ?? 0
    const sequenceMax = number('sequenceMax', 65535) ?? 65535
    const maxWaitMs = number('maxWaitMs', 2 ** 31 - 1) ?? DEFAULT_MAX_WAIT_MS
    const clock = clockOption(o, 'Generator') ?? ''
    // Neither a partition nor a snapshot's: the next default partition of this realm's pool.
    if (partition === undefined && snapshot === undefined) partition = defaultPartition()
    const [len, at] = withNumbers(clock, snapshot ?? [])
    this.#handle = Number(out(x, e.sno_gen_new(len, partition ?? -1, sequenceMin, sequenceMax, maxWaitMs, snapshot === undefined ? 0 : at)))
    SNO_FREE.register(this, this.#handle)
  }

  /** The next ID, or at once the core's error where the native `next` would wait (a page cannot sleep). */
  next(m) {
    return Id[MAKE](ascii(x, e.sno_gen_next(this.#handle, meta(m, 'Generator.next'))))
  }

  /** The next ID, or at once the core's error (ERR_SNO_SEQUENCE_EXHAUSTED, …, with `retryAtUnixNs`). */
  tryNext(m) {
    return Id[MAKE](ascii(x, e.sno_gen_next(this.#handle, meta(m, 'Generator.tryNext'))))
  }

  /** The next ID; waits with a timer (the core's wait policy) for at most `maxWaitMs`. */
  async nextAsync(m) {
    const mm = meta(m, 'Generator.nextAsync')
    return Id[MAKE](await waiting((budget, deadline) => stepped(out(x, e.sno_gen_step(this.#handle, mm, budget, deadline))), this.maxWaitMs))
  }

  /** An ID for an explicit time in Unix milliseconds (the clock is not read), with its own wrapping sequence. */
  nextAtUnixMs(m, unixMs) {
    const mm = meta(m, 'Generator.nextAtUnixMs')
    return Id[MAKE](ascii(x, e.sno_gen_next_with_time(this.#handle, mm, int('Generator.nextAtUnixMs: unixMs', unixMs, -(2 ** 63), 2 ** 63))))
  }

  /** @deprecated renamed `nextAtUnixMs(meta, date.getTime())`. */
  nextWithTime(m, date) {
    const mm = meta(m, 'Generator.nextWithTime')
    if (!(date instanceof Date)) throw typeError(`Generator.nextWithTime(meta, date): date must be a Date, got ${describe(date)}`)
    if (!Number.isFinite(date.getTime())) throw rangeError('Generator.nextWithTime(meta, date): date is an Invalid Date')
    return Id[MAKE](ascii(x, e.sno_gen_next_with_time(this.#handle, mm, date.getTime())))
  }

  /** partition, capacity, maxWaitMs, the snapshot's eight fields, the stats' five counters. */
  #state() {
    return out(x, e.sno_gen_state(this.#handle)).split(' ').map(Number)
  }

  /** The state to restore a generator from (`new Generator({ snapshot })`). */
  snapshot() {
    return record(SNAPSHOT_KEYS, this.#state().slice(3))
  }

  /** The generator's counters. */
  stats() {
    return record(STATS_KEYS, this.#state().slice(11))
  }

  get partition() {
    return this.#state()[0]
  }

  get capacity() {
    return this.#state()[1]
  }

  get maxWaitMs() {
    return this.#state()[2]
  }

  /** Leases are the native addon's: never one here. */
  get lease() {
    return null
  }
}
