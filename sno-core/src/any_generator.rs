//! [`AnyGenerator`]: the monotonic generator of any format that has one of its settings alone
//! (`generator: true` in the format table), made from [`GeneratorSettings`]; what the bindings'
//! per-format `Generator` classes are. Above every format's module: it expands the format table
//! with the types.

use core::time::Duration;
use std::boxed::Box;

use crate::any::AnyId;
use crate::clock::SystemClock;
use crate::error::Error;
use crate::format::Format;
use crate::model::{IdFormat, MAX_TEXT_LEN};
use crate::monotonic::{MillisState, Shared};
use crate::settings::{GeneratorSettings, HasGenerator};

/// What [`AnyGenerator`] asks of the generator of one format.
trait Mint: Send + Sync {
    fn try_next(&self) -> Result<AnyId, Error>;
    fn next_at(&self, unix_ms: i64) -> Result<AnyId, Error>;
    fn try_next_text(&self, buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error>;
    fn next_at_text(&self, unix_ms: i64, buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error>;
}

impl<S> Mint for Shared<S, SystemClock>
where
    S: MillisState + Clone + Send + 'static,
    S::Id: IdFormat + Into<AnyId>,
{
    fn try_next(&self) -> Result<AnyId, Error> {
        Shared::try_next(self).map(Into::into)
    }

    fn next_at(&self, unix_ms: i64) -> Result<AnyId, Error> {
        Shared::next_at_unix_ms(self, unix_ms).map(Into::into)
    }

    #[inline]
    fn try_next_text(&self, buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error> {
        Shared::try_next(self).map(|id| id.write_text(buf))
    }

    fn next_at_text(&self, unix_ms: i64, buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error> {
        Shared::next_at_unix_ms(self, unix_ms).map(|id| id.write_text(buf))
    }
}

/// A thread-safe monotonic generator of one format, made from the format and its
/// [`GeneratorSettings`]: every value greater than the one before, across threads. Its `next`
/// waits (sleeping, never spinning) through a used-up millisecond under the core's wait policy
/// ([`crate::wait`]), for at most the wait given.
///
/// ```
/// use sno_core::{AnyGenerator, Format, GeneratorSettings, Setting};
///
/// let ulids = AnyGenerator::new(Format::Ulid, &GeneratorSettings::new())?;
/// let (a, b) = (ulids.try_next()?, ulids.try_next()?);
/// assert!(a.as_slice() < b.as_slice() && a.format() == Format::Ulid);
///
/// let mut settings = GeneratorSettings::new();
/// settings.set(Setting::GeneratorId, 1024);
/// settings.set(Setting::EpochMs, 0);
/// let err = AnyGenerator::new(Format::Nanoflake, &settings).unwrap_err();
/// assert_eq!(err.to_string(), "sno: generator_id must be in 0 ..= 1023");
/// # Ok::<(), sno_core::Error>(())
/// ```
pub struct AnyGenerator {
    format: Format,
    inner: Box<dyn Mint>,
}

impl core::fmt::Debug for AnyGenerator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AnyGenerator")
            .field("format", &self.format)
            .finish_non_exhaustive()
    }
}

/// The generator of `$ty` from `$settings` where the table says it has one.
macro_rules! make_generator {
    (true, $ty:ty, $settings:ident) => {
        Ok(Box::new(Shared::<<$ty as HasGenerator>::State, SystemClock>::with_state_and_clock(
            <$ty as HasGenerator>::state($settings)?,
            $settings.system_clock(),
        )) as Box<dyn Mint>)
    };
    (false, $ty:ty, $settings:ident) => {
        Err(Error::InvalidArgument {
            name: "format",
            reason: "has no generator of its settings alone (sno: the Generator; a format with a param: new(<param>), which takes it)",
        })
    };
}

macro_rules! define_any_generator {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt,
        max_text_len: $text:tt, generator: $generator:tt $(, $fact:ident: $value:tt)* $(,)?
    }),* $(,)?) => {
        /// The generator of `format` (one arm per row of the table).
        fn make(format: Format, settings: &GeneratorSettings) -> Result<Box<dyn Mint>, Error> {
            match format {
                $(Format::$variant => make_generator!($generator, $ty, settings),)*
            }
        }
    };
}

crate::for_each_format!(define_any_generator);

impl AnyGenerator {
    /// A generator of `format` with `settings` (the format's
    /// [`settings`](Format::settings); others are not read).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a format without such a generator
    /// ([`Format::has_generator`]), a setting outside its range, or a required one missing.
    pub fn new(format: Format, settings: &GeneratorSettings) -> Result<AnyGenerator, Error> {
        Ok(AnyGenerator {
            format,
            inner: make(format, settings)?,
        })
    }

    /// The format it makes.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The next value, or an error at once where [`next`](Self::next) would wait (a used-up
    /// millisecond: [`Error::RandomnessExhausted`], with the instant to retry at).
    ///
    /// # Errors
    /// The format generator's: a used-up millisecond, a clock outside the format's range, a
    /// clock gone back where the format refuses it.
    pub fn try_next(&self) -> Result<AnyId, Error> {
        self.inner.try_next()
    }

    /// The next value; sleeps (never spins) while a retry can succeed, for at most `max_wait`
    /// in all, then returns the last error.
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    pub fn next(&self, max_wait: Duration) -> Result<AnyId, Error> {
        crate::wait::sleeping(max_wait, || self.try_next())
    }

    /// The next value for the explicit time `unix_ms` (the clock is not read).
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    pub fn next_at_unix_ms(&self, unix_ms: i64) -> Result<AnyId, Error> {
        self.inner.next_at(unix_ms)
    }

    /// The old name of [`next_at_unix_ms`](Self::next_at_unix_ms).
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    #[deprecated(since = "0.2.0", note = "renamed `next_at_unix_ms`")]
    pub fn next_at(&self, unix_ms: i64) -> Result<AnyId, Error> {
        self.next_at_unix_ms(unix_ms)
    }

    /// [`try_next`](Self::try_next)'s value as its canonical text, written into `buf` (its
    /// length returned): the bindings' string path, which makes no `AnyId`.
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    #[inline]
    pub fn try_next_text(&self, buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error> {
        self.inner.try_next_text(buf)
    }

    /// [`next`](Self::next)'s value as its canonical text, written into `buf`.
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    pub fn next_text(
        &self,
        max_wait: Duration,
        buf: &mut [u8; MAX_TEXT_LEN],
    ) -> Result<usize, Error> {
        crate::wait::sleeping(max_wait, || self.inner.try_next_text(buf))
    }

    /// [`next_at_unix_ms`](Self::next_at_unix_ms)'s value as its canonical text, written into `buf`.
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    pub fn next_at_unix_ms_text(
        &self,
        unix_ms: i64,
        buf: &mut [u8; MAX_TEXT_LEN],
    ) -> Result<usize, Error> {
        self.inner.next_at_text(unix_ms, buf)
    }

    /// The old name of [`next_at_unix_ms_text`](Self::next_at_unix_ms_text).
    ///
    /// # Errors
    /// As [`try_next`](Self::try_next).
    #[deprecated(since = "0.2.0", note = "renamed `next_at_unix_ms_text`")]
    pub fn next_at_text(&self, unix_ms: i64, buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error> {
        self.next_at_unix_ms_text(unix_ms, buf)
    }
}
