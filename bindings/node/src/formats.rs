//! The native half of the other formats: one set of functions taking a format `kind` (0 ULID,
//! 1 UUIDv7, 2 SCRU128, 3 SCRU160, 4 Ulid-Flake, 5 Nanoflake; `formats.js` holds the table),
//! written once over a small trait and dispatched per call, and one generator class over the
//! core generators.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::Error as SnoError;
use sno_core::monotonic::Shared;
use sno_core::nanoflake::{self, Nanoflake};
use sno_core::rng::ThreadRng;
use sno_core::scru128::{self, Scru128Id};
use sno_core::scru160::{self, Scru160Id};
use sno_core::ulid::{self, Ulid};
use sno_core::ulidflake::{self, UlidFlake};
use sno_core::uuid7::{self, Uuid7};

use crate::fail::{OrThrow, R, range_error};
use crate::{batch_count, bytes_arg, int_arg, napi_error, try_vec, wait, with_text};

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
    /// The binary form.
    fn bytes(&self) -> &[u8];
    /// Writes the canonical text into `buf`, returning its length.
    fn text(&self, buf: &mut [u8; MAX_TEXT]) -> usize;
    /// The numeric fields: `[unixMs, ...]` (the format's fields that fit a double; for
    /// Nanoflakes, whose epoch the value does not carry, `[timestamp, ...]`).
    fn fields(&self) -> Vec<f64>;
    /// The next value of the process-wide generator, or its typed error (a clock outside the
    /// format's range, no OS randomness); `None` for Nanoflakes, whose generators need an id
    /// and an epoch.
    fn global() -> Option<CoreResult<Self>>;
    /// The length of the canonical text (the longest, for Nanoflakes).
    const WIDTH: usize;
}

macro_rules! format_common {
    ($len:expr) => {
        fn bytes(&self) -> &[u8] {
            self.as_bytes()
        }
        fn text(&self, buf: &mut [u8; MAX_TEXT]) -> usize {
            buf[..$len].copy_from_slice(&self.encode_bytes());
            $len
        }
    };
}

impl Format for Ulid {
    const WIDTH: usize = ulid::ENCODED_LEN;
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Ulid::decode(text)
    }
    format_common!(ulid::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![self.unix_ms() as f64]
    }
    fn global() -> Option<CoreResult<Self>> {
        Some(ulid::try_new())
    }
}

impl Format for Uuid7 {
    const WIDTH: usize = uuid7::ENCODED_LEN;
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Uuid7::decode(text)
    }
    fn decode_lenient(text: &[u8]) -> CoreResult<Self> {
        Uuid7::decode_lenient(text)
    }
    format_common!(uuid7::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![self.unix_ms() as f64, f64::from(self.rand_a())]
    }
    fn global() -> Option<CoreResult<Self>> {
        Some(uuid7::try_new())
    }
}

impl Format for Scru128Id {
    const WIDTH: usize = scru128::ENCODED_LEN;
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Scru128Id::decode(text)
    }
    format_common!(scru128::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![
            self.unix_ms() as f64,
            f64::from(self.counter_hi()),
            f64::from(self.counter_lo()),
            f64::from(self.entropy()),
        ]
    }
    fn global() -> Option<CoreResult<Self>> {
        Some(scru128::try_new())
    }
}

impl Format for Scru160Id {
    const WIDTH: usize = scru160::ENCODED_LEN;
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Scru160Id::decode(text)
    }
    format_common!(scru160::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![
            self.unix_ms() as f64,
            f64::from(self.counter()),
            f64::from(self.random16()),
        ]
    }
    fn global() -> Option<CoreResult<Self>> {
        Some(scru160::try_new())
    }
}

impl Format for UlidFlake {
    const WIDTH: usize = ulidflake::ENCODED_LEN;
    fn decode(text: &[u8]) -> CoreResult<Self> {
        UlidFlake::decode(text)
    }
    format_common!(ulidflake::ENCODED_LEN);
    fn fields(&self) -> Vec<f64> {
        vec![
            self.unix_ms() as f64,
            self.timestamp() as f64,
            f64::from(self.randomness()),
            f64::from(self.scalable_randomness()),
            f64::from(self.sid()),
        ]
    }
    fn global() -> Option<CoreResult<Self>> {
        Some(ulidflake::try_new())
    }
}

