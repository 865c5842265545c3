//! Every error the addon throws, built here as the JS object the API documents: the class
//! (`Error`, `TypeError`, `RangeError`), `code` (`ERR_SNO_<KIND>` for core errors,
//! `ERR_INVALID_ARG_TYPE` / `ERR_INVALID_ARG_VALUE` for wrong arguments) and the properties a
//! caller acts on (`position`, `retryAtUnixNs`, `max`, `partition`). Internal functions return
//! [`Fail`]; each export ends in [`OrThrow::or_throw`] (or runs its body through [`throwing`]),
//! which throws the object and hands napi-rs a `PendingException` status (napi-rs then leaves
//! the pending exception alone). A promise rejects with the same object ([`rejection`]), and a
//! lease's last renewal error is the same object too ([`error_value`]).

use napi::bindgen_prelude::*;
use napi::sys;
use sno_core::Error as SnoError;

/// The JS class of a thrown error: the core's (`ErrorKind::js_class` says a kind's).
pub(crate) use sno_core::JsClass as Class;

/// An error on its way to JS.
pub(crate) enum Fail {
    /// A core error: class and properties by kind (the core's `ErrorKind::js_class`).
    Core(SnoError),
    /// A core error about a value the caller passed to be converted (`fromBigInt`,
    /// `fromFields`): a `RangeError` with the core's code, message and properties.
    Argument(SnoError),
    /// A lease error (never `sno_lease::Error::Id`: that one is [`Fail::Core`]).
    Lease(sno_lease::Error),
    /// An error of the addon's own words.
    Own {
        class: Class,
        code: &'static str,
        message: String,
        /// A `max` property (the largest batch that would have been accepted).
        max: Option<u64>,
    },
    /// A failure of N-API itself (an engine error, not an argument's).
    Napi(Error),
}

pub(crate) type R<T> = std::result::Result<T, Fail>;

impl From<SnoError> for Fail {
    fn from(e: SnoError) -> Self {
        Fail::Core(e)
    }
}

impl From<sno_lease::Error> for Fail {
    fn from(e: sno_lease::Error) -> Self {
        match e {
            sno_lease::Error::Id(e) => Fail::Core(e),
            e => Fail::Lease(e),
        }
    }
}

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        Fail::Napi(e)
    }
}

/// The code of argument values outside their range (the core's "invalid argument").
pub(crate) const INVALID_ARGUMENT: &str = "ERR_SNO_INVALID_ARGUMENT";

/// A `TypeError` with code `ERR_INVALID_ARG_TYPE`.
pub(crate) fn type_error(message: String) -> Fail {
    own(Class::TypeError, "ERR_INVALID_ARG_TYPE", message)
}

/// A `RangeError` with code `ERR_SNO_INVALID_ARGUMENT`: a number outside what its parameter takes.
pub(crate) fn range_error(message: String) -> Fail {
    own(Class::RangeError, INVALID_ARGUMENT, message)
}

/// An error of the addon's own words with this class and code.
pub(crate) fn own(class: Class, code: &'static str, message: String) -> Fail {
    Fail::Own {
        class,
        code,
        message,
        max: None,
    }
}

/// An `Error` with code `ERR_MEMORY_ALLOCATION_FAILED` (a fallible allocation refused).
pub(crate) fn out_of_memory(what: &str, bytes: usize) -> Fail {
    let message = format!("sno: could not allocate {bytes} bytes for {what}");
    own(Class::Error, "ERR_MEMORY_ALLOCATION_FAILED", message)
}

enum Prop {
    Number(f64),
    BigInt(i64),
    Text(String),
    Null,
}

/// The core's details of an error ([`sno_core::Error::details`]) as the properties of its JS
/// error: each under its JavaScript name (`retryAtUnixNs`), an absent one `null`.
fn props<'a>(details: impl IntoIterator<Item = sno_core::Detail<'a>>) -> Vec<(&'static str, Prop)> {
    use sno_core::DetailValue;
    let prop = |value| match value {
        DetailValue::Uint(n) => Prop::Number(n as f64),
        DetailValue::UnixNs(ns) => Prop::BigInt(ns),
        DetailValue::Text(text) => Prop::Text(text.to_owned()),
        _ => Prop::Null,
    };
    details
        .into_iter()
        .map(|d| (d.js_name, prop(d.value)))
        .collect()
}

fn check(status: sys::napi_status) -> Option<()> {
    (status == sys::Status::napi_ok).then_some(())
}

/// A JS string of `text`; `None` if N-API fails.
fn js_string(env: sys::napi_env, text: &str) -> Option<sys::napi_value> {
    let mut value = std::ptr::null_mut();
    // SAFETY: `env` is the live environment of the current call, `text` is passed with its
    // length and `value` is a valid out-pointer.
    check(unsafe {
        sys::napi_create_string_utf8(env, text.as_ptr().cast(), text.len() as isize, &mut value)
    })?;
    Some(value)
}

