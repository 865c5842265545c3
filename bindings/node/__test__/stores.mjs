// Throwaway PostgreSQL and Redis servers for the lease tests: real servers on loopback ports,
// started by the repository's scripts/store-server in a temporary directory, never mocks. A
// server that cannot start fails the tests that need it (the error carries the script's
// output); every server started is stopped by `stop()`, and on exit and on SIGINT / SIGTERM
// when a test run ends early. Under scripts/test.sh the directory lies in SNO_TEST_STORE_ROOT,
// which the script's own cleanup sweeps as well.
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SCRIPT = fileURLToPath(new URL('../../../scripts/store-server', import.meta.url))

/** A loopback port nothing listens on now (the OS's pick, released at once). */
export async function freePort() {
  const server = createServer()
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

function script(args, env = process.env) {
  try {
    return execFileSync(SCRIPT, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, env }).trim()
  } catch (e) {
    throw new Error(`scripts/store-server ${args.join(' ')} failed (${e.status ?? e.signal}): ${e.stderr || e.message}`)
  }
}

/**
 * Starts one server of each kind in `kinds` ('pg', 'redis'). Returns, per kind, its URL
 * (`stores.pg`, `stores.redis`) and port (`stores.pgPort`, `stores.redisPort`), the running
 * servers' directories (`stores.dir(kind)`, for pause/resume) and `stop()`. Both take TLS with
 * the certificates of one folder, `stores.certs` (`ca.pem`: the test CA that signed both
 * servers' certificates, valid for `localhost` only; `wrong-ca.pem`: a CA that signed nothing):
 * PostgreSQL on its port, Redis on `stores.redisTlsPort` too.
 */
export async function startStores(kinds) {
  const root = mkdtempSync(join(process.env.SNO_TEST_STORE_ROOT || tmpdir(), 'sno-node-stores-'))
  const started = []
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    for (const kind of started) {
      try {
        script(['stop', kind, join(root, kind)])
      } catch (e) {
        console.error(String(e.message))
      }
    }
    rmSync(root, { recursive: true, force: true })
  }
  const onSignal = (signal) => {
    stop()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('exit', stop)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const certs = join(root, 'certs')
  const env = { ...process.env, SNO_TEST_CERTS: certs }
  const stores = {
    certs,
    dir: (kind) => join(root, kind),
    stop() {
      stop()
      process.off('exit', stop)
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
  try {
    for (const kind of kinds) {
      const port = await freePort()
      const ports = [String(port)]
      if (kind === 'redis') {
        let tlsPort = await freePort()
        while (tlsPort === port) tlsPort = await freePort()
        stores.redisTlsPort = tlsPort
        ports.push(String(tlsPort))
      }
      started.push(kind)
      stores[kind] = script(['start', kind, join(root, kind), ...ports], env)
      stores[`${kind}Port`] = port
    }
  } catch (e) {
    stores.stop()
    throw e
  }
  return stores
}

/** Pauses (SIGSTOP) or resumes a server of `stores`: it then neither answers nor refuses. */
export function pause(stores, kind, paused) {
  script([paused ? 'pause' : 'resume', kind, stores.dir(kind)])
}

/** Restarts a Redis server of `stores` (its data lost: no persistence), or a PostgreSQL one. */
export function restart(stores, kind) {
  script(['restart', kind, stores.dir(kind)])
}

/**
 * Stops a Redis server of `stores`, keeps it away for `outageSeconds`, then starts it (its data
 * lost), without blocking the event loop: resolves once it is back.
 */
export function restartAfter(stores, outageSeconds) {
  const args = ['restart', 'redis', stores.dir('redis'), String(outageSeconds)]
  return new Promise((resolve, reject) => {
    execFile('bash', [SCRIPT, ...args], (e, _stdout, stderr) =>
      e ? reject(new Error(`scripts/store-server ${args.join(' ')} failed (${e.code ?? e.signal}): ${stderr}`)) : resolve(),
    )
  })
}
