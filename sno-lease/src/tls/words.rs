//! TLS failures in words: every rustls error a connection can meet, and the refusals of this
//! crate's own checks, read as a sentence; never rustls's or webpki's Debug text.

use std::fmt;

use rustls::pki_types::UnixTime;
use rustls::{AlertDescription, CertificateError, InconsistentKeys, InvalidMessage, OtherError};

use super::x509;

/// The host name check's refusal, carried through rustls as a certificate error of ours.
#[derive(Debug)]
pub(super) struct WrongHost(pub(super) x509::NameMismatch);

impl fmt::Display for WrongHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = match &self.0 {
            x509::NameMismatch::Malformed => {
                return f.write_str(
                    "it holds a name libpq does not compare (an embedded NUL, or an IP address of another length than 4 or 16 bytes): wrong host",
                );
            }
            x509::NameMismatch::Names(names) => names,
        };
        let shown = |name: &[u8]| match std::str::from_utf8(name) {
            Ok(text) if text.bytes().all(|b| (0x21..0x7f).contains(&b) && b != b'"') => {
                format!("\"{text}\"")
            }
            _ => "[a name not shown]".into(),
        };
        match names.as_slice() {
            [] => f.write_str("it names no host (no subjectAltName, no common name): wrong host"),
            [one] => write!(
                f,
                "it is for {}, not for the host connected to (wrong host)",
                shown(one)
            ),
            [first, rest @ ..] => write!(
                f,
                "it is for {} (and {} other name{}), not for the host connected to (wrong host)",
                shown(first),
                rest.len(),
                if rest.len() == 1 { "" } else { "s" }
            ),
        }
    }
}

impl std::error::Error for WrongHost {}

/// The words for a TLS failure the driver reports as an I/O error, or `None` when `e` is none.
/// Walks the error's sources for rustls' own error.
pub(crate) fn failure(e: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(tls) = s.downcast_ref::<rustls::Error>() {
            return Some(describe(tls));
        }
        if let Some(io) = s.downcast_ref::<std::io::Error>()
            && let Some(inner) = io.get_ref()
            && let Some(tls) = inner.downcast_ref::<rustls::Error>()
        {
            return Some(describe(tls));
        }
        source = s.source();
    }
    None
}

/// A rustls error in words (never rustls's Debug text): what was refused, and why.
pub(crate) fn describe(e: &rustls::Error) -> String {
    use rustls::Error as E;
    let what = match e {
        E::InvalidCertificate(c) => {
            return format!(
                "certificate verification failed: the server's certificate was refused: {}",
                certificate_words(c)
            );
        }
        E::AlertReceived(alert) => return alert_words(*alert),
        E::InvalidMessage(m) => message_words(m),
        E::PeerSentOversizedRecord => NOT_TLS,
        E::InappropriateMessage { .. }
        | E::InappropriateHandshakeMessage { .. }
        | E::PeerMisbehaved(_) => "the server broke the TLS protocol",
        E::PeerIncompatible(_) => {
            "the server and this client share no TLS version, cipher suite or signature scheme (this client speaks TLS 1.2 and 1.3 with modern ciphers)"
        }
        E::NoCertificatesPresented => "the server presented no certificate",
        E::UnsupportedNameType => "the host name cannot be used with TLS",
        E::DecryptError => "a TLS record from the server does not decrypt (altered on the way?)",
        E::EncryptError => "a TLS record cannot be encrypted",
        E::InvalidCertRevocationList(_) => "a certificate revocation list is not usable",
        E::FailedToGetCurrentTime => "the system clock cannot be read",
        E::FailedToGetRandomBytes => "the system gives no random bytes",
        E::HandshakeNotComplete => "the TLS handshake did not complete",
        E::NoApplicationProtocol => {
            "the server speaks no application protocol this client offers (ALPN)"
        }
        E::BadMaxFragmentSize => "the TLS maximum fragment size is not valid",
        E::InconsistentKeys(InconsistentKeys::KeyMismatch) => {
            "the client certificate and its key do not match"
        }
        E::InconsistentKeys(_) => "the client key cannot be checked against its certificate",
        E::InvalidEncryptedClientHello(_) => "the encrypted client hello failed",
        _ => "the TLS library failed",
    };
    format!("TLS handshake failed: {what}")
}

/// A server that does not answer in TLS: a plain port, or another protocol.
const NOT_TLS: &str = "the server does not answer in TLS (a plain, non-TLS port?)";

