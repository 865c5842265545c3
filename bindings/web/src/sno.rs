//! sno's own surface: the process-wide generator (`newString`, `newStrings`), the batch check
//! of `decodeMany`, and `Generator` (by handle: JavaScript holds the number).

use std::cell::RefCell;
use std::fmt::Write;

use sno_core::{Generator, SystemClock};

use crate::errors::{R, range_error};
use crate::io::{call, output};

/// `meta` (JavaScript checked it: an integer in 0 ..= 255).
fn meta_arg(meta: u32) -> R<u8> {
    Ok(meta as u8)
}

/// The process-wide generator's next ID, without waiting (the core's generator with a default
/// partition: random per instance).
fn global_next(meta: u8) -> R<sno_core::Id> {
    Ok(sno_core::try_global_generator()?.try_next(meta)?)
}

/// A new ID's text from the process-wide generator (`newString`, `newId`): 16 characters, or
/// the core's error at once where a native `next` would wait (the 4 ms unit's 65 536 IDs used
/// up: `ERR_SNO_SEQUENCE_EXHAUSTED` with `retryAtUnixNs`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_new(meta: u32) -> i32 {
    output(|out| {
        let id = global_next(meta_arg(meta)?)?;
        out.extend_from_slice(&id.encode_bytes());
        Ok(())
    })
}

/// `n` new IDs' texts, end to end, encoded in one batch (`newStrings`, `newIds`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_new_text(n: f64, meta: u32) -> i32 {
    output(|out| {
        let n = crate::io::batch_count(n)?;
        let meta = meta_arg(meta)?;
        let generator = sno_core::try_global_generator()?;
        let mut ids = Vec::with_capacity(n);
        for _ in 0..n {
            ids.push(generator.try_next(meta)?);
        }
        out.resize(n * sno_core::ENCODED_LEN, 0);
        sno_core::Id::encode_many(&ids, out)?;
        Ok(())
    })
}

/// The index of the first invalid 16-byte item of the input (items end to end), as decimal
/// text, or nothing when all are valid: one batch decode (`decodeMany`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_first_invalid(len: usize) -> i32 {
    call(len, |input, out| {
        let mut ids = vec![sno_core::Id::ZERO; input.len() / sno_core::ENCODED_LEN];
        if let Err(e) = sno_core::Id::decode_many(input, &mut ids) {
            let index = sno_core::Id::batch_index(&e).ok_or(e)?;
            out.extend_from_slice(index.to_string().as_bytes());
        }
        Ok(())
    })
}

/// A generator JavaScript holds, with its maximum wait in milliseconds.
type Held = (Generator<SystemClock>, u32);

std::thread_local! {
    /// The generators JavaScript holds, by handle (a freed handle's slot is reused).
    static GENERATORS: RefCell<Vec<Option<Held>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on generator `handle` and its maximum wait.
fn with_generator<T>(handle: u32, f: impl FnOnce(&Generator<SystemClock>, u32) -> R<T>) -> R<T> {
    GENERATORS.with_borrow(|all| match all.get(handle as usize) {
        Some(Some((g, max_wait))) => f(g, *max_wait),
        _ => Err(range_error(format!("no generator {handle}"))),
    })
}

/// A new `Generator`: the options as integers JavaScript checked (-1: absent); with a
/// non-null `snapshot`, the eight fields of a snapshot to restore (integers, checked). Writes
/// its handle.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_new(
    partition: i32,
    sequence_min: u32,
    sequence_max: u32,
    max_wait_ms: i32,
    snapshot: *const f64,
) -> i32 {
    output(|out| {
        let max_wait = crate::io::max_wait_ms(max_wait_ms);
        let mut b = Generator::builder()
            .max_wait(std::time::Duration::from_millis(u64::from(max_wait)))
            .sequence_bounds(sequence_min as u16, sequence_max as u16);
        if !snapshot.is_null() {
            // SAFETY: JavaScript passes eight f64s it wrote into this module's memory (a
            // buffer of `sno_io`, 8-aligned) when it passes a non-null pointer.
            let s = unsafe { core::slice::from_raw_parts(snapshot, 8) };
            b = b.snapshot(sno_core::Snapshot {
                partition: s[0] as u16,
                sequence_min: s[1] as u16,
                sequence_max: s[2] as u16,
                sequence: s[3] as u32,
                now: s[4] as i64,
                wall_hi: s[5] as i64,
                wall_safe: s[6] as i64,
                drifts: s[7] as u32,
            });
        }
        if let Ok(p) = u16::try_from(partition) {
            b = b.partition(p);
        }
        let g = b.build()?;
        let handle = GENERATORS.with_borrow_mut(|all| {
            let free = all.iter().position(Option::is_none).unwrap_or(all.len());
            if free == all.len() {
                all.push(None);
            }
            all[free] = Some((g, max_wait));
            free
        });
        out.extend_from_slice(handle.to_string().as_bytes());
        Ok(())
    })
}

/// Frees generator `handle` (JavaScript's `FinalizationRegistry`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_free(handle: u32) {
    GENERATORS.with_borrow_mut(|all| {
        if let Some(slot) = all.get_mut(handle as usize) {
            *slot = None;
        }
    });
}

/// The next ID's text, or at once the core's error where a native `next` would wait
/// (`next`, `tryNext`: a page cannot sleep).
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_next(handle: u32, meta: u32) -> i32 {
    output(|out| {
        let id = with_generator(handle, |g, _| Ok(g.try_next(meta_arg(meta)?)?))?;
        out.extend_from_slice(&id.encode_bytes());
        Ok(())
    })
}

/// One attempt of `nextAsync`: `=` and the ID's text, or `+` and the milliseconds to sleep
/// before the next attempt (the core's policy), or the error when the wait gives up.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_step(handle: u32, meta: u32, budget_ms: f64, deadline_ms: f64) -> i32 {
    output(|out| {
        with_generator(handle, |g, _| {
            let meta = meta_arg(meta)?;
            let attempt = g
                .try_next(meta)
                .map(|id| out.extend_from_slice(&id.encode_bytes()));
            crate::wait::step_out(attempt, out, |e| g.can_wait(e), budget_ms, deadline_ms)
        })
    })
}

/// An ID for the time `unix_ms` (a `Date`'s), with its own wrapping sequence (`nextWithTime`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_next_with_time(handle: u32, meta: u32, unix_ms: f64) -> i32 {
    output(|out| {
        let nanos = (unix_ms.floor() as i64).saturating_mul(1_000_000);
        let id = with_generator(handle, |g, _| {
            Ok(g.new_with_unix_ns(meta_arg(meta)?, nanos)?)
        })?;
        out.extend_from_slice(&id.encode_bytes());
        Ok(())
    })
}

/// The generator's facts, space-separated: partition, capacity, maximum wait (ms), then the
/// snapshot's eight fields, then the stats' five counters.
#[unsafe(no_mangle)]
pub extern "C" fn sno_gen_state(handle: u32) -> i32 {
    output(|out| {
        with_generator(handle, |g, max_wait| {
            let s = g.snapshot();
            let t = g.stats();
            let mut text = String::new();
            let _ = write!(
                text,
                "{} {} {max_wait} {} {} {} {} {} {} {} {} {} {} {} {} {}",
                g.partition(),
                g.capacity(),
                s.partition,
                s.sequence_min,
                s.sequence_max,
                s.sequence,
                s.now,
                s.wall_hi,
                s.wall_safe,
                s.drifts,
                t.overflows,
                t.overflow_episodes,
                t.drifts,
                t.regressions,
                t.waits,
            );
            out.extend_from_slice(text.as_bytes());
            Ok(())
        })
    })
}
