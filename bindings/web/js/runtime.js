// The JavaScript half of the web build (docs/wasm.md): instantiates one of its WebAssembly
// modules (sno.wasm, formats.wasm) with the two functions it imports, the host's clock and its
// randomness, and wraps its exports: text in and out through the module's I/O buffer, and every
// failure thrown as the error the core describes (class, code and message from the core's
// error table; position, byte, retryAtUnixNs, max, partition). Nothing here decides anything about
// an ID: every check, codec, field and generator is the core's, in the module.

import { describe, typeError } from './value.js'

const decoder = new TextDecoder()
// Made on first use: a page that never writes input (newString alone) does not make one.
let encoder

/** The error a failed export left (`sno_error`: class, code, message, `name=value` lines). */
function thrown(x) {
  const [name, code, message, ...props] = out(x, x.exports.sno_error()).split('\n')
  const error = new (name === 'RangeError' ? RangeError : name === 'TypeError' ? TypeError : Error)(message)
  error.code = code
  for (const line of props) {
    const at = line.indexOf('=')
    if (at < 0) continue
    const key = line.slice(0, at)
    const value = line.slice(at + 1)
    error[key] = key === 'retryAtUnixNs' ? (value === '' ? null : BigInt(value)) : Number(value)
  }
  return error
}

/**
 * An instance of `module` (a compiled WebAssembly.Module): `{ exports, view() }`, the bytes of
 * its memory (a new view once the memory grew). Its imports: the clock is `Date.now()` (every
 * format's time field is a whole number of milliseconds, so a finer clock would change no ID;
 * docs/wasm.md), the randomness `crypto.getRandomValues` (it seeds the core's CSPRNG and draws
 * default partitions; at most 65 536 bytes per call). The functions below read and write
 * through it; separate, so that a bundler keeps only those a page calls.
 */
export function wrap(module) {
  let bytes = new Uint8Array(0)
  const view = () => (bytes.byteLength === 0 ? (bytes = new Uint8Array(exports.memory.buffer)) : bytes)
  const { exports } = new WebAssembly.Instance(module, {
    sno: {
      now_unix_ms: () => Date.now(),
      random_fill(ptr, len) {
        for (let at = 0; at < len; at += 65536) crypto.getRandomValues(view().subarray(ptr + at, ptr + Math.min(len, at + 65536)))
      },
    },
  })
  return { exports, view }
}

/** Writes `input` (a string as UTF-8, or bytes) into the I/O buffer of `x`; its length. */
export function put(x, input) {
  if (typeof input === 'string') {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const ptr = x.exports.sno_io(input.length * 3)
    return (encoder ??= new TextEncoder()).encodeInto(input, x.view().subarray(ptr, ptr + input.length * 3)).written
  }
  const ptr = x.exports.sno_io(input.length)
  x.view().set(input, ptr)
  return input.length
}

/** The output of an export of `x` that returned `len` (-1: its failure, thrown), as new bytes. */
export function bytes(x, len) {
  if (len < 0) throw thrown(x)
  const at = x.exports.sno_io_ptr()
  return x.view().slice(at, at + len)
}

/** The same, as text. */
export function out(x, len) {
  if (len < 0) throw thrown(x)
  const at = x.exports.sno_io_ptr()
  return decoder.decode(x.view().subarray(at, at + len))
}

/** The same, for an output known to be ASCII (a value's text): quicker than a TextDecoder. */
export function ascii(x, len) {
  if (len < 0) throw thrown(x)
  const at = x.exports.sno_io_ptr()
  return String.fromCharCode.apply(null, x.view().subarray(at, at + len))
}

/** A RangeError with the core's code of arguments out of range. */
export function rangeError(message) {
  const e = new RangeError(message)
  e.code = 'ERR_SNO_INVALID_ARGUMENT'
  return e
}

/**
 * `v` checked: an integer in `min ..= max` (a TypeError for a non-number, a RangeError naming
 * `name` otherwise), or `fallback` when undefined and a fallback is given.
 */
export function int(name, v, min, max, fallback) {
  if (v === undefined && fallback !== undefined) return fallback
  if (typeof v !== 'number') throw typeError(`${name} must be a number, ${v === undefined ? 'missing' : `got ${describe(v)}`}`)
  if (!Number.isInteger(v) || v < min || v > max) throw rangeError(`${name} must be an integer in ${min}..=${max}, got ${v}`)
  return v
}

/** `meta` of a sno call: 0 when absent, else an integer 0 ..= 255. */
export const meta = (m, where) => (m === undefined || m === null ? 0 : int(`${where}: meta`, m, 0, 255))

/** A batch's count `n`: a number that is an integer or ±Infinity (the core checks its range). */
export function count(n, where) {
  if (typeof n !== 'number') throw typeError(`${where}: n must be a number, got ${typeof n}`)
  if (Number.isNaN(n) || (Number.isFinite(n) && !Number.isInteger(n))) throw rangeError(`${where}: n must be an integer, got ${n}`)
  return n
}

/** `text` cut into pieces of `width` characters. */
export function split(text, width) {
  const out = new Array(text.length / width)
  for (let i = 0; i < out.length; i++) out[i] = text.slice(width * i, width * i + width)
  return out
}
