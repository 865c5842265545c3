//! IDs in database columns: what the `postgres-types`, `sqlx-postgres`, `sqlx-sqlite` and
//! `rusqlite` features share.
//!
//! With those features every ID type implements the database library's traits (one generic
//! implementation per library, expanded over [`for_each_format!`](crate::for_each_format)),
//! storing the value as [`Format::column_type`] says (which format has which: the table's
//! `column` fact, listed per format in `docs/databases.md`):
//!
//! | [`ColumnType`](crate::ColumnType) | PostgreSQL | SQLite |
//! |---|---|---|
//! | [`Bytes`](crate::ColumnType::Bytes) (sno, the 20-byte formats) | `bytea` | `BLOB` |
//! | [`Uuid`](crate::ColumnType::Uuid) (the 128-bit formats; TypeID's UUID) | `uuid` | `BLOB` (16 bytes) |
//! | [`BigInt`](crate::ColumnType::BigInt) (the 64-bit formats) | `bigint` | `INTEGER` |
//!
//! Every ID type also reads, and where the library says what the column is (`postgres-types`)
//! writes:
//! * its binary form as bytes (`bytea`, `BLOB`), whatever its column type (an 8-byte `BLOB` for a
//!   Nanoflake, a 16-byte `bytea` for a ULID);
//! * its canonical text (`text`, `varchar`, `char(n)` / SQLite `TEXT`), strictly decoded as
//!   [`IdFormat::decode`] does (a `char(n)` longer than the text pads it with spaces, which is
//!   then an error: make it exactly as long).
//!
//! With `sqlx-postgres` every ID type is also a `PgHasArrayType`, and `postgres-types` has
//! arrays for every `ToSql` type: a `Vec` of IDs binds as `uuid[]` / `bytea[]` / `int8[]`
//! (`WHERE id = ANY($1)`) and an array column reads back as a `Vec`.
//!
//! A value of the wrong length or text that does not decode is a [`DecodeError`] (boxed, as the
//! libraries take errors), naming the format and holding the core [`Error`]; a column of another
//! type is the library's own type error; `NULL` is `None` for an `Option<T>` and an error
//! otherwise. [`NullAsZero`] reads `NULL` and an empty value as the zero ID instead, as the Go
//! original's `Scanner` does.
//!
//! A TypeID column of type `uuid` or `BLOB` stores the UUID only: it reads back with an empty
//! prefix, and [`TypeId::with_prefix`](crate::typeid::TypeId::with_prefix) gives it the
//! column's prefix. A `text` column stores the whole TypeID.
//!
//! With rusqlite (a real round trip in an in-memory database):
//!
//! ```
//! # #[cfg(feature = "rusqlite")] {
//! use sno_core::{sql::NullAsZero, ulid::Ulid, Id};
//!
//! let db = rusqlite::Connection::open_in_memory()?;
//! db.execute_batch("CREATE TABLE t (id BLOB NOT NULL) STRICT; CREATE INDEX t_id ON t (id)")?;
//! let id: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse()?;
//! db.execute("INSERT INTO t (id) VALUES (?1)", [id])?;
//! let back: Ulid = db.query_row("SELECT id FROM t", [], |r| r.get(0))?;
//! assert_eq!(back, id);
//! let none: Option<Ulid> = db.query_row("SELECT NULL", [], |r| r.get(0))?;
//! assert_eq!(none, None);
//! let go: NullAsZero<Id> = db.query_row("SELECT NULL", [], |r| r.get(0))?;
//! assert!(go.0.is_zero());
//! assert!(db.query_row("SELECT x'0102'", [], |r| r.get::<_, Ulid>(0)).is_err());
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! With sqlx (the types bind and decode as any other; compiled, not run):
//!
//! ```no_run
//! # #[cfg(feature = "sqlx-postgres")]
//! async fn find(pool: &sqlx::PgPool, id: sno_core::ulid::Ulid) -> Result<i64, sqlx::Error> {
//!     // CREATE TABLE orders (id uuid PRIMARY KEY, total int8)
//!     sqlx::query_scalar("SELECT total FROM orders WHERE id = $1")
//!         .bind(id)
//!         .fetch_one(pool)
//!         .await
//! }
//! ```

use core::fmt;