impl Format for Nanoflake {
    const WIDTH: usize = nanoflake::MAX_ENCODED_LEN;
    fn decode(text: &[u8]) -> CoreResult<Self> {
        Nanoflake::decode(text)
    }
    fn bytes(&self) -> &[u8] {
        self.as_bytes()
    }
    fn text(&self, buf: &mut [u8; MAX_TEXT]) -> usize {
        let mut digits = [0u8; nanoflake::MAX_ENCODED_LEN];
        let text = self.encode(&mut digits).as_bytes();
        buf[..text.len()].copy_from_slice(text);
        text.len()
    }
    fn fields(&self) -> Vec<f64> {
        vec![
            self.timestamp() as f64,
            f64::from(self.generator_id()),
            f64::from(self.sequence()),
            self.reference_timestamp() as f64,
        ]
    }
    fn global() -> Option<CoreResult<Self>> {
        None
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
            3 => {
                type $T = Scru160Id;
                $body
            }
            4 => {
                type $T = UlidFlake;
                $body
            }
            5 => {
                type $T = Nanoflake;
                $body
            }
            other => Err(range_error(format!("unknown format kind {other}"))),
        }
    };
}

fn js_text<'e, T: Format>(env: &'e Env, id: &T) -> R<JsString<'e>> {
    let mut buf = [0u8; MAX_TEXT];
    let n = id.text(&mut buf);
    env.create_string_latin1(&buf[..n]).map_err(napi_error)
}

/// Strictly decodes `text` (`lenient`: UUIDv7 also takes 32 bare hex digits and braces) and
/// returns its canonical text (upper-case ULID, lower-case UUID and SCRU128), or `undefined`
/// when `text` is canonical already (the common case: no new string). Throws `TypeError` for a
/// non-string and `ERR_SNO_*` (with `position`) for bad text, with UTF-8 byte positions.
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
    let canonical = |input: &[u8]| -> R<Option<JsString<'e>>> {
        dispatch!(kind, T => {
            let decode = if lenient == Some(true) { T::decode_lenient } else { T::decode };
            let id = decode(input)?;
            let mut canonical = [0u8; MAX_TEXT];
            let len = id.text(&mut canonical);
            if canonical[..len] == *input {
                return Ok(None);
            }
            env.create_string_latin1(&canonical[..len]).map(Some).map_err(napi_error)
        })
    };
    with_text(env, &text, "parse(text): text", canonical)
        .and_then(|r| r)
        .or_throw(env)
}

/// The canonical text of the raw bytes (`fromBytes`).
#[napi(
    ts_args_type = "kind: number, bytes: Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_from_bytes<'e>(env: &'e Env, kind: u32, bytes: Unknown) -> Result<JsString<'e>, String> {
    (|| -> R<JsString<'e>> {
        let bytes = bytes_arg(env, &bytes, "fromBytes(bytes): bytes")?;
        dispatch!(kind, T => js_text(env, &T::from_slice(&bytes)?))
    })()
    .or_throw(env)
}

/// The bytes of a canonical text.
#[napi(catch_unwind)]
pub fn fmt_to_bytes(env: &Env, kind: u32, text: String) -> Result<Buffer, String> {
    (|| -> R<Buffer> {
        dispatch!(kind, T => {
            let id = T::decode(text.as_bytes())?;
            Ok(Buffer::from(id.bytes().to_vec()))
        })
    })()
    .or_throw(env)
}

/// The numeric fields of a canonical text: `[unixMs, ...]` (see `formats.js`).
#[napi(catch_unwind)]
pub fn fmt_fields(env: &Env, kind: u32, text: String) -> Result<Vec<f64>, String> {
    (|| -> R<Vec<f64>> { dispatch!(kind, T => Ok(T::decode(text.as_bytes())?.fields())) })()
        .or_throw(env)
}

/// The largest epoch (and time) in Unix milliseconds a JS `Date` holds: ±8.64e15.
const MAX_DATE_MS: i64 = 8_640_000_000_000_000;

/// An epoch in Unix milliseconds: an integer within the `Date` range (`-8.64e15 ..= 8.64e15`;
/// generators take no negative epoch), else a `RangeError` naming `what`.
fn epoch_arg(what: &str, epoch_ms: f64, min: i64) -> R<i64> {
    int_arg(what, epoch_ms, min, MAX_DATE_MS)
}

