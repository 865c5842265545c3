// sno.wasm, compiled: fetched next to this file (new URL(…, import.meta.url): Vite, webpack and
// Parcel bundle it as an asset), or read from disk where fetch cannot read files (Node.js: the
// tests of bindings/web). The npm package's other builds load it their own way (fs/: read from
// disk, Node's fallback and Bun; module/: imported as a module, workerd and Vercel's Edge;
// source/: a source phase import, Deno), each beside a copy of the JavaScript (docs/wasm.md).
import { compile } from './compile.js'

export const module = await compile(new URL('../sno.wasm', import.meta.url))
