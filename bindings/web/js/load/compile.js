// Compiles a module of the web build from its URL (docs/wasm.md): `fetch` with streaming
// compilation where the server says `application/wasm`, the bytes otherwise; a `file:` URL is
// read with Node's fs where the runtime has it (Node.js cannot fetch files).

/** The compiled WebAssembly.Module at `url`. */
export async function compile(url) {
  const fs = url.protocol === 'file:' ? globalThis.process?.getBuiltinModule?.('node:fs') : undefined
  if (fs) return new WebAssembly.Module(fs.readFileSync(url))
  const response = await fetch(url)
  if (!response.ok) throw new Error(`libsno: cannot fetch ${url}: ${response.status} ${response.statusText}`)
  if (response.headers.get('content-type') === 'application/wasm' && WebAssembly.compileStreaming) {
    return WebAssembly.compileStreaming(response)
  }
  return WebAssembly.compile(await response.arrayBuffer())
}
