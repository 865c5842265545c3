//! `postgres-types` `ToSql` / `FromSql` (for the `postgres` and `tokio-postgres` crates): one
//! implementation, expanded for every format.
//!
//! Accepted PostgreSQL types: the format's column type (`bytea`, `uuid` or `int8`), `bytea` for
//! every format (the binary form), and `text`, `varchar`, `bpchar` (`char(n)`) for the canonical
//! text. The server says what a parameter is, so writing into a text column writes the text.

use std::boxed::Box;
use std::error::Error as StdError;

use bytes::{BufMut, BytesMut};
use postgres_types::{FromSql, IsNull, ToSql, Type};

use super::{NullAsZero, ZeroId, from_bytes, from_text};
use crate::format::ColumnType;
use crate::model::IdFormat;

type BoxError = Box<dyn StdError + Sync + Send>;

fn is_text(ty: &Type) -> bool {
    matches!(*ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR)
}

/// Whether a value of `T` goes into and comes out of a column of type `ty`.
fn accepts<T: IdFormat>(ty: &Type) -> bool {
    is_text(ty)
        || *ty == Type::BYTEA
        || match T::FORMAT.column_type() {
            ColumnType::Uuid => *ty == Type::UUID,
            ColumnType::BigInt => *ty == Type::INT8,
            ColumnType::Bytes => false,
        }
}

/// The text into a text column; otherwise the binary form, which is also the wire form of `uuid`
/// and of `int8` (8 big-endian bytes) for the formats stored so.
fn to_sql<T: IdFormat>(id: &T, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
    if is_text(ty) {
        out.put_slice(id.text().as_bytes());
    } else {
        out.put_slice(id.as_slice());
    }
    Ok(IsNull::No)
}

fn from_sql<T: IdFormat>(ty: &Type, raw: &[u8]) -> Result<T, BoxError> {
    if is_text(ty) {
        Ok(from_text(raw)?)
    } else {
        Ok(from_bytes(raw)?)
    }
}

macro_rules! impl_postgres {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        $(
            #[cfg_attr(docsrs, doc(cfg(feature = "postgres-types")))]
            impl ToSql for $ty {
                fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
                    to_sql(self, ty, out)
                }
                fn accepts(ty: &Type) -> bool {
                    accepts::<$ty>(ty)
                }
                postgres_types::to_sql_checked!();
            }

            #[cfg_attr(docsrs, doc(cfg(feature = "postgres-types")))]
            impl<'a> FromSql<'a> for $ty {
                fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
                    from_sql(ty, raw)
                }
                fn accepts(ty: &Type) -> bool {
                    accepts::<$ty>(ty)
                }
            }
        )*
    };
}

crate::for_each_format!(impl_postgres);

#[cfg_attr(docsrs, doc(cfg(feature = "postgres-types")))]
impl<T: ZeroId + ToSql> ToSql for NullAsZero<T> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        self.0.to_sql(ty, out)
    }
    fn accepts(ty: &Type) -> bool {
        T::accepts(ty)
    }
    postgres_types::to_sql_checked!();
}

#[cfg_attr(docsrs, doc(cfg(feature = "postgres-types")))]
impl<'a, T: ZeroId + FromSql<'a>> FromSql<'a> for NullAsZero<T> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        if raw.is_empty() {
            return Ok(NullAsZero::zero());
        }
        T::from_sql(ty, raw).map(NullAsZero)
    }
    fn from_sql_null(_: &Type) -> Result<Self, BoxError> {
        Ok(NullAsZero::zero())
    }
    fn accepts(ty: &Type) -> bool {
        <T as FromSql>::accepts(ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::DecodeError;
    use crate::{Error, Format, Id, nanoflake::Nanoflake, typeid::TypeId, ulid::Ulid};

    #[test]
    fn wire_forms() {
        let ulid: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse().unwrap();
        let mut out = BytesMut::new();
        ulid.to_sql_checked(&Type::UUID, &mut out).unwrap();
        assert_eq!(&out[..], ulid.as_bytes());
        assert_eq!(Ulid::from_sql(&Type::UUID, &out).unwrap(), ulid);

        let mut text = BytesMut::new();
        ulid.to_sql_checked(&Type::TEXT, &mut text).unwrap();
        assert_eq!(&text[..], b"01ARZ3NDEKTSV4RRFFQ69G5FAV");
        assert_eq!(Ulid::from_sql(&Type::VARCHAR, &text).unwrap(), ulid);

        let flake = Nanoflake::from_i64(0x0102_0304).unwrap();
        let mut int = BytesMut::new();
        flake.to_sql_checked(&Type::INT8, &mut int).unwrap();
        assert_eq!(&int[..], 0x0102_0304i64.to_be_bytes());
        assert_eq!(Nanoflake::from_sql(&Type::INT8, &int).unwrap(), flake);
        assert!(Nanoflake::from_sql(&Type::INT8, &(-1i64).to_be_bytes()).is_err());

        let typeid: TypeId = "user_01h455vb4pex5vsknk084sn02q".parse().unwrap();
        let mut full = BytesMut::new();
        typeid.to_sql_checked(&Type::TEXT, &mut full).unwrap();
        assert_eq!(TypeId::from_sql(&Type::TEXT, &full).unwrap(), typeid);
    }

    #[test]
    fn wrong_types_and_lengths() {
        let id = Id::ZERO;
        let mut out = BytesMut::new();
        assert!(id.to_sql_checked(&Type::UUID, &mut out).is_err());
        assert!(!<Id as FromSql>::accepts(&Type::INT8));
        assert!(!<Ulid as FromSql>::accepts(&Type::INT8));
        assert!(!<Nanoflake as FromSql>::accepts(&Type::UUID));
        assert!(<Nanoflake as FromSql>::accepts(&Type::BYTEA));

        let err = Id::from_sql(&Type::BYTEA, &[0; 9]).unwrap_err();
        let err = err.downcast_ref::<DecodeError>().expect("a DecodeError");
        assert_eq!(err.format(), Format::Sno);
        assert_eq!(
            err.error(),
            Error::InvalidLength {
                expected: 10,
                actual: 9
            }
        );
        assert!(Id::from_sql_null(&Type::BYTEA).is_err());
    }

    #[test]
    fn null_as_zero() {
        assert_eq!(
            NullAsZero::<Id>::from_sql_null(&Type::BYTEA).unwrap(),
            NullAsZero(Id::ZERO)
        );
        assert_eq!(
            NullAsZero::<Id>::from_sql(&Type::BYTEA, b"").unwrap(),
            NullAsZero(Id::ZERO)
        );
        assert_eq!(
            NullAsZero::<Id>::from_sql(&Type::TEXT, b"").unwrap(),
            NullAsZero(Id::ZERO)
        );
        assert!(NullAsZero::<Id>::from_sql(&Type::BYTEA, &[1; 3]).is_err());
    }
}
