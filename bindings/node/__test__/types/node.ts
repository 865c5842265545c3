// With @types/node only: `bytes` is Node's Buffer there (Buffer methods type-check), and
// libsno/pg's parsers go on the pg module's own registries and a client's.
import { Id, Nanoflake, Scru160, TypeId, Ulid, UlidFlake, Uuid7, newId } from 'libsno'
import pgHelpers, { registerTypes } from 'libsno/pg'
import type { PgColumns, TypeRegistry } from 'libsno/pg'
import pg from 'pg'

const buffer: Buffer = newId().bytes
const hex: string = Ulid.fromBytes(buffer).bytes.toString('hex')

const columns: PgColumns[] = [{ bytea: Id, uuid: Ulid, bigint: Nanoflake }, { bytea: Scru160, uuid: { type: TypeId, prefix: 'user' }, bigint: UlidFlake }]
registerTypes(pg.types, columns[0])
const overrides = new pg.TypeOverrides()
pgHelpers.registerTypes(overrides, columns[1])
const registries: TypeRegistry[] = [pg.types, overrides]
const client = new pg.Client({ types: overrides })
const inserted: Promise<pg.QueryResult> = client.query('INSERT INTO t VALUES ($1), ($2)', [newId(), [Uuid7.fromBytes(buffer)]])

export { hex, registries, inserted }
