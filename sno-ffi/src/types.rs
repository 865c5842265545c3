//! The C-visible types.
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use crate::status::{ALL, sno_status};
use sno_core::{Error, Id, Snapshot, Stats};

/// `From` between a core struct and its C mirror of the same field names (`<->` both ways).
macro_rules! same_fields {
    ($core:ident -> $c:ident { $($field:ident),* $(,)? }) => {
        impl From<$core> for $c {
            fn from(s: $core) -> Self {
                $c { $($field: s.$field),* }
            }
        }
    };
    ($core:ident <-> $c:ident { $($field:ident),* $(,)? }) => {
        same_fields!($core -> $c { $($field),* });
        same_fields!($c -> $core { $($field),* });
    };
}
pub(crate) use same_fields;

/// A sno ID: 10 bytes, big-endian fields. Compare with memcmp or sno_id_compare; the order is time
/// order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_id {
    /// The binary form.
    pub bytes: [u8; 10],
}

// `sno_id` and `Id` are both 10 bytes with alignment 1 (a `#[repr(C)]` struct of one `[u8; 10]`,
// and `#[repr(transparent)]` over `[u8; 10]`), which the slice casts below rely on.
const _: () = assert!(
    size_of::<sno_id>() == size_of::<Id>() && align_of::<sno_id>() == 1 && align_of::<Id>() == 1
);

impl sno_id {
    /// The same IDs as `Id`s, for the batch codec.
    pub(crate) fn as_ids(ids: &[sno_id]) -> &[Id] {
        // SAFETY: identical size and alignment (asserted above), and every byte pattern is valid
        // for both types; the borrow is carried over.
        unsafe { std::slice::from_raw_parts(ids.as_ptr().cast::<Id>(), ids.len()) }
    }

    /// The same IDs as `Id`s, writable.
    pub(crate) fn as_ids_mut(ids: &mut [sno_id]) -> &mut [Id] {
        // SAFETY: as in `as_ids`; any `Id` written is a valid `sno_id`.
        unsafe { std::slice::from_raw_parts_mut(ids.as_mut_ptr().cast::<Id>(), ids.len()) }
    }
}

impl From<Id> for sno_id {
    fn from(id: Id) -> Self {
        sno_id {
            bytes: id.to_bytes(),
        }
    }
}

impl From<sno_id> for Id {
    fn from(id: sno_id) -> Self {
        Id::from_bytes(id.bytes)
    }
}

impl sno_status {
    /// The status of each number (`None` where no status has it).
    const BY_NUMBER: [Option<sno_status>; 256] = {
        let mut table = [None; 256];
        let mut i = 0;
        while i < ALL.len() {
            table[ALL[i] as usize] = Some(ALL[i]);
            i += 1;
        }
        table
    };

    /// The status numbered `number`, if there is one.
    pub(crate) fn from_number(number: i32) -> Option<sno_status> {
        Self::BY_NUMBER
            .get(usize::try_from(number).ok()?)
            .copied()
            .flatten()
    }
}

/// Options for sno_generator_new (and sno_generator_new_leased, which uses only the sequence
/// bounds). Zero-initialise (`sno_generator_options opts = {0};`), then set what you need:
/// every field's zero means its default, and the all-zero struct is a generator on a default
/// partition over the whole sequence range, as NULL options are.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct sno_generator_options {
    /// Which partition the generator stamps into its IDs:
    /// - 0 (zero-initialised) or SNO_PARTITION_DEFAULT (-1): a default partition, random per
    ///   process and distinct for each default generator of the process (fresh after fork());
    /// - `SNO_PARTITION_FIXED | p` for the partition p (0..=65535), e.g.
    ///   `opts.partition = SNO_PARTITION_FIXED | 7;`;
    /// - anything else is SNO_STATUS_INVALID_ARGUMENT. A bare partition number is refused on
    ///   purpose: before 0.2 it was the partition itself (and zeroed options meant partition 0
    ///   for every process), so code written for 0.1 fails loudly instead of silently taking a
    ///   random partition.
    ///
    /// For a partition unique across a fleet, lease one (sno_lease_acquire and
    /// sno_generator_new_leased) or let the process-wide sno_new do it (SNO_LEASE_URL). While
    /// SNO_LEASE_URL is set, a fixed partition is SNO_STATUS_INVALID_ENVIRONMENT: it may be one
    /// another process of the fleet holds by lease.
    pub partition: i32,
    /// Lower sequence bound (0: the lowest).
    pub sequence_min: u16,
    /// Upper sequence bound; 0 means 65535 unless sequence_min is 65535.
    pub sequence_max: u16,
}

