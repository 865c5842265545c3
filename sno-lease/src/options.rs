//! Lease options, and reading them from the environment.

use core::ops::RangeInclusive;
use core::time::Duration;

use crate::error::Error;

/// The shortest TTL a lease accepts.
pub const MIN_TTL: Duration = Duration::from_secs(1);
/// The longest TTL a lease accepts.
pub const MAX_TTL: Duration = Duration::from_secs(3600);
/// The TTL when none is given.
pub const DEFAULT_TTL: Duration = Duration::from_secs(15);
/// The longest namespace, in bytes.
pub const MAX_NAMESPACE_LEN: usize = 64;

/// How to lease a partition: the namespace, the partition range, the TTL and the margins.
///
/// ```
/// use core::time::Duration;
/// use sno_lease::LeaseOptions;
/// let opts = LeaseOptions::new("billing")
///     .partitions(0..=1023)
///     .ttl(Duration::from_secs(9));
/// assert_eq!(opts.validate(), Ok(()));
/// assert_eq!(opts.renew_every(), Duration::from_secs(3));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseOptions {
    pub(crate) namespace: String,
    pub(crate) first: u16,
    pub(crate) last: u16,
    pub(crate) ttl: Duration,
    pub(crate) margin: Option<Duration>,
    pub(crate) timeout: Duration,
}

impl Default for LeaseOptions {
    fn default() -> Self {
        LeaseOptions::new("default")
    }
}

impl LeaseOptions {
    /// Options for `namespace` (1 ..= 64 bytes of `A-Z a-z 0-9 _ - . :`): every partition
    /// `0 ..= 65535`, a TTL of 15 s, the default margin and a 10 s timeout for each call to
    /// the store.
    pub fn new(namespace: impl Into<String>) -> Self {
        LeaseOptions {
            namespace: namespace.into(),
            first: 0,
            last: u16::MAX,
            ttl: DEFAULT_TTL,
            margin: None,
            timeout: Duration::from_secs(10),
        }
    }

    /// Leases only from `range` (inclusive), e.g. to split the partitions between teams.
    pub fn partitions(mut self, range: RangeInclusive<u16>) -> Self {
        self.first = *range.start();
        self.last = *range.end();
        self
    }

    /// How long a grant lasts without renewal (1 s ..= 1 h). Renewal runs every third of it.
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How much sooner than the store's expiry the holder stops minting: the bound on how far
    /// the holder's clock may lag the store's clock for the stop to come, in real time, before
    /// the partition can be granted again. Default: a tenth of the TTL, at most 1 s; at most
    /// half the TTL (the window must outlast the next renewal). Uniqueness does not depend on it
    /// (see the crate's safety argument); only how the holders' minting lines up in real time.
    pub fn margin(mut self, margin: Duration) -> Self {
        self.margin = Some(margin);
        self
    }

    /// The longest one call to the store (connect, acquire, renew, release) may take
    /// (100 ms ..= 60 s, default 10 s). Renewals use at most a quarter of the TTL.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Options as a binding takes them: `namespace`, and each other option when given (`None`:
    /// [`new`](Self::new)'s default), checked by [`validate`](Self::validate). The C, Python
    /// and Node bindings build their options here, each after reading its own argument types.
    ///
    /// ```
    /// use std::time::Duration;
    /// use sno_lease::LeaseOptions;
    ///
    /// let options = LeaseOptions::from_parts("api", Some(0..=99), Some(Duration::from_secs(30)), None, None)?;
    /// assert_eq!(options, LeaseOptions::new("api").partitions(0..=99).ttl(Duration::from_secs(30)));
    /// // Each part is checked: a TTL under 1 s is refused.
    /// assert!(LeaseOptions::from_parts("api", None, Some(Duration::from_millis(10)), None, None).is_err());
    /// # Ok::<(), sno_lease::Error>(())
    /// ```
    pub fn from_parts(
        namespace: impl Into<String>,
        partitions: Option<RangeInclusive<u16>>,
        ttl: Option<Duration>,
        margin: Option<Duration>,
        timeout: Option<Duration>,
    ) -> Result<LeaseOptions, Error> {
        let mut options = LeaseOptions::new(namespace);
        if let Some(range) = partitions {
            options = options.partitions(range);
        }
        options.ttl = ttl.unwrap_or(options.ttl);
        options.margin = margin.or(options.margin);
        options.timeout = timeout.unwrap_or(options.timeout);
        options.validate()?;
        Ok(options)
    }

    /// The namespace.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The partition range.
    pub fn partition_range(&self) -> RangeInclusive<u16> {
        self.first..=self.last
    }

    /// The TTL.
    pub fn ttl_duration(&self) -> Duration {
        self.ttl
    }

    /// The margin in use (the default when none was set).
    pub fn margin_duration(&self) -> Duration {
        self.margin
            .unwrap_or_else(|| (self.ttl / 10).min(Duration::from_secs(1)))
    }

