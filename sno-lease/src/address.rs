//! What both stores' addresses share: percent-decoding and the checks that keep a misplaced
//! password out of messages.

/// `%XX` decoding; `None` for a bad escape or bytes that are not UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = core::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A name that can be shown as it is: 1 ..= 63 letters, digits, `_`, `-` or `.` (a role or a
/// database named otherwise may hold a misplaced password).
#[cfg(feature = "postgres")]
pub(crate) fn plain_name(name: &str) -> bool {
    (1..=63).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A DNS name (letters, digits, `-`, `_`, `.`) or an IP literal.
pub(crate) fn plausible_host(name: &str) -> bool {
    if name.is_empty() || name.len() > 253 {
        return false;
    }
    if name.parse::<std::net::IpAddr>().is_ok() {
        return true;
    }
    name.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// `url` without the query parameter `name`, and that parameter's decoded value (the last one
/// when it is repeated). Only the query is touched; the rest stays as written.
pub(crate) fn take_query_parameter(
    url: &str,
    name: &str,
) -> Result<(String, Option<String>), crate::error::Error> {
    let (base, query, fragment) = match url.split_once('?') {
        None => return Ok((url.to_owned(), None)),
        Some((base, rest)) => match rest.split_once('#') {
            Some((query, fragment)) => (base, query, Some(fragment)),
            None => (base, rest, None),
        },
    };
    let mut value = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        if percent_decode(key).as_deref() == Some(name) {
            value = Some(
                percent_decode(raw).ok_or_else(|| crate::error::Error::InvalidUrl {
                    detail: format!("the parameter `{name}` is not valid percent-encoded UTF-8"),
                })?,
            );
        } else {
            kept.push(pair);
        }
    }
    let mut rest = base.to_owned();
    if !kept.is_empty() {
        rest = format!("{rest}?{}", kept.join("&"));
    }
    if let Some(fragment) = fragment {
        rest = format!("{rest}#{fragment}");
    }
    Ok((rest, value))
}

/// Values of an address that must never appear in a message, not even in the store's own words
/// (PostgreSQL quotes the value of a startup parameter it refuses, and `options=-c …` carries
/// whatever the user put there; it names a role or a database that does not exist): the
/// password, the values in `options`, and a user or database name that is not shown.
#[derive(Debug, Clone, Default)]
pub(crate) struct Secrets {
    /// Replaced wherever they appear (4 characters or longer).
    words: Vec<String>,
    /// Shorter values: replaced where they appear quoted (`"…"`), as a server quotes a value it
    /// refuses (anywhere else they would scrub ordinary words).
    quoted: Vec<String>,
}

impl Secrets {
    /// Adds `value`.
    pub(crate) fn add(&mut self, value: &str) {
        let list = if value.chars().count() >= 4 {
            &mut self.words
        } else if !value.is_empty() {
            &mut self.quoted
        } else {
            return;
        };
        if !list.iter().any(|s| s == value) {
            list.push(value.to_owned());
            list.sort_by_key(|s| core::cmp::Reverse(s.len()));
        }
    }

    #[cfg(feature = "postgres")]
    /// Adds the values of a command-line style option string (`-c name=value …`, split as the
    /// server splits it: at spaces, `\` escaping the next character): each value after `=` (as
    /// written and unescaped) and each word that is no flag; the parameter names stay readable.
    pub(crate) fn add_option_values(&mut self, options: &str) {
        let mut words = Vec::new();
        let (mut raw, mut plain) = (String::new(), String::new());
        let mut chars = options.chars();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                if !raw.is_empty() {
                    words.push((core::mem::take(&mut raw), core::mem::take(&mut plain)));
                }
            } else if c == '\\' {
                raw.push(c);
                if let Some(next) = chars.next() {
                    raw.push(next);
                    plain.push(next);
                }
            } else {
                raw.push(c);
                plain.push(c);
            }
        }
        if !raw.is_empty() {
            words.push((raw, plain));
        }
        for (raw, plain) in words {
            match (raw.split_once('='), plain.split_once('=')) {
                (Some((_, raw_value)), Some((_, value))) => {
                    self.add(raw_value);
                    self.add(value);
                }
                _ if !plain.starts_with('-') => {
                    self.add(&raw);
                    self.add(&plain);
                }
                _ => {}
            }
        }
    }

    /// `text` with every secret replaced by `***`.
    pub(crate) fn scrub(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in &self.words {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), "***");
            }
        }
        for secret in &self.quoted {
            out = out.replace(&format!("\"{secret}\""), "\"***\"");
        }
        out
    }

    /// `e` with its words scrubbed.
    pub(crate) fn scrub_error(&self, e: crate::error::Error) -> crate::error::Error {
        use crate::error::Error;
        if self.words.is_empty() && self.quoted.is_empty() {
            return e;
        }
        match e {
            Error::InvalidUrl { detail } => Error::InvalidUrl {
                detail: self.scrub(&detail),
            },
            Error::Unreachable { detail } => Error::Unreachable {
                detail: self.scrub(&detail),
            },
            Error::AuthenticationFailed { detail } => Error::AuthenticationFailed {
                detail: self.scrub(&detail),
            },
            Error::Tls { detail } => Error::Tls {
                detail: self.scrub(&detail),
            },
            Error::Store { detail } => Error::Store {
                detail: self.scrub(&detail),
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_and_parameters() {
        assert_eq!(percent_decode("a%2Fb%40c").as_deref(), Some("a/b@c"));
        assert_eq!(percent_decode("bad%2"), None);
        assert_eq!(percent_decode("%ff"), None);
        let t = |u: &str| take_query_parameter(u, "ssl_ca_certs").unwrap();
        assert_eq!(t("rediss://h/0"), ("rediss://h/0".into(), None));
        assert_eq!(
            t("rediss://h/0?ssl_ca_certs=%2Fca.pem&protocol=resp3#insecure"),
            (
                "rediss://h/0?protocol=resp3#insecure".into(),
                Some("/ca.pem".into())
            )
        );
        assert!(
            plausible_host("db-1.internal") && plausible_host("::1") && plausible_host("10.0.0.1")
        );
        assert!(!plausible_host("ss@h") && !plausible_host("") && !plausible_host("h:pw"));
    }

    #[test]
    #[cfg(feature = "postgres")]
    fn option_values_are_secrets() {
        let mut secrets = Secrets::default();
        secrets.add_option_values("-c statement_timeout=Opt-Secret9 -c x=ab");
        secrets.add("pw-Secret");
        assert_eq!(
            secrets.scrub(r#"invalid value for parameter "statement_timeout": "Opt-Secret9""#),
            r#"invalid value for parameter "statement_timeout": "***""#
        );
        assert_eq!(secrets.scrub("a pw-Secret b"), "a *** b");
        let mut escaped = Secrets::default();
        escaped.add_option_values(r"-c statement_timeout=SecA\ SecB -c x=\\SecC -c y=S9x");
        assert_eq!(
            escaped.scrub(r#""SecA SecB" "\SecC" "S9x" S9x"#),
            r#""***" "***" "***" S9x"#
        );
    }
}