/// Milliseconds since 1970 of a canonical Nanoflake (`kind` 5) or Ulid-Flake (`kind` 4) text
/// made with the epoch `epochMs` (`unixMsAt`, `dateAt`, `unixMsWithEpoch`). `formats.js` checks
/// that `epochMs` is a number; here it must be an integer within the `Date` range.
#[napi(catch_unwind)]
pub fn fmt_unix_ms_at(env: &Env, kind: u32, text: String, epoch_ms: f64) -> Result<f64, String> {
    (|| -> R<f64> {
        let what = if kind == 4 {
            "unixMsWithEpoch(epochMs): epochMs"
        } else {
            "unixMsAt(epochMs): epochMs"
        };
        let epoch = epoch_arg(what, epoch_ms, -MAX_DATE_MS)?;
        let unix_ms = match kind {
            4 => UlidFlake::decode(text.as_bytes())?.unix_ms_at(epoch),
            5 => Nanoflake::decode(text.as_bytes())?.unix_ms_at(epoch),
            other => return Err(range_error(format!("format kind {other} has no epoch"))),
        };
        // |epoch| <= 8.64e15 and the field below 2^43: the sum is an exact double.
        Ok(unix_ms as f64)
    })()
    .or_throw(env)
}

/// The next value of the process-wide generator of `T`.
fn global<T: Format>() -> R<T> {
    Ok(T::global()
        .ok_or_else(|| range_error("this format has no process-wide generator".into()))??)
}

/// A new value's text from the process-wide generator.
#[napi(ts_return_type = "string", catch_unwind)]
pub fn fmt_new_string(env: &Env, kind: u32) -> Result<JsString<'_>, String> {
    (|| -> R<JsString<'_>> { dispatch!(kind, T => js_text(env, &global::<T>()?)) })().or_throw(env)
}

/// `n` new values' texts from the process-wide generator, laid end to end in one string. `n` is
/// checked first: an integer, at most `MAX_BATCH`, and a string V8 can hold.
#[napi(
    ts_args_type = "kind: number, n: number",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_new_text(env: &Env, kind: u32, n: f64) -> Result<JsString<'_>, String> {
    (|| -> R<JsString<'_>> {
        dispatch!(kind, T => {
            let n = batch_count(n, T::WIDTH)?;
            let mut buf = [0u8; MAX_TEXT];
            let mut text = try_vec(n * T::WIDTH, "the batch's text")?;
            for _ in 0..n {
                let len = global::<T>()?.text(&mut buf);
                text.extend_from_slice(&buf[..len]);
            }
            env.create_string_latin1(&text).map_err(napi_error)
        })
    })()
    .or_throw(env)
}

enum AnyGenerator {
    Ulid(Shared<ulid::Monotonic<ThreadRng>>),
    Uuid7(Shared<uuid7::Monotonic<ThreadRng>>),
    Scru128(Shared<scru128::Monotonic<ThreadRng>>),
    Scru160(Shared<scru160::Monotonic<ThreadRng>>),
    UlidFlake(Shared<ulidflake::Monotonic<ThreadRng>>),
    Nanoflake(Shared<nanoflake::Monotonic>),
}

/// A thread-safe monotonic generator of one format (the `Generator` of each namespace in
/// `formats.js`).
#[napi]
pub struct FormatGenerator {
    inner: AnyGenerator,
    max_wait_ms: u32,
}

/// Which generator call to make.
#[derive(Clone, Copy)]
enum Call {
    /// Waits (sleeping) at most `max_wait_ms` for a used-up millisecond or a clock rollback.
    Next(u32),
    TryNext,
    At(i64),
}

fn step<'e, T: Format, S>(env: &'e Env, g: &Shared<S>, call: Call) -> R<JsString<'e>>
where
    S: sno_core::monotonic::MillisState<Id = T> + Clone,
{
    let id = match call {
        Call::Next(max_wait_ms) => wait::bounded(max_wait_ms, || g.try_next()),
        Call::TryNext => g.try_next(),
        Call::At(ms) => g.next_at(ms),
    }?;
    js_text(env, &id)
}

impl FormatGenerator {
    fn call<'e>(&self, env: &'e Env, call: Call) -> Result<JsString<'e>, String> {
        match &self.inner {
            AnyGenerator::Ulid(g) => step(env, g, call),
            AnyGenerator::Uuid7(g) => step(env, g, call),
            AnyGenerator::Scru128(g) => step(env, g, call),
            AnyGenerator::Scru160(g) => step(env, g, call),
            AnyGenerator::UlidFlake(g) => step(env, g, call),
            AnyGenerator::Nanoflake(g) => step(env, g, call),
        }
        .or_throw(env)
    }
}

