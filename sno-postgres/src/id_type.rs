//! The `sno` type: 10 bytes, fixed length, passed by reference, stored as the binary form.
//! Text input is the core's strict decoder (`Id::decode`), output its encoder; binary send and
//! receive are the 10 bytes. The bytes sort in time order, so comparison is `memcmp`: the btree
//! operator class gives primary keys and `ORDER BY` in time order, the hash class joins and
//! `GROUP BY`.

use core::ffi::CStr;

use pgrx::callconv::{ArgAbi, BoxRet};
use pgrx::datum::Datum;
use pgrx::pg_sys::Oid;
use pgrx::pgrx_sql_entity_graph::metadata::{
    ArgumentError, ReturnsError, ReturnsRef, SqlMappingRef, SqlTranslatable, TypeOrigin,
};
use pgrx::prelude::*;
use pgrx::{StringInfo, rust_regtypein};
use sno_core::{BINARY_LEN, Id};

use crate::errors;

/// A sno ID as PostgreSQL holds it: its binary form, byte for byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Sno(pub [u8; BINARY_LEN]);

impl From<Id> for Sno {
    fn from(id: Id) -> Self {
        Sno(id.to_bytes())
    }
}

impl From<Sno> for Id {
    fn from(sno: Sno) -> Self {
        Id::from_bytes(sno.0)
    }
}

// SAFETY: `sno` is the SQL type this extension creates (the `CREATE TYPE` below) for exactly
// this representation: a pointer to 10 bytes.
unsafe impl SqlTranslatable for Sno {
    const TYPE_IDENT: &'static str = pgrx::pgrx_resolved_type!(Sno);
    const TYPE_ORIGIN: TypeOrigin = TypeOrigin::External;
    const ARGUMENT_SQL: Result<SqlMappingRef, ArgumentError> = Ok(SqlMappingRef::literal("sno"));
    const RETURN_SQL: Result<ReturnsRef, ReturnsError> =
        Ok(ReturnsRef::One(SqlMappingRef::literal("sno")));
}

impl FromDatum for Sno {
    unsafe fn from_polymorphic_datum(datum: pg_sys::Datum, is_null: bool, _: Oid) -> Option<Self> {
        if is_null {
            return None;
        }
        let mut bytes = [0u8; BINARY_LEN];
        // SAFETY: a non-null datum of type `sno` points to its 10 bytes (INTERNALLENGTH = 10,
        // not by value), which may be unaligned (ALIGNMENT = char).
        unsafe {
            core::ptr::copy_nonoverlapping(
                datum.cast_mut_ptr::<u8>(),
                bytes.as_mut_ptr(),
                BINARY_LEN,
            );
        }
        Some(Sno(bytes))
    }
}

impl IntoDatum for Sno {
    fn into_datum(self) -> Option<pg_sys::Datum> {
        // SAFETY: palloc returns BINARY_LEN writable bytes in the current memory context (or
        // raises an ERROR), and the copy fills them.
        unsafe {
            let ptr = pg_sys::palloc(BINARY_LEN).cast::<u8>();
            core::ptr::copy_nonoverlapping(self.0.as_ptr(), ptr, BINARY_LEN);
            Some(pg_sys::Datum::from(ptr))
        }
    }

    fn type_oid() -> Oid {
        rust_regtypein::<Self>()
    }
}

// SAFETY: arguments of type `sno` are read with `FromDatum` above.
unsafe impl<'fcx> ArgAbi<'fcx> for Sno
where
    Self: 'fcx,
{
    unsafe fn unbox_arg_unchecked(arg: pgrx::callconv::Arg<'_, 'fcx>) -> Self {
        // SAFETY: the caller passes an argument of type `sno`; strict functions never see NULL.
        unsafe {
            arg.unbox_arg_using_from_datum()
                .expect("a sno argument is not NULL")
        }
    }
}

