// The edge runtimes' benchmark (run.mjs --bench, scripts/bench): libsno's newString() against npm
// uuid's v7() in the same runtime, by the browser page's loop (ratio.mjs).
import { newString } from 'libsno'
import { v7 } from 'uuid'
import { measure } from './ratio.mjs'

export function bench(rounds) {
  return measure(
    [
      ['libsno newString() (sno)', () => newString()],
      ['npm uuid v7()', () => v7()],
    ],
    { rounds },
  )
}
