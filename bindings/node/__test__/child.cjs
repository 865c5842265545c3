// A child process for the concurrency tests: sends back argv[2] values from its process-wide
// generators (sno IDs, or with argv[3] === 'formats' an object of texts per format).
const sno = require('../sno.js')

const n = Number(process.argv[2])
let out
if (process.argv[3] === 'formats') {
  out = {}
  for (const f of ['ulid', 'uuid7', 'scru128', 'scru160', 'ulidflake']) out[f] = sno[f].newStrings(n)
} else {
  out = []
  for (let i = 0; i < n; i++) out.push(sno.newString())
}
process.send(out, () => process.exit(0))