use crate::error::Error;
use crate::format::Format;
use crate::model::{IdFormat, MAX_BINARY_LEN};

#[cfg(feature = "postgres-types")]
mod postgres;
#[cfg(feature = "rusqlite")]
mod rusqlite;
#[cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite"))]
mod sqlx;

/// A database value that is no ID of the format it is read as: the wrong length for the binary
/// form (a 9-byte `bytea` read as a sno ID) or text that does not decode. The libraries hand it
/// back boxed: downcast their error's source to this type.
///
/// ```
/// use sno_core::{Error, Format, sql::DecodeError};
///
/// let err = DecodeError::new(Format::Sno, Error::InvalidLength { expected: 10, actual: 9 });
/// assert_eq!(err.format(), Format::Sno);
/// assert_eq!(
///     err.to_string(),
///     "sno from a database value: sno: invalid length 9, expected 10 bytes"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecodeError {
    format: Format,
    error: Error,
}

impl DecodeError {
    /// The error `error` reading a value of `format`.
    pub const fn new(format: Format, error: Error) -> DecodeError {
        DecodeError { format, error }
    }

    /// The format the value was read as.
    pub const fn format(&self) -> Format {
        self.format
    }

    /// The core error (its [`code`](Error::code) is the stable name:
    /// `"invalid_length"`, `"invalid_byte"`, …).
    pub const fn error(&self) -> Error {
        self.error
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} from a database value: {}", self.format, self.error)
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The ID types whose all-zero binary form is a value: every format but UUIDv7 (the nil UUID is
/// not version 7). [`NullAsZero`] reads `NULL` and empty values as this zero. Sealed.
///
/// ```
/// use sno_core::{Id, IdFormat, sql::ZeroId, ulid::Ulid};
///
/// assert_eq!(Id::zero(), Id::ZERO);
/// assert_eq!(Ulid::zero().to_string(), "00000000000000000000000000");
/// ```
pub trait ZeroId: IdFormat + sealed::Sealed {
    /// The value whose binary form is all zeros.
    fn zero() -> Self;
}

mod sealed {
    pub trait Sealed {}
}

/// `ZeroId` for every format of the table but UUIDv7 (whose all-zero bytes carry no version):
/// the zero from the binary form (a test checks that each is accepted, and that only UUIDv7 is
/// left out).
macro_rules! zero_ids {
    ($($variant:ident { ty: $ty:ty $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        $( zero_id!($variant, $ty); )*
        /// The formats given `ZeroId` above.
        #[cfg(test)]
        fn zero_formats() -> impl Iterator<Item = Format> {
            [$((Format::$variant, zero_id!(@has $variant))),*]
                .into_iter()
                .filter_map(|(format, has)| has.then_some(format))
        }
    };
}

/// One row of `zero_ids!`.
macro_rules! zero_id {
    (@has Uuid7) => {
        false
    };
    (@has $variant:ident) => {
        true
    };
    (Uuid7, $ty:ty) => {};
    ($variant:ident, $ty:ty) => {
        impl sealed::Sealed for $ty {}
        impl ZeroId for $ty {
            fn zero() -> Self {
                const ZEROS: [u8; MAX_BINARY_LEN] = [0; MAX_BINARY_LEN];
                match <$ty as IdFormat>::from_slice(
                    &ZEROS[..<$ty as IdFormat>::FORMAT.binary_len()],
                ) {
                    Ok(zero) => zero,
                    Err(_) => unreachable!("the all-zero binary form is a value of the format"),
                }
            }
        }
    };
}

crate::for_each_format!(zero_ids);

/// An ID read as the Go original's `Scanner` reads one (`../shared/specs/SNO.md` §8.4): `NULL`
/// and an empty value (`''::bytea`, `''`, an empty `BLOB`) are the zero ID, anything else is
/// read as `T` is (the same errors). Written as `T` (the zero ID as its zero bytes, never as
/// `NULL`, like Go's `Value`). For the formats with a zero value ([`ZeroId`]).
///
/// ```
/// use sno_core::{Id, sql::NullAsZero};
///
/// let read = NullAsZero(Id::ZERO); // what a NULL column gives
/// assert!(read.into_inner().is_zero());
/// assert_eq!(NullAsZero::from(Id::ZERO).0, Id::ZERO);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NullAsZero<T>(pub T);

impl<T> NullAsZero<T> {
    /// The ID.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> From<T> for NullAsZero<T> {
    fn from(id: T) -> NullAsZero<T> {
        NullAsZero(id)
    }
}

impl<T: ZeroId> NullAsZero<T> {
    /// The zero ID (what `NULL` reads as).
    pub fn zero() -> NullAsZero<T> {
        NullAsZero(T::zero())
    }
}

/// A value as SQLite stores it: a `BLOB` of the binary form (`ColumnType::Bytes` and
/// `ColumnType::Uuid`), or an `INTEGER` (`ColumnType::BigInt`).
#[cfg(any(feature = "rusqlite", feature = "sqlx-sqlite"))]
pub(crate) enum Stored<'a> {
    /// `BLOB`: the binary form.
    Blob(&'a [u8]),
    /// `INTEGER`: the 8 big-endian bytes as a signed integer.
    Integer(i64),
}

/// `id` as SQLite stores it.
#[cfg(any(feature = "rusqlite", feature = "sqlx-sqlite"))]
pub(crate) fn stored<T: IdFormat>(id: &T) -> Stored<'_> {
    let bytes = id.as_slice();
    use crate::format::ColumnType;
    match T::FORMAT.column_type() {
        ColumnType::Bytes | ColumnType::Uuid => Stored::Blob(bytes),
        // BigInt formats' binary form is 8 bytes (`bigint_formats_are_8_bytes` below).
        ColumnType::BigInt => {
            Stored::Integer(i64::from_be_bytes(bytes.try_into().unwrap_or_default()))
        }
    }
}

/// Reads the binary form.
pub(crate) fn from_bytes<T: IdFormat>(bytes: &[u8]) -> Result<T, DecodeError> {
    T::from_slice(bytes).map_err(|e| DecodeError::new(T::FORMAT, e))
}

/// Reads the canonical text (strict).
pub(crate) fn from_text<T: IdFormat>(text: &[u8]) -> Result<T, DecodeError> {
    T::decode(text).map_err(|e| DecodeError::new(T::FORMAT, e))
}

#[cfg(any(
    feature = "rusqlite",
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite"
))]
/// Reads a `bigint` / `INTEGER` (a BigInt format: its 8 big-endian bytes; a negative value is
/// [`Error::ValueOverflow`]).
pub(crate) fn from_i64<T: IdFormat>(value: i64) -> Result<T, DecodeError> {
    from_bytes(&value.to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any::AnyId;
    use crate::format::ColumnType;

    macro_rules! check_tables {
        ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
            $(
                if <$ty as IdFormat>::FORMAT.column_type() == ColumnType::BigInt {
                    assert_eq!($bin, 8, $name);
                }
            )*
        };
    }

    #[test]
    fn bigint_formats_are_8_bytes() {
        crate::for_each_format!(check_tables);
    }

    #[test]
    fn zero_ids_are_every_format_with_a_zero() {
        for format in Format::ALL {
            let zeros = [0u8; MAX_BINARY_LEN];
            let has_zero = AnyId::from_slice_as(format, &zeros[..format.binary_len()]).is_ok();
            assert_eq!(zero_formats().any(|f| f == format), has_zero, "{format}");
        }
        assert_eq!(crate::Id::zero(), crate::Id::ZERO);
        assert_eq!(crate::typeid::TypeId::zero().prefix(), "");
        assert_eq!(crate::nanoflake::Nanoflake::zero().to_i64(), 0);
    }

    #[test]
    #[cfg(any(feature = "rusqlite", feature = "sqlx-sqlite"))]
    fn bigint_round_trip_and_sign() {
        use crate::ulidflake::UlidFlake;
        let id = UlidFlake::from_i64(0x1234_5678_9abc).unwrap();
        let Stored::Integer(v) = stored(&id) else {
            panic!("Ulid-Flake is a BigInt format")
        };
        assert_eq!(v, 0x1234_5678_9abc);
        assert_eq!(from_i64::<UlidFlake>(v), Ok(id));
        let err = from_i64::<UlidFlake>(-1).unwrap_err();
        assert_eq!(err.error(), Error::ValueOverflow);
        assert_eq!(err.format(), Format::UlidFlake);
    }
}
