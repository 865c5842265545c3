// node:assert/strict's calls that the Node package's test files make, for the runtimes the
// harness bundles them for (../harness.mjs): equal, notEqual, ok, deepEqual, match, throws,
// rejects, fail. Strict as Node's: equal is Object.is; deepEqual compares prototypes, own
// enumerable keys and values, typed arrays byte for byte. One difference, on purpose: a Buffer
// and a Uint8Array of the same bytes are equal (the light build's `bytes` are Uint8Arrays where
// the tests build Buffers to compare with).
class AssertionError extends Error {
  constructor(message) {
    super(message)
    this.name = 'AssertionError'
    this.code = 'ERR_ASSERTION'
  }
}

const show = (v) => {
  let text
  try {
    text = typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : ArrayBuffer.isView(v) ? `${v.constructor.name}[${[...v].join(',')}]` : String(v)
  } catch {
    text = Object.prototype.toString.call(v)
  }
  return text.length > 160 ? `${text.slice(0, 160)}…` : text
}
const fail = (message, fallback) => {
  if (message instanceof Error) throw message
  throw new AssertionError(message ?? fallback)
}

function same(a, b) {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    if (a.byteLength !== b.byteLength) return false
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
    return x.every((v, i) => v === y[i])
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  if (a instanceof Date) return a.getTime() === b.getTime()
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length || Array.isArray(a) !== Array.isArray(b)) return false
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]))
}

/** Whether error `e` matches `expected` as assert.throws reads it. */
function matches(e, expected) {
  if (expected === undefined || typeof expected === 'string') return true
  if (expected instanceof RegExp) return expected.test(String(e?.message ?? e))
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && e instanceof expected) return true
    if (Error.isPrototypeOf(expected) || expected === Error) return false
    return expected(e) === true
  }
  return Object.entries(expected).every(([k, v]) => (v instanceof RegExp ? v.test(e?.[k]) : same(e?.[k], v)))
}

const assert = (value, message) => assert.ok(value, message)
assert.AssertionError = AssertionError
assert.ok = (value, message) => value || fail(message, `expected a truthy value, got ${show(value)}`)
assert.equal = (a, b, message) => Object.is(a, b) || fail(message, `${show(a)} !== ${show(b)}`)
assert.strictEqual = assert.equal
assert.notEqual = (a, b, message) => !Object.is(a, b) || fail(message, `${show(a)} === ${show(b)}`)
assert.deepEqual = (a, b, message) => same(a, b) || fail(message, `not deep-equal: ${show(a)} and ${show(b)}`)
assert.deepStrictEqual = assert.deepEqual
assert.notDeepEqual = (a, b, message) => !same(a, b) || fail(message, `deep-equal: ${show(a)}`)
assert.match = (s, re, message) => re.test(s) || fail(message, `${show(s)} does not match ${re}`)
assert.fail = (message) => fail(message, 'failed')
assert.throws = (fn, expected, message) => {
  if (typeof expected === 'string') [expected, message] = [undefined, expected]
  try {
    fn()
  } catch (e) {
    if (matches(e, expected)) return
    fail(message, `the error does not match: ${e?.constructor?.name} ${e?.code}: ${e?.message}`)
  }
  fail(message, 'missing expected exception')
}
assert.rejects = async (promise, expected, message) => {
  if (typeof expected === 'string') [expected, message] = [undefined, expected]
  try {
    await (typeof promise === 'function' ? promise() : promise)
  } catch (e) {
    if (matches(e, expected)) return
    fail(message, `the rejection does not match: ${e?.constructor?.name} ${e?.code}: ${e?.message}`)
  }
  fail(message, 'missing expected rejection')
}
assert.strict = assert

export default assert
export const { ok, equal, notEqual, deepEqual, match, throws, rejects } = assert
