//! TLS to the stores: rustls (ring provider, no OpenSSL at run time), verified as libpq
//! verifies (OpenSSL's rules), with the failures in words. Both stores build their client
//! configuration here ([`client_config`]); PostgreSQL's `sslmode` levels and libpq's file
//! rules are in `pg_tls.rs`, Redis always verifies the chain and the host name.
//!
//! Trusted roots: the PEM file the URL names (`sslrootcert=…`, `ssl_ca_certs=…`), else the
//! system's root certificates (`sslrootcert=system` names them explicitly, as in libpq 16).
//! A server certificate that is itself one of the trusted roots, byte for byte, and
//! self-issued (what `openssl req -x509` makes, CA:TRUE included) is trusted as it is, as
//! OpenSSL trusts a self-signed certificate found in its trust store (`psql`, `redis-cli`):
//! its dates and its purpose are still checked, and the host name under `verify-full`. Every
//! other certificate goes through webpki's chain verification (a CA certificate as a server
//! certificate is refused there). The host name is checked as libpq checks it: the
//! subjectAltName entries, and the subject's common name unless an entry has the host's kind
//! (`x509.rs`).
//!
//! The system's roots are what rustls-native-certs finds: the files `SSL_CERT_FILE` /
//! `SSL_CERT_DIR` name when either is set, else the platform's store (OpenSSL's files on Linux,
//! the certificate store on Windows). macOS is the exception: its store (the Keychain) is read
//! through Security.framework, which the release builds cannot link (they are linked by zig,
//! which has no macOS SDK), so there the roots come from the PEM bundle macOS ships,
//! `/etc/ssl/cert.pem`, or from the same two variables. Roots only in the Keychain (a company
//! CA added with Keychain Access) are not seen: name a CA file instead.

mod x509;

use std::fmt;
#[cfg(any(test, target_os = "macos"))]
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::verify_server_cert_signed_by_trust_anchor;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{
    AlertDescription, CertificateError, ClientConfig, DigitallySignedStruct, InconsistentKeys,
    InvalidMessage, OtherError, RootCertStore, SignatureScheme,
};

use crate::error::Error;

/// Where the trusted roots come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Roots {
    /// The operating system's store.
    System,
    /// A PEM file of CA certificates.
    File(String),
}

/// How much of the server's certificate is verified (libpq's `sslmode` levels; Redis always
/// [`Verify::Full`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    not(feature = "postgres"),
    allow(dead_code, reason = "the levels below Full are PostgreSQL's")
)]
pub(crate) enum Verify {
    /// Encrypt, verify nothing (`prefer`, `allow`, `require` without `sslrootcert`).
    None,
    /// The chain up to a trusted root, not the host name (`verify-ca`, `require` with
    /// `sslrootcert`).
    Chain,
    /// The chain and the host name (`verify-full`, Redis).
    Full,
}

/// The crypto provider of this crate: ring, whatever else the process has installed.
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A client configuration that verifies as `verify` says against `roots` (named by the
/// parameter `root_option` in messages), and presents `identity` to a server that asks for a
/// client certificate.
pub(crate) fn client_config(
    verify: Verify,
    roots: &Roots,
    root_option: &str,
    identity: Option<&ClientIdentity>,
) -> Result<ClientConfig, Error> {
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Tls {
            detail: format!("cannot set up TLS: {}", describe(&e)),
        })?;
    let (roots, certs) = match verify {
        Verify::None => (RootCertStore::empty(), Vec::new()),
        Verify::Chain | Verify::Full => root_store(roots, root_option)?,
    };
    let verifier = LibpqVerifier {
        verify,
        roots: Arc::new(roots),
        certs,
        provider,
    };
    let builder = builder
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier));
    match identity {
        None => Ok(builder.with_no_client_auth()),
        Some(id) => builder
            .with_client_auth_cert(id.chain.clone(), id.key.clone_key())
            .map_err(|e| Error::InvalidUrl {
                detail: match e {
                    rustls::Error::InconsistentKeys(InconsistentKeys::KeyMismatch) => format!(
                        "{}: the key does not match the certificate of {}",
                        id.key_option, id.cert_option
                    ),
                    _ => format!(
                        "{}: the key cannot be used (RSA, ECDSA P-256 or P-384, or Ed25519 keys only)",
                        id.key_option
                    ),
                },
            }),
    }
}

