//! Nanoflakes: a Twitter-Snowflake layout in a non-negative `i64`, 41-bit milliseconds since an
//! application-chosen epoch, a 10-bit generator id and a 12-bit sequence.
//!
//! * Layout: the spec **text**'s, which is also Twitter's: `value = timestamp << 22 |
//!   generator_id << 12 | sequence`, sign bit 0. The Java, Kotlin and TypeScript references
//!   shift the timestamp by 24 instead (a bug): their IDs read here with a timestamp 4× too large;
//!   [`Nanoflake::reference_timestamp`] gives what they read.
//! * There is no default epoch; the value does not carry it, so converting to Unix time takes it
//!   ([`Nanoflake::unix_millis`]).
//! * Text: base36, lower case, without padding (as the Java reference's `withRadix(36)`), e.g.
//!   `jnxxr658jlkw`; [`Nanoflake::encode_padded`] gives the 13-digit form that sorts as text.
//!   Decoding is strict: 1 to 13 ASCII characters of `[0-9a-zA-Z]` (leading zeros allowed), at
//!   most `1y2p0ij32e8e7` (2^63 − 1); no sign, whitespace, prefix or non-ASCII digit (Java's
//!   `Long.parseLong` accepts all of those).
//! * [`Monotonic`] follows the spec's steps: a new millisecond starts the sequence at 0 (as the
//!   Java reference; 4096 IDs per ms), the same millisecond increments it; an exhausted sequence
//!   is [`Error::RandomnessExhausted`] and a clock that went back is [`Error::ClockRollback`],
//!   both leaving the state unchanged (the spec's "throw"; the blocking [`Generator::next`]
//!   "waits": until the next millisecond, or up to
//!   [`MAX_ROLLBACK_WAIT_MS`](crate::monotonic::MAX_ROLLBACK_WAIT_MS) for the clock to catch up).
//!   A clock before the epoch or 2^41 ms after it is [`Error::MillisOutOfRange`]. IDs are unique
//!   only across generators with distinct ids and one epoch: that is the application's job.
//!
//! ```
//! use sno_core::nanoflake::Nanoflake;
//! let id: Nanoflake = "jnxxr658jlkw".parse()?;
//! assert_eq!(id.to_i64(), 2588350721531334656);
//! assert_eq!((id.timestamp(), id.generator_id(), id.sequence()), (617110901244, 5, 0));
//! assert_eq!(id.unix_ms_at(1_640_995_200_000), 2_258_106_101_244);
//! assert_eq!(&id.encode_padded(), b"0jnxxr658jlkw");
//! # Ok::<(), sno_core::Error>(())
//! ```

use crate::alphabet::BASE36;
use crate::bytes::millis_since;
use crate::error::Error;
use crate::id_macros::{i64_id, id_traits};
use crate::model::{EpochTime, Extras, Number, TextForm, put};
use crate::monotonic::MillisState;
use crate::radix;

/// The longest text form (13 base36 digits).
pub const MAX_ENCODED_LEN: usize = 13;
/// Length of the binary form (the `i64`, big-endian).
pub const BINARY_LEN: usize = 8;
/// Largest timestamp field (41 bits of ms since the epoch, ≈ 69.7 years).
pub const MAX_TIMESTAMP: u64 = (1 << 41) - 1;
/// Largest generator id (10 bits).
pub const MAX_GENERATOR_ID: u16 = 1023;
/// Largest sequence (12 bits).
pub const MAX_SEQUENCE: u16 = 4095;

/// A Nanoflake: a non-negative `i64`, stored big-endian so that byte order is numeric order.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Nanoflake([u8; BINARY_LEN]);

i64_id!(Nanoflake);

