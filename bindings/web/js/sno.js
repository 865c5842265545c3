// sno in the web build (docs/wasm.md): `Id`, the process-wide generator's functions and
// `Generator`, over sno.wasm. A page that imports only these ships sno.wasm alone.
import { TRUSTED, int, rangeError, typeError, valueClass, waiting, wrap, describe } from './runtime.js'
import { module } from './load/sno.js'

const x = wrap(module)
const e = x.exports

/** A sno ID (10 bytes, 16 characters of `[2-9a-x]` that sort as the IDs do). */
export const Id = valueClass(x, 0)

const meta = (m, where) => int(`${where}: meta`, m, 0, 255, 0)

/**
 * A new ID's text from the process-wide generator (a random partition per instance). Never
 * waits: where the native package would sleep (the 4 ms unit's 65 536 IDs used up), it throws
 * the core's `ERR_SNO_SEQUENCE_EXHAUSTED` with `retryAtUnixNs` (`Generator#nextAsync` waits).
 */
export function newString(m) {
  return x.out(e.sno_new(m === undefined ? 0 : meta(m, 'newString')))
}

/** A new ID from the process-wide generator (as `newString`). */
export function newId(m) {
  return new Id(newString(m), TRUSTED)
}

const split = (text) => Array.from({ length: text.length / 16 }, (_, i) => text.slice(16 * i, 16 * i + 16))

const count = (n, where) => {
  if (typeof n !== 'number') throw typeError(`${where}: n must be a number, got ${typeof n}`)
  if (Number.isNaN(n) || (Number.isFinite(n) && !Number.isInteger(n))) throw rangeError(`n must be an integer, got ${n}`)
  return n
}

/** `n` new IDs' texts, encoded in one batch. */
export function newStrings(n, m) {
  return split(x.out(e.sno_new_text(count(n, 'newStrings'), meta(m, 'newStrings'))))
}

/** `n` new IDs. */
export function newIds(n, m) {
  return split(x.out(e.sno_new_text(count(n, 'newIds'), meta(m, 'newIds')))).map((t) => new Id(t, TRUSTED))
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
  let limit = texts.findIndex((t) => typeof t !== 'string' || t.length !== 16)
  if (limit < 0) limit = texts.length
  const found = x.out(e.sno_first_invalid(x.put(texts.slice(0, limit).join(''))))
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
  return texts.map((t) => new Id(t, TRUSTED))
}

const FREE = new FinalizationRegistry((handle) => e.sno_gen_free(handle))
const OPTIONS = ['partition', 'sequenceMin', 'sequenceMax', 'snapshot', 'maxWaitMs', 'lease', 'clock']
const SNAPSHOT = ['partition', 'sequenceMin', 'sequenceMax', 'sequence', 'now', 'wallHi', 'wallSafe', 'drifts']

/** A generator with its own partition and sequence bounds (leases: Node's native package only). */
export class Generator {
  #handle

  constructor(options) {
    const o = options ?? {}
    if (typeof o !== 'object' || Array.isArray(o)) throw typeError(`Generator: options must be an object, got ${describe(options)}`)
    for (const key of Object.keys(o)) {
      if (!OPTIONS.includes(key)) throw typeError(`Generator: unknown option '${key}' (known: ${OPTIONS.join(', ')})`, 'ERR_INVALID_ARG_VALUE')
    }
    if (o.lease !== undefined) {
      const err = new Error('libsno: leases need PostgreSQL or Redis: the native addon of Node.js only (the web build has no sockets)')
      err.code = 'ERR_SNO_LEASE_INVALID_URL'
      throw err
    }
    if (o.clock !== undefined) {
      if (typeof o.clock !== 'string') throw typeError(`Generator: option clock must be a string ('precise' or 'fast'), got ${describe(o.clock)}`)
      // The core's names (an unknown one is its RangeError ERR_SNO_UNKNOWN_CLOCK); both read the host's clock.
      x.out(e.sno_clock(x.put(o.clock)))
    }
    let snap = 0
    if (o.snapshot !== undefined) {
      const s = o.snapshot
      const fields = SNAPSHOT.map((k) => int(`Generator: option snapshot.${k}`, s?.[k], k === 'now' || k.startsWith('wall') ? -(2 ** 53) : 0, k === 'sequence' || k === 'drifts' ? 2 ** 32 - 1 : k.startsWith('seq') || k === 'partition' ? 65535 : 2 ** 53))
      const ptr = e.sno_io(64)
      new Float64Array(e.memory.buffer, ptr, 8).set(fields)
      snap = ptr
    }
    const handle = x.out(
      e.sno_gen_new(
        o.partition === undefined ? -1 : int('Generator: option partition', o.partition, 0, 65535),
        int('Generator: option sequenceMin', o.sequenceMin, 0, 65535, 0),
        int('Generator: option sequenceMax', o.sequenceMax, 0, 65535, 65535),
        o.maxWaitMs === undefined ? -1 : int('Generator: option maxWaitMs', o.maxWaitMs, 0, 2 ** 31 - 1),
        snap,
      ),
    )
    this.#handle = Number(handle)
    FREE.register(this, this.#handle)
  }

  /** The next ID, or at once the core's error where a native `next` would wait (a page cannot sleep). */
  next(m) {
    return new Id(x.out(e.sno_gen_next(this.#handle, meta(m, 'Generator.next'))), TRUSTED)
  }

  /** The next ID, or at once the core's error (ERR_SNO_SEQUENCE_EXHAUSTED, …, with `retryAtUnixNs`). */
  tryNext(m) {
    return new Id(x.out(e.sno_gen_next(this.#handle, meta(m, 'Generator.tryNext'))), TRUSTED)
  }

  /** The next ID; waits with a timer (the core's wait policy) for at most `maxWaitMs`. */
  async nextAsync(m) {
    const mm = meta(m, 'Generator.nextAsync')
    return new Id(await waiting((budget, deadline) => x.out(e.sno_gen_step(this.#handle, mm, budget, deadline)), this.maxWaitMs), TRUSTED)
  }

  /** An ID for the time of a `Date`, with its own wrapping sequence. */
  nextWithTime(m, date) {
    if (!(date instanceof Date)) throw typeError(`Generator.nextWithTime(meta, date): date must be a Date, got ${describe(date)}`)
    if (!Number.isFinite(date.getTime())) throw rangeError('Generator.nextWithTime(meta, date): date is an Invalid Date')
    return new Id(x.out(e.sno_gen_next_with_time(this.#handle, meta(m, 'Generator.nextWithTime'), date.getTime())), TRUSTED)
  }

  #state() {
    return x.out(e.sno_gen_state(this.#handle)).split(' ').map(Number)
  }

  snapshot() {
    const s = this.#state()
    return Object.fromEntries(SNAPSHOT.map((k, i) => [k, s[3 + i]]))
  }

  stats() {
    const s = this.#state()
    return { overflows: s[11], overflowEpisodes: s[12], drifts: s[13], regressions: s[14], waits: s[15] }
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

  get lease() {
    return null
  }
}
