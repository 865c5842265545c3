//! PostgreSQL's TLS as libpq sets it up, on rustls (`tls.rs` verifies):
//!
//! | level | what is checked | `sslmode` |
//! |-------|-----------------|-----------|
//! | [`Verify::None`] | nothing: encryption against passive listeners only | `prefer`, `allow`, `require` without `sslrootcert` |
//! | [`Verify::Chain`] | the chain up to a trusted root | `verify-ca`, `require` with `sslrootcert` |
//! | [`Verify::Full`] | the chain and the host name | `verify-full` |
//!
//! A client certificate, for a server that asks for one (`hostssl … cert`, `clientcert=…`):
//! `sslcert` and `sslkey`, else libpq's default files `~/.postgresql/postgresql.crt` and
//! `postgresql.key` (`%APPDATA%\postgresql\` on Windows) when the certificate file exists;
//! none with `sslcertmode=disable`, nor over a Unix socket (no TLS there). The key file must satisfy libpq's rule (no access for
//! group or others). A named certificate file that does not exist is an error here, where
//! libpq would go on without a certificate.

use std::path::PathBuf;

use rustls::ClientConfig;

use crate::error::Error;
pub(crate) use crate::tls::failure;
use crate::tls::{ClientIdentity, KeyFileRule, Roots, Verify};

/// The TLS settings of a PostgreSQL address (libpq's `ssl*` parameters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    /// How much of the server's certificate is verified.
    pub(crate) verify: Verify,
    /// The trusted roots (`sslrootcert`).
    pub(crate) roots: Roots,
    /// `sslcert`: the client certificate's file (PEM), else libpq's default when it exists.
    pub(crate) cert: Option<String>,
    /// `sslkey`: the client key's file, else libpq's default.
    pub(crate) key: Option<String>,
    /// `sslcertmode=disable`: no client certificate, whatever the files.
    pub(crate) no_client_cert: bool,
}

/// The client configuration for `settings`; a file that cannot serve is
/// [`Error::InvalidUrl`], in words.
pub(crate) fn client_config(settings: &Settings) -> Result<ClientConfig, Error> {
    let identity = client_identity(settings)?;
    crate::tls::client_config(
        settings.verify,
        &settings.roots,
        "sslrootcert",
        identity.as_ref(),
    )
}

/// The client certificate and key as libpq finds them (`initialize_SSL`): the named files,
/// else the default ones when the certificate exists; the key beside a certificate is required.
fn client_identity(settings: &Settings) -> Result<Option<ClientIdentity>, Error> {
    if settings.no_client_cert {
        return Ok(None);
    }
    let named = |file: &Option<String>| file.clone().filter(|f| !f.is_empty());
    let cert = match named(&settings.cert) {
        Some(cert) => cert,
        None => match default_file("postgresql.crt") {
            Some(cert) if cert.exists() => cert.to_string_lossy().into_owned(),
            _ => return Ok(None),
        },
    };
    let key = match named(&settings.key) {
        Some(key) => key,
        None => match default_file("postgresql.key") {
            Some(key) if key.exists() => key.to_string_lossy().into_owned(),
            _ => {
                return Err(Error::InvalidUrl {
                    detail: "sslkey: a client certificate without its key (name it with sslkey, or put it beside the certificate as ~/.postgresql/postgresql.key)".into(),
                });
            }
        },
    };
    ClientIdentity::read((&cert, "sslcert"), (&key, "sslkey"), KeyFileRule::Libpq).map(Some)
}

/// libpq's default file `name` (`pqGetHomeDirectory`): `~/.postgresql/name`, or
/// `%APPDATA%\postgresql\name` on Windows.
fn default_file(name: &str) -> Option<PathBuf> {
    #[cfg(not(windows))]
    let dir = std::env::home_dir()?.join(".postgresql");
    #[cfg(windows)]
    let dir = PathBuf::from(std::env::var_os("APPDATA")?).join("postgresql");
    Some(dir.join(name))
}
