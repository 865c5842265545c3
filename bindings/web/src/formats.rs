//! What `formats.wasm` has besides the value surface (`values.rs`): the core's format table as
//! JavaScript builds its classes from it, each format's process-wide generator and monotonic
//! `Generator` (the core's states, made from `GeneratorSettings` by `HasGenerator`, on the
//! host's clock), sno's `Generator` and batch decoding, and a new value of a format with a
//! param (the core's `Extras::param`).
//!
//! JavaScript runs a module on one thread, so a generator is its state in a cell: the core's
//! `MillisState::next_at` with the clock's reading, as the std wrapper (`Shared`) calls it under
//! its lock. The process-wide generator of a format is the one of its default settings.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::time::Duration;

use sno_core::generator::Reservation;
use sno_core::monotonic::MillisState;
use sno_core::{
    AnyId, Error as SnoError, Format, Generator, GeneratorBuilder, GeneratorSettings, HasGenerator,
    HostClock, MillisClock, Snapshot,
};

use crate::errors::{Fail, R, range_error};
use crate::io::{ascii_text, boxed, call, output, put, put_decimal, put_many};
use crate::local::Local;
use crate::values::{check_param, format_arg, put_text, with_param};

/// The core's default maximum wait of a generator, in milliseconds (`DEFAULT_MAX_WAIT`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_default_max_wait_ms() -> f64 {
    sno_core::time::DEFAULT_MAX_WAIT.as_millis() as f64
}

// ---- The formats' generators -----------------------------------------------------------------

/// A generator of one format: its state, minted on the host's clock.
trait Mint {
    /// The next value's text for the clock reading `unix_ms`.
    fn next_at(&mut self, unix_ms: i64, out: &mut Vec<u8>) -> R<()>;
}

impl<S> Mint for S
where
    S: MillisState,
    S::Id: Into<AnyId>,
{
    fn next_at(&mut self, unix_ms: i64, out: &mut Vec<u8>) -> R<()> {
        // The text through the core's dispatch over the formats (`put_text`): one copy of
        // each format's encoder in the module, not one more per generator.
        put_text(out, &MillisState::next_at(self, unix_ms)?.into());
        Ok(())
    }
}

/// The state of `$ty`'s generator made from `$settings`, where the table gives it one.
macro_rules! made {
    (true, $ty:ty, $settings:ident) => {
        Ok(boxed(<$ty as HasGenerator>::state($settings)?) as Box<dyn Mint>)
    };
    (false, $ty:ty, $settings:ident) => {
        Err(range_error(
            "the format has no generator of its settings alone",
        ))
    };
}

macro_rules! define_make {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt,
        max_text_len: $text:tt, generator: $generator:tt $(, $fact:ident: $value:tt)* $(,)?
    }),* $(,)?) => {
        /// A new generator of `format` with `settings` (the core checks them).
        fn make(format: Format, settings: &GeneratorSettings) -> R<Box<dyn Mint>> {
            match format {
                $(Format::$variant => made!($generator, $ty, settings),)*
                _ => Err(range_error("the format has no generator of its settings alone")),
            }
        }
    };
}
sno_core::for_each_format!(define_make);

/// The process-wide generators, by format index (made on first use, with no setting).
static GLOBALS: Local<[Option<Box<dyn Mint>>; Format::ALL.len()]> =
    Local::new([const { None }; Format::ALL.len()]);

/// The host clock's reading in milliseconds.
fn now_ms() -> i64 {
    HostClock.now_unix_millis()
}

/// A value of `format`'s process-wide generator, without waiting (a used-up millisecond is the
/// core's retryable error at once: a synchronous call never waits).
fn global_next(format: Format, out: &mut Vec<u8>) -> R<()> {
    if !format.has_process_generator() {
        return Err(range_error("the format has no process-wide generator"));
    }
    let index = Format::ALL.iter().position(|f| *f == format).unwrap_or(0);
    GLOBALS.with(|globals| {
        let slot = globals
            .get_mut(index)
            .ok_or(range_error("unknown format index"))?;
        let generator = match slot {
            Some(g) => g,
            None => slot.insert(make(format, &GeneratorSettings::new())?),
        };
        generator.next_at(now_ms(), out)
    })
}

/// A new value's text from `format`'s process-wide generator (`new`, `newString`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_new(format: u32) -> i32 {
    output(|out| global_next(format_arg(format)?, out))
}

/// `n` values of `format`'s process-wide generator, their texts end to end (`newStrings`,
/// `newMany`): `n` checked first (the core's batch check); the first failure ends the batch.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_new_text(format: u32, n: f64) -> i32 {
    output(|out| {
        let format = format_arg(format)?;
        let n = sno_core::batch_len(n as i128)?;
        for _ in 0..n {
            global_next(format, out)?;
        }
        Ok(())
    })
}

/// The generators JavaScript holds, by handle (a freed handle's slot is reused).
static GENERATORS: Local<Vec<Option<Box<dyn Mint>>>> = Local::new(Vec::new());

