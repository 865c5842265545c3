//! Every format through PostgreSQL, with the `postgres` crate (sno-core's `postgres-types`
//! feature) and with sqlx (`sqlx-postgres`), on a throwaway server: 10 000 IDs generated in order,
//! shuffled and inserted; `ORDER BY id` gives them back in generation order, equal; the index
//! on the column is used; wrong lengths, wrong types and NULL give the documented results.

mod common;
use common::decode_error;

use std::error::Error as _;
use std::fmt::Write as _;

use postgres::types::{FromSql, ToSql, WrongType};
use postgres::{Client, NoTls};
use sno_core::sql::{DecodeError, NullAsZero};
use sno_core::{ColumnType, Error, Id, IdFormat, nanoflake::Nanoflake, ulid::Ulid};
use sno_db_tests::{COUNT, Server, generate_as, short_bytes, shuffled, with_prefix};
use sqlx::{Connection, Executor, PgConnection, Postgres};

/// `[(name, check_postgres::<Type>), …]` for every format.
macro_rules! postgres_checks {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        [$(($name, check_postgres::<$ty> as fn(&mut Client))),*]
    };
}

/// `[(name, check_sqlx::<Type>), …]` for every format.
macro_rules! sqlx_checks {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        [$(($name, check_sqlx::<$ty> as fn(&mut Sqlx))),*]
    };
}

fn connect(server: &Server) -> Client {
    Client::connect(&server.url, NoTls).expect("connect to the test server")
}

