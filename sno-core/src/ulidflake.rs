//! Ulid-Flake: a 64-bit ULID variant in a non-negative `i64`: 43-bit milliseconds since an epoch
//! (2024-01-01T00:00:00Z by default) and 20 bits of randomness (the stand-alone version), or 15
//! bits of randomness and a 5-bit scalability id `sid` (the scalable version).
//!
//! * Both versions share one integer and text form; a value does not say which made it, so
//!   [`UlidFlake`] offers both readings ([`randomness`](UlidFlake::randomness), and
//!   [`scalable_randomness`](UlidFlake::scalable_randomness) with [`sid`](UlidFlake::sid)).
//! * Binary: the `i64`, 8 bytes big-endian (the spec's "16 octets" is a copy-paste from ULID).
//! * Text: 13 Crockford base32 characters, upper case out, **either case in** (as the spec says;
//!   the Go reference is case-sensitive), ASCII only (Python's reference upper-cases `ß` to
//!   `SS` and accepts it). The first character is at most `7` (the top bit is padding and the
//!   next the sign); above is [`Error::ValueOverflow`] (Go wraps `G`…`Q` silently).
//! * [`Monotonic`] follows the references: a new millisecond draws fresh randomness (3 bytes
//!   masked to 20 bits; scalable: 2 bytes masked to 15); the same millisecond adds a random
//!   `n ≥ 1` (the big-endian value of `entropy_size` random bytes, 1 by default, redrawn while 0:
//!   the spec's "+n entropy"). An increment past the field is [`Error::RandomnessExhausted`] with
//!   the state unchanged (the spec's overflow error; a retry may still fit, and the blocking
//!   [`Generator::next`] retries). Where the spec is silent, a clock that went back keeps the
//!   last timestamp and increments (order preserved, like [`ulid`](crate::ulid)); the Go
//!   reference errors and the Python one breaks the order.
//!
//! ```
//! use sno_core::ulidflake::UlidFlake;
//! let id: UlidFlake = "00cmxb6tak4sa".parse()?;
//! assert_eq!(id.to_i64(), 14246757444195114);
//! assert_eq!(id.to_string(), "00CMXB6TAK4SA");
//! assert_eq!((id.timestamp(), id.randomness()), (13586766666, 627498));
//! assert_eq!((id.scalable_randomness(), id.sid()), (19609, 10));
//! assert_eq!(id.unix_ms(), 1717653966666);
//! # Ok::<(), sno_core::Error>(())
//! ```

use rand_core::RngCore;

use crate::alphabet::CROCKFORD;
use crate::bytes::millis_since;
use crate::error::Error;
use crate::id_macros::{default_from_rng, i64_id, id_traits, std_generator};
use crate::model::{EpochTime, Extras};
use crate::monotonic::MillisState;
use crate::radix;

/// Length of the text form.
pub const ENCODED_LEN: usize = 13;
/// Length of the binary form (the `i64`, big-endian).
pub const BINARY_LEN: usize = 8;
/// The default epoch, 2024-01-01T00:00:00Z, in Unix milliseconds.
pub const DEFAULT_EPOCH_MS: i64 = 1_704_067_200_000;
/// Largest timestamp (43 bits of ms since the epoch, until ≈ 2302 with the default epoch).
pub const MAX_TIMESTAMP: u64 = (1 << 43) - 1;
/// Largest randomness of the stand-alone version (20 bits).
pub const MAX_RANDOMNESS: u32 = (1 << 20) - 1;
/// Largest randomness of the scalable version (15 bits).
pub const MAX_SCALABLE_RANDOMNESS: u16 = (1 << 15) - 1;
/// Largest scalability id (5 bits).
pub const MAX_SID: u8 = 31;

/// A Ulid-Flake: a non-negative `i64`, stored big-endian so that byte order is numeric order.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct UlidFlake([u8; BINARY_LEN]);

i64_id!(UlidFlake);