/// Puts `item` into the first free slot of `table` and writes its index (the handle).
fn hold<T>(table: &mut Vec<Option<T>>, item: T, out: &mut Vec<u8>) {
    let free = table
        .iter()
        .position(Option::is_none)
        .unwrap_or(table.len());
    if free == table.len() {
        put_many(table, 1, || None);
    }
    if let Some(slot) = table.get_mut(free) {
        *slot = Some(item);
    }
    put_decimal(out, false, free as u64);
}

/// A new generator of `format`: the input holds the clock's name, and `values` one number per
/// setting of the format (the table's `generatorOptions`, in order): its value (an integer:
/// JavaScript checked), or NaN where it is not given. Writes its handle. The core checks the
/// values; its refusal of one is a `RangeError` naming the option in JavaScript's case.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_new(format: u32, len: usize, values: *const f64) -> i32 {
    call(len, |clock, out| {
        let format = format_arg(format)?;
        clock_arg(ascii_text(clock))?;
        let names = format.settings();
        // SAFETY: JavaScript writes one f64 per setting of the format at `values` (8-aligned
        // memory of the I/O buffer it asked for), which this call does not otherwise touch.
        let values = unsafe { core::slice::from_raw_parts(values, names.len()) };
        let mut settings = GeneratorSettings::new();
        for (&setting, &value) in names.iter().zip(values) {
            if !value.is_nan() {
                settings.set(setting, value as i64);
            }
        }
        let generator = make(format, &settings).map_err(|fail| match fail {
            Fail::Core(SnoError::InvalidArgument { name, reason }) => Fail::Option {
                format,
                name,
                reason,
            },
            Fail::Core(e) => Fail::Argument(e),
            fail => fail,
        })?;
        GENERATORS.with(|all| hold(all, generator, out));
        Ok(())
    })
}

/// Frees generator `handle` (JavaScript's `FinalizationRegistry`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_free(handle: u32) {
    GENERATORS.with(|all| free(all, handle));
}

/// Empties slot `handle` of `table`.
fn free<T>(table: &mut [Option<T>], handle: u32) {
    if let Some(slot) = table.get_mut(handle as usize) {
        *slot = None;
    }
}

/// Runs `f` on generator `handle`.
fn with_generator(handle: u32, f: impl FnOnce(&mut dyn Mint) -> R<()>) -> R<()> {
    GENERATORS.with(|all| match all.get_mut(handle as usize) {
        Some(Some(g)) => f(g.as_mut()),
        _ => Err(range_error("the generator was freed")),
    })
}

/// The next value's text, or at once the core's error where a native `next` would wait
/// (`next`, `tryNext`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_next(handle: u32) -> i32 {
    output(|out| with_generator(handle, |g| g.next_at(now_ms(), out)))
}

/// The next value for an explicit time in Unix milliseconds (`nextAt`; an integer: JavaScript
/// checked).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_next_at(handle: u32, unix_ms: f64) -> i32 {
    output(|out| with_generator(handle, |g| g.next_at(unix_ms as i64, out)))
}

/// One attempt of `nextAsync`: `=` and the value's text, or `+` and the milliseconds to sleep
/// before the next attempt (the core's wait policy), or the error when the wait gives up.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_gen_step(handle: u32, budget_ms: f64, deadline_ms: f64) -> i32 {
    output(|out| {
        with_generator(handle, |g| {
            crate::wait::step(
                out,
                &mut |out| g.next_at(now_ms(), out),
                &sno_core::wait::can_wait,
                budget_ms,
                deadline_ms,
            )
        })
    })
}

/// The clock a generator reads, by its name (empty: the default): the core's names
/// (`ClockKind`); both read the host's clock, a page having no ticker thread (docs/clock.md,
/// "no ticker at all"). An unknown name is the core's `RangeError` `ERR_SNO_UNKNOWN_CLOCK`.
fn clock_arg(name: &str) -> R<()> {
    if name.is_empty() {
        return Ok(());
    }
    name.parse::<sno_core::ClockKind>()
        .map(drop)
        .map_err(Fail::Argument)
}

// ---- sno's Generator and batches -------------------------------------------------------------

/// A sno generator JavaScript holds, with the block of its sequences this instance mints from
/// (as each thread does natively).
type Held = (Generator<HostClock>, Reservation);

static SNO_GENERATORS: Local<Vec<Option<Held>>> = Local::new(Vec::new());

