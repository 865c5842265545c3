//! The generators: `sno_new()` (`mint.rs` says on which partition), and for every other format
//! with a process-wide generator its `<format>_new()`, returning the format's PostgreSQL column
//! type (`sno_core::Format::column_type`: `uuid`, `bytea` or `bigint`); TypeID's takes its
//! prefix and returns the text. Every value is the next of its generator in this backend, so
//! the values one backend makes increase.

use pgrx::prelude::*;
use sno_core::{AnyId, ColumnType, Format};

use crate::errors;
use crate::id_type::Sno;

/// The next sno, meta byte 0: from the server's lease (server mode), this backend's (backend
/// mode) or this backend's random partition (see docs/postgres.md); greater than every earlier
/// one of this backend.
#[pg_extern(volatile, parallel_unsafe, requires = ["concrete_type"])]
fn sno_new() -> Sno {
    crate::mint::next(0).into()
}

/// `sno_new()` with the meta byte `meta` (0 ..= 255).
#[pg_extern(volatile, parallel_unsafe, strict, name = "sno_new", requires = ["concrete_type"])]
fn sno_new_meta(meta: i32) -> Sno {
    let Ok(meta) = u8::try_from(meta) else {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!("sno_new(meta): meta must be in 0..=255, got {meta}"),
            None,
        );
    };
    crate::mint::next(meta).into()
}

/// The next value of `format`'s process-wide generator (the format has one: the tests check
/// that every format with one in the core's table has its function here).
fn next_of(format: Format) -> AnyId {
    match AnyId::try_new(format) {
        Some(Ok(value)) => value,
        Some(Err(e)) => errors::raise_core(e),
        None => errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
            format!("{format} has no process-wide generator"),
            None,
        ),
    }
}

/// The value of a `uuid` column format as PostgreSQL's `uuid`.
fn as_uuid(format: Format) -> pgrx::Uuid {
    debug_assert_eq!(format.column_type(), ColumnType::Uuid);
    let value = next_of(format);
    pgrx::Uuid::from_slice(value.as_slice())
        .unwrap_or_else(|e| errors::raise(pgrx::PgSqlErrorCode::ERRCODE_INTERNAL_ERROR, e, None))
}

/// A new ULID, as `uuid` (its 128 bits; `uuid` compares byte-wise, so in ULID order).
#[pg_extern(volatile, parallel_safe)]
fn ulid_new() -> pgrx::Uuid {
    as_uuid(Format::Ulid)
}

/// A new UUIDv7 (RFC 9562), increasing within this backend.
#[pg_extern(volatile, parallel_safe)]
fn uuid7_new() -> pgrx::Uuid {
    as_uuid(Format::Uuid7)
}

/// A new SCRU128, as `uuid`.
#[pg_extern(volatile, parallel_safe)]
fn scru128_new() -> pgrx::Uuid {
    as_uuid(Format::Scru128)
}

/// A new SCRU160, as its 20 bytes.
#[pg_extern(volatile, parallel_safe)]
fn scru160_new() -> Vec<u8> {
    next_of(Format::Scru160).as_slice().to_vec()
}

/// A new KSUID, as its 20 bytes.
#[pg_extern(volatile, parallel_safe)]
fn ksuid_new() -> Vec<u8> {
    next_of(Format::Ksuid).as_slice().to_vec()
}

/// A new stand-alone Ulid-Flake (default epoch), as `bigint` (its sign bit is always 0).
#[pg_extern(volatile, parallel_safe)]
fn ulidflake_new() -> i64 {
    let value = next_of(Format::UlidFlake);
    let bytes: [u8; 8] = value.as_slice().try_into().unwrap_or_else(|_| {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
            "a Ulid-Flake is 8 bytes".into(),
            None,
        )
    });
    i64::from_be_bytes(bytes)
}

/// A new TypeID with `prefix` (at most 63 characters of `a-z` and `_`, not starting or ending
/// with `_`; empty for none) and a new UUIDv7, as text.
#[pg_extern(volatile, parallel_safe, strict)]
fn typeid_new(prefix: &str) -> String {
    match sno_core::typeid::TypeId::try_new(prefix) {
        Ok(id) => id.to_string(),
        Err(e) => errors::raise_core(e),
    }
}
