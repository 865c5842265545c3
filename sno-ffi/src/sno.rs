//! sno's own C functions: the process-wide generator (sno_new), generators (sno_generator_*),
//! and the value's codec and fields (sno_id_*).

use std::ffi::c_char;

use sno_core::{Generator, Id};
use sno_lease::SnoGenerator;

use crate::args::{free_handle, read_handle, try_bytes, try_ref, write_out};
use crate::constants::{
    SNO_ENCODED_LEN, SNO_PARTITION_DEFAULT, SNO_PARTITION_FIXED, SNO_RETRY_NEVER,
};
use crate::errors::{ffi_boundary, recording_boundary, value_boundary};
use crate::generated::sno_id_decode_at;
use crate::status::sno_status;
use crate::types::{
    sno_clock, sno_generator, sno_generator_options, sno_id, sno_snapshot, sno_stats,
};

/// A new ID from the process-wide generator, configured by the environment on first use (no
/// code needed):
/// - neither variable set: a random default partition per process (fresh after fork());
/// - `SNO_PARTITION=<0..=65535>`: that partition (a fork() child then gets SNO_STATUS_FORKED:
///   two processes must not share it);
/// - `SNO_LEASE_URL=postgres://…` or `redis://…`: a partition leased for the process (see
///   sno_lease_acquire), with `SNO_LEASE_NAMESPACE` (default "default"), `SNO_LEASE_TTL`
///   (seconds, or a number with ms, s or m; default 15 s) and `SNO_LEASE_PARTITIONS`
///   (`first-last`, default 0-65535); the first call blocks while the lease is acquired, and a
///   fork() child leases its own on its first call. The lease is released when the process
///   ends normally (sno_release_process_lease, registered with `atexit` on the first lease).
///
/// Sleeps if the 4 ms unit's 65 536 IDs are used up (or a leased partition awaits its
/// renewal), 5 s at most. A bad environment fails every call: SNO_STATUS_INVALID_ENVIRONMENT
/// (SNO_PARTITION, or both SNO_PARTITION and SNO_LEASE_URL set), SNO_STATUS_LEASE_INVALID_OPTIONS
/// (SNO_LEASE_* values), SNO_STATUS_LEASE_INVALID_URL; a store that cannot lease gives the
/// other SNO_STATUS_LEASE_* statuses, and is tried again by the next call. Failures are
/// recorded for sno_last_error_message. sno_process_partition tells the partition.
/// Thread-safe.
///
/// # Safety
/// `out` must be NULL or valid for writing one sno_id.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_new(meta: u8, out: *mut sno_id) -> sno_status {
    recording_boundary(|| {
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        let id = crate::lease::process_generator()?.next(meta)?;
        // SAFETY: checked non-NULL; the caller guarantees it is writable.
        unsafe { out.write(id.into()) };
        Ok(())
    })
}

/// The partition a `sno_generator_options.partition` or sno_generator_restore value asks for:
/// `None` for the default (resp. the snapshot's), or InvalidArgument.
pub(crate) fn requested_partition(
    value: i32,
    bare_allowed: bool,
) -> Result<Option<u16>, sno_status> {
    match value {
        0 if !bare_allowed => Ok(None),
        SNO_PARTITION_DEFAULT => Ok(None),
        v if v & !0xFFFF == SNO_PARTITION_FIXED => Ok(Some((v & 0xFFFF) as u16)),
        v if bare_allowed => u16::try_from(v)
            .map(Some)
            .map_err(|_| sno_status::InvalidArgument),
        _ => Err(sno_status::InvalidArgument),
    }
}

/// Creates a generator. `opts` may be NULL for a default partition and the full sequence range;
/// zeroed options mean the same (see sno_generator_options: `SNO_PARTITION_FIXED | p` asks for
/// partition p, a bare number is SNO_STATUS_INVALID_ARGUMENT). A partition asked for while
/// `SNO_LEASE_URL` is set is SNO_STATUS_INVALID_ENVIRONMENT: the process is one of a fleet that
/// leases its partitions, and p may be one another process holds by lease (use sno_new, or
/// sno_generator_new_leased, instead). Failures are recorded for sno_last_error_message. Free
/// it with sno_generator_free. Thread-safe.
///
/// # Safety
/// `opts` must be NULL or point to a valid options struct; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_new(
    opts: *const sno_generator_options,
    out: *mut *mut sno_generator,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { sno_generator_new_with_clock(opts, sno_clock::Precise as i32, out) }
}

