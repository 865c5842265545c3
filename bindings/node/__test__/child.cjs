// A child process for concurrency.test.mjs: sends back argv[2] IDs from its global generator.
const { newString } = require('../sno.js')

const n = Number(process.argv[2])
const ids = []
for (let i = 0; i < n; i++) ids.push(newString())
process.send(ids, () => process.exit(0))
