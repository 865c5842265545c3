// sno.wasm imported as a WebAssembly module, as Cloudflare Workers (workerd; wrangler and
// Cloudflare's Vite plugin bundle `*.wasm?module` as a compiled module) and Vercel's Edge
// runtime (Next.js: `*.wasm?module`) give WebAssembly to a script: neither can fetch its own files,
// and Vercel's refuses to compile WebAssembly from bytes. scripts/release-npm.mjs puts this
// folder's files in web/module/load/ of the npm package, beside a copy of the JavaScript of web/
// (docs/wasm.md): `../../` is web/, where the modules are.
import module from '../../sno.wasm?module'

export { module }
