//! rusqlite `ToSql` / `FromSql`: one implementation, expanded for every format.
//!
//! Written as the column type says (`BLOB` of the binary form, or `INTEGER`); read from a
//! `BLOB` (the binary form, any format), an `INTEGER` (the BigInt formats) or `TEXT` (the
//! canonical text).

use std::boxed::Box;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use super::{NullAsZero, Stored, ZeroId, from_bytes, from_i64, from_text, stored};
use crate::format::ColumnType;
use crate::model::IdFormat;

fn to_sql<T: IdFormat>(id: &T) -> ToSqlOutput<'_> {
    match stored(id) {
        Stored::Blob(bytes) => ToSqlOutput::Borrowed(ValueRef::Blob(bytes)),
        Stored::Integer(v) => ToSqlOutput::from(v),
    }
}

fn column_result<T: IdFormat>(value: ValueRef<'_>) -> FromSqlResult<T> {
    let id = match value {
        ValueRef::Blob(bytes) => from_bytes(bytes),
        ValueRef::Text(text) => from_text(text),
        ValueRef::Integer(v) if T::FORMAT.column_type() == ColumnType::BigInt => from_i64(v),
        _ => return Err(FromSqlError::InvalidType),
    };
    id.map_err(|e| FromSqlError::Other(Box::new(e)))
}

macro_rules! impl_rusqlite {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        $(
            #[cfg_attr(docsrs, doc(cfg(feature = "rusqlite")))]
            impl ToSql for $ty {
                fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                    Ok(to_sql(self))
                }
            }

            #[cfg_attr(docsrs, doc(cfg(feature = "rusqlite")))]
            impl FromSql for $ty {
                fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                    column_result(value)
                }
            }
        )*
    };
}

crate::for_each_format!(impl_rusqlite);

#[cfg_attr(docsrs, doc(cfg(feature = "rusqlite")))]
impl<T: ZeroId + ToSql> ToSql for NullAsZero<T> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "rusqlite")))]
impl<T: ZeroId + FromSql> FromSql for NullAsZero<T> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Null => Ok(NullAsZero::zero()),
            ValueRef::Blob(b) | ValueRef::Text(b) if b.is_empty() => Ok(NullAsZero::zero()),
            value => T::column_result(value).map(NullAsZero),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::DecodeError;
    use crate::{Error, Id, ulid::Ulid, ulidflake::UlidFlake};

    #[test]
    fn values() {
        let ulid: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse().unwrap();
        assert_eq!(
            ulid.to_sql().unwrap(),
            ToSqlOutput::Borrowed(ValueRef::Blob(ulid.as_bytes()))
        );
        assert_eq!(
            Ulid::column_result(ValueRef::Blob(ulid.as_bytes())),
            Ok(ulid)
        );
        assert_eq!(
            Ulid::column_result(ValueRef::Text(b"01ARZ3NDEKTSV4RRFFQ69G5FAV")),
            Ok(ulid)
        );
        assert_eq!(
            Ulid::column_result(ValueRef::Integer(1)),
            Err(FromSqlError::InvalidType)
        );
        assert_eq!(
            Ulid::column_result(ValueRef::Null),
            Err(FromSqlError::InvalidType)
        );

        let flake = UlidFlake::from_i64(77).unwrap();
        assert_eq!(flake.to_sql().unwrap(), ToSqlOutput::from(77i64));
        assert_eq!(UlidFlake::column_result(ValueRef::Integer(77)), Ok(flake));
        assert_eq!(
            UlidFlake::column_result(ValueRef::Blob(flake.as_bytes())),
            Ok(flake)
        );
        let Err(FromSqlError::Other(err)) = UlidFlake::column_result(ValueRef::Integer(-5)) else {
            panic!("a negative INTEGER is no Ulid-Flake")
        };
        assert_eq!(
            err.downcast_ref::<DecodeError>().map(DecodeError::error),
            Some(Error::ValueOverflow)
        );
    }

    #[test]
    fn null_as_zero() {
        for value in [ValueRef::Null, ValueRef::Blob(b""), ValueRef::Text(b"")] {
            assert_eq!(
                NullAsZero::<Id>::column_result(value),
                Ok(NullAsZero(Id::ZERO))
            );
        }
        assert!(NullAsZero::<Id>::column_result(ValueRef::Blob(&[7; 11])).is_err());
    }
}