// SAFETY: a `sno` result is a palloc'd copy of the 10 bytes (`IntoDatum`).
unsafe impl BoxRet for Sno {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut pgrx::callconv::FcInfo<'fcx>) -> Datum<'fcx> {
        match self.into_datum() {
            // SAFETY: the datum is a valid `sno` for this call's result.
            Some(datum) => unsafe { fcinfo.return_raw_datum(datum) },
            None => fcinfo.return_null(),
        }
    }
}

extension_sql!(
    r#"
CREATE TYPE sno;
"#,
    name = "shell_type",
    bootstrap
);

/// Text input: exactly 16 characters of `23456789abcdefghijklmnopqrstuvwx`, decoded strictly
/// (upper case is not accepted, and neither is a 40th bit of time): otherwise SQLSTATE 22P02
/// with the core's words and the byte position.
#[pg_extern(immutable, parallel_safe, strict, requires = ["shell_type"])]
fn sno_in(input: &CStr) -> Sno {
    let text = input.to_bytes();
    match Id::decode(text) {
        Ok(id) => id.into(),
        Err(e) => errors::invalid_text("sno", text, e),
    }
}

/// Text output: the 16 characters.
#[pg_extern(immutable, parallel_safe, strict, requires = ["shell_type"])]
fn sno_out(value: Sno) -> &'static CStr {
    let mut out = StringInfo::new();
    out.push_bytes(&Id::from(value).encode_bytes());
    // SAFETY: the StringInfo is ours, in the current memory context, NUL-terminated.
    unsafe { out.leak_cstr() }
}

/// Binary input: exactly 10 bytes (a different length is SQLSTATE 22P03).
#[pg_extern(immutable, parallel_safe, strict, requires = ["shell_type"])]
fn sno_recv(mut buffer: pgrx::datum::Internal) -> Sno {
    // SAFETY: the receive function of a type is called with a StringInfo of the message.
    let buf = unsafe {
        &mut *buffer
            .get_mut::<pg_sys::StringInfoData>()
            .expect("a buffer")
    };
    let left = (buf.len - buf.cursor) as usize;
    if left != BINARY_LEN {
        errors::invalid_binary(sno_core::Error::InvalidLength {
            expected: BINARY_LEN,
            actual: left,
        });
    }
    let mut bytes = [0u8; BINARY_LEN];
    // SAFETY: `left` bytes remain in the buffer from its cursor; pq_copymsgbytes copies them.
    unsafe { pg_sys::pq_copymsgbytes(buf, bytes.as_mut_ptr().cast(), BINARY_LEN as _) };
    Sno(bytes)
}

/// Binary output: the 10 bytes.
#[pg_extern(immutable, parallel_safe, strict, requires = ["shell_type"])]
fn sno_send(value: Sno) -> Vec<u8> {
    value.0.to_vec()
}

extension_sql!(
    r#"
CREATE TYPE sno (
    INPUT = sno_in,
    OUTPUT = sno_out,
    RECEIVE = sno_recv,
    SEND = sno_send,
    INTERNALLENGTH = 10,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE sno IS 'a sno ID: 10 bytes, sorting in time order; text of 16 characters';
"#,
    name = "concrete_type",
    requires = [sno_in, sno_out, sno_recv, sno_send],
);

/// btree support: -1, 0 or 1 as the bytes compare (time order).
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_cmp(a: Sno, b: Sno) -> i32 {
    a.cmp(&b) as i32
}

#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_lt(a: Sno, b: Sno) -> bool {
    a < b
}

#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_le(a: Sno, b: Sno) -> bool {
    a <= b
}

#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_eq(a: Sno, b: Sno) -> bool {
    a == b
}

#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_ne(a: Sno, b: Sno) -> bool {
    a != b
}

#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_ge(a: Sno, b: Sno) -> bool {
    a >= b
}

#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_gt(a: Sno, b: Sno) -> bool {
    a > b
}

