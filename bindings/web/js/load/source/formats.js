// formats.wasm imported by a source phase import (see sno.js).
import source module from '../../formats.wasm'

export { module }
