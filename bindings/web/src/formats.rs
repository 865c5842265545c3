//! What `formats.wasm` adds to the value surface (`values.rs`): each format's process-wide
//! generator and monotonic `Generator` (the core's `AnyGenerator`, by handle), detection, and
//! what single formats have beyond the model (UUID text, epochs, UUIDv7's lenient forms,
//! SCRU160's hex, the Nanoflake's padded text, TypeID's prefix and suffix).

use std::cell::RefCell;

use sno_core::model::MAX_TEXT_LEN;
use sno_core::nanoflake::Nanoflake;
use sno_core::scru160::{self, Scru160Id};
use sno_core::typeid::{self, TypeId};
use sno_core::ulidflake::UlidFlake;
use sno_core::uuid7::Uuid7;
use sno_core::{
    AnyGenerator, AnyId, Error as SnoError, Format, GeneratorSettings, IdFormat, Setting,
};

use crate::errors::{Fail, R, range_error};
use crate::io::{call, output};
use crate::values::{Op, dispatch, format_arg, global_text, put_text};

/// A new value's text from `format`'s process-wide generator (`new`, `newString`), without
/// waiting.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_new(format: u32) -> i32 {
    output(|out| global_text(format_arg(format)?, out))
}

/// `index text` of the one format the input is written in (the core's detection): `detect`.
#[unsafe(no_mangle)]
pub extern "C" fn sno_detect(len: usize) -> i32 {
    call(len, |input, out| {
        let id = AnyId::detect(input)?;
        let index = Format::ALL
            .iter()
            .position(|f| *f == id.format())
            .unwrap_or(0);
        out.extend_from_slice(format!("{index} ").as_bytes());
        out.extend_from_slice(id.text().as_bytes());
        Ok(())
    })
}

struct AsUuid<'a>(&'a [u8], &'a mut Vec<u8>);

impl Op for AsUuid<'_> {
    type Out = ();
    fn run<T: IdFormat>(self) -> R<()> {
        let id = T::decode(self.0)?;
        let bytes: [u8; 16] = id.as_slice().try_into().map_err(|_| {
            range_error(format!(
                "{} values are not 128 bits",
                T::FORMAT.display_name()
            ))
        })?;
        for (i, b) in bytes.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                self.1.push(b'-');
            }
            self.1.extend_from_slice(format!("{b:02x}").as_bytes());
        }
        Ok(())
    }
}

/// The 128 bits of a canonical text as a hyphenated lower-case UUID (`uuid`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_uuid(format: u32, len: usize) -> i32 {
    call(len, |input, out| {
        dispatch(format_arg(format)?, AsUuid(input, out))
    })
}

/// Characters of a hyphenated UUID text.
const UUID_TEXT_LEN: usize = 36;

/// The 16 bytes of a hyphenated UUID text (either case, any version: `fromUuid`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_uuid_bytes(len: usize) -> i32 {
    call(len, |input, out| {
        if input.len() != UUID_TEXT_LEN {
            return Err(SnoError::InvalidLength {
                expected: UUID_TEXT_LEN,
                actual: input.len(),
            }
            .into());
        }
        let hyphen = |i: usize| matches!(i, 8 | 13 | 18 | 23);
        if let Some((position, byte)) = input
            .iter()
            .enumerate()
            .find(|&(i, c)| hyphen(i) != (*c == b'-') || !(hyphen(i) || c.is_ascii_hexdigit()))
        {
            return Err(SnoError::InvalidByte {
                position,
                byte: *byte,
            }
            .into());
        }
        let digits: Vec<u8> = input.iter().copied().filter(|c| *c != b'-').collect();
        for pair in digits.chunks(2) {
            let text = core::str::from_utf8(pair).unwrap_or_default();
            out.push(u8::from_str_radix(text, 16).unwrap_or_default());
        }
        Ok(())
    })
}

