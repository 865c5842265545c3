// ESM entry of libsno/pg: the same module as the CommonJS one (pg.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const pg = require('./pg.js')

export const { registerTypes } = pg
export default pg
