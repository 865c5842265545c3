// What first.js imports dynamically: a module whose whole use of libsno is newString() (so that
// the chunk holds sno.wasm's loader alone, as a page that makes sno IDs).
import { newString } from 'libsno'

export const firstId = () => newString()
