// The Cloudflare Worker quickstart (docs/wasm.md, bindings/node/README.md): run by run.mjs in
// workerd, which imports libsno's `workerd` build (its WebAssembly imported as modules, as
// wrangler bundles a Worker) and answers a request with IDs.
import { Generator, newString, ulid } from 'libsno'

// A Worker may not draw random numbers at global scope (a Generator draws its partition): make it
// at the first request.
let ids

export default {
  async fetch(request) {
    ids ??= new Generator()
    const id = await ids.nextAsync() // sno: never a spin on the Worker's frozen clock
    return Response.json({ id: String(id), time: id.timestamp, text: newString(), ulid: ulid.newString() })
  },
}
