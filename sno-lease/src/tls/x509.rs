//! The fields of an X.509 certificate (RFC 5280) that libpq's rules read and webpki does not
//! hand out: the subject's common name and the subjectAltName entries (libpq's host name
//! check), the validity, and the extensions that decide whether a self-signed certificate
//! may serve TLS (key usage, extended key usage, critical extensions), as OpenSSL reads them.
//!
//! A small DER reader, for certificates the handshake hands over: whatever it cannot read is
//! a refusal of the certificate, never a guess.

use std::net::IpAddr;

/// One DER reader over a run of elements.
#[derive(Clone, Copy)]
struct Der<'a>(&'a [u8]);

impl<'a> Der<'a> {
    /// The next element's tag and contents (single-byte tags, definite lengths up to 4 GiB).
    fn next(&mut self) -> Option<(u8, &'a [u8])> {
        let (&tag, rest) = self.0.split_first()?;
        let (&first, rest) = rest.split_first()?;
        if tag & 0x1f == 0x1f {
            return None;
        }
        let (len, rest) = if first < 0x80 {
            (usize::from(first), rest)
        } else {
            let n = usize::from(first & 0x7f);
            if n == 0 || n > 4 || rest.len() < n {
                return None;
            }
            let (bytes, rest) = rest.split_at(n);
            (
                bytes
                    .iter()
                    .fold(0usize, |len, &b| len << 8 | usize::from(b)),
                rest,
            )
        };
        if rest.len() < len {
            return None;
        }
        let (contents, rest) = rest.split_at(len);
        self.0 = rest;
        Some((tag, contents))
    }

    /// The contents of the next element, which must have `tag`.
    fn expect(&mut self, tag: u8) -> Option<&'a [u8]> {
        let (t, contents) = self.next()?;
        (t == tag).then_some(contents)
    }

    /// The contents of the next element when it has `tag`; nothing read otherwise.
    fn optional(&mut self, tag: u8) -> Option<&'a [u8]> {
        if self.0.first() == Some(&tag) {
            self.next().map(|(_, contents)| contents)
        } else {
            None
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
const BOOLEAN: u8 = 0x01;
const INTEGER: u8 = 0x02;
const BIT_STRING: u8 = 0x03;
const OCTET_STRING: u8 = 0x04;
const OID: u8 = 0x06;
const UTC_TIME: u8 = 0x17;
const GENERALIZED_TIME: u8 = 0x18;
/// subjectAltName's `dNSName [2] IA5String` and `iPAddress [7] OCTET STRING`.
const DNS_NAME: u8 = 0x82;
const IP_ADDRESS: u8 = 0x87;

/// id-at-commonName (2.5.4.3).
const COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];
/// id-ce-basicConstraints, keyUsage, extKeyUsage, subjectAltName (2.5.29.19, 15, 37, 17).
const BASIC_CONSTRAINTS: &[u8] = &[0x55, 0x1d, 0x13];
const KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x0f];
const EXTENDED_KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x25];
const SUBJECT_ALT_NAME: &[u8] = &[0x55, 0x1d, 0x11];
/// id-kp-serverAuth (1.3.6.1.5.5.7.3.1).
const SERVER_AUTH: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01];
/// The other extensions OpenSSL handles when they are critical (X509_supported_extension):
/// certificatePolicies, policyConstraints, nameConstraints, policyMappings, inhibitAnyPolicy,
/// and the key identifiers.
const OTHER_KNOWN: &[&[u8]] = &[
    &[0x55, 0x1d, 0x20],
    &[0x55, 0x1d, 0x24],
    &[0x55, 0x1d, 0x1e],
    &[0x55, 0x1d, 0x21],
    &[0x55, 0x1d, 0x36],
    &[0x55, 0x1d, 0x0e],
    &[0x55, 0x1d, 0x23],
];

/// A subjectAltName entry that libpq reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AltName<'a> {
    /// `dNSName`, as its bytes.
    Dns(&'a [u8]),
    /// `iPAddress`: 4 or 16 bytes in network order (another length is refused by libpq).
    Ip(&'a [u8]),
}

/// What libpq and OpenSSL read of a certificate.
#[derive(Debug)]
pub(crate) struct Certificate<'a> {
    /// The issuer's and the subject's distinguished names, as DER.
    issuer: &'a [u8],
    subject: &'a [u8],
    /// The validity, in Unix seconds.
    pub(crate) not_before: i64,
    pub(crate) not_after: i64,
    /// The first common name of the subject (libpq reads the first), as its bytes.
    pub(crate) common_name: Option<&'a [u8]>,
    /// The subjectAltName entries libpq reads, in order.
    pub(crate) alt_names: Vec<AltName<'a>>,
    /// The first byte of the key usage bits, when the extension is there.
    key_usage: Option<u8>,
    /// Whether the extended key usage names serverAuth, when the extension is there.
    server_auth: Option<bool>,
    /// A critical extension OpenSSL does not handle.
    unknown_critical: bool,
}

