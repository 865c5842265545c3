//! Time constants and conversions between Unix time and sno time units.
//!
//! A sno timestamp counts 4 ms units since 2010-01-01T00:00:00Z in 39 bits, so the last
//! representable unit starts at 2079-09-07T15:47:35.548Z.

/// 2010-01-01T00:00:00Z in seconds since the Unix epoch.
pub const EPOCH_UNIX_SECS: i64 = 1_262_304_000;
/// 2010-01-01T00:00:00Z in nanoseconds since the Unix epoch.
pub const EPOCH_UNIX_NANOS: i64 = EPOCH_UNIX_SECS * 1_000_000_000;
/// Length of one time unit in nanoseconds (4 ms).
pub const UNIT_NANOS: i64 = 4_000_000;
/// Time units per second.
pub const UNITS_PER_SEC: i64 = 250;
/// The largest timestamp, in units: 2^39 − 1.
pub const MAX_TIMESTAMP: u64 = (1 << 39) - 1;
/// The last nanosecond (Unix time) that still falls into [`MAX_TIMESTAMP`].
pub const MAX_UNIX_NANOS: i64 = EPOCH_UNIX_NANOS + (MAX_TIMESTAMP as i64 + 1) * UNIT_NANOS - 1;

/// Unix nanoseconds of the start of time unit `units`.
///
/// ```
/// assert_eq!(sno_core::time::units_to_unix_nanos(0), 1_262_304_000_000_000_000);
/// ```
#[inline]
pub const fn units_to_unix_nanos(units: u64) -> i64 {
    EPOCH_UNIX_NANOS + (units & MAX_TIMESTAMP) as i64 * UNIT_NANOS
}

/// The time unit holding Unix nanosecond `unix_nanos` (floored), or `None` outside
/// 2010-01-01 ..= 2079-09-07T15:47:35.551999999Z.
///
/// ```
/// use sno_core::time::{unix_nanos_to_units, MAX_UNIX_NANOS, MAX_TIMESTAMP};
/// assert_eq!(unix_nanos_to_units(1_262_304_000_004_000_000), Some(1));
/// assert_eq!(unix_nanos_to_units(MAX_UNIX_NANOS), Some(MAX_TIMESTAMP));
/// assert_eq!(unix_nanos_to_units(MAX_UNIX_NANOS + 1), None);
/// assert_eq!(unix_nanos_to_units(0), None);
/// ```
#[inline]
pub const fn unix_nanos_to_units(unix_nanos: i64) -> Option<u64> {
    if unix_nanos < EPOCH_UNIX_NANOS || unix_nanos > MAX_UNIX_NANOS {
        return None;
    }
    Some(((unix_nanos - EPOCH_UNIX_NANOS) / UNIT_NANOS) as u64)
}

/// Time units (floored, possibly negative or above [`MAX_TIMESTAMP`]) of a Unix time given as
/// seconds and nanoseconds, the shape in which operating systems report the clock.
#[inline]
pub const fn units_from_secs_nanos(secs: i64, nanos: u32) -> i64 {
    (secs - EPOCH_UNIX_SECS) * UNITS_PER_SEC + (nanos as i64) / UNIT_NANOS
}
