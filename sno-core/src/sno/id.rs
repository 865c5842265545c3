//! The [`Id`] value type: 10 bytes and their fields (the text form is in `text`).

use crate::error::Error;
use crate::time::{MAX_TIMESTAMP, units_to_unix_ns};

/// Length of the binary form in bytes.
pub const BINARY_LEN: usize = 10;
/// Length of the canonical text form in bytes.
pub const ENCODED_LEN: usize = 16;

/// A sno ID: 10 bytes, big-endian fields.
///
/// ```text
/// byte  0        1        2        3        4        5        6    7    8    9
///      [ 39-bit time units (4 ms since 2010) + tick][meta ][partition][sequence]
/// ```
///
/// `Ord` and `Hash` work on the bytes, so IDs sort by time units, then tick-tock bit, meta,
/// partition and sequence; the text form sorts the same way.
///
/// ```
/// use sno_core::Id;
/// let id: Id = "brpk4q72xwf2m63l".parse()?;
/// assert_eq!(id.to_bytes(), [0x4e, 0x6f, 0x21, 0x60, 0xa0, 0xff, 0x9a, 0x0a, 0x10, 0x33]);
/// assert_eq!(id.timestamp(), 168_435_953_744);
/// assert_eq!((id.meta(), id.partition(), id.sequence()), (255, 39434, 4147));
/// # Ok::<(), sno_core::Error>(())
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Id(pub(super) [u8; BINARY_LEN]);

impl Id {
    /// The zero ID (`2222222222222222`).
    pub const ZERO: Id = Id([0; BINARY_LEN]);
    /// The largest ID (`xxxxxxxxxxxxxxxx`).
    pub const MAX: Id = Id([0xff; BINARY_LEN]);

    /// Wraps 10 raw bytes. Every byte string is a valid ID.
    #[inline]
    pub const fn from_bytes(bytes: [u8; BINARY_LEN]) -> Id {
        Id(bytes)
    }

    /// Builds an ID from its fields; `timestamp` is in 4 ms units since 2010 and must not exceed
    /// [`MAX_TIMESTAMP`] (2^39 − 1).
    ///
    /// ```
    /// use sno_core::{Error, Id};
    /// let id = Id::from_fields(1, true, 2, 3, 4)?;
    /// assert_eq!((id.timestamp(), id.tick_tock(), id.meta(), id.partition(), id.sequence()), (1, true, 2, 3, 4));
    /// assert_eq!(Id::from_fields(1 << 39, false, 0, 0, 0), Err(Error::TimestampOverflow { units: 1 << 39 }));
    /// # Ok::<(), Error>(())
    /// ```
    pub const fn from_fields(
        timestamp: u64,
        tick_tock: bool,
        meta: u8,
        partition: u16,
        sequence: u16,
    ) -> Result<Id, Error> {
        if timestamp > MAX_TIMESTAMP {
            return Err(Error::TimestampOverflow { units: timestamp });
        }
        Ok(Id::compose(timestamp, tick_tock, meta, partition, sequence))
    }

    /// Builds an ID from fields already known to be in range (the generator's hot path).
    #[inline(always)]
    pub(crate) const fn compose(
        timestamp: u64,
        tick_tock: bool,
        meta: u8,
        partition: u16,
        sequence: u16,
    ) -> Id {
        let head =
            (timestamp << 25) | (tick_tock as u64) << 24 | (meta as u64) << 16 | partition as u64;
        // Two stores, 8 + 2 bytes. Assembled byte by byte, the compiler splits the head into
        // partial stores around constant fields (meta 0), and reading the ID back as one word
        // then stalls store forwarding (measured: scripts/bench-notes.md, "Two stores in
        // `Id::compose`").
        #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
        {
            let mut out = [0u8; BINARY_LEN];
            let (h, s) = out.split_at_mut(8);
            h.copy_from_slice(&head.to_be_bytes());
            s.copy_from_slice(&sequence.to_be_bytes());
            Id(out)
        }
        // The web build (bindings/web): the same bytes, without the slices' length checks,
        // whose panics' messages would be in its modules (docs/wasm.md, "Sizes").
        #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
        {
            let mut out = [0u8; BINARY_LEN];
            if let Some((h, rest)) = out.split_first_chunk_mut::<8>() {
                *h = head.to_be_bytes();
                if let Some(s) = rest.first_chunk_mut::<2>() {
                    *s = sequence.to_be_bytes();
                }
            }
            Id(out)
        }
    }

    /// The 10 bytes.
    #[inline]
    pub const fn to_bytes(self) -> [u8; BINARY_LEN] {
        self.0
    }

    /// A reference to the 10 bytes.
    #[inline]
    pub const fn as_bytes(&self) -> &[u8; BINARY_LEN] {
        &self.0
    }