/// Why a certificate may not serve TLS, as OpenSSL's purpose check for a TLS server says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PurposeError {
    /// Its key usage allows none of digital signature, key encipherment, key agreement; or its
    /// extended key usage does not name serverAuth.
    NotForServers,
    /// It has a critical extension that OpenSSL does not handle.
    UnknownCriticalExtension,
}

impl<'a> Certificate<'a> {
    /// Reads `der`, or `None` when it is not an X.509 certificate this reader understands.
    pub(crate) fn parse(der: &'a [u8]) -> Option<Self> {
        let mut outer = Der(der);
        let mut cert = Der(outer.expect(SEQUENCE)?);
        if !outer.is_empty() {
            return None;
        }
        let mut tbs = Der(cert.expect(SEQUENCE)?);
        tbs.optional(0xa0); // version
        tbs.expect(INTEGER)?; // serialNumber
        tbs.expect(SEQUENCE)?; // signature
        let issuer = tbs.expect(SEQUENCE)?;
        let mut validity = Der(tbs.expect(SEQUENCE)?);
        let not_before = time(&mut validity)?;
        let not_after = time(&mut validity)?;
        let subject = tbs.expect(SEQUENCE)?;
        tbs.expect(SEQUENCE)?; // subjectPublicKeyInfo
        tbs.optional(0x81); // issuerUniqueID
        tbs.optional(0x82); // subjectUniqueID
        let mut parsed = Certificate {
            issuer,
            subject,
            not_before,
            not_after,
            common_name: common_name(subject)?,
            alt_names: Vec::new(),
            key_usage: None,
            server_auth: None,
            unknown_critical: false,
        };
        if let Some(extensions) = tbs.optional(0xa3) {
            let mut list = Der(Der(extensions).expect(SEQUENCE)?);
            while !list.is_empty() {
                parsed.extension(list.expect(SEQUENCE)?)?;
            }
        }
        tbs.is_empty().then_some(parsed)
    }

    /// Reads one extension into `self`.
    fn extension(&mut self, extension: &'a [u8]) -> Option<()> {
        let mut e = Der(extension);
        let id = e.expect(OID)?;
        let critical = e.optional(BOOLEAN).is_some_and(|b| b != [0]);
        let mut value = Der(e.expect(OCTET_STRING)?);
        match id {
            SUBJECT_ALT_NAME => {
                let mut names = Der(value.expect(SEQUENCE)?);
                while let Some((tag, name)) = names.next() {
                    match tag {
                        DNS_NAME => self.alt_names.push(AltName::Dns(name)),
                        IP_ADDRESS => self.alt_names.push(AltName::Ip(name)),
                        _ => {}
                    }
                }
            }
            KEY_USAGE => {
                let bits = value.expect(BIT_STRING)?;
                self.key_usage = Some(bits.get(1).copied().unwrap_or(0));
            }
            EXTENDED_KEY_USAGE => {
                let mut purposes = Der(value.expect(SEQUENCE)?);
                let mut server = false;
                while let Some(purpose) = purposes.expect(OID) {
                    server |= purpose == SERVER_AUTH;
                }
                self.server_auth = Some(server);
            }
            BASIC_CONSTRAINTS => {}
            other => self.unknown_critical |= critical && !OTHER_KNOWN.contains(&other),
        }
        Some(())
    }

    /// Issued by its own subject (the names are the same), as a self-signed certificate is.
    pub(crate) fn self_issued(&self) -> bool {
        self.issuer == self.subject
    }

    /// OpenSSL's purpose check for a TLS server's certificate (`X509_PURPOSE_SSL_SERVER`): an
    /// extended key usage, when there, names serverAuth; a key usage, when there, allows a
    /// digital signature, key encipherment or key agreement; no unknown critical extension.
    pub(crate) fn check_server_purpose(&self) -> Result<(), PurposeError> {
        /// digitalSignature, keyEncipherment, keyAgreement (bits 0, 2 and 4).
        const TLS_SERVER_USAGES: u8 = 0x80 | 0x20 | 0x08;
        if self.unknown_critical {
            return Err(PurposeError::UnknownCriticalExtension);
        }
        let usage_refused = self.key_usage.is_some_and(|k| k & TLS_SERVER_USAGES == 0);
        if usage_refused || self.server_auth == Some(false) {
            return Err(PurposeError::NotForServers);
        }
        Ok(())
    }
}

