//! Failures on their way to JavaScript: class, code and message from the core's error table
//! (`ErrorKind::js_class`, `ErrorKind::js_code`, the error's `Display`), and the
//! properties a caller acts on (`position`, `retryAtUnixNs`, `max`, `partition`), as the Node
//! package throws them. A failed export keeps its failure; `sno_error` describes it.

use std::cell::Cell;
use std::fmt::Write;

use sno_core::Error as SnoError;

/// The JavaScript class of a thrown error.
#[derive(Clone, Copy)]
pub(crate) enum Class {
    Error,
    TypeError,
    RangeError,
}

/// An error on its way to JavaScript.
#[derive(Clone)]
pub(crate) enum Fail {
    /// A core error: class and properties by kind (see [`class_of`]).
    Core(SnoError),
    /// A core error about a value the caller passed to be converted: a `RangeError`.
    Argument(SnoError),
    /// An error of this module's own words.
    Own {
        class: Class,
        code: &'static str,
        message: String,
    },
}

pub(crate) type R<T> = Result<T, Fail>;

impl From<SnoError> for Fail {
    fn from(e: SnoError) -> Self {
        Fail::Core(e)
    }
}

/// A `RangeError` with the core's code of arguments out of range, `ERR_SNO_INVALID_ARGUMENT`.
pub(crate) fn range_error(message: String) -> Fail {
    Fail::Own {
        class: Class::RangeError,
        code: sno_core::ErrorKind::InvalidArgument.js_code(),
        message,
    }
}

/// A `TypeError` with code `ERR_INVALID_ARG_TYPE` (an argument of the wrong type).
pub(crate) fn type_error(message: String) -> Fail {
    Fail::Own {
        class: Class::TypeError,
        code: "ERR_INVALID_ARG_TYPE",
        message,
    }
}

/// The class a core error is thrown as: the core's table (`ErrorKind::js_class`).
fn class_of(e: &SnoError) -> Class {
    match e.kind().js_class() {
        sno_core::JsClass::RangeError => Class::RangeError,
        _ => Class::Error,
    }
}

std::thread_local! {
    /// The failure of the last export that returned -1 (one thread per instance).
    static LAST: Cell<Option<Fail>> = const { Cell::new(None) };
}

/// Keeps `fail` for `sno_error`.
pub(crate) fn keep(fail: Fail) {
    LAST.set(Some(fail));
}

/// Writes the description of the last failure into the I/O buffer and returns its length:
/// lines `class` (`Error`, `TypeError` or `RangeError`), `code`, `message`, then one
/// `name=value` line per property (`retryAtUnixNs=` empty for null).
#[unsafe(no_mangle)]
pub extern "C" fn sno_error() -> i32 {
    let fail = LAST.take();
    crate::io::output(|out| {
        let mut text = String::new();
        describe(fail, &mut text);
        out.extend_from_slice(text.as_bytes());
        Ok(())
    })
}

fn describe(fail: Option<Fail>, text: &mut String) {
    let class_name = |c: Class| match c {
        Class::Error => "Error",
        Class::TypeError => "TypeError",
        Class::RangeError => "RangeError",
    };
    let (class, e) = match fail {
        None => {
            let _ = write!(
                text,
                "Error\nERR_SNO_INTERNAL\nsno: no failure to describe\n"
            );
            return;
        }
        Some(Fail::Own {
            class,
            code,
            message,
        }) => {
            let _ = write!(text, "{}\n{code}\n{message}\n", class_name(class));
            return;
        }
        Some(Fail::Argument(e)) => (Class::RangeError, e),
        Some(Fail::Core(e)) => (class_of(&e), e),
    };
    let _ = write!(text, "{}\n{}\n{e}\n", class_name(class), e.kind().js_code());
    match e {
        SnoError::InvalidByte { position, .. } => {
            let _ = writeln!(text, "position={position}");
        }
        SnoError::InvalidLength { actual, .. } => {
            let _ = writeln!(text, "position={actual}");
        }
        SnoError::BatchTooLarge { max, .. } => {
            let _ = writeln!(text, "max={max}");
        }
        SnoError::Forked { partition }
        | SnoError::LeaseExpired { partition }
        | SnoError::LeasePending { partition, .. } => {
            let _ = writeln!(text, "partition={partition}");
        }
        _ => {}
    }
    if e.is_retryable() {
        let _ = match e.retry_at_unix_ns() {
            Some(ns) => writeln!(text, "retryAtUnixNs={ns}"),
            None => writeln!(text, "retryAtUnixNs="),
        };
    }
}
