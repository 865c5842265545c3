//! Reading PEM files of certificates, for the trusted roots (`tls.rs`) and a client's own
//! certificate (`client.rs`): the failures in words, never the file's contents.

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::error::Error;

/// The certificates of the PEM file at `path`: at least one, or [`Error::InvalidUrl`] naming
/// `option` and the file's role (`what`).
pub(super) fn read_certificates(
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

/// Files for the tests of `tls.rs` and `client.rs`.
#[cfg(test)]
pub(super) mod samples {
    use std::path::PathBuf;

    /// ISRG Root X2 (Let's Encrypt), as its publisher writes it.
    pub(in crate::tls) const ISRG_ROOT_X2: &str = "-----BEGIN CERTIFICATE-----
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

    /// A fresh directory for a test's files.
    pub(in crate::tls) fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sno-lease-tls-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