/// A new sno `Generator`: `partition` (-1: none, for a snapshot's; JavaScript gives a default
/// partition `sno.wasm` drew when there is neither: the page's one pool), the sequence bounds
/// and maximum wait (ms) as JavaScript checked them, the clock's name as input, and with a
/// non-null `snapshot` the eight fields of a snapshot to restore (integers, checked). Writes
/// the handle.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_new(
    len: usize,
    partition: i32,
    sequence_min: u32,
    sequence_max: u32,
    max_wait_ms: u32,
    snapshot: *const f64,
) -> i32 {
    call(len, |clock, out| {
        clock_arg(ascii_text(clock))?;
        let mut b = GeneratorBuilder::new(HostClock)
            .max_wait(Duration::from_millis(max_wait_ms.into()))
            .sequence_bounds(sequence_min as u16, sequence_max as u16);
        if let Ok(p) = u16::try_from(partition) {
            b = b.partition(p);
        }
        if !snapshot.is_null() {
            // SAFETY: JavaScript passes eight f64s it wrote into this module's memory (8-aligned
            // memory of the I/O buffer it asked for) when it passes a non-null pointer.
            let s = unsafe { core::slice::from_raw_parts(snapshot, 8) };
            let field = |i: usize| s.get(i).copied().unwrap_or_default();
            b = b.snapshot(Snapshot {
                partition: field(0) as u16,
                sequence_min: field(1) as u16,
                sequence_max: field(2) as u16,
                sequence: field(3) as u32,
                now: field(4) as i64,
                wall_hi: field(5) as i64,
                wall_safe: field(6) as i64,
                drifts: field(7) as u32,
            });
        }
        let g = b.build()?;
        SNO_GENERATORS.with(|all| hold(all, (g, Reservation::new()), out));
        Ok(())
    })
}

/// Frees sno generator `handle`.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_free(handle: u32) {
    SNO_GENERATORS.with(|all| free(all, handle));
}

/// Runs `f` on sno generator `handle`.
fn with_sno(
    handle: u32,
    f: impl FnOnce(&Generator<HostClock>, &mut Reservation) -> R<()>,
) -> R<()> {
    SNO_GENERATORS.with(|all| match all.get_mut(handle as usize) {
        Some(Some((g, r))) => f(g, r),
        _ => Err(range_error("the generator was freed")),
    })
}

/// The next ID's text, or at once the core's error where a native `next` would wait (`next`,
/// `tryNext`; `meta` checked by JavaScript).
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_next(handle: u32, meta: u32) -> i32 {
    output(|out| with_sno(handle, |g, r| sno_next(g, r, meta, out)))
}

/// Appends the next ID's text of `g`, minting from its block `r` (not inlined: one copy for
/// `next` and each attempt of `nextAsync`).
#[inline(never)]
fn sno_next(g: &Generator<HostClock>, r: &mut Reservation, meta: u32, out: &mut Vec<u8>) -> R<()> {
    put_sno(out, g.try_next_with(r, meta as u8)?);
    Ok(())
}

/// Appends the text of a sno ID (not inlined: one copy of the encoding for every export).
#[inline(never)]
fn put_sno(out: &mut Vec<u8>, id: sno_core::Id) {
    put(out, &id.encode_bytes());
}

/// One attempt of `nextAsync`: as `sno_fmt_gen_step`, by the generator's own `can_wait`.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_step(handle: u32, meta: u32, budget_ms: f64, deadline_ms: f64) -> i32 {
    output(|out| {
        with_sno(handle, |g, r| {
            let attempt = &mut |out: &mut Vec<u8>| sno_next(g, r, meta, out);
            crate::wait::step(out, attempt, &|e| g.can_wait(e), budget_ms, deadline_ms)
        })
    })
}

/// An ID for the time `unix_ms`, with its own wrapping sequence (`nextAtUnixMs`, `nextWithTime`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_next_with_time(handle: u32, meta: u32, unix_ms: f64) -> i32 {
    output(|out| {
        with_sno(handle, |g, _| {
            let ns = (unix_ms as i64).saturating_mul(1_000_000);
            put_sno(out, g.next_at_unix_ns(meta as u8, ns)?);
            Ok(())
        })
    })
}

/// The generator's facts, space-separated: partition, capacity, maximum wait (ms), then the
/// snapshot's eight fields, then the stats' five counters.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_state(handle: u32) -> i32 {
    output(|out| {
        with_sno(handle, |g, _| {
            let s = g.snapshot();
            let t = g.stats();
            let max_wait_ms = u64::try_from(g.max_wait().as_millis()).unwrap_or(u64::MAX);
            let mut first = true;
            let mut number = |negative: bool, n: u64| {
                if !core::mem::take(&mut first) {
                    put(out, b" ");
                }
                put_decimal(out, negative, n);
            };
            for n in [g.partition().into(), g.capacity().into(), max_wait_ms] {
                number(false, n);
            }
            for v in s.to_values() {
                number(v < 0, v.unsigned_abs());
            }
            for n in t.to_values() {
                number(false, n);
            }
            Ok(())
        })
    })
}

/// A new value of `format` (a format with a param: the core's `Extras::param`) with the input as
/// param and a binary form from the process-wide generator of `source`, the param's source
/// format (the table's `param.sourceClass`), without waiting (`<ns>.new(param)`,
/// `<ns>.newString(param)`): the param is checked first.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_new_param(format: u32, source: u32, len: usize) -> i32 {
    call(len, |param, out| {
        let (format, source) = (format_arg(format)?, format_arg(source)?);
        let param = ascii_text(param);
        check_param(format, param)?;
        global_next(source, out)?;
        let binary = AnyId::parse_as(source, out)?;
        out.clear();
        put_text(out, &with_param(format, param, binary.as_slice())?);
        Ok(())
    })
}