/// The plan of `EXPLAIN …`, one string.
fn explain(client: &mut Client, sql: &str, params: &[&(dyn ToSql + Sync)]) -> String {
    let rows = client.query(sql, params).expect("EXPLAIN");
    rows.iter()
        .map(|r| r.get::<_, String>(0))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_postgres<T>(client: &mut Client)
where
    T: IdFormat + ToSql + for<'a> FromSql<'a> + Sync,
{
    let format = T::FORMAT;
    let table = format!("pg_{}", format.name());
    let column = format.column_type().postgres();
    client
        .batch_execute(&format!(
            "CREATE TABLE {table} (id {column} NOT NULL, pos int4 NOT NULL);
             CREATE INDEX {table}_id ON {table} (id);"
        ))
        .expect("create the table");

    let ids = generate_as::<T>(COUNT);
    let rows: Vec<(T, i32)> = shuffled(&ids.iter().copied().zip(0..).collect::<Vec<_>>());
    let mut tx = client.transaction().expect("begin");
    for chunk in rows.chunks(1000) {
        let mut sql = format!("INSERT INTO {table} (id, pos) VALUES ");
        let mut params: Vec<&(dyn ToSql + Sync)> = Vec::new();
        for (i, (id, pos)) in chunk.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(sql, "{sep}(${}, ${})", 2 * i + 1, 2 * i + 2).unwrap();
            params.push(id);
            params.push(pos);
        }
        tx.execute(&sql, &params).expect("insert");
    }
    tx.commit().expect("commit");
    client.batch_execute(&format!("ANALYZE {table}")).unwrap();

    // ORDER BY is the generation order; every value reads back equal.
    let read = client
        .query(&format!("SELECT id, pos FROM {table} ORDER BY id"), &[])
        .expect("select");
    let back: Vec<T> = read.iter().map(|r| with_prefix(r.get::<_, T>(0))).collect();
    assert_eq!(back.len(), COUNT, "{format}");
    assert!(
        back == ids,
        "{format}: ORDER BY id is not the generation order"
    );
    let positions: Vec<i32> = read.iter().map(|r| r.get(1)).collect();
    assert!(positions.iter().copied().eq(0..COUNT as i32), "{format}");
    let pos: i32 = client
        .query_one(
            &format!("SELECT pos FROM {table} WHERE id = $1"),
            &[&ids[1234]],
        )
        .unwrap()
        .get(0);
    assert_eq!(pos, 1234, "{format}");

    // Arrays: `= ANY($1)` with a Vec<T>, and a Vec<T> read back.
    let wanted = vec![ids[10], ids[20], ids[30]];
    let found: Vec<i32> = client
        .query(
            &format!("SELECT pos FROM {table} WHERE id = ANY($1) ORDER BY id"),
            &[&wanted],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(found, [10, 20, 30], "{format}");
    let first: Vec<T> = client
        .query_one(
            &format!("SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM {table} ORDER BY id LIMIT 3) f"),
            &[],
        )
        .unwrap()
        .get(0);
    assert!(
        first
            .into_iter()
            .map(with_prefix)
            .eq(ids[..3].iter().copied()),
        "{format}"
    );

    // The index serves lookups and the order.
    client.batch_execute("SET enable_seqscan = off").unwrap();
    let plan = explain(
        client,
        &format!("EXPLAIN SELECT pos FROM {table} WHERE id = $1"),
        &[&ids[77]],
    );
    assert!(plan.contains(&format!("{table}_id")), "{format}: {plan}");
    let plan = explain(
        client,
        &format!("EXPLAIN SELECT id FROM {table} ORDER BY id"),
        &[],
    );
    assert!(
        plan.contains(&format!("Index Only Scan using {table}_id")),
        "{format}: {plan}"
    );
    client.batch_execute("RESET enable_seqscan").unwrap();

    // Text: written as the canonical text into a text parameter, read back strictly.
    let text: String = client
        .query_one("SELECT $1::text", &[&ids[0]])
        .unwrap()
        .get(0);
    assert_eq!(text, ids[0].to_string(), "{format}");
    let back: T = client
        .query_one("SELECT $1::varchar", &[&text])
        .unwrap()
        .get(0);
    assert_eq!(back, ids[0], "{format}");
    let err = client
        .query_one("SELECT 'not an id'::text", &[])
        .unwrap()
        .try_get::<_, T>(0)
        .unwrap_err();
    let decode = decode_error(&err).unwrap_or_else(|| panic!("{format}: {err}"));
    assert_eq!(decode.format(), format);

    // The binary form of a wrong length: the core's length error, naming the format.
    let err = client
        .query_one("SELECT $1::bytea", &[&short_bytes(format)])
        .unwrap()
        .try_get::<_, T>(0)
        .unwrap_err();
    common::assert_short_length(format, &err);
    assert!(
        err.to_string().contains(format.display_name())
            || decode.to_string().contains(format.display_name())
    );
    if format.column_type() == ColumnType::BigInt {
        let err = client
            .query_one("SELECT (-1)::int8", &[])
            .unwrap()
            .try_get::<_, T>(0)
            .unwrap_err();
        assert_eq!(
            decode_error(&err).map(DecodeError::error),
            Some(Error::ValueOverflow)
        );
    }

    // Wrong types: the library's own error, reading and writing.
    let err = client
        .query_one("SELECT 1::int4", &[])
        .unwrap()
        .try_get::<_, T>(0)
        .unwrap_err();
    assert!(
        err.source().is_some_and(|e| e.is::<WrongType>()),
        "{format}: {err}"
    );
    let err = client
        .execute("INSERT INTO wrong_type (b) VALUES ($1)", &[&ids[0]])
        .unwrap_err();
    assert!(
        err.source().is_some_and(|e| e.is::<WrongType>()),
        "{format}: {err}"
    );

    // NULL: None for Option<T>, an error for T.
    let row = client
        .query_one(&format!("SELECT NULL::{column}"), &[])
        .unwrap();
    assert_eq!(row.get::<_, Option<T>>(0), None, "{format}");
    assert!(row.try_get::<_, T>(0).is_err(), "{format}");
    let row = client
        .query_one(&format!("SELECT id FROM {table} ORDER BY id LIMIT 1"), &[])
        .unwrap();
    assert_eq!(row.get::<_, Option<T>>(0).map(with_prefix), Some(ids[0]));
}

#[test]
fn postgres_crate_every_format() {
    let server = Server::shared();
    let mut client = connect(&server);
    client
        .batch_execute("CREATE TABLE wrong_type (b boolean)")
        .unwrap();
    for (name, check) in sno_core::for_each_format!(postgres_checks) {
        println!("postgres: {name}");
        check(&mut client);
    }
}

#[test]
fn postgres_crate_null_as_zero() {
    let server = Server::shared();
    let mut client = connect(&server);
    for sql in ["SELECT NULL::bytea", "SELECT ''::bytea", "SELECT ''::text"] {
        let id: NullAsZero<Id> = client.query_one(sql, &[]).unwrap().get(0);
        assert_eq!(id, NullAsZero(Id::ZERO), "{sql}");
    }
    let id = sno_core::new(3);
    let back: NullAsZero<Id> = client
        .query_one("SELECT $1::bytea", &[&NullAsZero(id)])
        .unwrap()
        .get(0);
    assert_eq!(back.0, id);
    // The zero ID is written as ten zero bytes, not NULL (Go's Value).
    let bytes: Option<Vec<u8>> = client
        .query_one("SELECT $1::bytea", &[&NullAsZero(Id::ZERO)])
        .unwrap()
        .get(0);
    assert_eq!(bytes, Some(vec![0; 10]));
    // Any other length is still an error.
    let err = client
        .query_one("SELECT '\\x0102'::bytea", &[])
        .unwrap()
        .try_get::<_, NullAsZero<Id>>(0)
        .unwrap_err();
    assert_eq!(
        decode_error(&err).map(DecodeError::error),
        Some(Error::InvalidLength {
            expected: 10,
            actual: 2
        })
    );
    // Other formats with a zero value.
    let ulid: NullAsZero<Ulid> = client.query_one("SELECT NULL::uuid", &[]).unwrap().get(0);
    assert_eq!(ulid.0, Ulid::NIL);
    let flake: NullAsZero<Nanoflake> = client.query_one("SELECT NULL::int8", &[]).unwrap().get(0);
    assert_eq!(flake.0.to_i64(), 0);
}

/// A sqlx connection on a small tokio runtime.
struct Sqlx {
    rt: tokio::runtime::Runtime,
    conn: PgConnection,
}

impl Sqlx {
    fn connect(server: &Server) -> Sqlx {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let conn = rt
            .block_on(PgConnection::connect(&server.url))
            .expect("connect to the test server");
        Sqlx { rt, conn }
    }
}

fn check_sqlx<T>(db: &mut Sqlx)
where
    T: IdFormat
        + sqlx::postgres::PgHasArrayType
        + sqlx::Type<Postgres>
        + for<'q> sqlx::Encode<'q, Postgres>
        + for<'r> sqlx::Decode<'r, Postgres>
        + Send
        + Unpin,
{
    let format = T::FORMAT;
    let table = format!("sqlx_{}", format.name());
    let column = format.column_type().postgres();
    let Sqlx { rt, conn } = db;
    rt.block_on(async {
        conn.execute(
            format!(
                "CREATE TABLE {table} (id {column} NOT NULL, pos int4 NOT NULL);
                 CREATE INDEX {table}_id ON {table} (id);"
            )
            .as_str(),
        )
        .await
        .expect("create the table");

        let ids = generate_as::<T>(COUNT);
        let rows: Vec<(T, i32)> = shuffled(&ids.iter().copied().zip(0..).collect::<Vec<_>>());
        let mut tx = conn.begin().await.expect("begin");
        for chunk in rows.chunks(1000) {
            let mut insert =
                sqlx::QueryBuilder::<Postgres>::new(format!("INSERT INTO {table} (id, pos) "));
            insert.push_values(chunk, |mut b, (id, pos)| {
                b.push_bind(*id).push_bind(*pos);
            });
            insert.build().execute(&mut *tx).await.expect("insert");
        }
        tx.commit().await.expect("commit");
        conn.execute(format!("ANALYZE {table}").as_str())
            .await
            .unwrap();

        let read: Vec<(T, i32)> =
            sqlx::query_as(&format!("SELECT id, pos FROM {table} ORDER BY id"))
                .fetch_all(&mut *conn)
                .await
                .expect("select");
        let back: Vec<T> = read.iter().map(|(id, _)| with_prefix(*id)).collect();
        assert!(
            back == ids,
            "{format}: ORDER BY id is not the generation order"
        );
        assert!(read.iter().map(|r| r.1).eq(0..COUNT as i32), "{format}");
        let pos: i32 = sqlx::query_scalar(&format!("SELECT pos FROM {table} WHERE id = $1"))
            .bind(ids[4321])
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(pos, 4321, "{format}");

        // Text results (a query run as a plain string): PostgreSQL's text forms.
        let rows = conn
            .fetch_all(sqlx::raw_sql(&format!(
                "SELECT id FROM {table} ORDER BY id LIMIT 3"
            )))
            .await
            .unwrap();
        for (row, id) in rows.iter().zip(&ids) {
            use sqlx::Row;
            assert_eq!(
                with_prefix(row.try_get::<T, _>(0).unwrap()),
                *id,
                "{format}"
            );
        }

        // Arrays: `= ANY($1)` with a Vec<T>, and a Vec<T> read back.
        let found: Vec<i32> = sqlx::query_scalar(&format!(
            "SELECT pos FROM {table} WHERE id = ANY($1) ORDER BY id"
        ))
        .bind(vec![ids[10], ids[20], ids[30]])
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        assert_eq!(found, [10, 20, 30], "{format}");
        let first: Vec<T> = sqlx::query_scalar(&format!(
            "SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM {table} ORDER BY id LIMIT 3) f"
        ))
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        assert!(
            first
                .into_iter()
                .map(with_prefix)
                .eq(ids[..3].iter().copied()),
            "{format}"
        );

        // The index.
        conn.execute("SET enable_seqscan = off").await.unwrap();
        let plan: Vec<String> =
            sqlx::query_scalar(&format!("EXPLAIN SELECT pos FROM {table} WHERE id = $1"))
                .bind(ids[99])
                .fetch_all(&mut *conn)
                .await
                .unwrap();
        let plan = plan.join("\n");
        assert!(plan.contains(&format!("{table}_id")), "{format}: {plan}");
        let plan: Vec<String> =
            sqlx::query_scalar(&format!("EXPLAIN SELECT id FROM {table} ORDER BY id"))
                .fetch_all(&mut *conn)
                .await
                .unwrap();
        let plan = plan.join("\n");
        assert!(
            plan.contains(&format!("Index Only Scan using {table}_id")),
            "{format}: {plan}"
        );
        conn.execute("RESET enable_seqscan").await.unwrap();

        // Text columns: bind the text, read the ID.
        let back: T = sqlx::query_scalar("SELECT $1::text")
            .bind(ids[0].to_string())
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(back, ids[0], "{format}");

        // Wrong length.
        let err = sqlx::query_scalar::<_, T>("SELECT $1::bytea")
            .bind(short_bytes(format))
            .fetch_one(&mut *conn)
            .await
            .unwrap_err();
        common::assert_short_length(format, &err);

        // Wrong types: sqlx's type check reading, the server's writing.
        let err = sqlx::query_scalar::<_, T>("SELECT 1::int4")
            .fetch_one(&mut *conn)
            .await
            .unwrap_err();
        assert!(
            matches!(err, sqlx::Error::ColumnDecode { .. }),
            "{format}: {err}"
        );
        assert!(
            err.to_string().contains("mismatched types"),
            "{format}: {err}"
        );
        let err = sqlx::query("INSERT INTO wrong_type (b) VALUES ($1)")
            .bind(ids[0])
            .execute(&mut *conn)
            .await
            .unwrap_err();
        assert!(matches!(err, sqlx::Error::Database(_)), "{format}: {err}");

        // NULL.
        let none: Option<T> = sqlx::query_scalar(&format!("SELECT NULL::{column}"))
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(none, None, "{format}");
        let err = sqlx::query_scalar::<_, T>(&format!("SELECT NULL::{column}"))
            .fetch_one(&mut *conn)
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("unexpected null"),
            "{format}: {err}"
        );
    });
}