/// The first common name of a distinguished name (its value's bytes), or `None` when the
/// name does not parse.
fn common_name(name: &[u8]) -> Option<Option<&[u8]>> {
    let mut rdns = Der(name);
    while !rdns.is_empty() {
        let mut set = Der(rdns.expect(SET)?);
        while !set.is_empty() {
            let mut attribute = Der(set.expect(SEQUENCE)?);
            let id = attribute.expect(OID)?;
            let (_, value) = attribute.next()?;
            if id == COMMON_NAME {
                return Some(Some(value));
            }
        }
    }
    Some(None)
}

/// A `Time` (UTCTime `YYMMDDHHMMSSZ` or GeneralizedTime `YYYYMMDDHHMMSSZ`) in Unix seconds.
fn time(der: &mut Der<'_>) -> Option<i64> {
    let (tag, text) = der.next()?;
    let (year, rest) = match (tag, text.len()) {
        (UTC_TIME, 13) => {
            let yy = digits(&text[..2])?;
            (if yy >= 50 { 1900 + yy } else { 2000 + yy }, &text[2..])
        }
        (GENERALIZED_TIME, 15) => (digits(&text[..4])?, &text[4..]),
        _ => return None,
    };
    if rest[10] != b'Z' {
        return None;
    }
    let [month, day, hour, minute, second] = [0, 2, 4, 6, 8].map(|at| digits(&rest[at..at + 2]));
    let (month, day) = (month?, day?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(days * 86_400 + hour? * 3600 + minute? * 60 + second?)
}

fn digits(text: &[u8]) -> Option<i64> {
    text.iter().try_fold(0i64, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
    })
}

/// Days since 1970-01-01 of a date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The host a client connected to, as libpq compares it: a name, or an IP address.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Host<'a> {
    /// A host name.
    Name(&'a str),
    /// An IP address.
    Ip(IpAddr),
}

/// The outcome of libpq's host name check that is not a match: the names the certificate
/// presents (in libpq's order), or a name it refuses outright (libpq's errors: an embedded
/// NUL, an IP address of another length than 4 or 16 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NameMismatch {
    /// None of these names is the host.
    Names(Vec<Vec<u8>>),
    /// A name libpq refuses to compare.
    Malformed,
}

/// libpq's host name check (`pgtls_verify_peer_name_matches_certificate_guts`): every
/// subjectAltName entry of either kind is compared, in order; the subject's common name too,
/// unless a subjectAltName entry has the host's kind (a name for a host name, an address for
/// an IP address). Names match case-insensitively, or by a leading `*.` wildcard that stands
/// for one label; addresses match byte for byte.
pub(crate) fn check_host(cert: &Certificate<'_>, host: Host<'_>) -> Result<(), NameMismatch> {
    let mut examined = Vec::new();
    let mut check_cn = true;
    for name in &cert.alt_names {
        check_cn &= !matches!(
            (name, host),
            (AltName::Dns(_), Host::Name(_)) | (AltName::Ip(_), Host::Ip(_))
        );
        let (bytes, matched) = match *name {
            AltName::Dns(dns) => (dns, name_matches(dns, host)?),
            AltName::Ip(ip) => (ip, ip_matches(ip, host)?),
        };
        if matched {
            return Ok(());
        }
        examined.push(match *name {
            AltName::Dns(_) => bytes.to_vec(),
            AltName::Ip(ip) => ip_text(ip).into_bytes(),
        });
    }
    if check_cn && let Some(cn) = cert.common_name {
        if name_matches(cn, host)? {
            return Ok(());
        }
        examined.push(cn.to_vec());
    }
    Err(NameMismatch::Names(examined))
}

/// A name of the certificate against the host (libpq compares the host's text, an IP
/// address's too).
fn name_matches(name: &[u8], host: Host<'_>) -> Result<bool, NameMismatch> {
    if name.contains(&0) {
        return Err(NameMismatch::Malformed);
    }
    let text = match host {
        Host::Name(h) => h.to_owned(),
        Host::Ip(ip) => ip.to_string(),
    };
    let host = text.as_bytes();
    if name.eq_ignore_ascii_case(host) {
        return Ok(true);
    }
    // `*.rest`: the host is one label (no dot) followed by `.rest`.
    Ok(match name.strip_prefix(b"*") {
        Some(suffix) if suffix.len() >= 2 && suffix[0] == b'.' && host.len() > suffix.len() => {
            let (label, tail) = host.split_at(host.len() - suffix.len());
            tail.eq_ignore_ascii_case(suffix) && !label.contains(&b'.')
        }
        _ => false,
    })
}