/// Milliseconds since 1970 of a canonical text of a format with an epoch, made with the epoch
/// `epoch_ms` (`unixMsAt`, `dateAt`), as decimal text.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_unix_ms_at(format: u32, len: usize, epoch_ms: f64) -> i32 {
    call(len, |input, out| {
        // An integer in the `Date` range: JavaScript checked.
        let epoch = epoch_ms as i64;
        let unix_ms = match format_arg(format)? {
            Format::UlidFlake => UlidFlake::decode(input)?.unix_ms_at(epoch),
            Format::Nanoflake => Nanoflake::decode(input)?.unix_ms_at(epoch),
            other => return Err(range_error(format!("{other} values have no epoch"))),
        };
        out.extend_from_slice(unix_ms.to_string().as_bytes());
        Ok(())
    })
}

/// The canonical text of a UUIDv7 in any form `Uuid7.parseLenient` takes.
#[unsafe(no_mangle)]
pub extern "C" fn sno_uuid7_lenient(len: usize) -> i32 {
    call(len, |input, out| {
        put_text(&Uuid7::decode_lenient(input)?, out);
        Ok(())
    })
}

/// SCRU160's 40 lower-case hex digits (`hex`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_hex(len: usize) -> i32 {
    call(len, |input, out| {
        let mut buf = [0u8; scru160::HEX_LEN];
        out.extend_from_slice(Scru160Id::decode(input)?.encode_hex(&mut buf).as_bytes());
        Ok(())
    })
}

/// The Nanoflake's 13-digit padded text and, after a space, its reference timestamp
/// (`padded`, `referenceTimestampMs`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_nanoflake_extras(len: usize) -> i32 {
    call(len, |input, out| {
        let n = Nanoflake::decode(input)?;
        out.extend_from_slice(&n.encode_padded());
        out.extend_from_slice(format!(" {}", n.reference_timestamp()).as_bytes());
        Ok(())
    })
}

/// A TypeID's 26-character suffix (`suffix`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_typeid_suffix(len: usize) -> i32 {
    call(len, |input, out| {
        let mut buf = [0u8; typeid::SUFFIX_LEN];
        out.extend_from_slice(TypeId::decode(input)?.encode_suffix(&mut buf).as_bytes());
        Ok(())
    })
}

/// The prefix of a TypeID call: a spec violation is about the argument (a `RangeError`).
fn prefixed(made: Result<TypeId, SnoError>) -> R<TypeId> {
    made.map_err(|e| match e {
        SnoError::InvalidPrefix { .. } => Fail::Argument(e),
        e => e.into(),
    })
}

/// A new TypeID with the input as prefix and a UUIDv7 of the process-wide generator, without
/// waiting (`TypeId.generate`, `typeid.new`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_typeid_new(len: usize) -> i32 {
    call(len, |prefix, out| {
        let prefix = core::str::from_utf8(prefix).unwrap_or_default();
        // The prefix first: a bad one costs no UUID.
        prefixed(TypeId::from_uuid(prefix, [0; 16]))?;
        let uuid = sno_core::uuid7::try_new_nonblocking()?;
        put_text(&prefixed(TypeId::from_uuid7(prefix, uuid))?, out);
        Ok(())
    })
}

/// The TypeID of a prefix and a UUID: input `prefix`, a newline, then either a UUIDv7's text
/// (`t` first) or 16 bytes of any version (`b` first) (`TypeId.fromUuid`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_typeid_from_uuid(len: usize) -> i32 {
    call(len, |input, out| {
        let at = input
            .iter()
            .position(|b| *b == b'\n')
            .unwrap_or(input.len());
        let prefix = core::str::from_utf8(&input[..at]).unwrap_or_default();
        let rest = input.get(at + 1..).unwrap_or(&[]);
        let bytes = match rest.split_first() {
            Some((b't', text)) => Uuid7::decode(text)?.to_bytes(),
            Some((_, bytes)) => TypeId::from_slice(bytes)?.uuid_bytes(),
            None => TypeId::from_slice(&[])?.uuid_bytes(),
        };
        put_text(&prefixed(TypeId::from_uuid(prefix, bytes))?, out);
        Ok(())
    })
}

std::thread_local! {
    /// The format generators JavaScript holds, by handle (a freed handle's slot is reused).
    static GENERATORS: RefCell<Vec<Option<AnyGenerator>>> = const { RefCell::new(Vec::new()) };
}