    /// The timestamp in 4 ms units since 2010-01-01T00:00:00Z (39 bits).
    #[inline]
    pub const fn timestamp(&self) -> u64 {
        u64::from_be_bytes([
            0, 0, 0, self.0[0], self.0[1], self.0[2], self.0[3], self.0[4],
        ]) >> 1
    }

    /// The tick-tock bit: flips each time the generator survives a clock regression.
    #[inline]
    pub const fn tick_tock(&self) -> bool {
        self.0[4] & 1 == 1
    }

    /// The start of the timestamp's 4 ms unit, in nanoseconds since the Unix epoch.
    #[inline]
    pub const fn unix_ns(&self) -> i64 {
        units_to_unix_ns(self.timestamp())
    }

    /// The old name of [`unix_ns`](Self::unix_ns).
    #[deprecated(since = "0.2.0", note = "renamed `unix_ns`")]
    pub const fn unix_nanos(&self) -> i64 {
        self.unix_ns()
    }

    /// The start of the timestamp's 4 ms unit, in milliseconds since the Unix epoch.
    #[inline]
    pub const fn unix_ms(&self) -> i64 {
        self.unix_ns() / 1_000_000
    }

    /// The start of the timestamp's 4 ms unit as a [`SystemTime`](std::time::SystemTime).
    #[cfg(feature = "std")]
    pub fn system_time(&self) -> std::time::SystemTime {
        std::time::UNIX_EPOCH + core::time::Duration::from_nanos(self.unix_ns() as u64)
    }

    /// The meta byte, free for the caller.
    #[inline]
    pub const fn meta(&self) -> u8 {
        self.0[5]
    }

    /// The partition as a big-endian `u16`.
    #[inline]
    pub const fn partition(&self) -> u16 {
        u16::from_be_bytes([self.0[6], self.0[7]])
    }

    /// The partition's two bytes.
    #[inline]
    pub const fn partition_bytes(&self) -> [u8; 2] {
        [self.0[6], self.0[7]]
    }

    /// The sequence number.
    #[inline]
    pub const fn sequence(&self) -> u16 {
        u16::from_be_bytes([self.0[8], self.0[9]])
    }

    /// Whether every byte is zero.
    #[inline]
    pub const fn is_zero(&self) -> bool {
        u64::from_ne_bytes([
            self.0[0], self.0[1], self.0[2], self.0[3], self.0[4], self.0[5], self.0[6], self.0[7],
        ]) == 0
            && self.0[8] == 0
            && self.0[9] == 0
    }

    /// Decodes the 10-byte binary form.
    #[inline]
    pub fn from_slice(bytes: &[u8]) -> Result<Id, Error> {
        <[u8; BINARY_LEN]>::try_from(bytes)
            .map(Id)
            .map_err(|_| Error::InvalidLength {
                expected: BINARY_LEN,
                actual: bytes.len(),
            })
    }
}

impl TryFrom<&[u8]> for Id {
    type Error = Error;
    /// The 10-byte **binary** form; use [`Id::decode`] for text.
    #[inline]
    fn try_from(bytes: &[u8]) -> Result<Id, Error> {
        Id::from_slice(bytes)
    }
}

impl From<[u8; BINARY_LEN]> for Id {
    #[inline]
    fn from(bytes: [u8; BINARY_LEN]) -> Id {
        Id(bytes)
    }
}

impl From<Id> for [u8; BINARY_LEN] {
    #[inline]
    fn from(id: Id) -> [u8; BINARY_LEN] {
        id.0
    }
}

impl AsRef<[u8]> for Id {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

crate::model::fixed_text_format!(
    Id,
    Sno,
    ENCODED_LEN,
    unix_ms = |id: &Id| Some(id.unix_ms()),
    {}
);

impl Id {
    #[deprecated(since = "0.2.0", note = "renamed `from_fields`")]
    #[doc(hidden)]
    pub const fn from_parts(
        timestamp: u64,
        tick_tock: bool,
        meta: u8,
        partition: u16,
        sequence: u16,
    ) -> Result<Id, Error> {
        Id::from_fields(timestamp, tick_tock, meta, partition, sequence)
    }

    #[deprecated(since = "0.2.0", note = "renamed `unix_ms`")]
    #[doc(hidden)]
    pub const fn unix_millis(&self) -> i64 {
        self.unix_ms()
    }

    /// For an error of [`Id::decode_many`], the index of the ID it is about (an invalid byte
    /// at `position` of the text is in ID `position / 16`); `None` for other errors.
    ///
    /// ```
    /// use sno_core::{Error, Id};
    /// let mut ids = [Id::ZERO; 2];
    /// let err = Id::decode_many(b"xxxxxxxxxxxxxxxx22222222222z2222", &mut ids).unwrap_err();
    /// assert_eq!(Id::batch_index(&err), Some(1));
    /// ```
    pub const fn batch_index(error: &Error) -> Option<usize> {
        match *error {
            Error::InvalidByte { position, .. } => Some(position / ENCODED_LEN),
            _ => None,
        }
    }
}
