//! What an error carries beside its message ([`Error::details`]): the facts every binding sets
//! on its error object, said once here, each under its name in each binding's case (Python
//! `.retry_at_unix_ns`, JavaScript `.retryAtUnixNs`).

use crate::error::Error;

/// A detail's value ([`Error::details`]).
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

/// One detail of an error ([`Error::details`]).
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
    pub const fn new(name: &'static str, js_name: &'static str, value: DetailValue<'a>) -> Self {
        Detail {
            name,
            js_name,
            value,
        }
    }

    /// A detail whose name is one word, the same in every case.
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
    /// let e = Error::SequenceExhausted { retry_at: 1 << 39 };
    /// let retry = e.details().iter().next().expect("a retry time");
    /// assert_eq!((retry.js_name, retry.value), ("retryAtUnixNs", DetailValue::Absent));
    /// ```
    pub fn details(&self) -> Details {
        let mut details = Details([None; 3]);
        let mut at = 0;
        self.for_each_detail(|detail| {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Details([Option<Detail<'static>>; 3]);

impl Details {
    /// The details, in order.
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
