// Installed before libsno loads (imported first by first.js and checks.js): counts the page's
// calls of Date.now, crypto.getRandomValues and Math.random (which platform sources the
// WebAssembly modules reach through their imports), and keeps every WebAssembly instance made,
// so that the page can read the memory each holds.
export const calls = { dateNow: 0, getRandomValues: 0, mathRandom: 0 }
export const instances = []

const getRandomValues = crypto.getRandomValues.bind(crypto)
crypto.getRandomValues = (array) => {
  calls.getRandomValues++
  return getRandomValues(array)
}
const mathRandom = Math.random
Math.random = () => {
  calls.mathRandom++
  return mathRandom()
}
const dateNow = Date.now
Date.now = () => {
  calls.dateNow++
  return dateNow()
}

const { Instance, instantiate } = WebAssembly
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports)
  instances.push(instance)
  return instance
}
WebAssembly.instantiate = async (...args) => {
  const result = await instantiate(...args)
  instances.push(result.instance ?? result)
  return result
}

/** Bytes of memory the WebAssembly instances hold now, each module's own memory. */
export function memoryBytes() {
  return instances.reduce((n, i) => n + (i.exports.memory?.buffer.byteLength ?? 0), 0)
}
