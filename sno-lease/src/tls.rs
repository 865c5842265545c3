//! TLS to the stores: rustls (ring provider, no OpenSSL at run time). This module holds what both
//! stores share, the trusted roots; PostgreSQL's verification levels are in `pg_tls.rs`, Redis'
//! in the redis crate (always the chain and the host name).
//!
//! Trusted roots: the PEM file the URL names (`sslrootcert=…`, `ssl_ca_certs=…`), else the
//! system's root certificates (`sslrootcert=system` names them explicitly, as in libpq 16).
//!
//! The system's roots are what rustls-native-certs finds: the files `SSL_CERT_FILE` /
//! `SSL_CERT_DIR` name when either is set, else the platform's store (OpenSSL's files on Linux,
//! the certificate store on Windows). macOS is the exception: its store (the Keychain) is read
//! through Security.framework, which the release builds cannot link (they are linked by zig,
//! which has no macOS SDK), so there the roots come from the PEM bundle macOS ships,
//! `/etc/ssl/cert.pem`, or from the same two variables. Roots only in the Keychain (a company
//! CA added with Keychain Access) are not seen: name a CA file instead.

#[cfg(any(test, target_os = "macos"))]
use std::path::{Path, PathBuf};

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
            for cert in system_certs() {
                // A system certificate rustls cannot parse is skipped, as browsers do.
                let _ = store.add(cert);
            }
            if store.is_empty() {
                return Err(Error::Tls {
                    detail: NO_SYSTEM_ROOTS.into(),
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

/// The system's root certificates that rustls accepts, as PEM: the redis crate takes roots
/// only as PEM bytes. On macOS its own loading of the system's roots is Keychain code that is
/// not linked (`tls-rustls-webpki-roots`, whose roots are never used: the store always hands
/// it these).
#[cfg(all(feature = "redis", target_os = "macos"))]
pub(crate) fn system_roots_pem() -> Result<Vec<u8>, Error> {
    let mut pem = Vec::new();
    for cert in system_certs() {
        if RootCertStore::empty().add(cert.clone()).is_ok() {
            pem.extend_from_slice(&certificate_pem(&cert));
        }
    }
    if pem.is_empty() {
        return Err(Error::Tls {
            detail: NO_SYSTEM_ROOTS.into(),
        });
    }
    Ok(pem)
}

/// One certificate as PEM (base64 in lines of 64 characters, as OpenSSL writes it).
#[cfg(any(test, all(feature = "redis", target_os = "macos")))]
fn certificate_pem(der: &[u8]) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut base64 = Vec::with_capacity(der.len().div_ceil(3) * 4);
    for chunk in der.chunks(3) {
        let bytes = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let word = u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]);
        for i in 0..4 {
            base64.push(if i <= chunk.len() {
                ALPHABET[(word >> (18 - 6 * i)) as usize & 63]
            } else {
                b'='
            });
        }
    }
    let mut pem = b"-----BEGIN CERTIFICATE-----\n".to_vec();
    for line in base64.chunks(64) {
        pem.extend_from_slice(line);
        pem.push(b'\n');
    }
    pem.extend_from_slice(b"-----END CERTIFICATE-----\n");
    pem
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

#[cfg(test)]
mod tests {
    use super::*;

    /// ISRG Root X2 (Let's Encrypt), as its publisher writes it: 64-character lines, and a
    /// last one with `=` padding.
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

    #[test]
    fn certificate_pem_writes_what_openssl_writes() {
        assert_eq!(
            String::from_utf8(certificate_pem(&der())).unwrap(),
            ISRG_ROOT_X2
        );
        // Every padding: the DER cut to lengths 3k, 3k+1, 3k+2 reads back the same bytes.
        for cut in [der().len() - 2, der().len() - 1, der().len() - 3, 1, 2, 3] {
            let bytes = &der()[..cut];
            let pem = certificate_pem(bytes);
            let back = CertificateDer::from_pem_slice(&pem).unwrap();
            assert_eq!(back.as_ref(), bytes, "length {cut}");
        }
    }

    #[test]
    fn certs_from_paths_reads_the_variables_else_the_default() {
        let dir = std::env::temp_dir().join(format!("sno-lease-tls-{}", std::process::id()));
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
