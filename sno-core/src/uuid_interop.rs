//! `uuid` crate interop for the formats stored as UUIDs ([`ColumnType::Uuid`]): `From<T> for
//! uuid::Uuid` (the 16 bytes, as they are), and back `From<uuid::Uuid>` where any 128 bits are
//! a value, `TryFrom<uuid::Uuid>` where the format constrains them (UUIDv7: version 7 and the
//! RFC 9562 variant, else [`Error::NotVersion7`](crate::Error::NotVersion7)). Each format's
//! module states its own ([`uuid_interop!`]). A format with a text part outside its binary
//! form converts its binary form: the part is dropped, and a value from a `Uuid` has none
//! (its `with_<param>` gives it one).
//!
//! [`ColumnType::Uuid`]: crate::ColumnType::Uuid

/// `$ty: From` when every 128-bit value is one, `$ty: TryFrom` when its `from_slice` checks bits.
macro_rules! uuid_interop {
    ($ty:ty: $kind:ident) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "uuid")))]
        impl From<$ty> for uuid::Uuid {
            fn from(id: $ty) -> uuid::Uuid {
                uuid::Uuid::from_bytes(*id.as_bytes())
            }
        }
        $crate::uuid_interop::uuid_interop!(@back $ty: $kind);
    };
    (@back $ty:ty: From) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "uuid")))]
        impl From<uuid::Uuid> for $ty {
            fn from(uuid: uuid::Uuid) -> $ty {
                <$ty>::from(uuid.into_bytes())
            }
        }
    };
    (@back $ty:ty: TryFrom) => {
        /// [`Error::NotVersion7`](crate::Error::NotVersion7) for a UUID of another version or
        /// variant.
        #[cfg_attr(docsrs, doc(cfg(feature = "uuid")))]
        impl TryFrom<uuid::Uuid> for $ty {
            type Error = $crate::Error;
            fn try_from(uuid: uuid::Uuid) -> Result<$ty, $crate::Error> {
                <$ty as $crate::model::IdFormat>::from_slice(uuid.as_bytes())
            }
        }
    };
}

pub(crate) use uuid_interop;

#[cfg(test)]
mod tests {
    use crate::error::Error;
    use crate::model::IdFormat;
    use crate::scru128::Scru128Id;
    use crate::typeid::TypeId;
    use crate::ulid::Ulid;
    use crate::uuid7::Uuid7;
    use crate::{ColumnType, Format};

    /// `T` converts to a `Uuid` and back (by `From` or `TryFrom`).
    fn converts<T: IdFormat + Into<uuid::Uuid> + TryFrom<uuid::Uuid>>() -> Format {
        T::FORMAT
    }

    #[test]
    fn every_uuid_format_converts() {
        let expected = Format::ALL
            .into_iter()
            .filter(|f| f.column_type() == ColumnType::Uuid);
        let converting = [
            converts::<Ulid>(),
            converts::<Uuid7>(),
            converts::<Scru128Id>(),
            converts::<TypeId>(),
        ];
        assert!(expected.eq(converting));
    }

    #[test]
    fn round_trips() {
        let ulid: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse().unwrap();
        let u = uuid::Uuid::from(ulid);
        assert_eq!(u.as_bytes(), ulid.as_bytes());
        assert_eq!(Ulid::from(u), ulid);
        for u in [uuid::Uuid::nil(), uuid::Uuid::max()] {
            assert_eq!(uuid::Uuid::from(Ulid::from(u)), u);
            assert_eq!(uuid::Uuid::from(Scru128Id::from(u)), u);
            assert_eq!(uuid::Uuid::from(TypeId::from(u)), u);
        }

        let v7: uuid::Uuid = "01890a5d-ac96-774b-bcce-b302099a8057".parse().unwrap();
        let ours = Uuid7::try_from(v7).unwrap();
        assert_eq!(ours.text().as_str(), "01890a5d-ac96-774b-bcce-b302099a8057");
        assert_eq!(uuid::Uuid::from(ours), v7);
        let v4: uuid::Uuid = "550e8400-e29b-41d4-a716-446655440000".parse().unwrap();
        assert_eq!(
            Uuid7::try_from(v4),
            Err(Error::NotVersion7 {
                version: 4,
                variant: 0b10
            })
        );
        assert!(Uuid7::try_from(uuid::Uuid::nil()).is_err());

        let typeid: TypeId = "user_01h455vb4pex5vsknk084sn02q".parse().unwrap();
        let u = uuid::Uuid::from(typeid);
        assert_eq!(u, v7);
        let back = TypeId::from(u);
        assert_eq!(back.prefix(), "");
        assert_eq!(back.with_prefix("user").unwrap(), typeid);
    }
}
