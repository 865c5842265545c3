//! sqlx `Type` / `Encode` / `Decode` for PostgreSQL (`sqlx-postgres`) and SQLite
//! (`sqlx-sqlite`): one implementation per database, expanded for every format.
//!
//! sqlx encodes without knowing the column, so values are always written as the column type
//! says (`bytea` / `uuid` / `int8`; SQLite `BLOB` / `INTEGER`); bind `id.to_string()` for a text
//! column. Decoding accepts the column type, bytes (the binary form, any format) and text (the
//! canonical text).

use std::boxed::Box;
#[cfg(feature = "sqlx-sqlite")]
use std::format;
use std::vec::Vec;

use sqlx::encode::IsNull;
use sqlx::error::{BoxDynError, UnexpectedNullError};
#[cfg(feature = "sqlx-postgres")]
use sqlx::postgres::{
    PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueFormat, PgValueRef, Postgres, types::Oid,
};
#[cfg(feature = "sqlx-sqlite")]
use sqlx::sqlite::{Sqlite, SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Type, ValueRef};

use super::{NullAsZero, ZeroId};
#[cfg(feature = "sqlx-postgres")]
use super::{from_bytes, from_i64, from_text};
use crate::format::ColumnType;
use crate::model::IdFormat;

#[cfg(feature = "sqlx-postgres")]
mod oid {
    pub const BYTEA: u32 = 17;
    pub const INT8: u32 = 20;
    pub const TEXT: u32 = 25;
    pub const BPCHAR: u32 = 1042;
    pub const VARCHAR: u32 = 1043;
    pub const UUID: u32 = 2950;
    pub const BYTEA_ARRAY: u32 = 1001;
    pub const INT8_ARRAY: u32 = 1016;
    pub const TEXT_ARRAY: u32 = 1009;
    pub const BPCHAR_ARRAY: u32 = 1014;
    pub const VARCHAR_ARRAY: u32 = 1015;
    pub const UUID_ARRAY: u32 = 2951;
}

#[cfg(feature = "sqlx-postgres")]
fn pg_type_info<T: IdFormat>() -> PgTypeInfo {
    match T::FORMAT.column_type() {
        ColumnType::Bytes => <&[u8] as Type<Postgres>>::type_info(),
        ColumnType::Uuid => PgTypeInfo::with_oid(Oid(oid::UUID)),
        ColumnType::BigInt => <i64 as Type<Postgres>>::type_info(),
    }
}

#[cfg(feature = "sqlx-postgres")]
fn pg_compatible<T: IdFormat>(ty: &PgTypeInfo) -> bool {
    let Some(Oid(oid)) = ty.oid() else {
        return false;
    };
    matches!(oid, oid::BYTEA | oid::TEXT | oid::VARCHAR | oid::BPCHAR)
        || match T::FORMAT.column_type() {
            ColumnType::Uuid => oid == oid::UUID,
            ColumnType::BigInt => oid == oid::INT8,
            ColumnType::Bytes => false,
        }
}

/// Arrays (`uuid[]`, …: `Vec<T>` binds and decodes, `WHERE id = ANY($1)`) of the types above.
#[cfg(feature = "sqlx-postgres")]
fn pg_array_type_info<T: IdFormat>() -> PgTypeInfo {
    PgTypeInfo::with_oid(Oid(match T::FORMAT.column_type() {
        ColumnType::Bytes => oid::BYTEA_ARRAY,
        ColumnType::Uuid => oid::UUID_ARRAY,
        ColumnType::BigInt => oid::INT8_ARRAY,
    }))
}

#[cfg(feature = "sqlx-postgres")]
fn pg_array_compatible<T: IdFormat>(ty: &PgTypeInfo) -> bool {
    let Some(Oid(oid)) = ty.oid() else {
        return false;
    };
    matches!(
        oid,
        oid::BYTEA_ARRAY | oid::TEXT_ARRAY | oid::VARCHAR_ARRAY | oid::BPCHAR_ARRAY
    ) || match T::FORMAT.column_type() {
        ColumnType::Uuid => oid == oid::UUID_ARRAY,
        ColumnType::BigInt => oid == oid::INT8_ARRAY,
        ColumnType::Bytes => false,
    }
}

/// The binary form, which is also the binary wire form of `uuid` and `int8` for the formats
/// stored so.
#[cfg(feature = "sqlx-postgres")]
fn pg_encode<T: IdFormat>(id: &T, buf: &mut PgArgumentBuffer) -> IsNull {
    buf.extend_from_slice(id.as_slice());
    IsNull::No
}

