//! serde support for every ID type: the canonical string in human-readable formats (JSON, TOML,
//! …), the raw bytes in binary ones (a format with a param: its text in both, as its binary
//! form lacks the param). One generic implementation, instantiated beside each type ([`TextId`] and
//! `text_serde!`).
//!
//! Unlike the Go original, the zero sno ID serialises as `"2222222222222222"`, not `null`, and
//! `null` does not deserialise into an ID: use `Option<_>` for nullable fields. Decoding is as
//! strict as each type's parser.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;

use crate::error::Error;

/// What the generic serde code needs from an ID type.
pub(crate) trait TextId: Sized {
    /// "a 16-character sno ID string" and the like.
    const EXPECTING_TEXT: &'static str;
    /// "10 sno ID bytes" and the like.
    const EXPECTING_BYTES: &'static str;
    /// The binary length.
    const BINARY_LEN: usize;
    /// Whether binary formats get the text too: the binary form does not hold the whole value
    /// (a prefix outside it).
    const TEXT_ONLY: bool = false;
    /// Calls `f` with the canonical text.
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R;
    /// The raw bytes.
    fn raw(&self) -> &[u8];
    /// Strict text parser.
    fn parse_text(text: &[u8]) -> Result<Self, Error>;
    /// Binary parser (exact length).
    fn parse_raw(bytes: &[u8]) -> Result<Self, Error>;
}

pub(crate) fn serialize<T: TextId, S: Serializer>(
    id: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() || T::TEXT_ONLY {
        id.with_text(|t| serializer.serialize_str(t))
    } else {
        serializer.serialize_bytes(id.raw())
    }
}

pub(crate) fn deserialize<'de, T: TextId, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    if deserializer.is_human_readable() || T::TEXT_ONLY {
        deserializer.deserialize_str(TextVisitor(PhantomData))
    } else {
        deserializer.deserialize_bytes(BytesVisitor(PhantomData))
    }
}

struct TextVisitor<T>(PhantomData<T>);

impl<T: TextId> Visitor<'_> for TextVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING_TEXT)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        T::parse_text(v.as_bytes()).map_err(E::custom)
    }
}

struct BytesVisitor<T>(PhantomData<T>);

impl<'de, T: TextId> Visitor<'de> for BytesVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING_BYTES)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
        T::parse_raw(v).map_err(E::custom)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut bytes = [0u8; 32];
        let want = T::BINARY_LEN;
        for (i, b) in bytes[..want].iter_mut().enumerate() {
            *b = seq
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<u8>()?.is_some() {
            return Err(de::Error::invalid_length(want + 1, &self));
        }
        T::parse_raw(&bytes[..want]).map_err(de::Error::custom)
    }
}

/// `Serialize` / `Deserialize` for ID types implementing [`TextId`], invoked beside each type
/// (the ID types depend on this module, not the other way round).
macro_rules! text_serde {
    ($($ty:ty),+) => {$(
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                $crate::serde::serialize(self, serializer)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::serde::deserialize(deserializer)
            }
        }
    )+};
}
pub(crate) use text_serde;
