// worker_threads share the process-wide generator; cluster workers are separate processes with
// their own random partitions. Neither produces a duplicate.
import assert from 'node:assert/strict'
import { fork } from 'node:child_process'
import { test } from 'node:test'
import { Worker } from 'node:worker_threads'

import { newString } from '../index.mjs'

const ENTRY = new URL('../index.mjs', import.meta.url).href

test('worker_threads generate concurrently without duplicates', async () => {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads')
    import(workerData.entry).then(({ newString, Generator }) => {
      const shared = []
      for (let i = 0; i < workerData.n; i++) shared.push(newString())
      parentPort.postMessage(shared)
    })`
  const runs = Array.from({ length: 4 }, () => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { entry: ENTRY, n: 50000 } })
    w.once('message', resolve)
    w.once('error', reject)
  }))
  const mine = Array.from({ length: 50000 }, () => newString())
  const all = (await Promise.all(runs)).flat().concat(mine)
  assert.equal(new Set(all).size, all.length)
})

test('cluster-style child processes never collide', async () => {
  const script = new URL('./child.cjs', import.meta.url)
  const runs = Array.from({ length: 3 }, () => new Promise((resolve, reject) => {
    const child = fork(script, ['20000'], { serialization: 'advanced' })
    child.once('message', resolve)
    child.once('error', reject)
  }))
  const all = (await Promise.all(runs)).flat()
  assert.equal(all.length, 60000)
  assert.equal(new Set(all).size, all.length)
})
