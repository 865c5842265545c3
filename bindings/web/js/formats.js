// Every format but sno in the web build (docs/wasm.md), over formats.wasm: each format's class
// (built from the core's table: `sno_fmt_info`), its namespace (`new`, `newString`,
// `newStrings`, `newMany`, `Generator`, where the core's table gives it one) and `detect`.
import { TRUSTED, int, typeError, valueClass, waiting, wrap, describe } from './runtime.js'
import { module } from './load/formats.js'
import { Id } from './sno.js'

const x = wrap(module)
const e = x.exports

// Indexes in the core's `Format::ALL` (sno is 0).
const INDEX = { ulid: 1, uuid7: 2, scru128: 3, scru160: 4, nanoflake: 5, ulidflake: 6, typeid: 7, ksuid: 8 }
const classes = Object.fromEntries(Object.entries(INDEX).map(([name, i]) => [name, valueClass(x, i)]))

export const Ulid = classes.ulid
export const Uuid7 = classes.uuid7
export const Scru128 = classes.scru128
export const Scru160 = classes.scru160
export const Nanoflake = classes.nanoflake
export const UlidFlake = classes.ulidflake
export const TypeId = classes.typeid
export const Ksuid = classes.ksuid

for (const [name, Cls] of Object.entries(classes)) {
  if ([16].includes(Cls.fromBytes.length) || ['ulid', 'uuid7', 'scru128', 'typeid'].includes(name)) {
    Object.defineProperty(Cls.prototype, 'uuid', {
      get() {
        return x.out(e.sno_fmt_uuid(INDEX[name], x.put(this.toString())))
      },
    })
  }
}
for (const name of ['nanoflake', 'ulidflake']) {
  const Cls = classes[name]
  const at = (value, epochMs, where) => Number(x.out(e.sno_fmt_unix_ms_at(INDEX[name], x.put(value.toString()), int(`${where}(epochMs): epochMs`, epochMs, -8.64e15, 8.64e15))))
  Cls.prototype.unixMsAt = function (epochMs) {
    return at(this, epochMs, `${Cls.name}.unixMsAt`)
  }
  Cls.prototype.dateAt = function (epochMs) {
    return new Date(at(this, epochMs, `${Cls.name}.dateAt`))
  }
}
// Nanoflakes do not carry their epoch, and their text does not sort as the values do.
for (const key of ['unixMs', 'unixNs', 'timestamp']) Object.defineProperty(Nanoflake.prototype, key, { value: undefined })
Nanoflake.prototype.compare = function (other) {
  if (!(other instanceof Nanoflake)) throw typeError('Nanoflake.compare(other): other must be an instance of Nanoflake')
  return { '<': -1, '=': 0, '>': 1 }[x.out(e.sno_fmt_compare(INDEX.nanoflake, x.put(`${this}\n${other}`)))]
}
Uuid7.parseLenient = (text) => new Uuid7(x.out(e.sno_uuid7_lenient(x.put(String(text)))), TRUSTED)
Uuid7.prototype.toUlid = function () {
  return Ulid.fromBytes(this.bytes)
}
Ulid.prototype.toUuid7 = function () {
  return Uuid7.fromBytes(this.bytes)
}
Object.defineProperty(Scru160.prototype, 'hex', {
  get() {
    return x.out(e.sno_scru160_hex(x.put(this.toString())))
  },
})
TypeId.generate = (prefix) => {
  if (typeof prefix !== 'string') throw typeError(`TypeId.generate(prefix): prefix must be a string, got ${describe(prefix)}`)
  return new TypeId(x.out(e.sno_typeid_new(x.put(prefix))), TRUSTED)
}
Object.defineProperty(TypeId.prototype, 'suffix', {
  get() {
    return x.out(e.sno_typeid_suffix(x.put(this.toString())))
  },
})

/** The namespace of a format with a process-wide generator and/or a `Generator`. */
function namespace(name) {
  const f = INDEX[name]
  const Cls = classes[name]
  const [known, required] = x.out(e.sno_fmt_settings(f)).split(';').map((s) => (s ? s.split(',') : []))
  const ns = { [Cls.name]: Cls }
  const FREE = new FinalizationRegistry((handle) => e.sno_fmt_gen_free(handle))
  ns.Generator = class Generator {
    #handle
    #maxWaitMs

    constructor(options) {
      const o = options ?? {}
      const keys = [...known, 'maxWaitMs', 'clock']
      for (const key of Object.keys(o)) {
        if (!keys.includes(key)) throw typeError(`${name}.Generator: unknown option '${key}' (known: ${keys.join(', ')})`, 'ERR_INVALID_ARG_VALUE')
      }
      if (o.clock !== undefined && typeof o.clock !== 'string') throw typeError(`${name}.Generator: option clock must be a string, got ${describe(o.clock)}`)
      const lines = [o.clock ?? '']
      for (const key of known) {
        if (o[key] === undefined && !required.includes(key)) continue
        lines.push(`${key}=${int(`${name}.Generator: option ${key}`, o[key], -(2 ** 53), 2 ** 53)}`)
      }
      this.#maxWaitMs = int(`${name}.Generator: option maxWaitMs`, o.maxWaitMs, 0, 2 ** 31 - 1, 5000)
      this.#handle = Number(x.out(e.sno_fmt_gen_new(f, x.put(lines.join('\n')))))
      FREE.register(this, this.#handle)
    }

    /** The next value, or at once the core's error where a native `next` would wait. */
    next() {
      return new Cls(x.out(e.sno_fmt_gen_next(this.#handle)), TRUSTED)
    }

    tryNext() {
      return this.next()
    }

    async nextAsync() {
      return new Cls(await waiting((budget, deadline) => x.out(e.sno_fmt_gen_step(this.#handle, budget, deadline)), this.#maxWaitMs), TRUSTED)
    }

    nextAt(unixMs) {
      return new Cls(x.out(e.sno_fmt_gen_next_at(this.#handle, int('Generator.nextAt(unixMs): unixMs', unixMs, -(2 ** 53), 2 ** 53))), TRUSTED)
    }

    get maxWaitMs() {
      return this.#maxWaitMs
    }
  }
  if (name !== 'nanoflake' && name !== 'typeid') {
    const newString = () => x.out(e.sno_fmt_new(f))
    const texts = (n) => {
      const text = x.out(e.sno_fmt_new_text(f, n))
      const width = newString().length
      return Array.from({ length: text.length / width }, (_, i) => text.slice(width * i, width * i + width))
    }
    Object.assign(ns, { newString, new: () => new Cls(newString(), TRUSTED), newStrings: texts, newMany: (n) => texts(n).map((t) => new Cls(t, TRUSTED)) })
  }
  return Object.freeze(ns)
}

export const ulid = namespace('ulid')
export const uuid7 = namespace('uuid7')
export const scru128 = namespace('scru128')
export const scru160 = namespace('scru160')
export const nanoflake = namespace('nanoflake')
export const ulidflake = namespace('ulidflake')
export const ksuid = namespace('ksuid')
export const typeid = Object.freeze({ TypeId, new: TypeId.generate, newString: (prefix) => TypeId.generate(prefix).toString() })

/** The value of the one format `text` is written in (the core's detection). */
export function detect(text) {
  if (typeof text !== 'string') throw typeError(`detect(text): text must be a string, got ${describe(text)}`)
  const out = x.out(e.sno_detect(x.put(text)))
  const at = out.indexOf(' ')
  const index = Number(out.slice(0, at))
  const Cls = index === 0 ? Id : Object.values(classes)[index - 1]
  return new Cls(out.slice(at + 1), TRUSTED)
}