impl UlidFlake {
    /// A stand-alone value from its timestamp (ms since the epoch) and 20-bit randomness.
    #[deprecated(since = "0.2.0", note = "renamed `from_fields`")]
    #[doc(hidden)]
    pub const fn from_parts(timestamp: u64, randomness: u32) -> Result<UlidFlake, Error> {
        UlidFlake::from_fields(timestamp, randomness)
    }
    #[deprecated(since = "0.2.0", note = "renamed `from_scalable_fields`")]
    #[doc(hidden)]
    pub const fn from_scalable_parts(
        timestamp: u64,
        randomness: u16,
        sid: u8,
    ) -> Result<UlidFlake, Error> {
        UlidFlake::from_scalable_fields(timestamp, randomness, sid)
    }
    #[deprecated(since = "0.2.0", note = "renamed `unix_ms`")]
    #[doc(hidden)]
    pub const fn unix_millis(&self) -> i64 {
        self.unix_ms()
    }
    #[deprecated(since = "0.2.0", note = "renamed `unix_ms_at`")]
    #[doc(hidden)]
    pub const fn unix_millis_with_epoch(&self, epoch_ms: i64) -> i64 {
        self.unix_ms_at(epoch_ms)
    }
    /// A stand-alone value from its timestamp (ms since the epoch) and 20-bit randomness.
    pub const fn from_fields(timestamp: u64, randomness: u32) -> Result<UlidFlake, Error> {
        if timestamp > MAX_TIMESTAMP {
            return Err(Error::MillisOutOfRange {
                unix_millis: DEFAULT_EPOCH_MS.saturating_add(timestamp as i64),
            });
        }
        if randomness > MAX_RANDOMNESS {
            return Err(Error::ValueOverflow);
        }
        Ok(UlidFlake(
            ((timestamp << 20) | randomness as u64).to_be_bytes(),
        ))
    }
    /// A scalable value from its timestamp, 15-bit randomness and 5-bit `sid`.
    pub const fn from_scalable_fields(
        timestamp: u64,
        randomness: u16,
        sid: u8,
    ) -> Result<UlidFlake, Error> {
        if randomness > MAX_SCALABLE_RANDOMNESS || sid > MAX_SID {
            return Err(Error::ValueOverflow);
        }
        UlidFlake::from_fields(timestamp, ((randomness as u32) << 5) | sid as u32)
    }
    /// The 43-bit timestamp: milliseconds since the epoch.
    pub const fn timestamp(&self) -> u64 {
        self.bits() >> 20
    }
    /// The low 20 bits: the randomness of a stand-alone value.
    pub const fn randomness(&self) -> u32 {
        (self.bits() as u32) & MAX_RANDOMNESS
    }
    /// Bits 5–19: the randomness of a scalable value.
    pub const fn scalable_randomness(&self) -> u16 {
        ((self.bits() >> 5) as u16) & MAX_SCALABLE_RANDOMNESS
    }
    /// The low 5 bits: the scalability id of a scalable value.
    pub const fn sid(&self) -> u8 {
        (self.bits() as u8) & MAX_SID
    }
    /// Milliseconds since 1970 with the default epoch (2024-01-01).
    pub const fn unix_ms(&self) -> i64 {
        self.unix_ms_at(DEFAULT_EPOCH_MS)
    }
    /// Milliseconds since 1970 for IDs made with another epoch (saturating).
    pub const fn unix_ms_at(&self, epoch_ms: i64) -> i64 {
        epoch_ms.saturating_add(self.timestamp() as i64)
    }
    /// Writes the canonical text: 13 upper-case Crockford base32 characters.
    #[inline]
    fn write_text(&self, buf: &mut [u8; ENCODED_LEN]) {
        *buf = radix::encode_base32(u128::from(self.bits()), &CROCKFORD);
    }
    /// Strictly decodes the text (either case; first character at most `7`).
    pub fn decode(input: &[u8]) -> Result<UlidFlake, Error> {
        radix::decode_base32::<ENCODED_LEN, 63>(input, &CROCKFORD)
            .map(|v| UlidFlake((v as u64).to_be_bytes()))
    }
}

id_traits!(
    UlidFlake,
    ENCODED_LEN,
    BINARY_LEN,
    "13-character Ulid-Flake"
);

