// The names of libsno's API that only its native addon can serve, as the light web build has
// them (browsers, workerd, Vercel's Edge, Deno, Bun, and Node.js where no addon matches):
// leases need PostgreSQL or Redis, a socket WebAssembly has not. Every lease call throws (or
// rejects with) an Error with code ERR_SNO_LEASE_INVALID_URL, the code a native build without
// the store gives, whose message says so; with no lease there is none to release.
// scripts/release-npm.mjs puts a copy in each of the package's web builds (docs/wasm.md).

/** The refusal of a lease call `what`. */
function nativeOnly(what) {
  const error = new Error(
    `libsno: ${what}: leases need PostgreSQL or Redis, which only the native addon of Node.js reaches ` +
      '(this is the WebAssembly build: no sockets)',
  )
  error.code = 'ERR_SNO_LEASE_INVALID_URL'
  return error
}

/**
 * A lease: the native addon's only. Shaped as the native class (the package's one API), but no
 * instance can exist: the constructor and both factories refuse, so the members never run.
 */
export class Lease {
  // eslint-disable-next-line no-unused-vars
  constructor(options, made) {
    throw nativeOnly('new Lease()')
  }

  // eslint-disable-next-line no-unused-vars
  static async acquire(options) {
    throw nativeOnly('Lease.acquire()')
  }

  static fromEnv() {
    throw nativeOnly('Lease.fromEnv()')
  }

  get partition() {
    return undefined
  }

  get token() {
    return undefined
  }

  get expiresAt() {
    return undefined
  }

  get namespace() {
    return undefined
  }

  get holder() {
    return undefined
  }

  get renewals() {
    return undefined
  }

  get renewalFailures() {
    return undefined
  }

  get expiresInMs() {
    return undefined
  }

  get closed() {
    return true
  }

  get lastError() {
    return null
  }

  close() {}

  [Symbol.dispose ?? Symbol.for('nodejs.dispose')]() {}

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return 'Lease (the native addon only)'
  }
}

/** The most values one batch call makes: the core's MAX_BATCH (2^24), as the native addon's. */
export const MAX_BATCH = 16_777_216

/** No lease is ever taken here: none to release. */
export function releaseProcessLease() {
  return false
}

/** No lease to release on a signal: nothing to do. */
export function releaseOnSignals() {}
