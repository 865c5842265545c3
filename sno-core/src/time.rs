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

/// The longest a blocking call of any generator sleeps in all, and how far ahead of the clock
/// a restored sno snapshot may reach, unless
/// [`GeneratorBuilder::max_wait`](crate::GeneratorBuilder::max_wait) says otherwise: 5 s
/// (1 250 units).
pub const DEFAULT_MAX_WAIT: core::time::Duration = core::time::Duration::from_secs(5);

/// Unix nanoseconds of the start of time unit `units`.
///
/// ```
/// assert_eq!(sno_core::time::units_to_unix_ns(0), 1_262_304_000_000_000_000);
/// ```
#[inline]
pub const fn units_to_unix_ns(units: u64) -> i64 {
    EPOCH_UNIX_NANOS + (units & MAX_TIMESTAMP) as i64 * UNIT_NANOS
}

/// The old name of [`units_to_unix_ns`].
#[deprecated(since = "0.2.0", note = "renamed `units_to_unix_ns`")]
pub const fn units_to_unix_nanos(units: u64) -> i64 {
    units_to_unix_ns(units)
}

/// The time unit holding Unix nanosecond `unix_ns` (floored), or `None` outside
/// 2010-01-01 ..= 2079-09-07T15:47:35.551999999Z.
///
/// ```
/// use sno_core::time::{unix_ns_to_units, MAX_UNIX_NANOS, MAX_TIMESTAMP};
/// assert_eq!(unix_ns_to_units(1_262_304_000_004_000_000), Some(1));
/// assert_eq!(unix_ns_to_units(MAX_UNIX_NANOS), Some(MAX_TIMESTAMP));
/// assert_eq!(unix_ns_to_units(MAX_UNIX_NANOS + 1), None);
/// assert_eq!(unix_ns_to_units(0), None);
/// ```
#[inline]
pub const fn unix_ns_to_units(unix_ns: i64) -> Option<u64> {
    if unix_ns < EPOCH_UNIX_NANOS || unix_ns > MAX_UNIX_NANOS {
        return None;
    }
    Some(((unix_ns - EPOCH_UNIX_NANOS) / UNIT_NANOS) as u64)
}

/// The old name of [`unix_ns_to_units`].
#[deprecated(since = "0.2.0", note = "renamed `unix_ns_to_units`")]
pub const fn unix_nanos_to_units(unix_nanos: i64) -> Option<u64> {
    unix_ns_to_units(unix_nanos)
}

/// Time units (floored, possibly negative or above [`MAX_TIMESTAMP`]) of a Unix time given as
/// seconds and nanoseconds, the shape in which operating systems report the clock.
#[inline]
pub const fn units_from_secs_nanos(secs: i64, nanos: u32) -> i64 {
    (secs - EPOCH_UNIX_SECS) * UNITS_PER_SEC + (nanos as i64) / UNIT_NANOS
}

/// Length of [`format_utc`]'s output: `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub const UTC_LEN: usize = 24;

/// Writes a Unix time (nanoseconds, years 1970..=9999) as ISO 8601 UTC with millisecond
/// precision (floored) into `buf`, without allocating.
///
/// ```
/// let mut buf = [0u8; sno_core::time::UTC_LEN];
/// assert_eq!(sno_core::time::format_utc(1_936_047_814_976_000_000, &mut buf), "2031-05-08T23:03:34.976Z");
/// ```
pub fn format_utc(unix_ns: i64, buf: &mut [u8; UTC_LEN]) -> &str {
    write_utc(unix_ns.div_euclid(1_000_000), buf)
}

/// The last millisecond ISO 8601's four-digit year can write: 9999-12-31T23:59:59.999Z.
pub const MAX_UTC_MILLIS: i64 = 253_402_300_799_999;

/// [`format_utc`] for Unix milliseconds, the unit of the millisecond formats, whose timestamps
/// reach past the `i64` nanosecond range (2262): `None` outside `0 ..= MAX_UTC_MILLIS` (years
/// 1970..=9999, what ISO 8601's four-digit year can write).
///
/// ```
/// let mut buf = [0u8; sno_core::time::UTC_LEN];
/// assert_eq!(sno_core::time::format_utc_millis(253_402_300_799_999, &mut buf), Some("9999-12-31T23:59:59.999Z"));
/// assert_eq!(sno_core::time::format_utc_millis(253_402_300_800_000, &mut buf), None);
/// ```
pub fn format_utc_millis(millis: i64, buf: &mut [u8; UTC_LEN]) -> Option<&str> {
    (0..=MAX_UTC_MILLIS)
        .contains(&millis)
        .then(|| write_utc(millis, buf))
}

/// Writes Unix milliseconds as ISO 8601 UTC (no range check: the callers give years
/// 1970..=9999).
fn write_utc(millis: i64, buf: &mut [u8; UTC_LEN]) -> &str {
    let secs = millis.div_euclid(1000);
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    let fields: [(usize, i64, usize); 7] = [
        (0, y, 4),
        (5, mo, 2),
        (8, d, 2),
        (11, sod / 3600, 2),
        (14, sod % 3600 / 60, 2),
        (17, sod % 60, 2),
        (20, millis.rem_euclid(1000), 3),
    ];
    *buf = *b"0000-00-00T00:00:00.000Z";
    for (at, mut value, width) in fields {
        for i in (0..width).rev() {
            buf[at + i] = b'0' + (value % 10) as u8;
            value /= 10;
        }
    }
    // SAFETY: the template and every digit written are ASCII.
    unsafe { core::str::from_utf8_unchecked(buf) }
}

/// (year, month, day) of a day count since 1970-01-01 (Howard Hinnant's algorithm).
const fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}
