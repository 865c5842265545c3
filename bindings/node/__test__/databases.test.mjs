// IDs in databases (issue #24), for every format of the core's table, in the column its
// `columnType` names: a throwaway PostgreSQL (scripts/store-server, through `pg` and libsno/pg's
// parsers) and SQLite in-process (sql.js, SQLite compiled to wasm). 10 000 IDs generated in
// order, shuffled, inserted in one statement; ORDER BY gives the generation order, every value
// reads back equal, EXPLAIN shows the index, and bad values fail with a coded error.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'

import sno from 'libsno'
import { registerTypes } from 'libsno/pg'
import pg from 'pg'
import initSqlJs from 'sql.js'

import { startStores } from './stores.mjs'

const N = 10_000
const PREFIX = 'user'
const FORMATS = Object.values(sno).filter((v) => typeof v === 'function' && v.FORMAT !== undefined)

/** A generator of `Cls`'s values in increasing order (monotonic, one per format). */
function generatorOf(Cls) {
  const { name } = Cls.FORMAT
  if (name === 'sno') {
    const g = new sno.Generator({ partition: 7 })
    return () => g.next()
  }
  if (name === 'typeid') return () => sno.TypeId.generate(PREFIX)
  const settings = name === 'nanoflake' ? { epochMs: Date.UTC(2024, 0, 1), generatorId: 1 } : {}
  const g = new sno[name].Generator(settings)
  return () => g.next()
}

/** N values of `Cls` in generation order (checked increasing). */
function generate(Cls) {
  const next = generatorOf(Cls)
  const ids = Array.from({ length: N }, next)
  for (let i = 1; i < N; i++) assert.equal(ids[i - 1].compare(ids[i]), -1, `${Cls.name}: generated out of order at ${i}`)
  return ids
}

/** A copy of `items` in a random order (Fisher-Yates), different from the original. */
function shuffled(items) {
  const out = items.slice()
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  assert.ok(out.some((v, i) => v !== items[i]))
  return out
}

/** `registerTypes`'s entry for `Cls` (TypeId with the column's prefix). */
const entryOf = (Cls) => (Cls === sno.TypeId ? { type: Cls, prefix: PREFIX } : Cls)

/** A pg.TypeOverrides reading `Cls`'s column type as `Cls`. */
function typesFor(Cls) {
  const types = new pg.TypeOverrides()
  registerTypes(types, { [Cls.FORMAT.postgresType]: entryOf(Cls) })
  return types
}

/** Asserts that `promise` rejects with an error of `code` (libsno's, or PostgreSQL's SQLSTATE). */
async function rejectsWith(promise, code, what) {
  await assert.rejects(promise, (e) => e.code === code || assert.fail(`${what}: ${e.code} ${e.message}`), what)
}

test('the column type of every format comes from the core table', () => {
  const names = Object.fromEntries(FORMATS.map((Cls) => [Cls.FORMAT.name, [Cls.columnType, Cls.FORMAT.postgresType, Cls.FORMAT.sqliteType]]))
  assert.deepEqual(names, {
    sno: ['bytes', 'bytea', 'BLOB'],
    ulid: ['uuid', 'uuid', 'BLOB'],
    uuid7: ['uuid', 'uuid', 'BLOB'],
    scru128: ['uuid', 'uuid', 'BLOB'],
    scru160: ['bytes', 'bytea', 'BLOB'],
    nanoflake: ['bigint', 'bigint', 'INTEGER'],
    ulidflake: ['bigint', 'bigint', 'INTEGER'],
    typeid: ['uuid', 'uuid', 'BLOB'],
    ksuid: ['bytes', 'bytea', 'BLOB'],
  })
})

test('toPostgres gives the text of the column: bytea hex, the UUID, the decimal integer', () => {
  for (const Cls of FORMATS) {
    const id = generatorOf(Cls)()
    const expected = { bytes: `\\x${id.bytes.toString('hex')}`, uuid: id.uuid, bigint: String(id.bigint) }[Cls.columnType]
    assert.equal(id.toPostgres(), expected, Cls.name)
  }
  const t = sno.TypeId.generate(PREFIX)
  assert.equal(t.toPostgres(), sno.Uuid7.fromBytes(t.bytes).toString(), 'a TypeID stores its suffix UUID')
})

