// The modules of the web build read from disk, synchronously (node:fs): the package's light
// build for Node.js (its fallback where no native addon matches), Deno and Bun. No top-level
// await, so that Node's `require()` of the package (require(esm), Node >= 20.19) loads it.
// scripts/release-npm.mjs puts this folder's files in web/fs/load/ of the npm package, beside a
// copy of the JavaScript of web/ (docs/wasm.md): `../../` is web/, where the modules are.
import { readFileSync } from 'node:fs'

/** The compiled module `name` (sno.wasm, formats.wasm) of web/. */
export function read(name) {
  return new WebAssembly.Module(readFileSync(new URL(`../../${name}`, import.meta.url)))
}
