//! Every error the extension raises: a core or lease error as a PostgreSQL `ERROR` with the
//! SQLSTATE of its kind (the core's one error table says the kind), the core's own message, and
//! never a backend crash (pgrx turns a Rust panic into an `ERROR` too).

use pgrx::PgSqlErrorCode as Code;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::prelude::*;
use sno_core::ErrorKind;

/// The SQLSTATE of an error kind.
pub(crate) fn sqlstate(kind: ErrorKind) -> Code {
    use ErrorKind as K;
    match kind {
        // A value that does not decode.
        K::InvalidLength
        | K::InvalidByte
        | K::ValueOverflow
        | K::NotVersion7
        | K::TimestampOverflow
        | K::UnrecognizedFormat
        | K::AmbiguousFormat => Code::ERRCODE_INVALID_TEXT_REPRESENTATION,
        // A time outside what the format holds, or a clock outside it.
        K::TimeOutOfRange | K::MillisOutOfRange | K::ClockOutOfRange => {
            Code::ERRCODE_DATETIME_FIELD_OVERFLOW
        }
        // An argument or setting outside what it takes.
        K::InvalidArgument
        | K::InvalidPrefix
        | K::UnknownFormat
        | K::UnknownClock
        | K::InvalidEnvironment
        | K::InvalidSequenceBounds
        | K::SequenceOutOfRange
        | K::InvalidSnapshot
        | K::SnapshotAhead
        | K::LeaseInvalidUrl
        | K::LeaseInvalidOptions => Code::ERRCODE_INVALID_PARAMETER_VALUE,
        // The generator cannot mint now: a retry later may succeed.
        K::SequenceExhausted
        | K::ClockRegression
        | K::RandomnessExhausted
        | K::ClockRollback
        | K::LeaseExpired
        | K::LeasePending
        | K::LeaseLost
        | K::LeaseUnavailable
        | K::Forked
        | K::MissingPartition => Code::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        // The lease store answered with an error: privileges, a read-only server (a standby),
        // an unexpected schema.
        K::LeaseStore => Code::ERRCODE_EXTERNAL_ROUTINE_EXCEPTION,
        K::LeaseNoFreePartition | K::PartitionPoolExhausted | K::BatchTooLarge => {
            Code::ERRCODE_INSUFFICIENT_RESOURCES
        }
        K::LeaseUnreachable | K::LeaseTlsFailed => {
            Code::ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION
        }
        K::LeaseAuthenticationFailed => Code::ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
        K::RandomnessUnavailable => Code::ERRCODE_SYSTEM_ERROR,
        // A kind a later core adds, until it is given its own.
        _ => Code::ERRCODE_INTERNAL_ERROR,
    }
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