#[cfg(feature = "sqlx-postgres")]
fn pg_decode<T: IdFormat>(value: PgValueRef<'_>) -> Result<T, BoxDynError> {
    if value.is_null() {
        return Err(Box::new(UnexpectedNullError));
    }
    let oid = value.type_info().oid().map(|Oid(oid)| oid);
    if matches!(oid, Some(oid::TEXT | oid::VARCHAR | oid::BPCHAR)) {
        return Ok(from_text(value.as_bytes()?)?);
    }
    let id = match (value.format(), oid) {
        (PgValueFormat::Binary, _) => from_bytes(value.as_bytes()?)?,
        // Text results (`raw_sql`, a query string run directly): PostgreSQL's text forms.
        (PgValueFormat::Text, Some(oid::BYTEA)) => {
            from_bytes(&<Vec<u8> as Decode<Postgres>>::decode(value)?)?
        }
        (PgValueFormat::Text, Some(oid::INT8)) => {
            from_i64(<i64 as Decode<Postgres>>::decode(value)?)?
        }
        (PgValueFormat::Text, _) => {
            let text = <[u8; 36]>::try_from(value.as_bytes()?)
                .ok()
                .and_then(|text| crate::radix::decode_uuid(&text))
                .ok_or("a uuid column's text is not a hyphenated UUID")?;
            from_bytes(&text)?
        }
    };
    Ok(id)
}

#[cfg(feature = "sqlx-sqlite")]
fn sqlite_type_info<T: IdFormat>() -> SqliteTypeInfo {
    match T::FORMAT.column_type() {
        ColumnType::Bytes | ColumnType::Uuid => <&[u8] as Type<Sqlite>>::type_info(),
        ColumnType::BigInt => <i64 as Type<Sqlite>>::type_info(),
    }
}

/// `BLOB`, `TEXT`, and `INTEGER` for the BigInt formats (the value's storage class).
#[cfg(feature = "sqlx-sqlite")]
fn sqlite_compatible<T: IdFormat>(ty: &SqliteTypeInfo) -> bool {
    use sqlx::TypeInfo;
    match ty.name() {
        "BLOB" | "TEXT" => true,
        "INTEGER" => T::FORMAT.column_type() == ColumnType::BigInt,
        _ => false,
    }
}

#[cfg(feature = "sqlx-sqlite")]
fn sqlite_encode<'q, T: IdFormat>(
    id: &T,
    args: &mut <Sqlite as sqlx::Database>::ArgumentBuffer<'q>,
) -> Result<IsNull, BoxDynError> {
    match super::stored(id) {
        super::Stored::Blob(bytes) => <Vec<u8> as Encode<'q, Sqlite>>::encode(bytes.to_vec(), args),
        super::Stored::Integer(v) => <i64 as Encode<'q, Sqlite>>::encode(v, args),
    }
}

#[cfg(feature = "sqlx-sqlite")]
fn sqlite_decode<T: IdFormat>(value: SqliteValueRef<'_>) -> Result<T, BoxDynError> {
    use sqlx::TypeInfo;
    if value.is_null() {
        return Err(Box::new(UnexpectedNullError));
    }
    enum Class {
        Blob,
        Text,
        Integer,
    }
    let class = match value.type_info().name() {
        "BLOB" => Class::Blob,
        "TEXT" => Class::Text,
        "INTEGER" if T::FORMAT.column_type() == ColumnType::BigInt => Class::Integer,
        other => {
            return Err(format!(
                "mismatched types; a {} is not read from an SQLite {other} value",
                T::FORMAT
            )
            .into());
        }
    };
    let id = match class {
        Class::Blob => super::from_bytes(<&[u8] as Decode<Sqlite>>::decode(value)?)?,
        Class::Text => super::from_text(<&str as Decode<Sqlite>>::decode(value)?.as_bytes())?,
        Class::Integer => super::from_i64(<i64 as Decode<Sqlite>>::decode(value)?)?,
    };
    Ok(id)
}

