//! Failures on their way to JavaScript: class, code and message from the core (its error table:
//! `ErrorKind::js_class`, `ErrorKind::js_code`; its message), and the properties a caller acts
//! on (`position`, `byte`, `retryAtUnixNs`, `max`, `partition`), as the Node package throws
//! them. A failed export keeps its failure; `sno_error` describes it.
//!
//! The message is the error's `Display` in `formats.wasm` (written by the core without
//! `core::fmt`: `Error::write_message`); in `sno.wasm` it is the kind's
//! one-line summary (`ErrorKind::summary`, C's `sno_status_str`), with the same properties:
//! the full messages' formatting would more than double that module (docs/wasm.md, "Sizes").

use alloc::vec::Vec;

use sno_core::Error as SnoError;

use crate::io::{put, put_decimal};
use crate::local::Local;

/// The JavaScript class of an error of this crate's own words.
#[cfg(feature = "formats")]
#[derive(Clone, Copy)]
pub(crate) enum Class {
    TypeError,
    RangeError,
}

/// An error on its way to JavaScript.
#[derive(Clone, Copy)]
pub(crate) enum Fail {
    /// A core error: class and properties by kind.
    Core(SnoError),
    /// A core error about a value the caller passed to be converted: a `RangeError`.
    #[cfg(feature = "formats")]
    Argument(SnoError),
    /// The core's refusal of a generator setting (`InvalidArgument`), named as the Node
    /// package names it: `<format>.Generator: option <camelCaseName> <the core's reason>`.
    #[cfg(feature = "formats")]
    Option {
        format: sno_core::Format,
        name: &'static str,
        reason: &'static str,
    },
    /// An error of this module's own words (an argument JavaScript cannot check alone).
    #[cfg(feature = "formats")]
    Own {
        class: Class,
        code: &'static str,
        message: &'static str,
    },
}

pub(crate) type R<T> = Result<T, Fail>;

impl From<SnoError> for Fail {
    fn from(e: SnoError) -> Self {
        Fail::Core(e)
    }
}

/// A `RangeError` `ERR_SNO_INVALID_ARGUMENT` of this crate's words.
#[cfg(feature = "formats")]
pub(crate) fn range_error(message: &'static str) -> Fail {
    Fail::Own {
        class: Class::RangeError,
        code: sno_core::ErrorKind::InvalidArgument.js_code(),
        message,
    }
}

/// The failure of the last export that returned -1.
static LAST: Local<Option<Fail>> = Local::new(None);

/// Keeps `fail` for `sno_error`.
pub(crate) fn keep(fail: Fail) {
    LAST.with(|last| *last = Some(fail));
}

/// Writes the description of the last failure as the output and returns its length: lines
/// `class` (`Error`, `TypeError` or `RangeError`), `code`, `message`, then one `name=value` line
/// per property (`retryAtUnixNs=` empty for null). Nothing when there is no failure to describe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_error() -> i32 {
    let fail = LAST.with(Option::take);
    crate::io::output(|out| {
        if let Some(fail) = fail {
            describe(fail, out);
        }
        Ok(())
    })
}

/// Writes `line` and a newline.
fn line(out: &mut Vec<u8>, line: &str) {
    put(out, line.as_bytes());
    put(out, b"\n");
}

/// Writes the property line `name=value` of a number.
fn property(out: &mut Vec<u8>, name: &str, negative: bool, value: u64) {
    put(out, name.as_bytes());
    put(out, b"=");
    put_decimal(out, negative, value);
    put(out, b"\n");
}

fn describe(fail: Fail, out: &mut Vec<u8>) {
    let e = match fail {
        #[cfg(feature = "formats")]
        Fail::Own {
            class,
            code,
            message,
        } => {
            line(
                out,
                match class {
                    Class::TypeError => "TypeError",
                    Class::RangeError => "RangeError",
                },
            );
            line(out, code);
            line(out, message);
            return;
        }
        #[cfg(feature = "formats")]
        Fail::Option {
            format,
            name,
            reason,
        } => {
            line(out, sno_core::JsClass::RangeError.name());
            line(out, sno_core::ErrorKind::InvalidArgument.js_code());
            put(out, format.name().as_bytes());
            put(out, b".Generator: option ");
            crate::io::put_camel(out, name);
            put(out, b" ");
            line(out, reason);
            return;
        }
        #[cfg(feature = "formats")]
        Fail::Argument(e) => {
            line(out, sno_core::JsClass::RangeError.name());
            line(out, e.kind().js_code());
            message(out, e);
            e
        }
        Fail::Core(e) => {
            words(out, e);
            e
        }
    };
    // The core's details (`Error::details`) that can occur here, written out rather than
    // through `Error::for_each_detail`: its text detail and the camel-case names cost about 100
    // bytes of the gzipped every-format page (docs/wasm.md, "Sizes"); these modules read no
    // environment, the text detail's one source.
    match e {
        SnoError::InvalidByte { position, byte } => {
            property(out, "position", false, position as u64);
            property(out, "byte", false, byte.into());
        }
        SnoError::InvalidLength { actual, .. } => property(out, "position", false, actual as u64),
        SnoError::BatchTooLarge { max, .. } => property(out, "max", false, max),
        SnoError::Forked { partition }
        | SnoError::LeaseExpired { partition }
        | SnoError::LeasePending { partition, .. } => {
            property(out, "partition", false, partition.into())
        }
        _ => {}
    }
    if e.is_retryable() {
        match e.retry_at_unix_ns() {
            Some(ns) => property(out, "retryAtUnixNs", ns < 0, ns.unsigned_abs()),
            None => line(out, "retryAtUnixNs="),
        }
    }
}

/// The class, code and message lines of a core error.
#[cfg(feature = "formats")]
fn words(out: &mut Vec<u8>, e: SnoError) {
    line(out, e.kind().js_class().name());
    line(out, e.kind().js_code());
    message(out, e);
}

/// The message line of a core error: its `Display`, as the core writes it without `core::fmt`.
#[cfg(feature = "formats")]
fn message(out: &mut Vec<u8>, e: SnoError) {
    e.write_message(&mut |piece| put(out, piece.as_bytes()));
    put(out, b"\n");
}

/// The class, code and message lines of a core error in `sno.wasm`: its kind's entries of the
/// core's table (the summary as the message), for the kinds the module can raise.
#[cfg(not(feature = "formats"))]
fn words(out: &mut Vec<u8>, e: SnoError) {
    for word in crate::sno::words(e.kind()) {
        line(out, word);
    }
}