/// How a [`Monotonic`] generator lays out its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The epoch, in Unix milliseconds (not negative).
    pub epoch_ms: i64,
    /// `None` for the stand-alone version; `Some(sid)` (0 ..= 31) for the scalable one.
    pub sid: Option<u8>,
    /// Random bytes per same-millisecond increment: 1 ..= 3 (scalable: 1 ..= 2).
    pub entropy_size: u8,
}

impl Default for Config {
    /// Stand-alone, the default epoch, 1-byte increments (as both references).
    fn default() -> Self {
        Config {
            epoch_ms: DEFAULT_EPOCH_MS,
            sid: None,
            entropy_size: 1,
        }
    }
}

/// The Ulid-Flake generator state machine (see the module docs). `&mut self`; wrap it in
/// [`Generator`] to share it between threads.
#[derive(Debug, Clone)]
pub struct Monotonic<R> {
    config: Config,
    last: Option<(u64, u32)>,
    rng: R,
}

default_from_rng!(Monotonic);

impl<R: RngCore> Monotonic<R> {
    /// A fresh stand-alone state with the default [`Config`], drawing from `rng`
    /// (`fill_bytes` only).
    pub const fn new(rng: R) -> Self {
        Monotonic {
            config: Config {
                epoch_ms: DEFAULT_EPOCH_MS,
                sid: None,
                entropy_size: 1,
            },
            last: None,
            rng,
        }
    }

    /// A fresh state with `config`: a negative epoch is [`Error::MillisOutOfRange`], a `sid`
    /// above 31 or an `entropy_size` outside its range [`Error::ValueOverflow`].
    pub fn with_config(rng: R, config: Config) -> Result<Self, Error> {
        if config.epoch_ms < 0 {
            return Err(Error::MillisOutOfRange {
                unix_millis: config.epoch_ms,
            });
        }
        let max_entropy = if config.sid.is_some() { 2 } else { 3 };
        if config.sid.is_some_and(|sid| sid > MAX_SID)
            || !(1..=max_entropy).contains(&config.entropy_size)
        {
            return Err(Error::ValueOverflow);
        }
        Ok(Monotonic {
            config,
            last: None,
            rng,
        })
    }

    /// The configuration.
    pub const fn config(&self) -> &Config {
        &self.config
    }

    /// `bytes` random bytes as a big-endian number.
    fn draw(&mut self, bytes: usize) -> u32 {
        let mut buf = [0u8; 4];
        self.rng
            .fill_bytes(crate::bytes::at_mut(&mut buf, 4 - bytes..));
        u32::from_be_bytes(buf)
    }
}

impl<R: RngCore> MillisState for Monotonic<R> {
    type Id = UlidFlake;

    fn next_at(&mut self, unix_millis: i64) -> Result<UlidFlake, Error> {
        let now = millis_since(unix_millis, self.config.epoch_ms, MAX_TIMESTAMP)?;
        let (fresh_bytes, max) = match self.config.sid {
            None => (3, MAX_RANDOMNESS),
            Some(_) => (2, u32::from(MAX_SCALABLE_RANDOMNESS)),
        };
        let (ts, randomness) = match self.last {
            // Same millisecond, or the clock went back: keep the last timestamp, add n ≥ 1.
            Some((ts, r)) if now <= ts => {
                let n = loop {
                    let n = self.draw(usize::from(self.config.entropy_size));
                    if n != 0 {
                        break n;
                    }
                };
                match r.checked_add(n).filter(|&r| r <= max) {
                    Some(r) => (ts, r),
                    None => {
                        return Err(Error::RandomnessExhausted {
                            unix_millis: (self.config.epoch_ms + ts as i64) as u64,
                        });
                    }
                }
            }
            _ => (now, self.draw(fresh_bytes) & max),
        };
        self.last = Some((ts, randomness));
        match self.config.sid {
            None => UlidFlake::from_fields(ts, randomness),
            Some(sid) => UlidFlake::from_scalable_fields(ts, randomness as u16, sid),
        }
    }

    fn reset(&mut self) {
        self.last = None;
    }

