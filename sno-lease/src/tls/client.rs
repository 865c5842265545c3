//! Client certificates: the chain and the key a server that asks for a client certificate is
//! given (PostgreSQL's `sslcert` / `sslkey`, Redis's `ssl_certfile` / `ssl_keyfile`), read
//! from PEM files with libpq's or redis-py's rules, every failure in words.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::pem::read_certificates;
use crate::error::Error;

/// A client certificate chain and its private key, for a server that asks for a client
/// certificate (PostgreSQL's `sslcert` / `sslkey`, Redis's `ssl_certfile` / `ssl_keyfile`).
pub(crate) struct ClientIdentity {
    pub(super) chain: Vec<CertificateDer<'static>>,
    pub(super) key: PrivateKeyDer<'static>,
    /// The parameters that named the files, for messages.
    pub(super) cert_option: &'static str,
    pub(super) key_option: &'static str,
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

#[cfg(test)]
mod tests {
    use super::super::pem::samples::{ISRG_ROOT_X2, scratch};
    use super::*;

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
