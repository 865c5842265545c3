//! The native half of ULID, UUIDv7 and SCRU128: one set of functions taking a format `kind`
//! (0 ULID, 1 UUIDv7, 2 SCRU128; `formats.js` holds the table), written once over a small trait
//! and dispatched per call, and one generator class over the three core generators.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::Error as SnoError;
use sno_core::monotonic::Shared;
use sno_core::rng::ThreadRng;
use sno_core::scru128::{self, Scru128Id};
use sno_core::ulid::{self, Ulid};
use sno_core::uuid7::{self, Uuid7};

use crate::{arg_error, bytes_arg, int_arg, js_error, napi_error, with_text};

/// A core result (`Result` here is napi's).
type CoreResult<T> = std::result::Result<T, SnoError>;

/// Room for the longest canonical text (a hyphenated UUID).
const MAX_TEXT: usize = uuid7::ENCODED_LEN;

/// What the generic functions need from a format beyond the inherent methods every core type
/// has (`decode`, `from_slice`), which `dispatch!` reaches through the concrete type.
trait Format: Copy + Sized {
    /// Strict decoder of the text forms.
    fn decode(text: &[u8]) -> CoreResult<Self>;
    /// Decoder with the format's lenient extras (the same as `decode` but for UUIDv7).
    fn decode_lenient(text: &[u8]) -> CoreResult<Self> {
        Self::decode(text)
    }
    /// The 16 bytes.
    fn bytes(&self) -> [u8; 16];
    /// Writes the canonical text into `buf`, returning its length.
    fn text(&self, buf: &mut [u8; MAX_TEXT]) -> usize;
    /// The numeric fields: `[unixMs, ...]` (the format's fields that fit a double).
    fn fields(&self) -> Vec<f64>;
    /// The next value of the process-wide generator.
    fn global() -> Self;
}

macro_rules! format_common {
    ($len:expr) => {
        fn bytes(&self) -> [u8; 16] {
            self.to_bytes()
        }
        fn text(&self, buf: &mut [u8; MAX_TEXT]) -> usize {
            buf[..$len].copy_from_slice(&self.encode_bytes());
            $len
        }
    };
}

impl Format for Ulid {
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Ulid::decode(text)
    }
    format_common!(ulid::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![self.timestamp_ms() as f64]
    }
    fn global() -> Self {
        ulid::new()
    }
}

impl Format for Uuid7 {
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Uuid7::decode(text)
    }
    fn decode_lenient(text: &[u8]) -> CoreResult<Self> {
        Uuid7::decode_lenient(text)
    }
    format_common!(uuid7::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![self.timestamp_ms() as f64, f64::from(self.rand_a())]
    }
    fn global() -> Self {
        uuid7::new()
    }
}

impl Format for Scru128Id {
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Scru128Id::decode(text)
    }
    format_common!(scru128::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![
            self.timestamp_ms() as f64,
            f64::from(self.counter_hi()),
            f64::from(self.counter_lo()),
            f64::from(self.entropy()),
        ]
    }
    fn global() -> Self {
        scru128::new()
    }
}

/// Runs `$body` with `$T` bound to the format type of `$kind`.
macro_rules! dispatch {
    ($kind:expr, $T:ident => $body:expr) => {
        match $kind {
            0 => {
                type $T = Ulid;
                $body
            }
            1 => {
                type $T = Uuid7;
                $body
            }
            2 => {
                type $T = Scru128Id;
                $body
            }
            other => Err(arg_error(format!("unknown format kind {other}"))),
        }
    };
}

fn js_text<'e, T: Format>(env: &'e Env, id: &T) -> Result<JsString<'e>, String> {
    let mut buf = [0u8; MAX_TEXT];
    let n = id.text(&mut buf);
    env.create_string_latin1(&buf[..n]).map_err(napi_error)
}

/// Strictly decodes `text` (`lenient`: UUIDv7 also takes 32 bare hex digits and braces) and
/// returns its canonical text (upper-case ULID, lower-case UUID and SCRU128), or `undefined`
/// when `text` is canonical already (the common case: no new string). Throws `TypeError` for a
/// non-string and `ERR_SNO_*` for bad text, with UTF-8 byte positions.
#[napi(
    ts_args_type = "kind: number, text: string, lenient?: boolean",
    ts_return_type = "string | undefined",
    catch_unwind
)]
pub fn fmt_canonical<'e>(
    env: &'e Env,
    kind: u32,
    text: Unknown,
    lenient: Option<bool>,
) -> Result<Option<JsString<'e>>, String> {
    let canonical = |input: &[u8]| {
        dispatch!(kind, T => {
            let decode = if lenient == Some(true) { T::decode_lenient } else { T::decode };
            let id = decode(input).map_err(js_error)?;
            let mut canonical = [0u8; MAX_TEXT];
            let len = id.text(&mut canonical);
            if canonical[..len] == *input {
                return Ok(None);
            }
            env.create_string_latin1(&canonical[..len]).map(Some).map_err(napi_error)
        })
    };
    with_text(env, &text, "parse(text): text", canonical)?.unwrap_or(Ok(None))
}

