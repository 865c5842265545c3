// A page that uses every format of libsno (its values, generators and detection). Built alone by
// run.mjs: what it fetches is the bundle-size check's second target (at most 40 kB gzipped).
import { Generator, Id, detect, ksuid, nanoflake, newString, scru128, scru160, typeid, ulid, ulidflake, uuid7 } from 'libsno'

const texts = [
  newString(),
  new Generator({ partition: 7 }).next().toString(),
  ulid.newString(),
  uuid7.newString(),
  scru128.newString(),
  scru160.newString(),
  new nanoflake.Generator({ epochMs: Date.UTC(2020, 0, 1), generatorId: 1 }).next().toString(),
  ulidflake.newString(),
  typeid.newString('user'),
  ksuid.newString(),
]
// Detection: every text but the Nanoflake's and the Ulid-Flake's (short texts that more than one
// format reads).
const kinds = texts.filter((_, i) => i !== 6 && i !== 7).map((t) => detect(t).constructor.name)
document.querySelector('#id').textContent = `${texts.join('\n')}\n${kinds.join(' ')} ${Id.parse(texts[0]).partition}`