macro_rules! impl_sqlx {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        $(
            #[cfg(feature = "sqlx-postgres")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-postgres")))]
            impl Type<Postgres> for $ty {
                fn type_info() -> PgTypeInfo {
                    pg_type_info::<$ty>()
                }
                fn compatible(ty: &PgTypeInfo) -> bool {
                    pg_compatible::<$ty>(ty)
                }
            }

            #[cfg(feature = "sqlx-postgres")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-postgres")))]
            impl PgHasArrayType for $ty {
                fn array_type_info() -> PgTypeInfo {
                    pg_array_type_info::<$ty>()
                }
                fn array_compatible(ty: &PgTypeInfo) -> bool {
                    pg_array_compatible::<$ty>(ty)
                }
            }

            #[cfg(feature = "sqlx-postgres")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-postgres")))]
            impl Encode<'_, Postgres> for $ty {
                fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
                    Ok(pg_encode(self, buf))
                }
                fn size_hint(&self) -> usize {
                    $bin
                }
            }

            #[cfg(feature = "sqlx-postgres")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-postgres")))]
            impl<'r> Decode<'r, Postgres> for $ty {
                fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
                    pg_decode(value)
                }
            }

            #[cfg(feature = "sqlx-sqlite")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-sqlite")))]
            impl Type<Sqlite> for $ty {
                fn type_info() -> SqliteTypeInfo {
                    sqlite_type_info::<$ty>()
                }
                fn compatible(ty: &SqliteTypeInfo) -> bool {
                    sqlite_compatible::<$ty>(ty)
                }
            }

            #[cfg(feature = "sqlx-sqlite")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-sqlite")))]
            impl<'q> Encode<'q, Sqlite> for $ty {
                fn encode_by_ref(
                    &self,
                    args: &mut <Sqlite as sqlx::Database>::ArgumentBuffer<'q>,
                ) -> Result<IsNull, BoxDynError> {
                    sqlite_encode(self, args)
                }
            }

            #[cfg(feature = "sqlx-sqlite")]
            #[cfg_attr(docsrs, doc(cfg(feature = "sqlx-sqlite")))]
            impl<'r> Decode<'r, Sqlite> for $ty {
                fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
                    sqlite_decode(value)
                }
            }
        )*
    };
}

crate::for_each_format!(impl_sqlx);

/// `NullAsZero<T>` is typed, encoded and decoded as `T`, but for `NULL` and empty values.
macro_rules! null_as_zero {
    ($db:ty, $is_empty:expr) => {
        #[cfg_attr(
            docsrs,
            doc(cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite")))
        )]
        impl<T: ZeroId + Type<$db>> Type<$db> for NullAsZero<T> {
            fn type_info() -> <$db as sqlx::Database>::TypeInfo {
                T::type_info()
            }
            fn compatible(ty: &<$db as sqlx::Database>::TypeInfo) -> bool {
                T::compatible(ty)
            }
        }

        #[cfg_attr(
            docsrs,
            doc(cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite")))
        )]
        impl<'q, T: ZeroId + Encode<'q, $db>> Encode<'q, $db> for NullAsZero<T> {
            fn encode_by_ref(
                &self,
                buf: &mut <$db as sqlx::Database>::ArgumentBuffer<'q>,
            ) -> Result<IsNull, BoxDynError> {
                self.0.encode_by_ref(buf)
            }
            fn produces(&self) -> Option<<$db as sqlx::Database>::TypeInfo> {
                self.0.produces()
            }
            fn size_hint(&self) -> usize {
                self.0.size_hint()
            }
        }

        #[cfg_attr(
            docsrs,
            doc(cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite")))
        )]
        impl<'r, T: ZeroId + Decode<'r, $db>> Decode<'r, $db> for NullAsZero<T> {
            fn decode(value: <$db as sqlx::Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                #[allow(clippy::redundant_closure_call, reason = "the macro takes a closure")]
                if value.is_null() || ($is_empty)(&value) {
                    return Ok(NullAsZero::zero());
                }
                <T as Decode<'r, $db>>::decode(value).map(NullAsZero)
            }
        }
    };
}

#[cfg(feature = "sqlx-postgres")]
null_as_zero!(Postgres, |v: &PgValueRef<'_>| v
    .as_bytes()
    .is_ok_and(<[u8]>::is_empty));

#[cfg(feature = "sqlx-sqlite")]
null_as_zero!(Sqlite, |v: &SqliteValueRef<'_>| {
    use sqlx::{TypeInfo, Value};
    let owned = v.to_owned();
    matches!(owned.type_info().name(), "BLOB" | "TEXT")
        && <&[u8] as Decode<Sqlite>>::decode(owned.as_ref()).is_ok_and(<[u8]>::is_empty)
});