#[napi]
impl FormatGenerator {
    /// A generator of format `kind`. Settings (checked by `formats.js` for keys and type):
    /// `epochMs` (Ulid-Flake, Nanoflake), `id` (the Nanoflakes generator id, or the Ulid-Flake
    /// `sid`, -1 for stand-alone), `entropySize` (Ulid-Flake) and `maxWaitMs` (all).
    #[napi(constructor, catch_unwind)]
    pub fn new(
        env: &Env,
        kind: u32,
        epoch_ms: Option<f64>,
        id: Option<f64>,
        entropy_size: Option<f64>,
        max_wait_ms: Option<f64>,
    ) -> Result<Self, String> {
        (|| -> R<Self> {
            let ns = [
                "ulid",
                "uuid7",
                "scru128",
                "scru160",
                "ulidflake",
                "nanoflake",
            ]
            .get(kind as usize)
            .copied()
            .unwrap_or("format");
            let option = |name: &str| format!("{ns}.Generator: option {name}");
            let max_wait_ms = wait::max_wait_ms(max_wait_ms, &format!("{ns}.Generator"))?;
            let settings = |e: SnoError| range_error(format!("invalid generator settings: {e}"));
            let inner = match kind {
                0 => AnyGenerator::Ulid(Shared::default()),
                1 => AnyGenerator::Uuid7(Shared::default()),
                2 => AnyGenerator::Scru128(Shared::default()),
                3 => AnyGenerator::Scru160(Shared::default()),
                4 => {
                    let sid = match id.map(|s| int_arg(&option("sid"), s, -1, 31)).transpose()? {
                        None | Some(-1) => None,
                        Some(sid) => Some(sid as u8),
                    };
                    let config = ulidflake::Config {
                        epoch_ms: match epoch_ms {
                            None => ulidflake::DEFAULT_EPOCH_MS,
                            Some(e) => epoch_arg(&option("epochMs"), e, 0)?,
                        },
                        sid,
                        entropy_size: int_arg(
                            &option("entropySize"),
                            entropy_size.unwrap_or(1.0),
                            1,
                            3,
                        )? as u8,
                    };
                    let state =
                        ulidflake::Monotonic::with_config(ThreadRng, config).map_err(settings)?;
                    AnyGenerator::UlidFlake(Shared::new(state))
                }
                5 => {
                    let generator_id =
                        int_arg(&option("generatorId"), id.unwrap_or(f64::NAN), 0, 1023)?;
                    let epoch_ms = epoch_arg(&option("epochMs"), epoch_ms.unwrap_or(f64::NAN), 0)?;
                    let state = nanoflake::Monotonic::new(epoch_ms, generator_id as u16)
                        .map_err(settings)?;
                    AnyGenerator::Nanoflake(Shared::new(state))
                }
                other => return Err(range_error(format!("unknown format kind {other}"))),
            };
            Ok(FormatGenerator { inner, max_wait_ms })
        })()
        .or_throw(env)
    }

    /// The next value's text; a used-up millisecond (or a Nanoflakes clock gone back) makes it
    /// sleep until a retry can succeed, for at most `maxWaitMs`; then it throws what
    /// `tryNextString` would.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_string<'e>(&self, env: &'e Env) -> Result<JsString<'e>, String> {
        self.call(env, Call::Next(self.max_wait_ms))
    }

    /// Like `nextString`, but throws ERR_SNO_RANDOMNESS_EXHAUSTED (or for Nanoflakes
    /// ERR_SNO_CLOCK_ROLLBACK) with `retryAtUnixNs` instead of sleeping.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn try_next_string<'e>(&self, env: &'e Env) -> Result<JsString<'e>, String> {
        self.call(env, Call::TryNext)
    }

    /// The next value for an explicit time in Unix milliseconds (the clock is not read).
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_at_string<'e>(&self, env: &'e Env, unix_ms: f64) -> Result<JsString<'e>, String> {
        match int_arg(
            "Generator.nextAt(unixMs): unixMs",
            unix_ms,
            i64::MIN,
            i64::MAX,
        ) {
            Ok(ms) => self.call(env, Call::At(ms)),
            Err(e) => Err(e).or_throw(env),
        }
    }

    /// The longest `next` / `nextAsync` waits, in milliseconds.
    #[napi(getter, catch_unwind)]
    pub fn max_wait_ms(&self) -> u32 {
        self.max_wait_ms
    }
}
