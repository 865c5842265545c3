// Counts the page's calls of crypto.getRandomValues, Math.random and Date.now, installed before
// libsno loads (checks.js imports this module first): the checks read which platform sources
// the WebAssembly module's WASI calls reach (random_get, clock_time_get).
export const calls = { getRandomValues: 0, mathRandom: 0, dateNow: 0 }

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
