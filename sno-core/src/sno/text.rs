//! The text form of [`Id`]: encoding and strict decoding, one ID or a batch at a time through
//! the codec's kernels, and the traits built on them (`Display`, `Debug`, `FromStr`, serde).

use core::fmt;
use core::str::FromStr;

use super::codec::{self, backends, backends::Backend};
use super::id::{ENCODED_LEN, Id};
use crate::error::Error;

impl Id {
    /// The canonical text form as 16 ASCII bytes.
    #[inline]
    pub fn encode_bytes(&self) -> [u8; ENCODED_LEN] {
        codec::encode(&self.0)
    }

    /// Writes the canonical text form into `buf` and returns it as a `&str` (no allocation).
    ///
    /// ```
    /// let mut buf = [0u8; sno_core::ENCODED_LEN];
    /// assert_eq!(sno_core::Id::MAX.encode(&mut buf), "xxxxxxxxxxxxxxxx");
    /// ```
    #[inline]
    pub fn encode<'a>(&self, buf: &'a mut [u8; ENCODED_LEN]) -> &'a str {
        *buf = codec::encode(&self.0);
        // SAFETY: the codec writes only bytes of the sno alphabet, which is ASCII.
        unsafe { core::str::from_utf8_unchecked(buf) }
    }

    /// Strictly decodes the text form: exactly 16 bytes, each in `23456789abcdefghijklmnopqrstuvwx`.
    ///
    /// ```
    /// use sno_core::{Error, Id};
    /// assert_eq!(Id::decode(b"2222222222222222"), Ok(Id::ZERO));
    /// assert_eq!(Id::decode(b"BRPK4Q72XWF2M63L"), Err(Error::InvalidByte { position: 0, byte: b'B' }));
    /// assert_eq!(Id::decode(b"222"), Err(Error::InvalidLength { expected: 16, actual: 3 }));
    /// ```
    #[inline]
    pub fn decode(input: &[u8]) -> Result<Id, Error> {
        codec::decode(input)
    }

    /// Encodes many IDs at once into `out`, 16 bytes per ID end to end (no separators).
    ///
    /// With the `simd` feature on x86_64 this runs the widest kernel the CPU has (AVX-512 VBMI:
    /// four IDs per step; AVX2: two), chosen once per call.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless `out.len() == 16 * ids.len()`.
    ///
    /// ```
    /// use sno_core::Id;
    /// let ids = [Id::ZERO, Id::MAX];
    /// let mut text = [0u8; 32];
    /// Id::encode_many(&ids, &mut text)?;
    /// assert_eq!(&text, b"2222222222222222xxxxxxxxxxxxxxxx");
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    #[inline]
    pub fn encode_many(ids: &[Id], out: &mut [u8]) -> Result<(), Error> {
        backends::encode_many(Backend::batch(), ids, out)
    }

    /// Strictly decodes `text`, 16 bytes per ID end to end, into `out`.
    ///
    /// # Errors
    /// * [`Error::InvalidLength`] unless `text.len() == 16 * out.len()`;
    /// * [`Error::InvalidByte`] for the first byte outside the alphabet, with its `position` in
    ///   `text` (so the bad ID is `position / 16`). The IDs before that one are written to `out`,
    ///   the others are left as they were.
    ///
    /// ```
    /// use sno_core::{Error, Id};
    /// let mut ids = [Id::MAX; 2];
    /// Id::decode_many(b"2222222222222222xxxxxxxxxxxxxxxx", &mut ids)?;
    /// assert_eq!(ids, [Id::ZERO, Id::MAX]);
    /// assert_eq!(
    ///     Id::decode_many(b"xxxxxxxxxxxxxxxx22222222222z2222", &mut ids),
    ///     Err(Error::InvalidByte { position: 27, byte: b'z' })
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn decode_many(text: &[u8], out: &mut [Id]) -> Result<(), Error> {
        backends::decode_many(Backend::batch(), text, out)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; ENCODED_LEN];
        f.pad(self.encode(&mut buf))
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; ENCODED_LEN];
        f.debug_struct("Id")
            .field("text", &self.encode(&mut buf))
            .field("timestamp", &self.timestamp())
            .field("tick_tock", &self.tick_tock())
            .field("meta", &self.meta())
            .field("partition", &self.partition())
            .field("sequence", &self.sequence())
            .finish()
    }
}

impl FromStr for Id {
    type Err = Error;
    #[inline]
    fn from_str(s: &str) -> Result<Id, Error> {
        Id::decode(s.as_bytes())
    }
}

#[cfg(feature = "serde")]
impl crate::serde::TextId for crate::Id {
    const EXPECTING_TEXT: &'static str = "a 16-character sno ID string";
    const EXPECTING_BYTES: &'static str = "10 sno ID bytes";
    const BINARY_LEN: usize = crate::BINARY_LEN;
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        let mut buf = [0u8; crate::ENCODED_LEN];
        f(self.encode(&mut buf))
    }
    fn raw(&self) -> &[u8] {
        self.as_bytes()
    }
    fn parse_text(text: &[u8]) -> Result<Self, Error> {
        crate::Id::decode(text)
    }
    fn parse_raw(bytes: &[u8]) -> Result<Self, Error> {
        crate::Id::from_slice(bytes)
    }
}

#[cfg(feature = "serde")]
crate::serde::text_serde!(Id);
