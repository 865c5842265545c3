//! What an error carries beside its message ([`Error::details`]): the facts every binding sets
//! on its error object, said once here, each under its name in each binding's case (Python
//! `.retry_at_unix_ns`, JavaScript `.retryAtUnixNs`).

use crate::error::Error;

/// A detail's value ([`Error::details`]).
///
/// ```
/// use sno_core::{DetailValue, Error};
/// let e = Error::BatchTooLarge { requested: -1, max: 16_777_216 };
/// let max = e.details().iter().next().expect("the largest count");
/// assert_eq!(max.value, DetailValue::Uint(16_777_216));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DetailValue<'a> {
    /// A position, a byte, a partition, a count.
    Uint(u64),
    /// A Unix time in nanoseconds.
    UnixNs(i64),
    /// A name.
    Text(&'a str),
    /// Known to be absent (Python `None`, JavaScript `null`): no retry can ever succeed.
    Absent,
}

/// One detail of an error ([`Error::details`]): its name in each language's case, and its value.
///
/// ```
/// use sno_core::{Detail, DetailValue, Error};
/// let e = Error::Forked { partition: 7 };
/// let details: Vec<Detail> = e.details().iter().collect();
/// assert_eq!(details, [Detail::word("partition", DetailValue::Uint(7))]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detail<'a> {
    /// Its name in snake case (Python's attribute, Rust's).
    pub name: &'static str,
    /// Its name in camel case (JavaScript's property).
    pub js_name: &'static str,
    /// Its value.
    pub value: DetailValue<'a>,
}

impl<'a> Detail<'a> {
    /// The detail `name` (written in JavaScript as `js_name`) of `value`.
    ///
    /// ```
    /// use sno_core::{Detail, DetailValue};
    /// let d = Detail::new("retry_at_unix_ns", "retryAtUnixNs", DetailValue::Absent);
    /// assert_eq!((d.name, d.js_name), ("retry_at_unix_ns", "retryAtUnixNs"));
    /// ```
    pub const fn new(name: &'static str, js_name: &'static str, value: DetailValue<'a>) -> Self {
        Detail {
            name,
            js_name,
            value,
        }
    }

    /// A detail whose name is one word, the same in every case.
    ///
    /// ```
    /// use sno_core::{Detail, DetailValue};
    /// let d = Detail::word("max", DetailValue::Uint(3));
    /// assert_eq!((d.name, d.js_name), ("max", "max"));
    /// ```
    pub const fn word(name: &'static str, value: DetailValue<'a>) -> Self {
        Detail::new(name, name, value)
    }
}

impl Error {
    /// What the error carries beside its message, for the bindings' error objects:
    ///
    /// - `position` and `byte`: where a decode failed and the byte at fault (for a wrong
    ///   length, `position` alone: the length given; neither for a value wrong as a whole,
    ///   such as one above the format's maximum);
    /// - `max`: the largest count a batch takes;
    /// - `partition`: the partition concerned (a forked generator's, a lease's);
    /// - `variable`: the environment variable at fault;
    /// - `retry_at_unix_ns` (`retryAtUnixNs`): for a [retryable](Self::is_retryable) error,
    ///   when a retry can succeed ([`retry_at_unix_ns`](Self::retry_at_unix_ns); absent: never).
    ///
    /// ```
    /// use sno_core::{DetailValue, Error};
    /// let e = Error::InvalidByte { position: 3, byte: b'!' };
    /// let details: Vec<_> = e.details().iter().map(|d| (d.name, d.value)).collect();
    /// assert_eq!(details, [("position", DetailValue::Uint(3)), ("byte", DetailValue::Uint(33))]);
    /// assert_eq!(Error::ValueOverflow.details().iter().count(), 0); // the whole value is at fault
    /// // The sno range's last 4 ms unit used up: no retry can ever succeed.
    /// let e = Error::SequenceExhausted { retry_at: 1 << 39 };
    /// let retry = e.details().iter().next().expect("a retry time");
    /// assert_eq!((retry.js_name, retry.value), ("retryAtUnixNs", DetailValue::Absent));
    /// ```
    pub fn details(&self) -> Details {
        let mut details = Details([None; 3]);
        let mut at = 0;
        self.for_each_detail(|detail| {
            debug_assert!(at < details.0.len(), "more details than `Details` holds");
            if let Some(slot) = details.0.get_mut(at) {
                *slot = Some(detail);
                at += 1;
            }
        });
        details
    }

    /// Calls `f` with each of the error's [`details`](Self::details), in order: the same
    /// details without a collection (what a build that counts its bytes uses, such as the web
    /// build's modules).
    ///
    /// ```
    /// use sno_core::Error;
    /// let mut names = Vec::new();
    /// Error::InvalidByte { position: 0, byte: b'!' }.for_each_detail(|d| names.push(d.js_name));
    /// assert_eq!(names, ["position", "byte"]);
    /// ```
    #[inline]
    pub fn for_each_detail(&self, mut f: impl FnMut(Detail<'static>)) {
        let uint = |name, n: u64| Detail::word(name, DetailValue::Uint(n));
        match *self {
            Error::InvalidByte { position, byte } => {
                f(uint("position", position as u64));
                f(uint("byte", byte.into()));
            }
            Error::InvalidLength { actual, .. } => f(uint("position", actual as u64)),
            Error::BatchTooLarge { max, .. } => f(uint("max", max)),
            Error::Forked { partition }
            | Error::LeaseExpired { partition }
            | Error::LeasePending { partition, .. } => f(uint("partition", partition.into())),
            Error::InvalidEnvironment { variable, .. } => {
                f(Detail::word("variable", DetailValue::Text(variable)))
            }
            _ => {}
        }
        if self.is_retryable() {
            let at = self.retry_at_unix_ns();
            let value = at.map_or(DetailValue::Absent, DetailValue::UnixNs);
            f(Detail::new("retry_at_unix_ns", "retryAtUnixNs", value));
        }
    }
}

/// An error's details ([`Error::details`]), at most three.
///
/// ```
/// use sno_core::Error;
/// let details = Error::LeasePending { partition: 1, retry_at: 2 }.details();
/// assert_eq!(details.iter().map(|d| d.name).collect::<Vec<_>>(), ["partition", "retry_at_unix_ns"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Details([Option<Detail<'static>>; 3]);

impl Details {
    /// The details, in order.
    ///
    /// ```
    /// assert_eq!(sno_core::Error::ValueOverflow.details().iter().count(), 0);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Detail<'static>> + '_ {
        self.0.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_pending_error_has_its_partition_and_retry_time() {
        let e = Error::LeasePending {
            partition: 7,
            retry_at: 1,
        };
        let details = [
            Detail::word("partition", DetailValue::Uint(7)),
            Detail::new(
                "retry_at_unix_ns",
                "retryAtUnixNs",
                DetailValue::UnixNs(1_262_304_000_004_000_000),
            ),
        ];
        assert!(e.details().iter().eq(details));
        assert_eq!(Error::PartitionPoolExhausted.details().iter().count(), 0);
    }
}