/// Builds the JS error object; `None` if N-API fails (the caller falls back to napi-rs's own).
fn build(
    env: sys::napi_env,
    class: Class,
    code: &str,
    message: &str,
    props: &[(&str, Prop)],
) -> Option<sys::napi_value> {
    let code_value = js_string(env, code)?;
    let message_value = js_string(env, message)?;
    let mut error = std::ptr::null_mut();
    // SAFETY: `env` is the live environment of the current call; every out-pointer is valid.
    unsafe {
        let create = match class {
            Class::Error => sys::napi_create_error,
            Class::TypeError => sys::napi_create_type_error,
            Class::RangeError => sys::napi_create_range_error,
        };
        check(create(env, code_value, message_value, &mut error))?;
        for (name, prop) in props {
            let mut value = std::ptr::null_mut();
            match prop {
                Prop::Number(n) => check(sys::napi_create_double(env, *n, &mut value))?,
                Prop::BigInt(n) => check(sys::napi_create_bigint_int64(env, *n, &mut value))?,
                Prop::Text(text) => value = js_string(env, text)?,
                Prop::Null => check(sys::napi_get_null(env, &mut value))?,
            }
            check(sys::napi_set_property(
                env,
                error,
                js_string(env, name)?,
                value,
            ))?;
        }
    }
    Some(error)
}

/// What a JS error is made of: class, code, message and properties.
type Parts = (Class, String, String, Vec<(&'static str, Prop)>);

/// The parts of `fail`'s JS error; `Err` for an N-API failure (no JS object to build: napi-rs
/// reports it).
fn parts(fail: Fail) -> std::result::Result<Parts, Error> {
    let fail_class = matches!(fail, Fail::Argument(_)).then_some(Class::RangeError);
    Ok(match fail {
        Fail::Napi(e) => return Err(e),
        Fail::Own {
            class,
            code,
            message,
            max,
        } => {
            let props = max
                .map(|m| vec![("max", Prop::Number(m as f64))])
                .unwrap_or_default();
            (class, code.to_owned(), message, props)
        }
        Fail::Core(e) | Fail::Argument(e) => {
            let class = fail_class.unwrap_or(e.kind().js_class());
            let code = e.kind().js_code().to_owned();
            (class, code, e.to_string(), props(e.details().iter()))
        }
        Fail::Lease(e) => {
            let props = props(e.details());
            (
                e.kind().js_class(),
                e.kind().js_code().to_owned(),
                e.to_string(),
                props,
            )
        }
    })
}

/// Throws `fail` as its JS error and returns the error napi-rs should see: `PendingException`,
/// so that the object thrown here is what JS catches.
pub(crate) fn throw(env: &Env, fail: Fail) -> Error<String> {
    let (class, code, message, props) = match parts(fail) {
        Ok(parts) => parts,
        Err(e) => return Error::new(e.status.as_ref().to_owned(), e.reason.clone()),
    };
    let raw = env.raw();
    let mut pending = false;
    // SAFETY: `raw` is the live environment of the current call.
    unsafe { sys::napi_is_exception_pending(raw, &mut pending) };
    if !pending && let Some(error) = build(raw, class, &code, &message, &props) {
        // SAFETY: `error` was just created in this environment.
        if unsafe { sys::napi_throw(raw, error) } == sys::Status::napi_ok {
            return Error::new("PendingException".to_owned(), message);
        }
    }
    Error::new(code, message)
}

/// The JS error object of `fail`, not thrown (a lease's `lastError`); `None` if N-API fails.
pub(crate) fn error_value(env: &Env, fail: Fail) -> Option<Unknown<'_>> {
    let (class, code, message, props) = parts(fail).ok()?;
    let error = build(env.raw(), class, &code, &message, &props)?;
    // SAFETY: `error` was just created in this environment, which outlives the borrow of `env`.
    Some(unsafe { Unknown::from_raw_unchecked(env.raw(), error) })
}

/// What a promise made by an `AsyncTask` rejects with: napi-rs rejects with the JS object a
/// napi `Error` refers to, so the rejection is the object `throw` would have thrown.
pub(crate) fn rejection(env: &Env, fail: Fail) -> Error {
    let fallback = match &fail {
        Fail::Napi(e) => Error::new(e.status, e.reason.clone()),
        _ => Error::from_reason("sno: could not build the error object"),
    };
    match error_value(env, fail) {
        Some(value) => Error::from(value),
        None => fallback,
    }
}

/// Runs `body` and throws its failure as [`throw`] does: the body of an export written as one
/// closure, its `?` giving [`Fail`]s.
#[inline]
pub(crate) fn throwing<T>(
    env: &Env,
    body: impl FnOnce() -> R<T>,
) -> std::result::Result<T, Error<String>> {
    body().or_throw(env)
}

/// Ends an export: a [`Fail`] becomes the thrown JS error.
pub(crate) trait OrThrow<T> {
    fn or_throw(self, env: &Env) -> std::result::Result<T, Error<String>>;
}

impl<T> OrThrow<T> for R<T> {
    fn or_throw(self, env: &Env) -> std::result::Result<T, Error<String>> {
        self.map_err(|f| throw(env, f))
    }
}

/// A failure of N-API itself.
pub(crate) fn napi_error(e: Error) -> Fail {
    Fail::Napi(e)
}