/// Options for sno_lease_acquire. Zero-initialise (`sno_lease_options opts = {0};`) or pass
/// NULL for every default, then set what you need: each field's zero means its default.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sno_lease_options {
    /// The namespace (a NUL-terminated string of 1..=64 bytes of `A-Z a-z 0-9 _ - . :`):
    /// leases of different namespaces never conflict, so one store serves many fleets. NULL:
    /// "default". An empty string is SNO_STATUS_LEASE_INVALID_OPTIONS.
    pub namespace_name: *const c_char,
    /// The first partition the lease may take (0: partition 0).
    pub partition_first: u16,
    /// The last partition the lease may take; 0 means 65535 (as sequence_max does), so the
    /// zeroed pair is every partition 0..=65535, and `{9, 9}` is partition 9 alone. A range
    /// of partition 0 alone cannot be asked for. partition_first above partition_last (not 0)
    /// is SNO_STATUS_LEASE_INVALID_OPTIONS.
    pub partition_last: u16,
    /// How long a grant lasts without renewal, in ms (1000..=3600000); 0: 15000. A background
    /// thread renews it every third of the TTL; a crashed holder's partition is free again
    /// after at most one TTL.
    pub ttl_ms: u32,
    /// How much sooner than the store's expiry the holder stops minting, in ms: the bound on
    /// how far this host's clock may lag the store's. 0: a tenth of the TTL, at most 1000. It
    /// must be at most half the TTL.
    pub margin_ms: u32,
    /// The longest one call to the store (connect, acquire, renew, release) may take, in ms
    /// (100..=60000); 0: 10000.
    pub timeout_ms: u32,
}

impl sno_lease_options {
    /// Every default (what NULL options mean).
    #[cfg(feature = "lease")]
    pub(crate) const DEFAULT: sno_lease_options = sno_lease_options {
        namespace_name: std::ptr::null(),
        partition_first: 0,
        partition_last: 0,
        ttl_ms: 0,
        margin_ms: 0,
        timeout_ms: 0,
    };
}

/// A saved generator state (see sno_generator_snapshot / sno_generator_restore). Time values
/// are in 4 ms units since 2010.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_snapshot {
    /// The partition.
    pub partition: u16,
    /// Lower sequence bound.
    pub sequence_min: u16,
    /// Upper sequence bound.
    pub sequence_max: u16,
    /// Sequence of the last ID issued in unit wall_hi.
    pub sequence: u32,
    /// Clock reading when taken (informational).
    pub now: i64,
    /// Highest unit of the active timeline.
    pub wall_hi: i64,
    /// Highest unit that may hold IDs of the inactive timeline.
    pub wall_safe: i64,
    /// Applied clock regressions; the lowest bit is the tick-tock bit.
    pub drifts: u32,
}

same_fields!(Snapshot <-> sno_snapshot {
    partition, sequence_min, sequence_max, sequence, now, wall_hi, wall_safe, drifts
});

/// Counters of rare generator events.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_stats {
    /// Calls refused because a unit's pool was used up.
    pub overflows: u64,
    /// Units whose pool ran out.
    pub overflow_episodes: u64,
    /// Regressions absorbed by the tick-tock bit.
    pub drifts: u64,
    /// Calls refused for a second regression.
    pub regressions: u64,
    /// Sleeps taken by sno_generator_next.
    pub waits: u64,
}

same_fields!(Stats -> sno_stats { overflows, overflow_episodes, drifts, regressions, waits });

/// An opaque, thread-safe generator. Create with sno_generator_new, sno_generator_restore or
/// sno_generator_new_leased, release with sno_generator_free.
pub struct sno_generator {
    /// Plain or leased: what a leased one refuses is SNO_STATUS_LEASED_GENERATOR.
    pub(crate) inner: ::sno_lease::SnoGenerator,
}

/// An opaque, thread-safe lease on one partition (see sno_lease_acquire); release with
/// sno_lease_free.
pub struct sno_lease {
    #[cfg_attr(
        not(feature = "lease"),
        expect(
            dead_code,
            reason = "the core-only build declares the handle, the lease API uses it"
        )
    )]
    pub(crate) inner: ::sno_lease::Lease,
}

/// The time source of a generator (sno_generator_new_with_clock and the `<format>_generator_new_with_clock`
/// functions); the process-wide generators take theirs from the `SNO_CLOCK` environment variable
/// (`precise` or `fast`). Functions take it as an `int32_t`: another value is
/// SNO_STATUS_UNKNOWN_CLOCK.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sno_clock {
    /// The operating system's clock, read on every call (the default).
    Precise = 0,
    /// The opt-in fast clock: a cached CLOCK_REALTIME reading that a ticker thread refreshes
    /// every 0.5 ms (a few nanoseconds to read; never ahead of the OS clock, less than 1 ms behind
    /// it in steady state; a stalled ticker only delays time, it never repeats an ID).
    Fast = 1,
}

impl sno_clock {
    /// The core's clock of the C value `clock`, or SNO_STATUS_UNKNOWN_CLOCK.
    pub(crate) fn system_clock(clock: i32) -> Result<sno_core::SystemClock, Error> {
        let kind = match clock {
            0 => sno_core::ClockKind::Precise,
            1 => sno_core::ClockKind::Fast,
            _ => return Err(Error::UnknownClock),
        };
        Ok(sno_core::SystemClock::with_kind(kind))
    }
}
