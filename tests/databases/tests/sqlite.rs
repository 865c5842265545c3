//! Every format through SQLite (in process), with rusqlite (sno-core's `rusqlite` feature) and
//! with sqlx (`sqlx-sqlite`): 10 000 IDs generated in order, shuffled and inserted into a STRICT
//! table with the recommended column type; `ORDER BY id` gives them back in generation order,
//! equal; the index on the column is used; wrong lengths, wrong types and NULL give the
//! documented results.

mod common;
use common::decode_error;

use rusqlite::types::{FromSql, ToSql};
use rusqlite::{Connection, params};
use sno_core::sql::{DecodeError, NullAsZero};
use sno_core::{ColumnType, Error, Id, IdFormat, ulidflake::UlidFlake};
use sno_db_tests::{COUNT, generate_as, short_bytes, shuffled, with_prefix};
use sqlx::{Connection as _, Executor, Sqlite, SqliteConnection};

/// `[(name, check_rusqlite::<Type>), …]` for every format.
macro_rules! rusqlite_checks {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        [$(($name, check_rusqlite::<$ty> as fn(&Connection))),*]
    };
}

/// `[(name, check_sqlx::<Type>), …]` for every format.
macro_rules! sqlx_checks {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        [$(($name, check_sqlx::<$ty> as fn(&mut Sqlx))),*]
    };
}