    /// How often the lease is renewed: a third of the TTL.
    pub fn renew_every(&self) -> Duration {
        self.ttl / 3
    }

    /// The timeout of one call to the store.
    pub fn timeout_duration(&self) -> Duration {
        self.timeout
    }

    /// Checks every option; [`Error::InvalidOptions`] says which one is wrong.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |detail: String| Err(Error::InvalidOptions { detail });
        let ns = &self.namespace;
        if ns.is_empty() || ns.len() > MAX_NAMESPACE_LEN {
            return bad(format!(
                "the namespace must be 1 ..= {MAX_NAMESPACE_LEN} bytes, not {}",
                ns.len()
            ));
        }
        // The namespace is not echoed (a secret pasted into the wrong variable would be): the
        // first character that does not belong, and where, say enough.
        if let Some((at, c)) = ns
            .chars()
            .enumerate()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
        {
            let shown = if c.is_ascii_graphic() || c == ' ' {
                format!("{c:?}")
            } else {
                format!("U+{:04X}", u32::from(c))
            };
            return bad(format!(
                "the namespace holds {shown} at character {at}; use A-Z a-z 0-9 _ - . :"
            ));
        }
        if self.first > self.last {
            return bad(format!(
                "the partition range {} ..= {} is empty",
                self.first, self.last
            ));
        }
        if self.ttl < MIN_TTL || self.ttl > MAX_TTL {
            return bad(format!(
                "the TTL must be 1 s ..= 3600 s, not {} ms",
                self.ttl.as_millis()
            ));
        }
        if self.margin_duration() > self.ttl / 2 {
            return bad(format!(
                "the margin ({} ms) must be at most half the TTL ({} ms): the window must outlast the next renewal",
                self.margin_duration().as_millis(),
                self.ttl.as_millis()
            ));
        }
        if self.timeout < Duration::from_millis(100) || self.timeout > Duration::from_secs(60) {
            return bad(format!(
                "the store timeout must be 100 ms ..= 60 s, not {} ms",
                self.timeout.as_millis()
            ));
        }
        Ok(())
    }

    /// The timeout of one renewal call: at most a quarter of the TTL, so that a hung store is
    /// given up on, and a new connection tried, well before the lease runs out.
    pub(crate) fn renew_timeout(&self) -> Duration {
        self.timeout.min(self.ttl / 4)
    }

    /// Options from the environment: `SNO_LEASE_NAMESPACE` (default `default`),
    /// `SNO_LEASE_TTL` (seconds, or a number with `ms`, `s` or `m`; default 15 s) and
    /// `SNO_LEASE_PARTITIONS` (`first-last`, default `0-65535`). A set but invalid variable, or
    /// an unknown `SNO_LEASE_*` one (a typo), is [`Error::InvalidOptions`], naming the variable.
    ///
    /// ```
    /// // None of the variables is set in this doctest's environment.
    /// assert_eq!(sno_lease::LeaseOptions::from_env()?, sno_lease::LeaseOptions::default());
    /// # Ok::<(), sno_lease::Error>(())
    /// ```
    pub fn from_env() -> Result<LeaseOptions, Error> {
        check_lease_variables()?;
        let mut opts = LeaseOptions::default();
        if let Some(ns) = env_text("SNO_LEASE_NAMESPACE")? {
            opts.namespace = ns;
        }
        if let Some(ttl) = env_text("SNO_LEASE_TTL")? {
            // The value is not echoed: a secret pasted into the wrong variable would be.
            opts.ttl = parse_duration(&ttl).ok_or_else(|| Error::InvalidOptions {
                detail: "SNO_LEASE_TTL is not a duration (seconds, or a number with ms, s or m)"
                    .into(),
            })?;
        }
        if let Some(range) = env_text("SNO_LEASE_PARTITIONS")? {
            let (first, last) = parse_range(&range).ok_or_else(|| Error::InvalidOptions {
                detail: "SNO_LEASE_PARTITIONS is not a range first-last of 0 ..= 65535".into(),
            })?;
            opts.first = first;
            opts.last = last;
        }
        opts.validate().map_err(|e| match e {
            Error::InvalidOptions { detail } => Error::InvalidOptions {
                detail: format!("from SNO_LEASE_* variables: {detail}"),
            },
            other => other,
        })?;
        Ok(opts)
    }
}

/// The variables that configure leasing.
pub(crate) const LEASE_VARIABLES: [&str; 4] = [
    "SNO_LEASE_URL",
    "SNO_LEASE_NAMESPACE",
    "SNO_LEASE_TTL",
    "SNO_LEASE_PARTITIONS",
];

/// An error for a `SNO_LEASE_*` variable that is not one of [`LEASE_VARIABLES`] (a typo such as
/// `SNO_LEASE_URI` would otherwise leave the process on a random partition without a word).
pub(crate) fn check_lease_variables() -> Result<(), Error> {
    for (name, _) in std::env::vars_os() {
        let Some(name) = name.to_str() else { continue };
        if name.starts_with("SNO_LEASE_") && !LEASE_VARIABLES.contains(&name) {
            return Err(Error::InvalidOptions {
                detail: format!(
                    "unknown variable {name} (the lease variables are {})",
                    LEASE_VARIABLES.join(", ")
                ),
            });
        }
    }
    Ok(())
}

