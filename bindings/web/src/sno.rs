//! `sno.wasm`: sno's process-wide generator (`newString`, `newStrings`; `newId` and `newIds` are
//! `Id`s of these texts) and the default partitions of the `Generator`s `formats.wasm` holds. The
//! core's [`Generator`] on the host's clock with a default partition (random per instance: the
//! core's pool, seeded from `crypto.getRandomValues`), minting from one per-thread block as
//! natively, and never waiting: where the native package would sleep (the 4 ms unit's 65 536 IDs
//! used up), the core's retryable error at once.

use alloc::vec::Vec;

use sno_core::generator::Reservation;
use sno_core::{Error, Generator, GeneratorBuilder, HostClock, Id};

use crate::errors::R;
use crate::io::{output, put, reserve};
use crate::local::Local;

/// The class, code and summary of `kind` (the core's table), for the kinds of error this
/// module's exports can raise: a default-partitioned generator's build and `try_next`
/// (`ClockOutOfRange`, `SequenceExhausted`, `ClockRegression`, `PartitionPoolExhausted`) and
/// the batch check (`BatchTooLarge`). Only these entries are in the module; any other kind
/// would be a bug of this list, and traps. (A module with `formats` writes the full messages.)
#[cfg(not(feature = "formats"))]
pub(crate) fn words(kind: sno_core::ErrorKind) -> [&'static str; 3] {
    macro_rules! words {
        ($($kind:ident),*) => {
            match kind {
                $(sno_core::ErrorKind::$kind => const {
                    let k = sno_core::ErrorKind::$kind;
                    [k.js_class().name(), k.js_code(), k.summary()]
                },)*
                _ => core::arch::wasm32::unreachable(),
            }
        };
    }
    words!(
        ClockOutOfRange,
        SequenceExhausted,
        ClockRegression,
        PartitionPoolExhausted,
        BatchTooLarge
    )
}

/// A generator and the instance's block of its sequences.
type Minting = (Generator<HostClock>, Reservation);

/// The process-wide generator (built on first use) and the instance's block of its sequences.
static GLOBAL: Local<Option<Result<Minting, Error>>> = Local::new(None);

/// The next ID of the process-wide generator (JavaScript checked `meta`: 0 ..= 255).
fn next(meta: u32) -> R<Id> {
    GLOBAL.with(|global| {
        let (generator, reservation) = global
            .get_or_insert_with(|| {
                GeneratorBuilder::new(HostClock)
                    .build()
                    .map(|g| (g, Reservation::new()))
            })
            .as_mut()
            .map_err(|e| *e)?;
        Ok(generator.try_next_with(reservation, meta as u8)?)
    })
}

/// Appends the next ID's text to `out` (one copy of the minting and encoding for both exports:
/// inlined into each, it would be in the module twice).
#[inline(never)]
fn put_next(out: &mut Vec<u8>, meta: u32) -> R<()> {
    put(out, &next(meta)?.encode_bytes());
    Ok(())
}

/// A new ID's text (`newString`): 16 characters.
#[unsafe(no_mangle)]
pub extern "C" fn sno_new(meta: u32) -> i32 {
    output(|out| put_next(out, meta))
}

/// `n` new IDs' texts end to end (`newStrings`): `n` checked by the core first (at most
/// `MAX_BATCH`; JavaScript checked it is an integer or ±Infinity, which saturate); the first
/// failure ends the batch.
#[unsafe(no_mangle)]
pub extern "C" fn sno_new_text(n: f64, meta: u32) -> i32 {
    output(|out| {
        // `n` as the core's batch check takes it; saturated at the `i64` range (not `i128`'s,
        // whose conversion is a library routine): the count above the maximum is only a
        // message's, and this module's message is the kind's summary.
        let n = sno_core::batch_len((n as i64).into())?;
        reserve(out, n * sno_core::ENCODED_LEN);
        for _ in 0..n {
            put_next(out, meta)?;
        }
        Ok(())
    })
}

/// A default partition of the page's pool (the core's: the one the process-wide generator took
/// its own from) for a `Generator` of `formats.wasm` given no partition: as natively, every
/// default-partitioned generator of one process (here, one JavaScript realm) has its own.
#[unsafe(no_mangle)]
pub extern "C" fn sno_partition() -> i32 {
    match GeneratorBuilder::new(HostClock).build() {
        Ok(g) => i32::from(g.partition()),
        Err(e) => {
            crate::errors::keep(e.into());
            -1
        }
    }
}