/// An address of the certificate against the host (never a host name).
fn ip_matches(ip: &[u8], host: Host<'_>) -> Result<bool, NameMismatch> {
    Ok(match (ip.len(), host) {
        (4, Host::Ip(IpAddr::V4(h))) => ip == h.octets(),
        (16, Host::Ip(IpAddr::V6(h))) => ip == h.octets(),
        (4 | 16, _) => false,
        _ => return Err(NameMismatch::Malformed),
    })
}

/// An address of 4 or 16 bytes as text.
fn ip_text(ip: &[u8]) -> String {
    match ip.len() {
        4 => IpAddr::from(<[u8; 4]>::try_from(ip).unwrap_or_default()).to_string(),
        _ => IpAddr::from(<[u8; 16]>::try_from(ip).unwrap_or_default()).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;

    /// `openssl req -x509 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:10.0.0.1`
    /// (P-256, 2026-12-05 00:40:54 .. 2026-12-08): CA:TRUE, as OpenSSL's defaults make it.
    const SELF_SIGNED: &str = "-----BEGIN CERTIFICATE-----
MIIBmTCCAT+gAwIBAgIUaNZYozEIunZaDHcCuICwCPBaOhUwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MB4XDTI2MTIwNTAwNDA1NFoXDTI2MTIwODAw
NDA1NFowFDESMBAGA1UEAwwJbG9jYWxob3N0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEcP6+/5/OLJW5spwXsfFwmu7cBU9Zlieuu9H4xQTSyBkqIAN7owpSgAa5
HezemYB2gtpPpsMGtiQKAv9vKIxYDKNvMG0wHQYDVR0OBBYEFEMHXeMPv5B4QeTU
qlAokmRUseyqMB8GA1UdIwQYMBaAFEMHXeMPv5B4QeTUqlAokmRUseyqMA8GA1Ud
EwEB/wQFMAMBAf8wGgYDVR0RBBMwEYIJbG9jYWxob3N0hwQKAAABMAoGCCqGSM49
BAMCA0gAMEUCIHIlMKmM3DiA5VEnUqPRiZRtuXFicW9METJ49PKTqEVvAiEAzlac
Pv9Tce7TC97SbQ22vMnO/oJ1FpYk5hGGeW5unRQ=
-----END CERTIFICATE-----
";

    fn der(pem: &str) -> CertificateDer<'static> {
        CertificateDer::from_pem_slice(pem.as_bytes()).unwrap()
    }

    fn cert_with(
        alt_names: Vec<AltName<'static>>,
        common_name: Option<&'static [u8]>,
    ) -> Certificate<'static> {
        Certificate {
            issuer: b"",
            subject: b"",
            not_before: 0,
            not_after: 0,
            common_name,
            alt_names,
            key_usage: None,
            server_auth: None,
            unknown_critical: false,
        }
    }

    #[test]
    fn reads_what_openssl_writes() {
        let der = der(SELF_SIGNED);
        let cert = Certificate::parse(&der).unwrap();
        assert!(cert.self_issued());
        assert_eq!(cert.common_name, Some(&b"localhost"[..]));
        assert_eq!(
            cert.alt_names,
            [AltName::Dns(b"localhost"), AltName::Ip(&[10, 0, 0, 1])]
        );
        // notBefore 261205004054Z, notAfter three days later.
        assert_eq!(cert.not_before, 1_796_431_254);
        assert_eq!(cert.not_after - cert.not_before, 3 * 86_400);
        assert_eq!(cert.check_server_purpose(), Ok(()));
        // Cut or trailing bytes do not parse.
        assert!(Certificate::parse(&der[..der.len() - 1]).is_none());
        let mut longer = der.to_vec();
        longer.push(0);
        assert!(Certificate::parse(&longer).is_none());
    }

    #[test]
    fn dates_as_rfc_5280_writes_them() {
        let at = |tag, text: &str| {
            let mut bytes = vec![tag, text.len() as u8];
            bytes.extend_from_slice(text.as_bytes());
            time(&mut Der(&bytes))
        };
        assert_eq!(at(UTC_TIME, "700101000000Z"), Some(0));
        assert_eq!(at(UTC_TIME, "491231235959Z"), Some(2_524_607_999));
        assert_eq!(at(UTC_TIME, "200104000000Z"), Some(1_578_096_000));
        assert_eq!(
            at(GENERALIZED_TIME, "99991231235959Z"),
            Some(253_402_300_799)
        );
        assert_eq!(at(GENERALIZED_TIME, "20000229120000Z"), Some(951_825_600));
        for bad in [
            "2001040000Z",
            "200104000000+",
            "201304000000Z",
            "2001x4000000Z",
        ] {
            assert_eq!(at(UTC_TIME, bad), None, "{bad}");
        }
    }

    #[test]
    fn host_names_as_libpq_matches_them() {
        let name = |h: &'static str| Host::Name(h);
        let ip = |h: &str| Host::Ip(h.parse().unwrap());
        let dns = |n: &'static [u8]| AltName::Dns(n);
        // The subjectAltName decides, case-insensitively; the CN is not read beside a dNSName.
        let san = cert_with(vec![dns(b"db.example.com")], Some(b"other.example.com"));
        assert_eq!(check_host(&san, name("DB.example.COM")), Ok(()));
        assert_eq!(
            check_host(&san, name("other.example.com")),
            Err(NameMismatch::Names(vec![b"db.example.com".to_vec()]))
        );
        // The CN alone.
        let cn = cert_with(Vec::new(), Some(b"localhost"));
        assert_eq!(check_host(&cn, name("localhost")), Ok(()));
        assert!(check_host(&cn, name("127.0.0.1")).is_err());
        // An IP address: its iPAddress entries, else the CN (even beside a dNSName) and the
        // dNSName as text.
        let by_text = cert_with(vec![dns(b"localhost")], Some(b"127.0.0.1"));
        assert_eq!(check_host(&by_text, ip("127.0.0.1")), Ok(()));
        let ips = cert_with(vec![AltName::Ip(&[10, 0, 0, 1])], Some(b"127.0.0.1"));
        assert_eq!(check_host(&ips, ip("10.0.0.1")), Ok(()));
        assert_eq!(
            check_host(&ips, ip("127.0.0.1")),
            Err(NameMismatch::Names(vec![b"10.0.0.1".to_vec()]))
        );
        // An iPAddress entry does not keep a host name from the CN.
        let mixed = cert_with(vec![AltName::Ip(&[10, 0, 0, 1])], Some(b"db"));
        assert_eq!(check_host(&mixed, name("db")), Ok(()));
        let v6 = cert_with(vec![AltName::Ip(&[0; 16])], None);
        assert_eq!(check_host(&v6, ip("::")), Ok(()));
        // Wildcards: one leading label only.
        let wild = cert_with(vec![dns(b"*.example.com")], None);
        assert_eq!(check_host(&wild, name("db.Example.com")), Ok(()));
        for other in [
            "example.com",
            "a.b.example.com",
            ".example.com",
            "dbexample.com",
        ] {
            assert!(check_host(&wild, name(other)).is_err(), "{other}");
        }
        let inner = cert_with(vec![dns(b"db.*.com"), dns(b"*")], None);
        assert!(check_host(&inner, name("db.example.com")).is_err());
        // libpq's refusals: an embedded NUL, an address of another length.
        let nul = cert_with(vec![dns(b"localhost\0.evil")], None);
        assert_eq!(
            check_host(&nul, name("localhost")),
            Err(NameMismatch::Malformed)
        );
        let odd = cert_with(vec![AltName::Ip(&[1, 2, 3])], None);
        assert_eq!(
            check_host(&odd, ip("1.2.3.0")),
            Err(NameMismatch::Malformed)
        );
        // No name at all.
        let none = cert_with(Vec::new(), None);
        assert_eq!(
            check_host(&none, name("db")),
            Err(NameMismatch::Names(Vec::new()))
        );
    }

    #[test]
    fn server_purpose_as_openssl_checks_it() {
        let with = |key_usage, server_auth, unknown_critical| Certificate {
            key_usage,
            server_auth,
            unknown_critical,
            ..cert_with(Vec::new(), None)
        };
        assert_eq!(with(None, None, false).check_server_purpose(), Ok(()));
        // keyCertSign and cRLSign only (a CA's key usage).
        assert_eq!(
            with(Some(0x06), None, false).check_server_purpose(),
            Err(PurposeError::NotForServers)
        );
        for usage in [0x80, 0x20, 0x08] {
            assert_eq!(
                with(Some(usage), Some(true), false).check_server_purpose(),
                Ok(())
            );
        }
        assert_eq!(
            with(None, Some(false), false).check_server_purpose(),
            Err(PurposeError::NotForServers)
        );
        assert_eq!(
            with(None, None, true).check_server_purpose(),
            Err(PurposeError::UnknownCriticalExtension)
        );
    }
}