#[test]
fn sqlx_every_format() {
    let server = Server::shared();
    let mut db = Sqlx::connect(&server);
    db.rt
        .block_on(
            db.conn
                .execute("CREATE TABLE IF NOT EXISTS wrong_type (b boolean)"),
        )
        .unwrap();
    for (name, check) in sno_core::for_each_format!(sqlx_checks) {
        println!("sqlx: {name}");
        check(&mut db);
    }
}

#[test]
fn sqlx_null_as_zero() {
    let server = Server::shared();
    let mut db = Sqlx::connect(&server);
    let Sqlx { rt, conn } = &mut db;
    rt.block_on(async {
        for sql in ["SELECT NULL::bytea", "SELECT ''::bytea", "SELECT ''::text"] {
            let id: NullAsZero<Id> = sqlx::query_scalar(sql).fetch_one(&mut *conn).await.unwrap();
            assert_eq!(id, NullAsZero(Id::ZERO), "{sql}");
        }
        let id = sno_core::new(3);
        let back: NullAsZero<Id> = sqlx::query_scalar("SELECT $1")
            .bind(NullAsZero(id))
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(back.0, id);
        let err = sqlx::query_scalar::<_, NullAsZero<Id>>("SELECT '\\x0102'::bytea")
            .fetch_one(&mut *conn)
            .await
            .unwrap_err();
        assert_eq!(
            decode_error(&err).map(DecodeError::error),
            Some(Error::InvalidLength {
                expected: 10,
                actual: 2
            })
        );
        let ulid: NullAsZero<Ulid> = sqlx::query_scalar("SELECT NULL::uuid")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(ulid.0, Ulid::NIL);
    });
}

#[test]
fn typeid_prefix_from_a_uuid_column() {
    let server = Server::shared();
    let mut client = connect(&server);
    let id = sno_core::typeid::TypeId::new("order");
    let stored: sno_core::typeid::TypeId =
        client.query_one("SELECT $1::uuid", &[&id]).unwrap().get(0);
    assert_eq!(stored.prefix(), "");
    assert_eq!(stored.with_prefix("order").unwrap(), id);
    // A text column keeps the whole TypeID.
    let text: sno_core::typeid::TypeId =
        client.query_one("SELECT $1::text", &[&id]).unwrap().get(0);
    assert_eq!(text, id);
}
