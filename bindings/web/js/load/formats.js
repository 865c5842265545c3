// formats.wasm, compiled: fetched next to this file (new URL(…, import.meta.url): Vite, webpack and
// Parcel bundle it as an asset; Deno and Bun fetch file: URLs), or read from disk where fetch
// cannot read files (Node.js). Cloudflare Workers import the module instead (load-workerd/).
import { compile } from './compile.js'

export const module = await compile(new URL('../formats.wasm', import.meta.url))