test('fromUuid on the uuid-column classes: any case, strict length and bytes', () => {
  for (const Cls of [sno.Ulid, sno.Uuid7, sno.Scru128]) {
    const id = generatorOf(Cls)()
    assert.ok(Cls.fromUuid(id.uuid).equals(id))
    assert.ok(Cls.fromUuid(id.uuid.toUpperCase()).equals(id))
    assert.throws(() => Cls.fromUuid(id.uuid.slice(1)), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === 35)
    assert.throws(() => Cls.fromUuid(`${id.uuid.slice(0, 8)}x${id.uuid.slice(9)}`), (e) => e.code === 'ERR_SNO_INVALID_BYTE' && e.position === 8)
    assert.throws(() => Cls.fromUuid(`${id.uuid.slice(0, 3)}g${id.uuid.slice(4)}`), (e) => e.code === 'ERR_SNO_INVALID_BYTE' && e.position === 3)
    assert.throws(() => Cls.fromUuid(id.bytes), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  }
  assert.throws(() => sno.Uuid7.fromUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8'), { code: 'ERR_SNO_NOT_VERSION_7' })
  assert.ok(sno.Ulid.fromUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8').uuid === '6ba7b810-9dad-11d1-80b4-00c04fd430c8')
  assert.equal(sno.Id.fromUuid, undefined)
})

test('registerTypes checks its arguments before setting any parser', () => {
  const types = new pg.TypeOverrides()
  const typeError = (code) => (e) => e instanceof TypeError && e.code === code
  assert.throws(() => registerTypes(types, { bigint: sno.Ulid }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.throws(() => registerTypes(types, { uuid: sno.Id }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.throws(() => registerTypes(types, { bytea: sno.Nanoflake }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.throws(() => registerTypes(types, { int8: sno.Nanoflake }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.throws(() => registerTypes(types, { uuid: sno.TypeId }), typeError('ERR_INVALID_ARG_TYPE'))
  assert.throws(() => registerTypes(types, { uuid: { type: sno.TypeId, prefix: 5 } }), typeError('ERR_INVALID_ARG_TYPE'))
  assert.throws(() => registerTypes(types, { uuid: { type: sno.TypeId, prefix: 'User' } }), (e) => e instanceof RangeError && e.code === 'ERR_SNO_INVALID_PREFIX')
  assert.throws(() => registerTypes(types, { uuid: { type: sno.TypeId, prefix: 'user', other: 1 } }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.throws(() => registerTypes(types, { uuid: { type: sno.Ulid, prefix: 'a' } }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.throws(() => registerTypes(types, { uuid: Date }), typeError('ERR_INVALID_ARG_TYPE'))
  assert.throws(() => registerTypes({}, { uuid: sno.Ulid }), typeError('ERR_INVALID_ARG_TYPE'))
  assert.throws(() => registerTypes(types, { uuid: sno.Ulid, bigint: sno.Ulid }), typeError('ERR_INVALID_ARG_VALUE'))
  assert.equal(types.getTypeParser(2950, 'text')('x'), 'x', 'no parser was set by a call that threw')
})

test('requiring libsno (or libsno/pg) never loads pg', () => {
  const dir = fileURLToPath(new URL('..', import.meta.url))
  const script = "require('libsno'); require('libsno/pg'); const pg = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/](pg|pg-[a-z]+)[\\\\/]/.test(f)); console.log(JSON.stringify(pg))"
  assert.equal(execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }).trim(), '[]')
  const esm = "await import('libsno'); await import('libsno/pg'); const { createRequire } = await import('node:module'); console.log(Object.keys(createRequire(process.cwd() + '/').cache).filter((f) => f.includes('/node_modules/pg')).length)"
  assert.equal(execFileSync(process.execPath, ['--input-type=module', '-e', esm], { cwd: dir, encoding: 'utf8' }).trim(), '0')
})

describe('PostgreSQL (throwaway server, node-postgres)', () => {
  let stores
  let client

  before(async () => {
    stores = await startStores(['pg'])
    client = new pg.Client({ connectionString: stores.pg })
    await client.connect()
  })

  after(async () => {
    await client?.end()
    stores?.stop()
  })

  for (const Cls of FORMATS) {
    const { name, postgresType } = Cls.FORMAT
    test(`${Cls.name}: ${postgresType} column, ${N} shuffled inserts, ORDER BY, read back, index, errors`, async () => {
      const ids = generate(Cls)
      const table = `ids_${name}`
      await client.query(`CREATE TABLE ${table} (id ${postgresType} NOT NULL)`)
      await client.query(`CREATE INDEX ${table}_id ON ${table} (id)`)
      // One statement: the values as an array parameter (each by its toPostgres()).
      await client.query(`INSERT INTO ${table} SELECT unnest($1::${postgresType}[])`, [shuffled(ids)])
      const types = typesFor(Cls)
      const { rows } = await client.query({ text: `SELECT id FROM ${table} ORDER BY id`, types })
      assert.equal(rows.length, N)
      for (let i = 0; i < N; i++) {
        assert.ok(rows[i].id instanceof Cls, `${Cls.name}: row ${i} is a ${Cls.name}`)
        assert.ok(rows[i].id.equals(ids[i]), `${Cls.name}: row ${i} is generated value ${i}`)
      }
      // A lone parameter, and the index: the plan of a lookup with sequential scans off.
      await client.query(`ANALYZE ${table}`)
      const probe = ids[1234]
      const found = await client.query({ text: `SELECT id FROM ${table} WHERE id = $1`, values: [probe], types })
      assert.equal(found.rows.length, 1)
      assert.ok(found.rows[0].id.equals(probe))
      await client.query('SET enable_seqscan = off')
      const plan = await client.query(`EXPLAIN SELECT id FROM ${table} WHERE id = $1`, [probe])
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n')
      assert.match(text, new RegExp(`Index.* on ${table}_id|Index.*${table}_id`), text)
      const ordered = await client.query(`EXPLAIN SELECT id FROM ${table} ORDER BY id`)
      assert.match(ordered.rows.map((r) => r['QUERY PLAN']).join('\n'), new RegExp(`Index.*${table}_id`))
      await client.query('RESET enable_seqscan')
      // NULL stays null (the parser is not called).
      const nulls = await client.query({ text: `SELECT NULL::${postgresType} AS id`, types })
      assert.equal(nulls.rows[0].id, null)
      // A column value the format cannot hold: the query rejects with libsno's error.
      const bad = {
        bytea: [`'\\x${'01'.repeat(Cls.FORMAT.binaryLen - 1)}'::bytea`, 'ERR_SNO_INVALID_LENGTH'],
        bigint: ['(-1)::bigint', 'ERR_SNO_VALUE_OVERFLOW'],
        // Every 128 bits are a ULID, a SCRU128 (its range is wider) and a TypeID's suffix.
        uuid: { uuid7: ["'6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid", 'ERR_SNO_NOT_VERSION_7'] }[name],
      }[postgresType]
      if (bad) await rejectsWith(client.query({ text: `SELECT ${bad[0]} AS id`, types }), bad[1], `${Cls.name}: bad column value`)
      // A value of a format with another column type: PostgreSQL refuses it as a uuid / bigint
      // (SQLSTATE 22P02); a bytea takes any text, so it is refused when read back (its length).
      const other = FORMATS.find((C) => C.columnType !== Cls.columnType && C.columnType !== 'bytes') ?? sno.Ulid
      const stranger = generatorOf(other)()
      if (postgresType === 'bytea') {
        await client.query(`CREATE TEMP TABLE ${table}_bad (id bytea)`)
        await client.query(`INSERT INTO ${table}_bad VALUES ($1)`, [stranger])
        await rejectsWith(client.query({ text: `SELECT id FROM ${table}_bad`, types }), 'ERR_SNO_INVALID_LENGTH', `${Cls.name}: a ${other.name} in bytea`)
      } else {
        await rejectsWith(client.query(`INSERT INTO ${table} VALUES ($1)`, [stranger]), '22P02', `${Cls.name}: a ${other.name} in ${postgresType}`)
      }
    })
  }

  test('pg round trip with parsers on pg.types, and a TypeOverrides per client', async () => {
    const saved = [17, 20, 2950].map((oid) => pg.types.getTypeParser(oid, 'text'))
    try {
      registerTypes(pg.types, { bytea: sno.Id, uuid: sno.Ulid, bigint: sno.Nanoflake })
      const id = sno.newId()
      const u = sno.ulid.new()
      const n = generatorOf(sno.Nanoflake)()
      const { rows } = await client.query('SELECT $1::bytea AS a, $2::uuid AS b, $3::bigint AS c, 1::bigint + 0 AS d', [id, u, n])
      assert.ok(rows[0].a.equals(id) && rows[0].b.equals(u) && rows[0].c.equals(n))
      assert.ok(rows[0].d instanceof sno.Nanoflake, 'every bigint column of the registry reads as the class')
    } finally {
      for (const [i, oid] of [17, 20, 2950].entries()) pg.types.setTypeParser(oid, 'text', saved[i])
    }
    // Registered again over its own parsers (another class, a registry built on this one).
    const again = new pg.TypeOverrides()
    registerTypes(again, { bytea: sno.Id })
    registerTypes(again, { bytea: sno.Scru160 })
    const nested = new pg.TypeOverrides(again)
    registerTypes(nested, { bytea: sno.Id })
    const s160 = sno.scru160.new()
    const id = sno.newId()
    assert.ok((await client.query({ text: 'SELECT $1::bytea AS v', values: [s160], types: again })).rows[0].v.equals(s160))
    assert.ok((await client.query({ text: 'SELECT $1::bytea AS v', values: [id], types: nested })).rows[0].v.equals(id))
    const scoped = new pg.Client({ connectionString: stores.pg, types: typesFor(sno.TypeId) })
    await scoped.connect()
    try {
      const t = sno.TypeId.generate(PREFIX)
      const { rows } = await scoped.query('SELECT $1::uuid AS t', [t])
      assert.ok(rows[0].t.equals(t))
      assert.equal(String(rows[0].t), String(t))
      const plain = await client.query('SELECT $1::uuid AS t', [t])
      assert.equal(plain.rows[0].t, t.uuid, 'the other client keeps pg\'s own parser')
    } finally {
      await scoped.end()
    }
  })
})

describe('SQLite (sql.js, in-process)', () => {
  let SQL

  before(async () => {
    SQL = await initSqlJs()
  })

  /** The SQLite value of `id`: its binary form (BLOB) or its integer (INTEGER). */
  const toSqlite = (id) => (id.constructor.FORMAT.sqliteType === 'BLOB' ? id.bytes : id.bigint)
  /** The value of `Cls` from a SQLite value (TypeId: with the column's prefix). */
  const fromSqlite = (Cls, v) => (Cls === sno.TypeId ? Cls.fromUuid(PREFIX, v) : Cls.FORMAT.sqliteType === 'BLOB' ? Cls.fromBytes(v) : Cls.fromBigInt(v))
  /** Every row of `sql`'s first column (integers as bigints). */
  const column = (db, sql, params) => {
    const stmt = db.prepare(sql)
    if (params) stmt.bind(params)
    const out = []
    while (stmt.step()) out.push(stmt.get(null, { useBigInt: true })[0])
    stmt.free()
    return out
  }

  for (const Cls of FORMATS) {
    const { sqliteType } = Cls.FORMAT
    test(`${Cls.name}: ${sqliteType} column, ${N} shuffled inserts, ORDER BY, read back, index, errors`, () => {
      const ids = generate(Cls)
      const db = new SQL.Database()
      try {
        db.run(`CREATE TABLE ids (id ${sqliteType} NOT NULL)`)
        db.run('CREATE INDEX ids_id ON ids (id)')
        db.run('BEGIN')
        const insert = db.prepare('INSERT INTO ids VALUES (?)')
        for (const id of shuffled(ids)) insert.run([toSqlite(id)])
        insert.free()
        db.run('COMMIT')
        const read = column(db, 'SELECT id FROM ids ORDER BY id')
        assert.equal(read.length, N)
        const expectedType = sqliteType === 'BLOB' ? Uint8Array : BigInt
        for (let i = 0; i < N; i++) {
          assert.ok(sqliteType === 'BLOB' ? read[i] instanceof expectedType : typeof read[i] === 'bigint', `${Cls.name}: row ${i} type`)
          assert.ok(fromSqlite(Cls, read[i]).equals(ids[i]), `${Cls.name}: row ${i} is generated value ${i}`)
        }
        const probe = ids[4321]
        const found = column(db, 'SELECT id FROM ids WHERE id = ?', [toSqlite(probe)])
        assert.equal(found.length, 1)
        assert.ok(fromSqlite(Cls, found[0]).equals(probe))
        // EXPLAIN QUERY PLAN's columns are id, parent, notused, detail: read the detail.
        const detail = (sql, params) => {
          const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          if (params) stmt.bind(params)
          const out = []
          while (stmt.step()) out.push(stmt.getAsObject().detail)
          stmt.free()
          return out.join('\n')
        }
        assert.match(detail('SELECT id FROM ids WHERE id = ?', [toSqlite(probe)]), /USING COVERING INDEX ids_id/)
        assert.match(detail('SELECT id FROM ids ORDER BY id'), /USING COVERING INDEX ids_id/)
        // Bad values through the conversion: a wrong length or range, a wrong type (TEXT).
        db.run('DELETE FROM ids')
        if (sqliteType === 'BLOB') {
          db.run('INSERT INTO ids VALUES (?)', [new Uint8Array(Cls.FORMAT.binaryLen - 1)])
          assert.throws(() => fromSqlite(Cls, column(db, 'SELECT id FROM ids')[0]), (e) => e.code === 'ERR_SNO_INVALID_LENGTH' && e.position === Cls.FORMAT.binaryLen - 1)
        } else {
          db.run('INSERT INTO ids VALUES (-1)')
          assert.throws(() => fromSqlite(Cls, column(db, 'SELECT id FROM ids')[0]), (e) => e instanceof RangeError && e.code === 'ERR_SNO_VALUE_OVERFLOW')
        }
        db.run('DELETE FROM ids')
        db.run("INSERT INTO ids VALUES ('not an id')")
        // (TypeId.fromUuid also takes a UUIDv7's text: this one is not, so its error is the length.)
        const wrongType = Cls === sno.TypeId ? (e) => e.code === 'ERR_SNO_INVALID_LENGTH' : (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE'
        assert.throws(() => fromSqlite(Cls, column(db, 'SELECT id FROM ids')[0]), wrongType)
      } finally {
        db.close()
      }
    })
  }
})
