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

mod client;
mod pem;
mod words;
mod x509;

#[cfg(any(test, target_os = "macos"))]
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::verify_server_cert_signed_by_trust_anchor;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, InconsistentKeys, OtherError,
    RootCertStore, SignatureScheme,
};

pub(crate) use client::{ClientIdentity, KeyFileRule};
pub(crate) use words::{describe, failure};

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

/// The crypto provider of this crate: ring, whatever else the process has installed. rustls
/// 0.23.48 deprecates ring's provider for its lack of post-quantum key exchange; it stays: it
/// builds for every release target with the release's toolchains, and moving to aws-lc-rs (a C
/// library built per target) is a change of its own, to be proved by the whole cross release.
/// docs/fleet.md says what it means for the stores' TLS.
#[allow(
    deprecated,
    reason = "ring on purpose (above); deprecated from rustls 0.23.48, the lock's may be older"
)]
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
            let certs = pem::read_certificates(path, option, "CA file")?;
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
                CertificateError::Other(OtherError(Arc::new(words::WrongHost(mismatch))))
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
    use super::pem::samples::{ISRG_ROOT_X2, scratch};
    use super::*;
    use rustls::pki_types::pem::PemObject;

    fn der() -> CertificateDer<'static> {
        CertificateDer::from_pem_slice(ISRG_ROOT_X2.as_bytes()).unwrap()
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
}