// PostgreSQL's byte hash (src/common/hashfn.c: what `hash_any` and `hash_any_extended` call,
// and `bytea`'s hash), exported by the server; pgrx's bindings leave its header out. Neither
// raises an error.
unsafe extern "C" {
    fn hash_bytes(k: *const u8, keylen: i32) -> u32;
    fn hash_bytes_extended(k: *const u8, keylen: i32, seed: u64) -> u64;
}

/// hash support: PostgreSQL's own byte hash of the 10 bytes.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_hash(value: Sno) -> i32 {
    // SAFETY: hash_bytes reads the 10 bytes of `value`.
    unsafe { hash_bytes(value.0.as_ptr(), BINARY_LEN as i32) as i32 }
}

/// Extended hash support (hash partitioning): the 64-bit byte hash with `seed`.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_hash_extended(value: Sno, seed: i64) -> i64 {
    // SAFETY: hash_bytes_extended (what PostgreSQL's hash_any_extended calls) reads the 10
    // bytes of `value`.
    unsafe { hash_bytes_extended(value.0.as_ptr(), BINARY_LEN as i32, seed as u64) as i64 }
}

/// The binary form as `bytea` (the `sno::bytea` cast).
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_to_bytea(value: Sno) -> Vec<u8> {
    value.0.to_vec()
}

/// A `bytea` of exactly 10 bytes as a sno (the `bytea::sno` cast); another length is SQLSTATE
/// 22P03.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_from_bytea(bytes: &[u8]) -> Sno {
    match Id::from_slice(bytes) {
        Ok(id) => id.into(),
        Err(e) => errors::invalid_binary(e),
    }
}

/// The time of a sno, to its 4 ms unit.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_time(value: Sno) -> TimestampWithTimeZone {
    let unix_us = Id::from(value).unix_ns() / 1_000;
    // PostgreSQL counts microseconds from 2000-01-01; every sno time (2010 .. 2079) fits.
    let pg_us = unix_us - 946_684_800_000_000;
    // SAFETY: any i64 is a valid timestamptz datum; a sno's lies well inside the finite range.
    unsafe { TimestampWithTimeZone::from_datum(pg_sys::Datum::from(pg_us), false) }
        .expect("a timestamptz")
}

/// The 16-bit partition of a sno.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_partition(value: Sno) -> i32 {
    i32::from(Id::from(value).partition())
}

/// The 16-bit sequence of a sno.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_sequence(value: Sno) -> i32 {
    i32::from(Id::from(value).sequence())
}

/// The meta byte of a sno.
#[pg_extern(immutable, parallel_safe, strict, requires = ["concrete_type"])]
fn sno_meta(value: Sno) -> i32 {
    i32::from(Id::from(value).meta())
}

extension_sql!(
    r#"
CREATE OPERATOR < (LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_lt, COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_le, COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR = (LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_eq, COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_ne, COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR >= (LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_ge, COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR > (LEFTARG = sno, RIGHTARG = sno, FUNCTION = sno_gt, COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

CREATE OPERATOR CLASS sno_ops DEFAULT FOR TYPE sno USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 sno_cmp(sno, sno),
    -- Equal values are equal bytes: btree deduplication may merge them (PostgreSQL 13+).
    FUNCTION 4 btequalimage(oid);

CREATE OPERATOR CLASS sno_hash_ops DEFAULT FOR TYPE sno USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 sno_hash(sno),
    FUNCTION 2 sno_hash_extended(sno, bigint);

CREATE CAST (sno AS bytea) WITH FUNCTION sno_to_bytea(sno);
CREATE CAST (bytea AS sno) WITH FUNCTION sno_from_bytea(bytea);
"#,
    name = "operators",
    requires = [
        sno_lt,
        sno_le,
        sno_eq,
        sno_ne,
        sno_ge,
        sno_gt,
        sno_cmp,
        sno_hash,
        sno_hash_extended,
        sno_to_bytea,
        sno_from_bytea
    ],
);