/// sno_generator_new on the clock `clock` (a sno_clock: SNO_CLOCK_PRECISE, as
/// sno_generator_new uses, or SNO_CLOCK_FAST, the cached clock that costs a few nanoseconds to read);
/// another value is SNO_STATUS_UNKNOWN_CLOCK. Thread-safe.
///
/// # Safety
/// `opts` must be NULL or point to a valid options struct; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_new_with_clock(
    opts: *const sno_generator_options,
    clock: i32,
    out: *mut *mut sno_generator,
) -> sno_status {
    recording_boundary(|| {
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // SAFETY: NULL or valid per the contract.
        let opts = unsafe { opts.as_ref() }.copied().unwrap_or_default();
        let builder = Generator::builder()
            .clock(sno_clock::system_clock(clock)?)
            .sequence_bounds(opts.sequence_min, opts.sequence_max);
        let partition = requested_partition(opts.partition, false)?;
        let g = Box::new(sno_generator {
            inner: SnoGenerator::plain(builder, partition, None)?,
        });
        // SAFETY: checked non-NULL; the caller guarantees it is writable.
        Ok(unsafe { write_out(out, Box::into_raw(g)) }?)
    })
}

/// Creates a generator from a snapshot (see sno_generator_snapshot). `partition` overrides the
/// snapshot's (pass SNO_PARTITION_DEFAULT to keep it), e.g. in a child after fork(): a partition
/// 0..=65535, or `SNO_PARTITION_FIXED | p` as in sno_generator_options. A snapshot
/// reaching more than 5 s ahead of the clock (a corrupted one, or a clock set far back) is
/// SNO_STATUS_SNAPSHOT_AHEAD: restoring it would make every call fail or sleep until then.
/// While `SNO_LEASE_URL` is set, restoring is SNO_STATUS_INVALID_ENVIRONMENT: the snapshot's
/// partition, or the one given, may be one another process of the fleet holds by lease. Failures
/// are recorded for sno_last_error_message. Thread-safe.
///
/// # Safety
/// `snapshot` must be NULL or valid; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_restore(
    snapshot: *const sno_snapshot,
    partition: i32,
    out: *mut *mut sno_generator,
) -> sno_status {
    recording_boundary(|| {
        // SAFETY: NULL or valid per the contract.
        let snap = unsafe { try_ref(snapshot) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // Before the partition's own check, as documented (SnoGenerator::plain checks again).
        sno_lease::check_explicit_partition()?;
        let partition = requested_partition(partition, true)?;
        let g = Box::new(sno_generator {
            inner: SnoGenerator::plain(Generator::builder(), partition, Some((*snap).into()))?,
        });
        // SAFETY: checked non-NULL; the caller guarantees it is writable.
        Ok(unsafe { write_out(out, Box::into_raw(g)) }?)
    })
}

/// Gives a generator a partition of its own, typically in a fork() child, where a generator
/// with an explicit partition refuses to mint (SNO_STATUS_FORKED) until this is called. The
/// caller must make sure no other live generator mints with `partition`, so while
/// `SNO_LEASE_URL` is set (partitions are leased) it is SNO_STATUS_INVALID_ENVIRONMENT. A leased
/// generator answers SNO_STATUS_LEASED_GENERATOR: its partition belongs to the lease. Failures
/// are recorded for sno_last_error_message. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_repartition(
    generator: *const sno_generator,
    partition: u16,
) -> sno_status {
    recording_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let g = unsafe { try_ref(generator) }?;
        Ok(g.inner.repartition(partition)?)
    })
}

/// Releases a generator; NULL is accepted and ignored. Not thread-safe with respect to other
/// calls on the same generator: call it once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a pointer from sno_generator_new/restore not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_free(generator: *mut sno_generator) {
    // SAFETY: forwarded contract.
    unsafe { free_handle(generator) }
}

/// Writes what `read` gives of the generator behind `generator` to `out`, both checked first
/// (a NULL `out` costs no ID).
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
unsafe fn read_generator<T, E>(
    generator: *const sno_generator,
    out: *mut T,
    read: impl FnOnce(&SnoGenerator) -> Result<T, E>,
) -> sno_status
where
    sno_status: From<E>,
{
    // SAFETY: forwarded contract.
    unsafe { read_handle(generator, out, |g: &sno_generator| read(&g.inner)) }
}

/// The next ID; sleeps (never spins) while the 4 ms pool is exhausted or after a second clock
/// regression, 5 s at most in all: a retry time further away (or never: the end of the sno
/// range) gives SNO_STATUS_SEQUENCE_EXHAUSTED / SNO_STATUS_CLOCK_REGRESSION at once. Also fails
/// with SNO_STATUS_CLOCK_OUT_OF_RANGE, and SNO_STATUS_FORKED in a fork() child for a generator
/// with an explicit partition (see sno_generator_repartition; a default-partitioned generator
/// takes a fresh partition in the child by itself). Thread-safe: share one generator between
/// threads freely.
///
/// # Safety
/// `generator` must be NULL or live; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_next(
    generator: *const sno_generator,
    meta: u8,
    out: *mut sno_id,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_generator(generator, out, |g| g.next(meta).map(Into::into)) }
}