/// A variable's value, trimmed: `None` when unset, an error when it is not UTF-8 or blank.
pub(crate) fn env_text(name: &str) -> Result<Option<String>, Error> {
    match std::env::var_os(name) {
        None => Ok(None),
        Some(v) => match v.to_str().map(str::trim) {
            Some(t) if !t.is_empty() => Ok(Some(t.to_owned())),
            _ => Err(Error::InvalidOptions {
                detail: format!("{name} is set but empty or not UTF-8"),
            }),
        },
    }
}

/// A duration as `SNO_LEASE_TTL` takes it: `15` (seconds), `1500ms`, `2s`, `1m`.
///
/// ```
/// use core::time::Duration;
/// assert_eq!(sno_lease::parse_duration("1500ms"), Some(Duration::from_millis(1500)));
/// assert_eq!(sno_lease::parse_duration("soon"), None);
/// ```
pub fn parse_duration(text: &str) -> Option<Duration> {
    let (number, scale_ms) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60_000)
    } else {
        (text, 1000)
    };
    let number = number.trim();
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = number.parse().ok()?;
    Some(Duration::from_millis(n.checked_mul(scale_ms)?))
}

fn parse_range(text: &str) -> Option<(u16, u16)> {
    let (a, b) = text.split_once('-')?;
    let num = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u16>().ok())
            .flatten()
    };
    Some((num(a)?, num(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("15"), Some(Duration::from_secs(15)));
        assert_eq!(parse_duration("1500ms"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2s"), Some(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Some(Duration::from_secs(60)));
        for bad in ["", "s", "-1", "1.5", "abc", "10h", "99999999999999999999"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn ranges() {
        assert_eq!(parse_range("0-1023"), Some((0, 1023)));
        assert_eq!(parse_range(" 7 - 7 "), Some((7, 7)));
        for bad in ["", "7", "-7", "1-", "0-65536", "a-b", "1--2"] {
            assert_eq!(parse_range(bad), None, "{bad}");
        }
    }

    #[test]
    fn validation_names_the_option() {
        let e = |o: LeaseOptions| o.validate().unwrap_err().to_string();
        assert!(e(LeaseOptions::new("")).contains("namespace"));
        assert!(e(LeaseOptions::new("a b")).contains("' ' at character 1"));
        let pasted = e(LeaseOptions::new("postgres://u:Ns-Secret@h"));
        assert!(!pasted.contains("Ns-Secret"), "{pasted}");
        assert!(e(LeaseOptions::new("a\u{1b}b")).contains("U+001B"));
        assert!(e(LeaseOptions::new("x".repeat(65))).contains("1 ..= 64"));
        #[allow(clippy::reversed_empty_ranges)]
        let empty = LeaseOptions::new("n").partitions(5..=4);
        assert!(e(empty).contains("empty"));
        assert!(e(LeaseOptions::new("n").ttl(Duration::from_millis(999))).contains("TTL"));
        assert!(e(LeaseOptions::new("n").ttl(Duration::from_secs(3601))).contains("TTL"));
        let wide = LeaseOptions::new("n")
            .ttl(Duration::from_secs(3))
            .margin(Duration::from_millis(2001));
        assert!(e(wide).contains("margin"));
        assert!(e(LeaseOptions::new("n").timeout(Duration::from_millis(99))).contains("timeout"));
        assert_eq!(LeaseOptions::new("a-Z_0.9:x").validate(), Ok(()));
    }

    #[test]
    fn from_parts_takes_defaults_and_validates() {
        let none = LeaseOptions::from_parts("n", None, None, None, None);
        assert_eq!(none, Ok(LeaseOptions::new("n")));
        let some = LeaseOptions::from_parts(
            "n",
            Some(3..=9),
            Some(Duration::from_secs(9)),
            Some(Duration::from_millis(5)),
            Some(Duration::from_secs(2)),
        );
        let built = LeaseOptions::new("n")
            .partitions(3..=9)
            .ttl(Duration::from_secs(9))
            .margin(Duration::from_millis(5))
            .timeout(Duration::from_secs(2));
        assert_eq!(some, Ok(built));
        let bad = LeaseOptions::from_parts("n", None, Some(Duration::ZERO), None, None);
        let refused = LeaseOptions::new("n").ttl(Duration::ZERO).validate();
        assert_eq!(bad.map(drop), refused);
    }

    #[test]
    fn default_margin() {
        let o = LeaseOptions::new("n");
        assert_eq!(o.margin_duration(), Duration::from_millis(1000));
        let o = o.ttl(Duration::from_secs(2));
        assert_eq!(o.margin_duration(), Duration::from_millis(200));
        assert_eq!(o.renew_timeout(), Duration::from_millis(500));
    }
}
