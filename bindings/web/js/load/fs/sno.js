// sno.wasm, read from disk (read.js).
import { read } from './read.js'

export const module = read('sno.wasm')