    /// The stand-alone version reseeds in a `fork()` child (its 20 random bits keep processes
    /// apart, as between any two processes). The scalable one's `sid` is the parent's, and its
    /// 15 random bits per millisecond alone would let parent and child collide under load:
    /// [`Error::Forked`] until [`Generator::repartition`] gives it a sid of the child's own.
    fn after_fork(&mut self) -> Result<(), Error> {
        match self.config.sid {
            Some(sid) => Err(Error::Forked {
                partition: u16::from(sid),
            }),
            None => {
                self.reset();
                Ok(())
            }
        }
    }
}

std_generator!(UlidFlake, "Ulid-Flake (stand-alone, default epoch)");

/// The generator of [`Setting::EpochMs`](crate::Setting::EpochMs) (default 2024-01-01),
/// [`Setting::Sid`](crate::Setting::Sid) (absent: stand-alone) and
/// [`Setting::EntropySize`](crate::Setting::EntropySize) (default 1).
#[cfg(any(feature = "std", feature = "web"))]
impl crate::HasGenerator for UlidFlake {
    type State = Monotonic<crate::rng::ThreadRng>;

    fn state(settings: &crate::GeneratorSettings) -> Result<Self::State, Error> {
        use crate::Setting;
        let sid = match settings.get(Setting::Sid) {
            None => None,
            Some(_) => Some(settings.int(
                Setting::Sid,
                (0, MAX_SID.into()),
                None,
                "must be in 0 ..= 31",
            )?),
        };
        let (max_entropy, entropy_range) = if sid.is_some() {
            (2, "must be in 1 ..= 2 for scalable values (a sid is given)")
        } else {
            (3, "must be in 1 ..= 3")
        };
        let config = Config {
            epoch_ms: settings.int(
                Setting::EpochMs,
                (0, i64::MAX),
                Some(DEFAULT_EPOCH_MS),
                "must be a Unix millisecond, not negative",
            )?,
            sid,
            entropy_size: settings.int(
                Setting::EntropySize,
                (1, max_entropy),
                Some(1),
                entropy_range,
            )?,
        };
        Monotonic::with_config(crate::rng::ThreadRng, config)
    }
}

#[cfg(feature = "std")]
impl<R: RngCore + Clone, C: crate::MillisClock> crate::monotonic::Shared<Monotonic<R>, C> {
    /// Gives the generator the scalable `sid` (0 ..= 31, else [`Error::ValueOverflow`]): in a
    /// `fork()` child this ends the [`Error::Forked`] refusal. A scalable generator keeps its
    /// last timestamp and randomness, so it never repeats its own IDs; a stand-alone one
    /// becomes scalable and starts afresh (its 20-bit randomness does not fit the scalable
    /// layout; an `entropy_size` of 3 is [`Error::ValueOverflow`] there). The caller must make
    /// sure no other live generator uses `sid`.
    ///
    /// ```
    /// use sno_core::ulidflake::{Config, Generator, Monotonic};
    /// use sno_core::rng::ThreadRng;
    /// let config = Config { sid: Some(3), ..Config::default() };
    /// let g = Generator::with_state_and_clock(Monotonic::with_config(ThreadRng, config)?, || 1_800_000_000_000);
    /// g.repartition(4)?;
    /// assert_eq!(g.try_next()?.sid(), 4);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn repartition(&self, sid: u8) -> Result<(), Error> {
        self.update_state(|s| {
            Ok(Monotonic {
                last: s.last.filter(|_| s.config.sid.is_some()),
                ..Monotonic::with_config(
                    s.rng.clone(),
                    Config {
                        sid: Some(sid),
                        ..s.config
                    },
                )?
            })
        })
    }
}

crate::model::fixed_text_format!(
    UlidFlake,
    UlidFlake,
    ENCODED_LEN,
    unix_ms = |id: &UlidFlake| Some(id.unix_ms()),
    {
        const EXTRAS: Extras<UlidFlake> = Extras {
            epoch: Some(EpochTime {
                unix_ms_at: UlidFlake::unix_ms_at,
                default_ms: Some(DEFAULT_EPOCH_MS),
            }),
            ..Extras::NONE
        };
    }
);
