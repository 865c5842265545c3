//! serde support: the 16-character string in human-readable formats (JSON, TOML, …), the 10 raw
//! bytes in binary ones.
//!
//! Unlike the Go original, the zero ID serialises as `"2222222222222222"`, not `null`, and
//! `null` does not deserialise into an [`Id`]: use `Option<Id>` for nullable fields. Decoding
//! is strict (no upper case, no unquoted or numeric input).

use core::fmt;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::id::{BINARY_LEN, ENCODED_LEN, Id};

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            let mut buf = [0u8; ENCODED_LEN];
            serializer.serialize_str(self.encode(&mut buf))
        } else {
            serializer.serialize_bytes(self.as_bytes())
        }
    }
}

struct TextVisitor;

impl Visitor<'_> for TextVisitor {
    type Value = Id;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 16-character sno ID string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Id, E> {
        Id::decode(v.as_bytes()).map_err(E::custom)
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Id;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("10 sno ID bytes")
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Id, E> {
        Id::from_slice(v).map_err(E::custom)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Id, A::Error> {
        let mut bytes = [0u8; BINARY_LEN];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = seq
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<u8>()?.is_some() {
            return Err(de::Error::invalid_length(BINARY_LEN + 1, &self));
        }
        Ok(Id::from_bytes(bytes))
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Id, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_str(TextVisitor)
        } else {
            deserializer.deserialize_bytes(BytesVisitor)
        }
    }
}
