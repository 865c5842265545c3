// formats.wasm, compiled: as sno.js loads sno.wasm.
import { compile } from './compile.js'

export const module = await compile(new URL('../formats.wasm', import.meta.url))
