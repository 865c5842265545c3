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