/// A TLS message that does not parse: framing errors mean the peer does not speak TLS.
fn message_words(m: &InvalidMessage) -> &'static str {
    match m {
        InvalidMessage::InvalidContentType
        | InvalidMessage::UnknownProtocolVersion
        | InvalidMessage::MessageTooLarge
        | InvalidMessage::MessageTooShort => NOT_TLS,
        _ => "the server sent a malformed TLS message",
    }
}

/// An alert from the server: most say why it refused this client's certificate.
fn alert_words(alert: AlertDescription) -> String {
    use AlertDescription as A;
    let refused = |why: &str| {
        format!("TLS handshake failed: the server refused the client certificate ({why})")
    };
    match alert {
        A::CertificateRequired | A::NoCertificate => {
            "TLS handshake failed: the server requires a client certificate, and none was given (sslcert and sslkey for PostgreSQL, ssl_certfile and ssl_keyfile for Redis)".into()
        }
        A::UnknownCA => refused("it is not signed by a CA the server trusts"),
        A::CertificateExpired => refused("expired"),
        A::CertificateRevoked => refused("revoked"),
        A::UnsupportedCertificate => refused("a kind it does not take"),
        A::BadCertificate | A::CertificateUnknown => refused("a bad certificate"),
        A::AccessDenied => refused("access denied"),
        other => {
            let why = match other {
                A::HandshakeFailure => {
                    "the server ended the handshake: no TLS parameters in common, or a client certificate it requires"
                }
                A::ProtocolVersion => "the server takes neither TLS 1.2 nor TLS 1.3",
                A::InsufficientSecurity => "the server asks for stronger ciphers",
                A::InternalError => "the server failed inside its TLS",
                A::UnrecognisedName => "the server does not know the host name sent (SNI)",
                A::BadRecordMac | A::DecryptError | A::DecryptionFailed => {
                    "the server could not decrypt a TLS record"
                }
                A::DecodeError | A::IllegalParameter | A::UnexpectedMessage => {
                    "the server found this client's TLS messages malformed"
                }
                A::CloseNotify | A::UserCanceled => "the server closed the TLS connection",
                _ => "the server ended the TLS connection with an alert",
            };
            format!("TLS handshake failed: {why} (TLS alert {})", u8::from(other))
        }
    }
}

/// Why the server's certificate was refused.
fn certificate_words(c: &CertificateError) -> String {
    use CertificateError as C;
    let date = |t: &UnixTime| {
        let mut buf = [0u8; sno_core::time::UTC_LEN];
        let millis = i64::try_from(t.as_secs()).map_or(i64::MAX, |s| s.saturating_mul(1000));
        sno_core::time::format_utc_millis(millis, &mut buf)
            .unwrap_or("a date past the year 9999")
            .to_owned()
    };
    match c {
        C::ExpiredContext { time, not_after } => {
            format!(
                "it expired at {} (the clock here reads {})",
                date(not_after),
                date(time)
            )
        }
        C::NotValidYetContext { time, not_before } => format!(
            "it is not valid before {} (the clock here reads {})",
            date(not_before),
            date(time)
        ),
        C::Other(OtherError(inner)) => match inner.downcast_ref::<WrongHost>() {
            Some(wrong) => wrong.to_string(),
            None => webpki_words(&inner.to_string()).into(),
        },
        other => match other {
            C::BadEncoding => "it is not a well-formed X.509 certificate",
            C::Expired => "it has expired",
            C::NotValidYet => "it is not valid yet",
            C::Revoked => "it is revoked",
            C::UnhandledCriticalExtension => "it has a critical extension that is not supported",
            C::UnknownIssuer => "it is not signed by a trusted CA (unknown issuer)",
            C::UnknownRevocationStatus => "its revocation status is unknown",
            C::ExpiredRevocationList | C::ExpiredRevocationListContext { .. } => {
                "the certificate revocation list has expired"
            }
            C::BadSignature => "its signature does not verify (bad signature)",
            C::UnsupportedSignatureAlgorithmContext { .. }
            | C::UnsupportedSignatureAlgorithmForPublicKeyContext { .. } => {
                "its signature algorithm is not supported"
            }
            C::NotValidForName | C::NotValidForNameContext { .. } => {
                "it is not valid for the host name connected to (wrong host)"
            }
            C::InvalidPurpose | C::InvalidPurposeContext { .. } => {
                "it is not meant for TLS servers (its key usage or extended key usage)"
            }
            C::InvalidOcspResponse => "its OCSP response is not valid",
            C::ApplicationVerificationFailure => "the application's own checks refused it",
            _ => "it does not verify",
        }
        .into(),
    }
}