impl Nanoflake {
    /// From the fields; any above its width is an error.
    pub const fn from_fields(
        timestamp: u64,
        generator_id: u16,
        sequence: u16,
    ) -> Result<Nanoflake, Error> {
        if timestamp > MAX_TIMESTAMP {
            return Err(Error::MillisOutOfRange {
                unix_millis: timestamp as i64,
            });
        }
        if generator_id > MAX_GENERATOR_ID || sequence > MAX_SEQUENCE {
            return Err(Error::ValueOverflow);
        }
        let v = (timestamp << 22) | ((generator_id as u64) << 12) | sequence as u64;
        Ok(Nanoflake(v.to_be_bytes()))
    }
    /// The 41-bit timestamp field: milliseconds since the application's epoch.
    pub const fn timestamp(&self) -> u64 {
        self.bits() >> 22
    }
    /// The 10-bit generator id.
    pub const fn generator_id(&self) -> u16 {
        ((self.bits() >> 12) & MAX_GENERATOR_ID as u64) as u16
    }
    /// The 12-bit sequence.
    pub const fn sequence(&self) -> u16 {
        (self.bits() & MAX_SEQUENCE as u64) as u16
    }
    /// Milliseconds since 1970, given the epoch the ID was made with (saturating).
    pub const fn unix_ms_at(&self, epoch_ms: i64) -> i64 {
        epoch_ms.saturating_add(self.timestamp() as i64)
    }
    #[deprecated(since = "0.2.0", note = "renamed `unix_ms_at`")]
    #[doc(hidden)]
    pub const fn unix_millis(&self, epoch_ms: i64) -> i64 {
        self.unix_ms_at(epoch_ms)
    }
    /// The timestamp as the Java, Kotlin and TypeScript references read it (`value >> 24`, their
    /// layout bug): to read IDs they generated, add this to the epoch instead of
    /// [`timestamp`](Self::timestamp).
    pub const fn reference_timestamp(&self) -> u64 {
        self.bits() >> 24
    }
    /// Writes the canonical text (base36, lower case, no padding) into `buf` and returns it.
    pub fn encode<'a>(&self, buf: &'a mut [u8; MAX_ENCODED_LEN]) -> &'a str {
        let start;
        (*buf, start) = radix::encode_base36_u64(self.bits(), &BASE36);
        // SAFETY: the base36 alphabet is ASCII (asserted by `Alphabet::new` at compile time).
        unsafe { core::str::from_utf8_unchecked(crate::bytes::at(buf, start..)) }
    }
    /// The 13-digit zero-padded text, which sorts like the values.
    pub fn encode_padded(&self) -> [u8; MAX_ENCODED_LEN] {
        radix::encode_base36_u64(self.bits(), &BASE36).0
    }
    /// Strictly decodes 1 to 13 base36 digits (either case, leading zeros allowed), at most
    /// 2^63 − 1.
    pub fn decode(input: &[u8]) -> Result<Nanoflake, Error> {
        radix::decode_base36_u64(input, i64::MAX as u64, &BASE36)
            .map(|v| Nanoflake(v.to_be_bytes()))
    }
}

id_traits!(
    Nanoflake,
    MAX_ENCODED_LEN,
    BINARY_LEN,
    "base36 Nanoflake",
    custom_encode
);

/// The Nanoflakes generator state machine (see the module docs). `&mut self`, no randomness;
/// wrap it in [`Generator`] to share it between threads.
#[derive(Debug, Clone)]
pub struct Monotonic {
    epoch_ms: i64,
    generator_id: u16,
    last: Option<(u64, u16)>,
}

impl Monotonic {
    /// A fresh state for `generator_id` (0 ..= 1023, else [`Error::ValueOverflow`]) counting
    /// from `epoch_ms` (Unix milliseconds, not negative (else [`Error::MillisOutOfRange`]),
    /// shared by every generator of the application).
    pub const fn new(epoch_ms: i64, generator_id: u16) -> Result<Monotonic, Error> {
        if epoch_ms < 0 {
            return Err(Error::MillisOutOfRange {
                unix_millis: epoch_ms,
            });
        }
        if generator_id > MAX_GENERATOR_ID {
            return Err(Error::ValueOverflow);
        }
        Ok(Monotonic {
            epoch_ms,
            generator_id,
            last: None,
        })
    }
    /// The epoch, in Unix milliseconds.
    pub const fn epoch_ms(&self) -> i64 {
        self.epoch_ms
    }
    /// The generator id.
    pub const fn generator_id(&self) -> u16 {
        self.generator_id
    }
}

impl MillisState for Monotonic {
    type Id = Nanoflake;

    fn next_at(&mut self, unix_millis: i64) -> Result<Nanoflake, Error> {
        let now = millis_since(unix_millis, self.epoch_ms, MAX_TIMESTAMP)?;
        let sequence = match self.last {
            Some((ts, seq)) if now == ts => {
                if seq == MAX_SEQUENCE {
                    return Err(Error::RandomnessExhausted {
                        unix_millis: unix_millis as u64,
                    });
                }
                seq + 1
            }
            Some((ts, _)) if now < ts => {
                return Err(Error::ClockRollback {
                    last_unix_millis: self.epoch_ms.saturating_add(ts as i64) as u64,
                    unix_millis: unix_millis as u64,
                });
            }
            _ => 0,
        };
        self.last = Some((now, sequence));
        Nanoflake::from_fields(now, self.generator_id, sequence)
    }