/// The trusted roots and their certificates as given, or [`Error::InvalidUrl`] naming the
/// option (never its value: a path is harmless, but the URL it came from may not be).
fn root_store(
    roots: &Roots,
    option: &str,
) -> Result<(RootCertStore, Vec<CertificateDer<'static>>), Error> {
    let mut store = RootCertStore::empty();
    let certs = match roots {
        Roots::System => {
            let certs = system_certs();
            for cert in &certs {
                // A system certificate rustls cannot parse is skipped, as browsers do.
                let _ = store.add(cert.clone());
            }
            if store.is_empty() {
                return Err(Error::Tls {
                    detail: NO_SYSTEM_ROOTS.into(),
                });
            }
            certs
        }
        Roots::File(path) => {
            let certs = read_certificates(path, option, "CA file")?;
            for cert in &certs {
                store.add(cert.clone()).map_err(|_| Error::InvalidUrl {
                    detail: format!(
                        "{option}: a certificate of the CA file is not usable (not a well-formed X.509 certificate)"
                    ),
                })?;
            }
            certs
        }
    };
    Ok((store, certs))
}

/// The certificates of the PEM file at `path`: at least one, or [`Error::InvalidUrl`] naming
/// `option` and the file's role (`what`).
fn read_certificates(
    path: &str,
    option: &str,
    what: &str,
) -> Result<Vec<CertificateDer<'static>>, Error> {
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| Error::InvalidUrl {
            detail: format!("{option}: the {what} cannot be read: {}", pem_error(&e)),
        })?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::InvalidUrl {
            detail: format!("{option}: the {what} is not PEM: {}", pem_error(&e)),
        })?;
    if certs.is_empty() {
        return Err(Error::InvalidUrl {
            detail: format!("{option}: the {what} holds no certificate"),
        });
    }
    Ok(certs)
}

/// A PEM reading error in words, never the file's contents (a line of a key file, say).
fn pem_error(e: &rustls::pki_types::pem::Error) -> String {
    use rustls::pki_types::pem::Error as Pem;
    match e {
        Pem::Io(io) => io.kind().to_string(),
        Pem::MissingSectionEnd { .. } => "a section has no END line".into(),
        Pem::IllegalSectionStart { .. } => "a BEGIN line is malformed".into(),
        Pem::Base64Decode(_) => "a section is not valid base64".into(),
        Pem::SectionTooLarge => "a section is larger than 256 MB".into(),
        _ => "it does not parse".into(),
    }
}

/// A client certificate chain and its private key, for a server that asks for a client
/// certificate (PostgreSQL's `sslcert` / `sslkey`, Redis's `ssl_certfile` / `ssl_keyfile`).
pub(crate) struct ClientIdentity {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    /// The parameters that named the files, for messages.
    cert_option: &'static str,
    key_option: &'static str,
}

/// The key file's permissions libpq accepts (`initialize_SSL` in `fe-secure-openssl.c`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyFileRule {
    /// Any readable file (redis-py's rule: Python's `load_cert_chain`).
    #[cfg_attr(not(feature = "redis"), allow(dead_code, reason = "Redis's rule"))]
    Any,
    /// A regular file without access for group or others (mode 0600 or less), or 0640 or less
    /// when root owns it; not checked on Windows.
    #[cfg_attr(
        not(feature = "postgres"),
        allow(dead_code, reason = "PostgreSQL's rule")
    )]
    Libpq,
}