fn with_generator<T>(handle: u32, f: impl FnOnce(&AnyGenerator) -> R<T>) -> R<T> {
    GENERATORS.with_borrow(|all| match all.get(handle as usize) {
        Some(Some(g)) => f(g),
        _ => Err(range_error(format!("no generator {handle}"))),
    })
}

/// A new generator of `format`: the input holds the clock's name, then one `name=value` line
/// per setting given (the table's settings in camel case, integers); writes its handle.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_new(format: u32, len: usize) -> i32 {
    call(len, |input, out| {
        let format = format_arg(format)?;
        let text = core::str::from_utf8(input).unwrap_or_default();
        let mut lines = text.split('\n');
        crate::io::clock_arg(lines.next().unwrap_or_default().as_bytes())?;
        let mut settings = GeneratorSettings::new();
        let what = format!("{}.Generator", format.name());
        for line in lines.filter(|l| !l.is_empty()) {
            let (name, value) = line.split_once('=').unwrap_or((line, ""));
            let setting = format
                .settings()
                .iter()
                .find(|s| sno_core::model::CamelCase(s.name()).to_string() == name)
                .copied()
                .ok_or_else(|| range_error(format!("{what}: unknown option {name}")))?;
            // An integer: JavaScript checked (its range is the core's to check).
            let v: i64 = value
                .parse()
                .map_err(|_| range_error(format!("{what}: option {name} must be an integer")))?;
            settings.set(setting, v);
        }
        let generator = AnyGenerator::new(format, &settings)?;
        let handle = GENERATORS.with_borrow_mut(|all| {
            let free = all.iter().position(Option::is_none).unwrap_or(all.len());
            if free == all.len() {
                all.push(None);
            }
            all[free] = Some(generator);
            free
        });
        out.extend_from_slice(handle.to_string().as_bytes());
        Ok(())
    })
}

/// Frees generator `handle` (JavaScript's `FinalizationRegistry`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_free(handle: u32) {
    GENERATORS.with_borrow_mut(|all| {
        if let Some(slot) = all.get_mut(handle as usize) {
            *slot = None;
        }
    });
}

/// The next value's text, or at once the core's error where a native `next` would wait
/// (`next`, `tryNext`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_next(handle: u32) -> i32 {
    output(|out| {
        with_generator(handle, |g| {
            let mut buf = [0u8; MAX_TEXT_LEN];
            let len = g.try_next_text(&mut buf)?;
            out.extend_from_slice(&buf[..len]);
            Ok(())
        })
    })
}

/// The next value for an explicit time in Unix milliseconds (`nextAt`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_next_at(handle: u32, unix_ms: f64) -> i32 {
    output(|out| {
        // An integer: JavaScript checked.
        let ms = unix_ms as i64;
        with_generator(handle, |g| {
            let mut buf = [0u8; MAX_TEXT_LEN];
            let len = g.next_at_text(ms, &mut buf)?;
            out.extend_from_slice(&buf[..len]);
            Ok(())
        })
    })
}

/// One attempt of `nextAsync`: `=` and the value's text, or `+` and the milliseconds to sleep
/// (the core's policy: `wait::can_wait`), or the error when the wait gives up.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_step(handle: u32, budget_ms: f64, deadline_ms: f64) -> i32 {
    output(|out| {
        with_generator(handle, |g| {
            let mut buf = [0u8; MAX_TEXT_LEN];
            let attempt = g
                .try_next_text(&mut buf)
                .map(|len| out.extend_from_slice(&buf[..len]));
            crate::wait::step_out(
                attempt,
                out,
                sno_core::wait::can_wait,
                budget_ms,
                deadline_ms,
            )
        })
    })
}

/// The settings of `format`'s `Generator` in camel case, comma-separated, then `;` and the
/// required ones (the table's; JavaScript checks option keys against them).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_settings(format: u32) -> i32 {
    output(|out| {
        let format = format_arg(format)?;
        let names = |s: &[Setting]| {
            s.iter()
                .map(|s| sno_core::model::CamelCase(s.name()).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        out.extend_from_slice(
            format!(
                "{};{}",
                names(format.settings()),
                names(format.required_settings())
            )
            .as_bytes(),
        );
        Ok(())
    })
}