    /// Forgets the last timestamp.
    fn reset(&mut self) {
        self.last = None;
    }

    /// In a `fork()` child the generator id is the parent's, so nothing keeps the child's IDs
    /// apart from the parent's: [`Error::Forked`] until the generator gets a state with an id
    /// of the child's own ([`Shared::replace_state`](crate::monotonic::Shared::replace_state)).
    fn after_fork(&mut self) -> Result<(), Error> {
        Err(Error::Forked {
            partition: self.generator_id,
        })
    }

    /// Nanoflakes draw no randomness.
    fn may_draw_thread_rng(&self) -> bool {
        false
    }
}

/// A thread-safe Nanoflakes generator (a [`Monotonic`] on a clock; `Generator::new(state)` for
/// the system clock).
#[cfg(feature = "std")]
pub type Generator<C = crate::SystemClock> = crate::monotonic::Shared<Monotonic, C>;

#[cfg(feature = "std")]
impl<C: crate::MillisClock> Generator<C> {
    /// Gives the generator another generator id (0 ..= 1023, else [`Error::ValueOverflow`]),
    /// keeping its last timestamp and sequence, so it never repeats its own IDs: in a `fork()`
    /// child this ends the [`Error::Forked`] refusal. The caller must make sure no other live
    /// generator uses `generator_id`.
    ///
    /// ```
    /// use sno_core::nanoflake::{Generator, Monotonic};
    /// let g = Generator::with_state_and_clock(Monotonic::new(0, 1)?, || 1_000);
    /// g.repartition(2)?;
    /// assert_eq!(g.try_next()?.generator_id(), 2);
    /// assert!(g.repartition(1024).is_err());
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn repartition(&self, generator_id: u16) -> Result<(), Error> {
        self.update_state(|s| {
            Ok(Monotonic {
                last: s.last,
                ..Monotonic::new(s.epoch_ms, generator_id)?
            })
        })
    }
}

impl crate::model::IdFormat for Nanoflake {
    const FORMAT: crate::model::Format = crate::model::Format::Nanoflake;
    const EXTRAS: Extras<Nanoflake> = Extras {
        texts: &[TextForm::new(
            "padded",
            MAX_ENCODED_LEN,
            "the 13-digit zero-padded text, which sorts like the values",
            |id, buf| put(buf, &id.encode_padded()),
        )],
        numbers: &[Number {
            name: "reference_timestamp_ms",
            doc: crate::describe::described(
                "`value >> 24`: the timestamp as the Java, Kotlin and TypeScript references read it (their layout bug)",
            ),
            read: Nanoflake::reference_timestamp,
        }],
        epoch: Some(EpochTime {
            unix_ms_at: Nanoflake::unix_ms_at,
            default_ms: None,
        }),
        ..Extras::NONE
    };
    fn decode(text: &[u8]) -> Result<Self, Error> {
        Nanoflake::decode(text)
    }
    fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        Nanoflake::from_slice(bytes)
    }
    fn as_slice(&self) -> &[u8] {
        self.as_bytes()
    }
    fn write_text(&self, buf: &mut [u8; crate::model::MAX_TEXT_LEN]) -> usize {
        let mut text = [0u8; MAX_ENCODED_LEN];
        put(buf, self.encode(&mut text).as_bytes())
    }
    /// `None`: a Nanoflake does not carry its epoch ([`Nanoflake::unix_ms_at`] takes it).
    fn unix_ms(&self) -> Option<i64> {
        None
    }
}

/// The generator of [`Setting::EpochMs`](crate::Setting::EpochMs) and
/// [`Setting::GeneratorId`](crate::Setting::GeneratorId), both required.
#[cfg(any(feature = "std", feature = "web"))]
impl crate::HasGenerator for Nanoflake {
    type State = Monotonic;

    fn state(settings: &crate::GeneratorSettings) -> Result<Self::State, Error> {
        use crate::Setting;
        Monotonic::new(
            settings.int(
                Setting::EpochMs,
                (0, i64::MAX),
                None,
                "must be a Unix millisecond, not negative",
            )?,
            settings.int(
                Setting::GeneratorId,
                (0, MAX_GENERATOR_ID.into()),
                None,
                "must be in 0 ..= 1023",
            )?,
        )
    }
}
