//! PostgreSQL's TLS verification levels (libpq's `sslmode`), on rustls:
//!
//! | level | what is checked | `sslmode` |
//! |-------|-----------------|-----------|
//! | [`Verify::None`] | nothing: encryption against passive listeners only | `prefer`, `allow`, `require` without `sslrootcert` |
//! | [`Verify::Chain`] | the chain up to a trusted root | `verify-ca`, `require` with `sslrootcert` |
//! | [`Verify::Full`] | the chain and the host name | `verify-full` |

use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, SignatureScheme};

use crate::error::Error;
use crate::tls::{Roots, root_store};

/// How much of the server's certificate is verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verify {
    /// Encrypt, verify nothing.
    None,
    /// The chain up to a trusted root, not the host name.
    Chain,
    /// The chain and the host name.
    Full,
}

/// The crypto provider of this crate: ring, whatever else the process has installed.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A client configuration that verifies as `verify` says, against `roots`.
pub(crate) fn client_config(
    verify: Verify,
    roots: &Roots,
    option: &str,
) -> Result<ClientConfig, Error> {
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Tls {
            detail: format!("cannot set up TLS: {e}"),
        })?;
    let verifier: Arc<dyn ServerCertVerifier> = match verify {
        Verify::None => Arc::new(Unverified(provider)),
        Verify::Chain | Verify::Full => {
            let store = Arc::new(root_store(roots, option)?);
            let webpki = WebPkiServerVerifier::builder_with_provider(store, provider)
                .build()
                .map_err(|e| Error::Tls {
                    detail: format!("cannot set up TLS verification: {e}"),
                })?;
            if verify == Verify::Full {
                webpki
            } else {
                Arc::new(ChainOnly(webpki))
            }
        }
    };
    Ok(builder
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

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

/// A rustls error in words that name the verification failure.
pub(crate) fn describe(e: &rustls::Error) -> String {
    match e {
        rustls::Error::InvalidCertificate(c) => {
            let what = match c {
                CertificateError::UnknownIssuer => {
                    "it is not signed by a trusted CA (unknown issuer)".to_owned()
                }
                CertificateError::NotValidForName
                | CertificateError::NotValidForNameContext { .. } => {
                    "it is not valid for the host name connected to (wrong host)".to_owned()
                }
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    "it has expired".to_owned()
                }
                CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                    "it is not valid yet".to_owned()
                }
                CertificateError::Revoked => "it is revoked".to_owned(),
                CertificateError::BadSignature => "its signature is invalid".to_owned(),
                other => format!("{other:?}"),
            };
            format!("certificate verification failed: the server's certificate was refused: {what}")
        }
        other => format!("TLS handshake failed: {other}"),
    }
}

/// Verifies the chain, accepts any host name (libpq's `verify-ca`).
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// Accepts any certificate (libpq's `require` without a root certificate), still checking that
/// the handshake is signed by the certificate's key.
#[derive(Debug)]
struct Unverified(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
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
            &self.0.signature_verification_algorithms,
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
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