impl ClientIdentity {
    /// Reads the certificate chain of the PEM file `cert` and the private key of `key` (which
    /// may be the same file), named by the parameters `cert_option` and `key_option` in
    /// messages; the key file's permissions as `rule` says. Every failure is
    /// [`Error::InvalidUrl`] in words.
    pub(crate) fn read(
        (cert, cert_option): (&str, &'static str),
        (key, key_option): (&str, &'static str),
        rule: KeyFileRule,
    ) -> Result<Self, Error> {
        let chain = read_certificates(cert, cert_option, "certificate file")?;
        let invalid = |what: String| Error::InvalidUrl {
            detail: format!("{key_option}: {what}"),
        };
        let meta = std::fs::metadata(key)
            .map_err(|e| invalid(format!("the key file cannot be read: {}", e.kind())))?;
        if rule == KeyFileRule::Libpq {
            if !meta.is_file() {
                return Err(invalid("the key file is not a regular file".into()));
            }
            if !libpq_key_permissions(&meta) {
                return Err(invalid(
                    "the key file has group or world access: it must be u=rw (0600) or less if owned by the current user, or u=rw,g=r (0640) or less if owned by root (libpq's rule)".into(),
                ));
            }
        }
        let bytes = std::fs::read(key)
            .map_err(|e| invalid(format!("the key file cannot be read: {}", e.kind())))?;
        let encrypted = [
            &b"-----BEGIN ENCRYPTED PRIVATE KEY-----"[..],
            b"Proc-Type: 4,ENCRYPTED",
        ];
        if encrypted
            .iter()
            .any(|marker| bytes.windows(marker.len()).any(|w| w == *marker))
        {
            return Err(invalid(
                "the key is encrypted, and a key password is not supported: store it decrypted (openssl pkey -in KEY -out PLAIN, readable by its owner only)".into(),
            ));
        }
        let key = PrivateKeyDer::from_pem_slice(&bytes)
            .ok()
            .or_else(|| {
                // libpq reads a key in DER too.
                (!bytes.starts_with(b"-----"))
                    .then(|| PrivateKeyDer::try_from(bytes.clone()).ok())
                    .flatten()
            })
            .ok_or_else(|| {
                invalid(
                    "the key file holds no private key (PEM \"PRIVATE KEY\", \"RSA PRIVATE KEY\" or \"EC PRIVATE KEY\", or DER)".into(),
                )
            })?;
        Ok(ClientIdentity {
            chain,
            key,
            cert_option,
            key_option,
        })
    }
}

/// libpq's rule for a private key file's permissions: no access for group or others, or
/// group read when root owns the file.
#[cfg(unix)]
fn libpq_key_permissions(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // S_IWGRP | S_IXGRP | S_IRWXO when root owns it, else S_IRWXG | S_IRWXO.
    let forbidden = if meta.uid() == 0 { 0o037 } else { 0o077 };
    meta.mode() & forbidden == 0
}

/// Windows: libpq does not check (no Unix permissions).
#[cfg(not(unix))]
fn libpq_key_permissions(_meta: &std::fs::Metadata) -> bool {
    true
}

/// Verifies as libpq does on OpenSSL (see the module's notes), as much as `verify` says:
/// nothing (the handshake is still signed by the certificate's key), or a self-signed
/// certificate that is one of the roots as it is or a chain up to the roots, then the host
/// name as libpq checks it.
#[derive(Debug)]
struct LibpqVerifier {
    verify: Verify,
    roots: Arc<RootCertStore>,
    /// The roots' certificates as given, for the self-signed rule.
    certs: Vec<CertificateDer<'static>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for LibpqVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if self.verify == Verify::None {
            return Ok(ServerCertVerified::assertion());
        }
        let cert = x509::Certificate::parse(end_entity).ok_or(CertificateError::BadEncoding)?;
        let is_a_root = self.certs.iter().any(|c| c.as_ref() == end_entity.as_ref());
        if is_a_root && cert.self_issued() {
            // OpenSSL: a self-signed certificate found in the trust store as it is, is trusted
            // as it is (no chain to build); its dates and its purpose are checked.
            let at = |secs: i64| {
                UnixTime::since_unix_epoch(core::time::Duration::from_secs(secs.max(0) as u64))
            };
            let now_secs = now.as_secs() as i64;
            if now_secs < cert.not_before {
                return Err(CertificateError::NotValidYetContext {
                    time: now,
                    not_before: at(cert.not_before),
                }
                .into());
            }
            if now_secs > cert.not_after {
                return Err(CertificateError::ExpiredContext {
                    time: now,
                    not_after: at(cert.not_after),
                }
                .into());
            }
            cert.check_server_purpose().map_err(|e| match e {
                x509::PurposeError::NotForServers => CertificateError::InvalidPurpose,
                x509::PurposeError::UnknownCriticalExtension => {
                    CertificateError::UnhandledCriticalExtension
                }
            })?;
        } else {
            verify_server_cert_signed_by_trust_anchor(
                &ParsedCertificate::try_from(end_entity)?,
                &self.roots,
                intermediates,
                now,
                self.provider.signature_verification_algorithms.all,
            )?;
        }
        if self.verify == Verify::Full {
            let host = match server_name {
                ServerName::DnsName(name) => x509::Host::Name(name.as_ref()),
                ServerName::IpAddress(ip) => x509::Host::Ip((*ip).into()),
                _ => return Err(rustls::Error::UnsupportedNameType),
            };
            x509::check_host(&cert, host).map_err(|mismatch| {
                CertificateError::Other(OtherError(Arc::new(WrongHost(mismatch))))
            })?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// The host name check's refusal, carried through rustls as a certificate error of ours.
#[derive(Debug)]
struct WrongHost(x509::NameMismatch);

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

#[cfg(not(target_os = "macos"))]
const NO_SYSTEM_ROOTS: &str =
    "the system has no root certificates (install ca-certificates, or name a CA file)";
#[cfg(target_os = "macos")]
const NO_SYSTEM_ROOTS: &str = "no root certificates in /etc/ssl/cert.pem (or in SSL_CERT_FILE / SSL_CERT_DIR): name a CA file";

/// The system's root certificates (see the module's notes).
#[cfg(not(target_os = "macos"))]
fn system_certs() -> Vec<CertificateDer<'static>> {
    rustls_native_certs::load_native_certs().certs
}

/// macOS: the PEM bundle at `/etc/ssl/cert.pem`, or what `SSL_CERT_FILE` / `SSL_CERT_DIR` name.
#[cfg(target_os = "macos")]
fn system_certs() -> Vec<CertificateDer<'static>> {
    let file = std::env::var_os("SSL_CERT_FILE").map(PathBuf::from);
    let dirs: Vec<PathBuf> = std::env::var_os("SSL_CERT_DIR")
        .map(|dirs| {
            std::env::split_paths(&dirs)
                .filter(|dir| !dir.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    certs_from_paths(file.as_deref(), &dirs, Path::new("/etc/ssl/cert.pem"))
}

/// The certificates of `file` and of every file in `dirs` when either is given (as
/// rustls-native-certs reads `SSL_CERT_FILE` and `SSL_CERT_DIR`), else those of `default`.
#[cfg(any(test, target_os = "macos"))]
fn certs_from_paths(
    file: Option<&Path>,
    dirs: &[PathBuf],
    default: &Path,
) -> Vec<CertificateDer<'static>> {
    let file = match (file, dirs.is_empty()) {
        (None, true) => Some(default),
        (file, _) => file,
    };
    let mut certs = rustls_native_certs::load_certs_from_paths(file, None).certs;
    for dir in dirs {
        certs.extend(rustls_native_certs::load_certs_from_paths(None, Some(dir)).certs);
    }
    certs.sort_unstable_by(|a, b| a.as_ref().cmp(b.as_ref()));
    certs.dedup();
    certs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ISRG Root X2 (Let's Encrypt), as its publisher writes it.
    const ISRG_ROOT_X2: &str = "-----BEGIN CERTIFICATE-----
MIICGzCCAaGgAwIBAgIQQdKd0XLq7qeAwSxs6S+HUjAKBggqhkjOPQQDAzBPMQsw
CQYDVQQGEwJVUzEpMCcGA1UEChMgSW50ZXJuZXQgU2VjdXJpdHkgUmVzZWFyY2gg
R3JvdXAxFTATBgNVBAMTDElTUkcgUm9vdCBYMjAeFw0yMDA5MDQwMDAwMDBaFw00
MDA5MTcxNjAwMDBaME8xCzAJBgNVBAYTAlVTMSkwJwYDVQQKEyBJbnRlcm5ldCBT
ZWN1cml0eSBSZXNlYXJjaCBHcm91cDEVMBMGA1UEAxMMSVNSRyBSb290IFgyMHYw
EAYHKoZIzj0CAQYFK4EEACIDYgAEzZvVn4CDCuwJSvMWSj5cz3es3mcFDR0HttwW
+1qLFNvicWDEukWVEYmO6gbf9yoWHKS5xcUy4APgHoIYOIvXRdgKam7mAHf7AlF9
ItgKbppbd9/w+kHsOdx1ymgHDB/qo0IwQDAOBgNVHQ8BAf8EBAMCAQYwDwYDVR0T
AQH/BAUwAwEB/zAdBgNVHQ4EFgQUfEKWrt5LSDv6kviejM9ti6lyN5UwCgYIKoZI
zj0EAwMDaAAwZQIwe3lORlCEwkSHRhtFcP9Ymd70/aTSVaYgLXTWNLxBo1BfASdW
tL4ndQavEi51mI38AjEAi/V3bNTIZargCyzuFJ0nN6T5U6VR5CmD1/iQMVtCnwr1
/q4AaOeMSQ+2b1tbFfLn
-----END CERTIFICATE-----
";

    fn der() -> CertificateDer<'static> {
        CertificateDer::from_pem_slice(ISRG_ROOT_X2.as_bytes()).unwrap()
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sno-lease-tls-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn certs_from_paths_reads_the_variables_else_the_default() {
        let dir = scratch("roots");
        let certs_dir = dir.join("certs");
        std::fs::create_dir_all(&certs_dir).unwrap();
        let bundle = dir.join("cert.pem");
        std::fs::write(&bundle, ISRG_ROOT_X2).unwrap();
        std::fs::write(certs_dir.join("a.pem"), ISRG_ROOT_X2).unwrap();
        let missing = dir.join("missing.pem");
        let empty: &[PathBuf] = &[];

        // Neither variable: the default bundle.
        assert_eq!(certs_from_paths(None, empty, &bundle), vec![der()]);
        assert!(certs_from_paths(None, empty, &missing).is_empty());
        // SSL_CERT_FILE or SSL_CERT_DIR: they alone, never the default.
        assert_eq!(
            certs_from_paths(Some(&bundle), empty, &missing),
            vec![der()]
        );
        assert!(certs_from_paths(Some(&missing), empty, &bundle).is_empty());
        assert_eq!(
            certs_from_paths(None, std::slice::from_ref(&certs_dir), &missing),
            vec![der()]
        );
        assert!(certs_from_paths(None, &[dir.join("nodir")], &bundle).is_empty());
        // The same certificate twice is one root.
        assert_eq!(
            certs_from_paths(Some(&bundle), &[certs_dir], &missing),
            vec![der()]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

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

    #[test]
    fn key_files_as_libpq_and_redis_py_read_them() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("keys");
        let cert = dir.join("cert.pem");
        std::fs::write(&cert, ISRG_ROOT_X2).unwrap();
        let key = dir.join("key.pem");
        let read = |rule| {
            ClientIdentity::read(
                (cert.to_str().unwrap(), "sslcert"),
                (key.to_str().unwrap(), "sslkey"),
                rule,
            )
            .map(drop)
            .unwrap_err()
            .to_string()
        };
        let set_mode =
            |mode| std::fs::set_permissions(&key, std::fs::Permissions::from_mode(mode)).unwrap();
        assert!(read(KeyFileRule::Any).contains("sslkey: the key file cannot be read"));
        std::fs::write(
            &key,
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n",
        )
        .unwrap();
        set_mode(0o600);
        assert!(read(KeyFileRule::Libpq).contains("sslkey: the key is encrypted"));
        std::fs::write(&key, ISRG_ROOT_X2).unwrap();
        assert!(read(KeyFileRule::Libpq).contains("sslkey: the key file holds no private key"));
        // libpq's rule: no group or world access (group read when root owns the file).
        set_mode(0o604);
        assert!(read(KeyFileRule::Libpq).contains("group or world access"));
        assert!(read(KeyFileRule::Any).contains("holds no private key"));
        let meta = |mode| {
            set_mode(mode);
            libpq_key_permissions(&std::fs::metadata(&key).unwrap())
        };
        let root = std::fs::metadata(&key).map(|m| {
            use std::os::unix::fs::MetadataExt;
            m.uid() == 0
        });
        assert!(meta(0o600) && meta(0o400));
        assert!(!meta(0o660) && !meta(0o644) && !meta(0o601) && !meta(0o610));
        assert_eq!(meta(0o640), root.unwrap());
        // The certificate file: read first, named by its own parameter.
        std::fs::write(&cert, "no certificate here").unwrap();
        assert!(
            read(KeyFileRule::Any).contains("sslcert: the certificate file holds no certificate")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