/// The plan's details of `EXPLAIN QUERY PLAN …`, one string.
fn plan(conn: &Connection, sql: &str, params: &[&dyn ToSql]) -> String {
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    let rows = stmt
        .query_map(params, |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    rows.join("\n")
}

fn check_rusqlite<T: IdFormat + ToSql + FromSql>(conn: &Connection) {
    let format = T::FORMAT;
    let table = format!("rusqlite_{}", format.name());
    let column = format.column_type().sqlite();
    conn.execute_batch(&format!(
        "CREATE TABLE {table} (id {column} NOT NULL, pos INTEGER NOT NULL) STRICT;
         CREATE INDEX {table}_id ON {table} (id);"
    ))
    .expect("create the table");

    let ids = generate_as::<T>(COUNT);
    let rows: Vec<(T, i64)> = shuffled(&ids.iter().copied().zip(0..).collect::<Vec<_>>());
    conn.execute_batch("BEGIN").unwrap();
    {
        let mut insert = conn
            .prepare(&format!("INSERT INTO {table} (id, pos) VALUES (?1, ?2)"))
            .unwrap();
        for (id, pos) in &rows {
            insert.execute(params![id, pos]).expect("insert");
        }
    }
    conn.execute_batch("COMMIT").unwrap();

    let mut select = conn
        .prepare(&format!("SELECT id, pos FROM {table} ORDER BY id"))
        .unwrap();
    let read: Vec<(T, i64)> = select
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .expect("read back");
    let back: Vec<T> = read.iter().map(|(id, _)| with_prefix(*id)).collect();
    assert!(
        back == ids,
        "{format}: ORDER BY id is not the generation order"
    );
    assert!(read.iter().map(|r| r.1).eq(0..COUNT as i64), "{format}");
    let pos: i64 = conn
        .query_row(
            &format!("SELECT pos FROM {table} WHERE id = ?1"),
            [&ids[2345]],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(pos, 2345, "{format}");

    // The index serves lookups and the order.
    let lookup = plan(
        conn,
        &format!("SELECT pos FROM {table} WHERE id = ?1"),
        &[&ids[5]],
    );
    assert!(
        lookup.contains(&format!("USING INDEX {table}_id (id=?)")),
        "{format}: {lookup}"
    );
    let order = plan(conn, &format!("SELECT id FROM {table} ORDER BY id"), &[]);
    assert!(
        order.contains(&format!("USING COVERING INDEX {table}_id")),
        "{format}: {order}"
    );
    assert!(!order.contains("TEMP B-TREE"), "{format}: {order}");

    // Text: read strictly.
    let back: T = conn
        .query_row("SELECT ?1", [ids[0].to_string()], |r| r.get(0))
        .unwrap();
    assert_eq!(back, ids[0], "{format}");
    let err = conn
        .query_row("SELECT 'not an id'", [], |r| r.get::<_, T>(0))
        .unwrap_err();
    assert_eq!(
        decode_error(&err).map(DecodeError::format),
        Some(format),
        "{err}"
    );

    // Wrong length: the core's length error, naming the format.
    let err = conn
        .query_row("SELECT ?1", [short_bytes(format)], |r| r.get::<_, T>(0))
        .unwrap_err();
    common::assert_short_length(format, &err);

    // Wrong types: rusqlite's own error reading; a STRICT table refuses a wrong one writing.
    let err = conn
        .query_row("SELECT 1.5", [], |r| r.get::<_, T>(0))
        .unwrap_err();
    assert!(
        matches!(err, rusqlite::Error::InvalidColumnType(..)),
        "{format}: {err}"
    );
    if format.column_type() == ColumnType::BigInt {
        let err = conn
            .query_row("SELECT -1", [], |r| r.get::<_, T>(0))
            .unwrap_err();
        assert_eq!(
            decode_error(&err).map(DecodeError::error),
            Some(Error::ValueOverflow)
        );
    } else {
        let err = conn
            .query_row("SELECT 1", [], |r| r.get::<_, T>(0))
            .unwrap_err();
        assert!(
            matches!(err, rusqlite::Error::InvalidColumnType(..)),
            "{format}: {err}"
        );
    }
    let wrong = if format.column_type() == ColumnType::BigInt {
        "wrong_blob"
    } else {
        "wrong_int"
    };
    let err = conn
        .execute(&format!("INSERT INTO {wrong} (v) VALUES (?1)"), [&ids[0]])
        .unwrap_err();
    assert!(err.to_string().contains("cannot store"), "{format}: {err}");

    // NULL: None for Option<T>, an error for T.
    let none: Option<T> = conn.query_row("SELECT NULL", [], |r| r.get(0)).unwrap();
    assert_eq!(none, None, "{format}");
    let err = conn
        .query_row("SELECT NULL", [], |r| r.get::<_, T>(0))
        .unwrap_err();
    assert!(
        matches!(err, rusqlite::Error::InvalidColumnType(..)),
        "{format}: {err}"
    );
}

fn open() -> Connection {
    let conn = Connection::open_in_memory().expect("an in-memory database");
    conn.execute_batch(
        "CREATE TABLE wrong_int (v INTEGER) STRICT; CREATE TABLE wrong_blob (v BLOB) STRICT;",
    )
    .unwrap();
    conn
}

#[test]
fn rusqlite_every_format() {
    let conn = open();
    for (name, check) in sno_core::for_each_format!(rusqlite_checks) {
        println!("rusqlite: {name}");
        check(&conn);
    }
}

#[test]
fn rusqlite_null_as_zero() {
    let conn = open();
    for sql in ["SELECT NULL", "SELECT x''", "SELECT ''"] {
        let id: NullAsZero<Id> = conn.query_row(sql, [], |r| r.get(0)).unwrap();
        assert_eq!(id, NullAsZero(Id::ZERO), "{sql}");
    }
    let id = sno_core::new(3);
    let back: NullAsZero<Id> = conn
        .query_row("SELECT ?1", [NullAsZero(id)], |r| r.get(0))
        .unwrap();
    assert_eq!(back.0, id);
    let zero: Vec<u8> = conn
        .query_row("SELECT ?1", [NullAsZero(Id::ZERO)], |r| r.get(0))
        .unwrap();
    assert_eq!(zero, [0; 10]);
    let err = conn
        .query_row("SELECT x'0102'", [], |r| r.get::<_, NullAsZero<Id>>(0))
        .unwrap_err();
    assert_eq!(
        decode_error(&err).map(DecodeError::error),
        Some(Error::InvalidLength {
            expected: 10,
            actual: 2
        })
    );
    let flake: NullAsZero<UlidFlake> = conn.query_row("SELECT NULL", [], |r| r.get(0)).unwrap();
    assert_eq!(flake.0.to_i64(), 0);
}

/// An in-memory sqlx SQLite connection on a small tokio runtime.
struct Sqlx {
    rt: tokio::runtime::Runtime,
    conn: SqliteConnection,
}

impl Sqlx {
    fn open() -> Sqlx {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let conn = rt
            .block_on(SqliteConnection::connect("sqlite::memory:"))
            .expect("an in-memory database");
        Sqlx { rt, conn }
    }
}

fn check_sqlx<T>(db: &mut Sqlx)
where
    T: IdFormat
        + sqlx::Type<Sqlite>
        + for<'q> sqlx::Encode<'q, Sqlite>
        + for<'r> sqlx::Decode<'r, Sqlite>
        + Send
        + Unpin,
{
    let format = T::FORMAT;
    let table = format!("sqlx_{}", format.name());
    let column = format.column_type().sqlite();
    let Sqlx { rt, conn } = db;
    rt.block_on(async {
        conn.execute(
            format!(
                "CREATE TABLE {table} (id {column} NOT NULL, pos INTEGER NOT NULL) STRICT;
                 CREATE INDEX {table}_id ON {table} (id);"
            )
            .as_str(),
        )
        .await
        .expect("create the table");

        let ids = generate_as::<T>(COUNT);
        let rows: Vec<(T, i64)> = shuffled(&ids.iter().copied().zip(0..).collect::<Vec<_>>());
        let mut tx = conn.begin().await.expect("begin");
        let insert = format!("INSERT INTO {table} (id, pos) VALUES (?1, ?2)");
        for (id, pos) in &rows {
            sqlx::query(&insert)
                .bind(*id)
                .bind(*pos)
                .execute(&mut *tx)
                .await
                .expect("insert");
        }
        tx.commit().await.expect("commit");

        let read: Vec<(T, i64)> =
            sqlx::query_as(&format!("SELECT id, pos FROM {table} ORDER BY id"))
                .fetch_all(&mut *conn)
                .await
                .expect("select");
        let back: Vec<T> = read.iter().map(|(id, _)| with_prefix(*id)).collect();
        assert!(
            back == ids,
            "{format}: ORDER BY id is not the generation order"
        );
        assert!(read.iter().map(|r| r.1).eq(0..COUNT as i64), "{format}");

        let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(&format!(
            "EXPLAIN QUERY PLAN SELECT pos FROM {table} WHERE id = ?1"
        ))
        .bind(ids[9])
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        let plan: Vec<String> = plan.into_iter().map(|r| r.3).collect();
        let plan = plan.join("\n");
        assert!(
            plan.contains(&format!("USING INDEX {table}_id (id=?)")),
            "{format}: {plan}"
        );

        // Text.
        let back: T = sqlx::query_scalar("SELECT ?1")
            .bind(ids[0].to_string())
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(back, ids[0], "{format}");

        // Wrong length.
        let err = sqlx::query_scalar::<_, T>("SELECT ?1")
            .bind(short_bytes(format))
            .fetch_one(&mut *conn)
            .await
            .unwrap_err();
        common::assert_short_length(format, &err);

        // Wrong types.
        let err = sqlx::query_scalar::<_, T>("SELECT 1.5")
            .fetch_one(&mut *conn)
            .await
            .unwrap_err();
        assert!(
            matches!(err, sqlx::Error::ColumnDecode { .. }),
            "{format}: {err}"
        );
        let wrong = if format.column_type() == ColumnType::BigInt {
            "wrong_blob"
        } else {
            "wrong_int"
        };
        let err = sqlx::query(&format!("INSERT INTO {wrong} (v) VALUES (?1)"))
            .bind(ids[0])
            .execute(&mut *conn)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("cannot store"), "{format}: {err}");

        // NULL.
        let none: Option<T> = sqlx::query_scalar("SELECT NULL")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(none, None, "{format}");
        let err = sqlx::query_scalar::<_, T>("SELECT NULL")
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
    let mut db = Sqlx::open();
    db.rt
        .block_on(db.conn.execute(
            "CREATE TABLE wrong_int (v INTEGER) STRICT; CREATE TABLE wrong_blob (v BLOB) STRICT;",
        ))
        .unwrap();
    for (name, check) in sno_core::for_each_format!(sqlx_checks) {
        println!("sqlx: {name}");
        check(&mut db);
    }
}

#[test]
fn sqlx_null_as_zero() {
    let mut db = Sqlx::open();
    let Sqlx { rt, conn } = &mut db;
    rt.block_on(async {
        for sql in ["SELECT NULL", "SELECT x''", "SELECT ''"] {
            let id: NullAsZero<Id> = sqlx::query_scalar(sql).fetch_one(&mut *conn).await.unwrap();
            assert_eq!(id, NullAsZero(Id::ZERO), "{sql}");
        }
        let id = sno_core::new(3);
        let back: NullAsZero<Id> = sqlx::query_scalar("SELECT ?1")
            .bind(NullAsZero(id))
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(back.0, id);
        let err = sqlx::query_scalar::<_, NullAsZero<Id>>("SELECT x'0102'")
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
        let flake: NullAsZero<UlidFlake> = sqlx::query_scalar("SELECT NULL")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(flake.0.to_i64(), 0);
    });
}