/// webpki's refusals that rustls passes on as `Other`, by the name webpki's Display writes
/// (its variant's): words for those a server's chain can meet, a general refusal otherwise.
fn webpki_words(name: &str) -> &'static str {
    match name {
        "CaUsedAsEndEntity" => {
            "it is a CA certificate, not a server certificate (CA:TRUE), and not itself in the CA file (a self-signed server certificate is trusted when it is the CA file or one of its certificates)"
        }
        "EndEntityUsedAsCa" => "its chain has a server certificate where a CA must be",
        "PathLenConstraintViolated" => "its chain is longer than a CA of it allows",
        "NameConstraintViolation" => {
            "a CA of its chain may not sign for its names (name constraints)"
        }
        "UnsupportedCertVersion" => "its X.509 version is not supported (v3 only)",
        "UnsupportedCriticalExtension" => "it has a critical extension that is not supported",
        "CertDistrusted" => "its CA is distrusted",
        "MaximumPathDepthExceeded"
        | "MaximumPathBuildCallsExceeded"
        | "MaximumSignatureChecksExceeded" => "its chain is too long or too tangled to verify",
        "SignatureAlgorithmMismatch" => {
            "its signature algorithm field does not match its signature"
        }
        "InvalidSerialNumber" => "its serial number is not valid",
        "EmptyEkuExtension" => "its extended key usage is empty",
        _ => "it breaks a rule of X.509 (RFC 5280) that the verifier enforces",
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rustls::pki_types::ServerName;

    use super::*;

    /// A word of rustls's Debug text: an identifier of two humps or more (`UnknownIssuer`), or
    /// a brace of a struct's fields.
    fn debug_text(words: &str) -> Option<&str> {
        if words.contains(['{', '}']) {
            return Some("a brace");
        }
        words
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find(|word| {
                let b = word.as_bytes();
                b.first().is_some_and(u8::is_ascii_uppercase)
                    && b.windows(2)
                        .skip(1)
                        .any(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_lowercase())
            })
    }

    /// A stand-in for a webpki error that rustls passes on as `Other`: its Display writes the
    /// variant's name, as webpki's does.
    #[derive(Debug)]
    struct Named(&'static str);

    impl fmt::Display for Named {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Named {}

    #[test]
    fn every_tls_failure_reads_in_words() {
        use rustls::{
            CertRevocationListError, EncryptedClientHelloError, Error as E, ExtendedKeyPurpose,
            PeerIncompatible, PeerMisbehaved,
        };
        let t = |secs| UnixTime::since_unix_epoch(core::time::Duration::from_secs(secs));
        let other = |e: Arc<dyn std::error::Error + Send + Sync>| C::Other(OtherError(e));
        use CertificateError as C;
        let mut errors: Vec<E> = [
            C::BadEncoding,
            C::Expired,
            C::ExpiredContext {
                time: t(1_800_000_000),
                not_after: t(1_578_096_000),
            },
            C::NotValidYet,
            C::NotValidYetContext {
                time: t(1_700_000_000),
                not_before: t(u64::MAX / 2),
            },
            C::Revoked,
            C::UnhandledCriticalExtension,
            C::UnknownIssuer,
            C::UnknownRevocationStatus,
            C::ExpiredRevocationList,
            C::ExpiredRevocationListContext {
                time: t(2),
                next_update: t(1),
            },
            C::BadSignature,
            C::UnsupportedSignatureAlgorithmContext {
                signature_algorithm_id: vec![1, 2],
                supported_algorithms: Vec::new(),
            },
            C::UnsupportedSignatureAlgorithmForPublicKeyContext {
                signature_algorithm_id: vec![1],
                public_key_algorithm_id: vec![2],
            },
            C::NotValidForName,
            C::NotValidForNameContext {
                expected: ServerName::try_from("db.example.com").unwrap(),
                presented: vec!["DnsName(\"other.example.com\")".into()],
            },
            C::InvalidPurpose,
            C::InvalidPurposeContext {
                required: ExtendedKeyPurpose::ServerAuth,
                presented: vec![ExtendedKeyPurpose::ClientAuth],
            },
            C::InvalidOcspResponse,
            C::ApplicationVerificationFailure,
            other(Arc::new(WrongHost(x509::NameMismatch::Malformed))),
            other(Arc::new(WrongHost(x509::NameMismatch::Names(Vec::new())))),
            other(Arc::new(WrongHost(x509::NameMismatch::Names(vec![
                b"db".to_vec(),
                b"bad\"name".to_vec(),
            ])))),
            other(Arc::new(Named("CaUsedAsEndEntity"))),
            other(Arc::new(Named("PathLenConstraintViolated"))),
            other(Arc::new(Named("SomethingNewInWebpki"))),
        ]
        .into_iter()
        .map(E::InvalidCertificate)
        .collect();
        errors.extend((0..=255u8).map(|n| E::AlertReceived(AlertDescription::from(n))));
        errors.extend(
            [
                InvalidMessage::InvalidContentType,
                InvalidMessage::MessageTooLarge,
                InvalidMessage::UnknownProtocolVersion,
                InvalidMessage::InvalidCcs,
                InvalidMessage::MissingData("x"),
                InvalidMessage::UnexpectedMessage("x"),
            ]
            .map(E::InvalidMessage),
        );
        errors.extend([
            E::InappropriateMessage {
                expect_types: Vec::new(),
                got_type: rustls::ContentType::Alert,
            },
            E::InappropriateHandshakeMessage {
                expect_types: Vec::new(),
                got_type: rustls::HandshakeType::Finished,
            },
            E::InvalidEncryptedClientHello(EncryptedClientHelloError::InvalidConfigList),
            E::NoCertificatesPresented,
            E::UnsupportedNameType,
            E::DecryptError,
            E::EncryptError,
            E::PeerIncompatible(PeerIncompatible::Tls12NotOffered),
            E::PeerIncompatible(PeerIncompatible::NoCipherSuitesInCommon),
            E::PeerMisbehaved(PeerMisbehaved::BadCertChainExtensions),
            E::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare),
            E::InvalidCertRevocationList(CertRevocationListError::BadSignature),
            E::General("GeneralWordsOfTheLibrary".into()),
            E::FailedToGetCurrentTime,
            E::FailedToGetRandomBytes,
            E::HandshakeNotComplete,
            E::PeerSentOversizedRecord,
            E::NoApplicationProtocol,
            E::BadMaxFragmentSize,
            E::InconsistentKeys(InconsistentKeys::KeyMismatch),
            E::InconsistentKeys(InconsistentKeys::Unknown),
            E::Other(OtherError(Arc::new(Named("OtherLibraryError")))),
        ]);
        for e in &errors {
            let words = describe(e);
            assert_eq!(debug_text(&words), None, "{e:?} reads {words:?}");
            assert!(!words.contains(&format!("{e:?}")), "{words}");
            // And through the I/O error a driver wraps it in.
            let io = std::io::Error::other(e.clone());
            assert_eq!(failure(&io), Some(words));
        }
        // The ones that say more than their kind.
        let says = |e: E, what: &str| {
            let words = describe(&e);
            assert!(words.contains(what), "{words:?} does not say {what:?}");
        };
        says(
            E::InvalidCertificate(C::ExpiredContext {
                time: t(1_800_000_000),
                not_after: t(1_578_096_000),
            }),
            "it expired at 2020-01-04T00:00:00.000Z (the clock here reads 2027-01-15T08:00:00.000Z)",
        );
        says(
            E::InvalidCertificate(other(Arc::new(Named("CaUsedAsEndEntity")))),
            "a CA certificate, not a server certificate",
        );
        says(
            E::InvalidCertificate(other(Arc::new(WrongHost(x509::NameMismatch::Names(vec![
                b"db".to_vec(),
                b"bad\"name".to_vec(),
            ]))))),
            "it is for \"db\" (and 1 other name), not for the host connected to (wrong host)",
        );
        says(
            E::AlertReceived(AlertDescription::CertificateRequired),
            "requires a client certificate",
        );
        says(
            E::AlertReceived(AlertDescription::UnknownCA),
            "refused the client certificate",
        );
        says(
            E::InvalidMessage(InvalidMessage::InvalidContentType),
            "does not answer in TLS",
        );
        assert_eq!(failure(&std::io::Error::other("plain")), None);
    }
}