/// The next ID, or at once SNO_STATUS_SEQUENCE_EXHAUSTED / SNO_STATUS_CLOCK_REGRESSION, with
/// the Unix time (ns) from which a retry succeeds written to `retry_at_unix_ns` (may be NULL),
/// or SNO_RETRY_NEVER when no retry can succeed (the end of the sno range). Never blocks.
/// Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable; `retry_at_unix_ns` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_try_next(
    generator: *const sno_generator,
    meta: u8,
    out: *mut sno_id,
    retry_at_unix_ns: *mut i64,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let g = unsafe { try_ref(generator) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        match g.inner.try_next(meta) {
            // SAFETY: checked non-NULL; writable per the contract.
            Ok(id) => unsafe { write_out(out, id.into()) },
            Err(e) => {
                if e.is_retryable() && !retry_at_unix_ns.is_null() {
                    let at = e.retry_at_unix_ns().unwrap_or(SNO_RETRY_NEVER);
                    // SAFETY: checked non-NULL; writable per the contract.
                    unsafe { write_out(retry_at_unix_ns, at) }?;
                }
                Err(e.into())
            }
        }
    })
}

/// An ID for the given Unix time in nanoseconds (porting, back-filling), with its own wrapping
/// sequence; times outside 2010..2079 give SNO_STATUS_TIME_OUT_OF_RANGE. A leased generator
/// answers SNO_STATUS_LEASED_GENERATOR (it mints only inside its lease). Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_next_at_unix_ns(
    generator: *const sno_generator,
    meta: u8,
    unix_ns: i64,
    out: *mut sno_id,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe {
        read_generator(generator, out, |g| {
            g.next_at_unix_ns(meta, unix_ns).map(Into::into)
        })
    }
}

/// Deprecated: the same as sno_generator_next_at_unix_ns; kept for the 0.2 ABI.
///
/// # Safety
/// As sno_generator_next_at_unix_ns.
#[deprecated(note = "use sno_generator_next_at_unix_ns")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_next_with_time(
    generator: *const sno_generator,
    meta: u8,
    unix_ns: i64,
    out: *mut sno_id,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { sno_generator_next_at_unix_ns(generator, meta, unix_ns, out) }
}

/// Fills `out` with `count` consecutive IDs (blocking like sno_generator_next), written
/// straight into `out` (no copy, no allocation). `count` above SNO_MAX_BATCH is
/// SNO_STATUS_BATCH_TOO_LARGE before anything is written. On another error the contents of
/// `out` are unspecified. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` must be NULL or valid for `count` sno_id writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_next_many(
    generator: *const sno_generator,
    meta: u8,
    out: *mut sno_id,
    count: usize,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let g = unsafe { try_ref(generator) }?;
        if count == 0 {
            return Ok(());
        }
        sno_core::batch_len(count as i128)?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        // Straight into the caller's buffer: no copy, no allocation.
        for i in 0..count {
            let id = g.inner.next(meta)?;
            // SAFETY: i < count and the caller guarantees count writable slots.
            unsafe { out.add(i).write(id.into()) };
        }
        Ok(())
    })
}

/// The generator's state, to persist and pass to sno_generator_restore. A leased generator
/// answers SNO_STATUS_LEASED_GENERATOR: its lease, not a snapshot, keeps its IDs unique.
/// Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_snapshot(
    generator: *const sno_generator,
    out: *mut sno_snapshot,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_generator(generator, out, |g| g.snapshot().map(Into::into)) }
}

/// Counters of overflows, regressions and waits. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_stats(
    generator: *const sno_generator,
    out: *mut sno_stats,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_generator(generator, out, |g| Ok::<_, sno_status>(g.stats().into())) }
}

/// Strictly decodes `len` bytes of text: exactly 16, each in `23456789abcdefghijklmnopqrstuvwx`.
/// Gives SNO_STATUS_INVALID_LENGTH or SNO_STATUS_INVALID_BYTE otherwise. Thread-safe.
///
/// # Safety
/// `text` must be valid for `len` reads (NULL only with len 0); `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_id_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_id,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { sno_id_decode_at(text, len, out, std::ptr::null_mut()) }
}

