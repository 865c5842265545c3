// node:child_process and node:worker_threads for the bundled harness: formats.test.mjs imports
// them for its one test of processes and threads, which the harness skips (no processes or
// threads in an edge runtime; each thread of Deno and Bun instantiates the module anew).
const unavailable = () => {
  throw new Error('not in this runtime')
}
export const fork = unavailable
export class Worker {
  constructor() {
    unavailable()
  }
}
