// The JavaScript half of the web build (docs/wasm.md): instantiates one of its WebAssembly
// modules (sno.wasm, formats.wasm) with the two functions it imports, the host's clock and its
// randomness, and wraps its exports: text in and out through the module's I/O buffer, and every
// failure thrown as the error the core describes (class, code and message from the core's
// error table; position, retryAtUnixNs, max, partition). Nothing here decides anything about
// an ID: every check, codec, field and generator is the core's, in the module.

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The imports of a module: the clock is `Date.now()` (every format's time field is a whole
 * number of milliseconds, so a finer clock would change no ID; docs/wasm.md), the randomness
 * `crypto.getRandomValues` (it seeds the core's CSPRNG and draws default partitions).
 */
function imports(memory) {
  return {
    sno: {
      now_unix_ms: () => Date.now(),
      random_fill: (ptr, len) => {
        // getRandomValues fills at most 65 536 bytes per call.
        for (let at = 0; at < len; at += 65536) {
          crypto.getRandomValues(new Uint8Array(memory().buffer, ptr + at, Math.min(65536, len - at)))
        }
      },
    },
  }
}

/** The error a failed export left, as the Node package throws it. */
function thrown(x) {
  const text = x.out(x.exports.sno_error())
  const [name, code, message, ...props] = text.split('\n')
  const Class = name === 'RangeError' ? RangeError : name === 'TypeError' ? TypeError : Error
  const error = new Class(message)
  error.code = code
  for (const line of props) {
    if (!line) continue
    const at = line.indexOf('=')
    const key = line.slice(0, at)
    const value = line.slice(at + 1)
    error[key] = key === 'retryAtUnixNs' ? (value === '' ? null : BigInt(value)) : Number(value)
  }
  return error
}

/** An instance of `module` (a compiled WebAssembly.Module) with its wrappers. */
export function wrap(module) {
  let instance
  const memory = () => instance.exports.memory
  instance = new WebAssembly.Instance(module, imports(memory))
  const exports = instance.exports
  const x = {
    exports,
    /** Writes `input` (a string as UTF-8, or bytes) into the I/O buffer; its length. */
    put(input) {
      if (typeof input === 'string') {
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        const ptr = exports.sno_io(input.length * 3)
        const { written } = encoder.encodeInto(input, new Uint8Array(exports.memory.buffer, ptr, input.length * 3))
        return written
      }
      const ptr = exports.sno_io(input.length)
      new Uint8Array(exports.memory.buffer, ptr, input.length).set(input)
      return input.length
    },
    /** The output of an export that returned `len` (-1: its failure, thrown), as bytes. */
    bytes(len) {
      if (len < 0) throw thrown(x)
      return new Uint8Array(exports.memory.buffer, exports.sno_io_ptr(), len).slice()
    },
    /** The same, as text. */
    out(len) {
      if (len < 0) throw thrown(x)
      return decoder.decode(new Uint8Array(exports.memory.buffer, exports.sno_io_ptr(), len))
    },
  }
  return x
}

/** A TypeError with code ERR_INVALID_ARG_TYPE (an argument of the wrong type). */
export function typeError(message, code = 'ERR_INVALID_ARG_TYPE') {
  const e = new TypeError(message)
  e.code = code
  return e
}

/** A RangeError with the core's code of arguments out of range. */
export function rangeError(message) {
  const e = new RangeError(message)
  e.code = 'ERR_SNO_INVALID_ARGUMENT'
  return e
}

/** `typeof value`, with null and arrays named. */
export function describe(value) {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}

/** `v` checked: an integer in `min ..= max` (a RangeError naming `name`), or `fallback` when absent. */
export function int(name, v, min, max, fallback) {
  if (v === undefined && fallback !== undefined) return fallback
  if (typeof v !== 'number') throw typeError(`${name} must be a number, got ${describe(v)}`)
  if (!Number.isInteger(v) || v < min || v > max) throw rangeError(`${name} must be an integer in ${min}..=${max}, got ${v}`)
  return v
}

/**
 * `nextAsync` of every generator: `step(budgetMs, deadlineMs)` (one attempt in the module: `=`
 * and the value's text, or `+` and the milliseconds to sleep, by the core's wait policy) until
 * it gives a value, sleeping on a timer in between: never a spin on the clock.
 */
export async function waiting(step, maxWaitMs) {
  const start = performance.now()
  const deadlineMs = Date.now() + maxWaitMs
  for (;;) {
    const got = step(maxWaitMs - (performance.now() - start), deadlineMs)
    if (got[0] === '=') return got.slice(1)
    await new Promise((resolve) => setTimeout(resolve, Number(got.slice(1))))
  }
}

/** The base of every value class: an immutable object holding the canonical text. */
export class TextValue {
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

  [Symbol.toPrimitive]() {
    return this.#text
  }

  /** -1, 0 or 1 by time order (text order is value order in the fixed-length formats). */
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
}

/** The marker of text made canonical by the module (not public API). */
export const TRUSTED = Symbol('sno.trusted')

/**
 * The class of a format, over module `x` and the format's index: `parse`, `fromBytes`,
 * `fromBigInt`, `fromFields`; `bytes`, `bigint`, `fields()`, a getter per field, `unixMs`,
 * `unixNs`, `timestamp`.
 */
export function valueClass(x, index) {
  const e = x.exports
  // The core's table entry: class name, then the field names (camel case).
  const [name, ...fieldNames] = x.out(e.sno_fmt_info(index)).split(' ')
  const canonical = (text) => {
    if (typeof text !== 'string') throw typeError(`${name}.parse(text): text must be a string, got ${describe(text)}`)
    return x.out(e.sno_fmt_canonical(index, x.put(text)))
  }
  const fieldsOf = (text) => {
    const out = {}
    for (const line of x.out(e.sno_fmt_fields(index, x.put(text))).split('\n')) {
      if (!line) continue
      const at = line.indexOf('=')
      const key = line.slice(1, at)
      const value = line.slice(at + 1)
      out[key] = line[0] === 'n' ? Number(value) : line[0] === 'b' ? BigInt(value) : line[0] === 'f' ? value === '1' : value
    }
    return out
  }
  const time = (text) => x.out(e.sno_fmt_time(index, x.put(text)))
  // Each value's fields, decoded once, on first use.
  const cache = new WeakMap()
  const fieldsOfValue = (value) => {
    let f = cache.get(value)
    if (f === undefined) cache.set(value, (f = fieldsOf(value.toString())))
    return f
  }
  const Cls = class extends TextValue {
    constructor(text, trusted) {
      super(trusted === TRUSTED ? text : canonical(text))
    }

    static parse(text) {
      return new Cls(canonical(text), TRUSTED)
    }

    static fromBytes(bytes) {
      if (!(bytes instanceof Uint8Array)) throw typeError(`${name}.fromBytes(bytes): bytes must be a Uint8Array, got ${describe(bytes)}`)
      return new Cls(x.out(e.sno_fmt_from_bytes(index, x.put(bytes))), TRUSTED)
    }

    static fromBigInt(value) {
      if (typeof value !== 'bigint') throw typeError(`${name}.fromBigInt(value): value must be a bigint, got ${describe(value)}`)
      return new Cls(x.out(e.sno_fmt_from_hex(index, x.put(value.toString(16)))), TRUSTED)
    }

    static fromFields(fields) {
      if (fields === null || typeof fields !== 'object') throw typeError(`${name}.fromFields(fields): fields must be an object, got ${describe(fields)}`)
      const lines = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'boolean' ? Number(v) : v}`)
      return new Cls(x.out(e.sno_fmt_from_fields(index, x.put(lines.join('\n')))), TRUSTED)
    }

    fields() {
      return { ...fieldsOfValue(this) }
    }

    get bytes() {
      return x.bytes(e.sno_fmt_to_bytes(index, x.put(this.toString())))
    }

    get bigint() {
      let v = 0n
      for (const b of this.bytes) v = (v << 8n) | BigInt(b)
      return v
    }

    get unixMs() {
      const t = time(this.toString())
      return t === '' ? undefined : Number(t.split(' ')[0])
    }

    get unixNs() {
      const t = time(this.toString())
      return t === '' ? undefined : BigInt(t.split(' ')[1])
    }

    get timestamp() {
      const ms = this.unixMs
      return ms === undefined ? undefined : new Date(ms)
    }
  }
  Object.defineProperty(Cls, 'name', { value: name })
  for (const key of fieldNames) {
    Object.defineProperty(Cls.prototype, key, {
      get() {
        return fieldsOfValue(this)[key]
      },
    })
  }
  return Cls
}