/// The canonical text of 16 raw bytes (`fromBytes`).
#[napi(
    ts_args_type = "kind: number, bytes: Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_from_bytes<'e>(
    env: &'e Env,
    kind: u32,
    bytes: Unknown,
) -> Result<Option<JsString<'e>>, String> {
    let Some(bytes) = bytes_arg(env, &bytes, "fromBytes(bytes): bytes")? else {
        return Ok(None);
    };
    dispatch!(kind, T => {
        let id = T::from_slice(&bytes).map_err(js_error)?;
        js_text(env, &id).map(Some)
    })
}

/// The 16 bytes of a canonical text.
#[napi(catch_unwind)]
pub fn fmt_to_bytes(kind: u32, text: String) -> Result<Buffer, String> {
    dispatch!(kind, T => {
        let id = T::decode(text.as_bytes()).map_err(js_error)?;
        Ok(Buffer::from(id.bytes().to_vec()))
    })
}

/// The numeric fields of a canonical text: `[unixMs, ...]` (see `formats.js`).
#[napi(catch_unwind)]
pub fn fmt_fields(kind: u32, text: String) -> Result<Vec<f64>, String> {
    dispatch!(kind, T => Ok(T::decode(text.as_bytes()).map_err(js_error)?.fields()))
}

/// A new value's text from the process-wide generator.
#[napi(ts_return_type = "string", catch_unwind)]
pub fn fmt_new_string(env: &Env, kind: u32) -> Result<JsString<'_>, String> {
    dispatch!(kind, T => js_text(env, &T::global()))
}

/// `n` new values' texts from the process-wide generator, laid end to end in one string.
#[napi(
    ts_args_type = "kind: number, n: number",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_new_text(env: &Env, kind: u32, n: f64) -> Result<JsString<'_>, String> {
    let n = int_arg("n", n, 0, i64::from(u32::MAX))? as usize;
    dispatch!(kind, T => {
        let mut buf = [0u8; MAX_TEXT];
        let mut text = Vec::new();
        for _ in 0..n {
            let len = T::global().text(&mut buf);
            text.extend_from_slice(&buf[..len]);
        }
        env.create_string_latin1(&text).map_err(napi_error)
    })
}

enum AnyGenerator {
    Ulid(Shared<ulid::Monotonic<ThreadRng>>),
    Uuid7(Shared<uuid7::Monotonic<ThreadRng>>),
    Scru128(Shared<scru128::Monotonic<ThreadRng>>),
}

/// A thread-safe monotonic generator of one format (the `Generator` of `ulid`, `uuid7` and
/// `scru128` in `formats.js`).
#[napi]
pub struct FormatGenerator(AnyGenerator);

/// Which generator call to make.
#[derive(Clone, Copy)]
enum Call {
    Next,
    TryNext,
    At(i64),
}

fn step<'e, T: Format, S>(env: &'e Env, g: &Shared<S>, call: Call) -> Result<JsString<'e>, String>
where
    S: sno_core::monotonic::MillisState<Id = T>,
{
    let id = match call {
        Call::Next => g.next(),
        Call::TryNext => g.try_next(),
        Call::At(ms) => g.next_at(ms),
    }
    .map_err(js_error)?;
    js_text(env, &id)
}

impl FormatGenerator {
    fn call<'e>(&self, env: &'e Env, call: Call) -> Result<JsString<'e>, String> {
        match &self.0 {
            AnyGenerator::Ulid(g) => step(env, g, call),
            AnyGenerator::Uuid7(g) => step(env, g, call),
            AnyGenerator::Scru128(g) => step(env, g, call),
        }
    }
}

#[napi]
impl FormatGenerator {
    #[napi(constructor, catch_unwind)]
    pub fn new(kind: u32) -> Result<Self, String> {
        Ok(FormatGenerator(match kind {
            0 => AnyGenerator::Ulid(Shared::default()),
            1 => AnyGenerator::Uuid7(Shared::default()),
            2 => AnyGenerator::Scru128(Shared::default()),
            other => return Err(arg_error(format!("unknown format kind {other}"))),
        }))
    }

    /// The next value's text; a ULID millisecond's randomness used up makes it sleep into the
    /// next millisecond.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_string<'e>(&self, env: &'e Env) -> Result<JsString<'e>, String> {
        self.call(env, Call::Next)
    }

    /// Like `nextString`, but throws ERR_SNO_RANDOMNESS_EXHAUSTED instead of sleeping.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn try_next_string<'e>(&self, env: &'e Env) -> Result<JsString<'e>, String> {
        self.call(env, Call::TryNext)
    }

    /// The next value for an explicit time in Unix milliseconds (the clock is not read).
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_at_string<'e>(&self, env: &'e Env, unix_ms: f64) -> Result<JsString<'e>, String> {
        let ms = int_arg("unixMs", unix_ms, i64::MIN, i64::MAX)?;
        self.call(env, Call::At(ms))
    }
}
