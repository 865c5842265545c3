//! TLS to the stores: rustls (ring provider, no OpenSSL at run time). This module holds what both
//! stores share, the trusted roots; PostgreSQL's verification levels are in `pg_tls.rs`, Redis'
//! in the redis crate (always the chain and the host name).
//!
//! Trusted roots: the PEM file the URL names (`sslrootcert=…`, `ssl_ca_certs=…`), else the
//! system's root certificates (`sslrootcert=system` names them explicitly, as in libpq 16).

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::error::Error;

/// Where the trusted roots come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Roots {
    /// The operating system's store.
    System,
    /// A PEM file of CA certificates.
    File(String),
}

/// The trusted roots, or [`Error::InvalidUrl`] naming the option (never its value: a path is
/// harmless, but the URL it came from may not be).
pub(crate) fn root_store(roots: &Roots, option: &str) -> Result<RootCertStore, Error> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            for cert in found.certs {
                // A system certificate rustls cannot parse is skipped, as browsers do.
                let _ = store.add(cert);
            }
            if store.is_empty() {
                return Err(Error::Tls {
                    detail: "the system has no root certificates (install ca-certificates, or name a CA file)".into(),
                });
            }
        }
        Roots::File(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| Error::InvalidUrl {
                    detail: format!("{option}: the CA file cannot be read: {}", pem_error(&e)),
                })?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| Error::InvalidUrl {
                    detail: format!("{option}: the CA file is not PEM: {}", pem_error(&e)),
                })?;
            for cert in certs {
                store.add(cert).map_err(|e| Error::InvalidUrl {
                    detail: format!("{option}: a certificate of the CA file is not usable: {e}"),
                })?;
            }
            if store.is_empty() {
                return Err(Error::InvalidUrl {
                    detail: format!("{option}: the CA file holds no certificate"),
                });
            }
        }
    }
    Ok(store)
}

fn pem_error(e: &rustls::pki_types::pem::Error) -> String {
    match e {
        rustls::pki_types::pem::Error::Io(io) => io.kind().to_string(),
        other => format!("{other:?}"),
    }
}

#[cfg(feature = "redis")]
/// Makes sure a process-wide rustls provider exists for the drivers that build their own
/// configuration (the redis crate calls `ClientConfig::builder()`): ring, unless the
/// application installed one first.
pub(crate) fn install_default_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
