//! Every error the extension raises: a core or lease error as a PostgreSQL `ERROR` with the
//! SQLSTATE of its kind (the core's one error table says it), the core's own message, and never a
//! backend crash (pgrx turns a Rust panic into an `ERROR` too).

use pgrx::PgSqlErrorCode as Code;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::prelude::*;
use sno_core::ErrorKind;

/// The SQLSTATE of an error kind: the core's error table says it
/// ([`ErrorKind::sqlstate`]), for every kind.
pub(crate) fn sqlstate(kind: ErrorKind) -> Code {
    Code::from(sqlstate_number(kind.sqlstate()))
}

/// PostgreSQL's number of a five-character SQLSTATE (`MAKE_SQLSTATE`: six bits a character).
fn sqlstate_number(state: &str) -> i32 {
    state
        .bytes()
        .enumerate()
        .map(|(i, c)| (i32::from(c.wrapping_sub(b'0')) & 0x3F) << (6 * i))
        .sum()
}

/// Raises `message` as an `ERROR` with `code`, and `detail` when there is one.
pub(crate) fn raise(code: Code, message: String, detail: Option<String>) -> ! {
    let mut report = ErrorReport::new(code, message, "sno");
    if let Some(detail) = detail {
        report = report.set_detail(detail);
    }
    report.report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}

/// Raises a core error: its SQLSTATE, and the core's message.
pub(crate) fn raise_core(err: sno_core::Error) -> ! {
    raise(sqlstate(err.kind()), err.to_string(), None)
}

/// Raises a lease error: its SQLSTATE, and the lease's message (which never holds the URL's
/// password).
pub(crate) fn raise_lease(err: sno_lease::Error) -> ! {
    raise(sqlstate(err.kind()), err.to_string(), None)
}

/// Raises the error of a text that is no value of type `type_name`: SQLSTATE 22P02, the
/// input in the message as PostgreSQL's own types give it, the core's words (with the byte
/// position) as the detail.
pub(crate) fn invalid_text(type_name: &str, input: &[u8], err: sno_core::Error) -> ! {
    raise(
        sqlstate(err.kind()),
        format!(
            "invalid input syntax for type {type_name}: \"{}\"",
            String::from_utf8_lossy(input)
        ),
        Some(err.to_string()),
    )
}

/// Raises the error of a binary value that is no `sno` (the receive function, the `bytea` cast):
/// SQLSTATE 22P03, the core's words (its length) as the detail.
pub(crate) fn invalid_binary(err: sno_core::Error) -> ! {
    raise(
        Code::ERRCODE_INVALID_BINARY_REPRESENTATION,
        "invalid binary form for type sno".into(),
        Some(err.to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of the core's table has a SQLSTATE PostgreSQL knows (pgrx's enum maps an unknown
    /// number to its internal error): no kind falls back.
    #[test]
    fn every_kind_has_a_known_sqlstate() {
        for &kind in ErrorKind::ALL {
            let code = sqlstate(kind);
            let known = code != Code::ERRCODE_INTERNAL_ERROR;
            assert!(known, "{kind:?}: {}", kind.sqlstate());
        }
        assert_eq!(
            sqlstate(ErrorKind::InvalidByte),
            Code::ERRCODE_INVALID_TEXT_REPRESENTATION
        );
        assert_eq!(
            sqlstate(ErrorKind::LeasePending),
            Code::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE
        );
    }
}