/// Encodes `count` IDs into `out` (count × 16 bytes, no separators, no NUL), with the widest
/// SIMD kernel the CPU has (AVX-512 VBMI, AVX2, SSSE3), chosen once per call. Thread-safe.
///
/// # Safety
/// `ids` valid for `count` reads and `out` for `count * 16` writes (NULL only with count 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_id_encode_many(
    ids: *const sno_id,
    count: usize,
    out: *mut c_char,
) -> sno_status {
    ffi_boundary(|| {
        if count == 0 {
            return Ok(());
        }
        if ids.is_null() || out.is_null() {
            return Err(sno_status::NullArgument);
        }
        let total = count
            .checked_mul(SNO_ENCODED_LEN)
            .ok_or(sno_status::InvalidLength)?;
        if total > isize::MAX as usize {
            return Err(sno_status::InvalidLength);
        }
        // SAFETY: non-NULL, and the caller guarantees count readable IDs / total writable bytes.
        let (ids, out) = unsafe {
            (
                std::slice::from_raw_parts(ids, count),
                std::slice::from_raw_parts_mut(out.cast::<u8>(), total),
            )
        };
        let ids = sno_id::as_ids(ids);
        Id::encode_many(ids, out).map_err(sno_status::from)?;
        Ok(())
    })
}

/// Strictly decodes `count` consecutive 16-byte IDs from `text` (SIMD like
/// `sno_id_encode_many`). On failure the index of the first bad ID goes to `error_index` (may be
/// NULL); the IDs before it are written to `out` and the slots from it on are left untouched.
/// Thread-safe.
///
/// # Safety
/// `text` valid for `count * 16` reads and `out` for `count` writes (NULL only with count 0);
/// `error_index` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_id_decode_many(
    text: *const c_char,
    count: usize,
    out: *mut sno_id,
    error_index: *mut usize,
) -> sno_status {
    ffi_boundary(|| {
        if count == 0 {
            return Ok(());
        }
        let total = count
            .checked_mul(SNO_ENCODED_LEN)
            .ok_or(sno_status::InvalidLength)?;
        // SAFETY: forwarded contract.
        let bytes = unsafe { try_bytes(text.cast(), total) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        // SAFETY: non-NULL, and the caller guarantees `count` writable slots; `sno_id` is
        // `#[repr(C)]` over 10 bytes like `Id`, and every byte pattern is valid for both.
        let out = unsafe { std::slice::from_raw_parts_mut(out, count) };
        if let Err(err) = Id::decode_many(bytes, sno_id::as_ids_mut(out)) {
            if let Some(index) = Id::batch_index(&err) {
                // SAFETY: NULL or writable per the contract.
                unsafe { crate::args::write_optional(error_index, index) };
            }
            return Err(err.into());
        }
        Ok(())
    })
}

/// Builds an ID from its fields; a timestamp above 2^39 − 1 gives
/// SNO_STATUS_TIMESTAMP_OVERFLOW. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_id_from_fields(
    timestamp: u64,
    tick_tock: bool,
    meta: u8,
    partition: u16,
    sequence: u16,
    out: *mut sno_id,
) -> sno_status {
    ffi_boundary(|| {
        let id = Id::from_fields(timestamp, tick_tock, meta, partition, sequence)?;
        // SAFETY: NULL or writable per the contract.
        unsafe { write_out(out, id.into()) }
    })
}

/// Deprecated: the same as sno_id_from_fields; kept for the 0.2 ABI.
///
/// # Safety
/// `out` must be NULL or writable.
#[deprecated(note = "use sno_id_from_fields")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_id_from_parts(
    timestamp: u64,
    tick_tock: bool,
    meta: u8,
    partition: u16,
    sequence: u16,
    out: *mut sno_id,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { sno_id_from_fields(timestamp, tick_tock, meta, partition, sequence, out) }
}

/// Timestamp in 4 ms units since 2010-01-01T00:00:00Z. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_id_timestamp(id: sno_id) -> u64 {
    value_boundary(0, || Id::from(id).timestamp())
}

/// Start of the ID's 4 ms unit in nanoseconds since the Unix epoch. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_id_unix_ns(id: sno_id) -> i64 {
    value_boundary(0, || Id::from(id).unix_ns())
}

/// Deprecated: the same as sno_id_unix_ns; kept for the 0.2 ABI.
#[deprecated(note = "use sno_id_unix_ns")]
#[unsafe(no_mangle)]
pub extern "C" fn sno_id_unix_nanos(id: sno_id) -> i64 {
    sno_id_unix_ns(id)
}

/// Start of the ID's 4 ms unit in milliseconds since the Unix epoch. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_id_unix_ms(id: sno_id) -> i64 {
    value_boundary(0, || Id::from(id).unix_ms())
}

/// Deprecated: the same as sno_id_unix_ms; kept for the 0.2 ABI.
#[deprecated(note = "use sno_id_unix_ms")]
#[unsafe(no_mangle)]
pub extern "C" fn sno_id_unix_millis(id: sno_id) -> i64 {
    sno_id_unix_ms(id)
}

/// Whether all 10 bytes are zero. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_id_is_zero(id: sno_id) -> bool {
    value_boundary(false, || Id::from(id).is_zero())
}
