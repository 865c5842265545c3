//! The C-visible types.
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use sno_core::{Error, Id, Snapshot, Stats};

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

crate::formats::c_id!(sno_id, Id, sno_core::ENCODED_LEN, |b| Ok(Id::from_bytes(b)));

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

/// Result of every fallible function. Values are fixed and never reused.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sno_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// Input of the wrong length for the format (sno: 16 bytes of text, 10 binary; ULID 26;
    /// UUID 36 or 45 with `urn:uuid:`; SCRU128 25; 16 binary for the 128-bit formats; SCRU160
    /// 32 or 40; Nanoflakes 1 to 13; Ulid-Flake 13).
    InvalidLength = 2,
    /// A text byte outside the format's alphabet (sno: `23456789abcdefghijklmnopqrstuvwx`).
    InvalidByte = 3,
    /// A timestamp above 2^39 − 1 units.
    TimestampOverflow = 4,
    /// A time outside 2010-01-01 ..= 2079-09-07T15:47:35.551999999Z.
    TimeOutOfRange = 5,
    /// The system clock reads a time outside the sno range.
    ClockOutOfRange = 6,
    /// Sequence bounds leaving fewer than 4 values.
    InvalidSequenceBounds = 7,
    /// A snapshot's sequence lies outside its bounds.
    SequenceOutOfRange = 8,
    /// A snapshot time field outside 0 ..= 2^39 − 1.
    InvalidSnapshot = 9,
    /// 65 536 default partitions were handed out in this process.
    PartitionPoolExhausted = 10,
    /// This 4 ms unit's sequence pool is used up (try_next; next when the retry lies beyond its
    /// 5 s maximum wait, or never comes).
    SequenceExhausted = 11,
    /// The clock went back into a period used by both timelines (try_next; next when the retry
    /// lies beyond its 5 s maximum wait).
    ClockRegression = 12,
    /// An output buffer is too small.
    BufferTooSmall = 13,
    /// An argument is out of its documented range.
    InvalidArgument = 14,
    /// Text encoding a number above the format's maximum (a ULID or Ulid-Flake starting above
    /// '7', a SCRU128 above "f5lxx1zz5pnorynqglhzmsp33", a Nanoflake above 2^63-1), a negative
    /// 64-bit ID, or a field or setting above its width.
    ValueOverflow = 15,
    /// A well-formed UUID that is not version 7 with the RFC 9562 variant.
    NotVersion7 = 16,
    /// A millisecond time outside the format's range (48 bits; for Nanoflakes and Ulid-Flake,
    /// before the epoch or past the timestamp field), or a negative epoch.
    MillisOutOfRange = 17,
    /// A generator used up what one millisecond offers (ULID or Ulid-Flake randomness, SCRU160
    /// counter, Nanoflakes sequence): try_next; next waits for the next millisecond, 5 s at
    /// most in all.
    RandomnessExhausted = 18,
    /// A Nanoflakes generator's clock went back (try_next / next_at; next waits up to 1 s).
    ClockRollback = 19,
    /// A batch count above SNO_MAX_BATCH (16 777 216) IDs per call.
    BatchTooLarge = 20,
    /// A restored snapshot lies further ahead of the clock than the generator's maximum wait.
    SnapshotAhead = 21,
    /// A generator with an explicit partition was inherited across fork(): give it a partition
    /// of its own (sno_generator_repartition) before minting in the child.
    Forked = 22,
    /// The operating system's randomness source cannot be read.
    RandomnessUnavailable = 23,
    /// Reserved: a Rust panic was caught at the boundary (a bug; please report it).
    Panic = 255,
}

impl From<Error> for sno_status {
    fn from(e: Error) -> Self {
        match e {
            Error::InvalidLength { .. } => sno_status::InvalidLength,
            Error::InvalidByte { .. } => sno_status::InvalidByte,
            Error::TimestampOverflow { .. } => sno_status::TimestampOverflow,
            Error::TimeOutOfRange { .. } => sno_status::TimeOutOfRange,
            Error::ClockOutOfRange { .. } => sno_status::ClockOutOfRange,
            Error::InvalidSequenceBounds { .. } => sno_status::InvalidSequenceBounds,
            Error::SequenceOutOfRange { .. } => sno_status::SequenceOutOfRange,
            Error::InvalidSnapshot { .. } => sno_status::InvalidSnapshot,
            Error::PartitionPoolExhausted => sno_status::PartitionPoolExhausted,
            Error::SequenceExhausted { .. } => sno_status::SequenceExhausted,
            Error::ClockRegression { .. } => sno_status::ClockRegression,
            Error::ValueOverflow => sno_status::ValueOverflow,
            Error::NotVersion7 { .. } => sno_status::NotVersion7,
            Error::MillisOutOfRange { .. } => sno_status::MillisOutOfRange,
            Error::RandomnessExhausted { .. } => sno_status::RandomnessExhausted,
            Error::ClockRollback { .. } => sno_status::ClockRollback,
            Error::BatchTooLarge { .. } => sno_status::BatchTooLarge,
            Error::SnapshotAhead { .. } => sno_status::SnapshotAhead,
            Error::Forked { .. } => sno_status::Forked,
            Error::RandomnessUnavailable => sno_status::RandomnessUnavailable,
            // MissingPartition cannot happen with std; any future variant.
            _ => sno_status::InvalidArgument,
        }
    }
}

/// Options for sno_generator_new. Zero-initialise, then set what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct sno_generator_options {
    /// Partition 0..=65535, or SNO_PARTITION_DEFAULT (-1) for a per-process default.
    pub partition: i32,
    /// Lower sequence bound.
    pub sequence_min: u16,
    /// Upper sequence bound; 0 means 65535 unless sequence_min is 65535.
    pub sequence_max: u16,
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

impl From<Snapshot> for sno_snapshot {
    fn from(s: Snapshot) -> Self {
        sno_snapshot {
            partition: s.partition,
            sequence_min: s.sequence_min,
            sequence_max: s.sequence_max,
            sequence: s.sequence,
            now: s.now,
            wall_hi: s.wall_hi,
            wall_safe: s.wall_safe,
            drifts: s.drifts,
        }
    }
}

impl From<sno_snapshot> for Snapshot {
    fn from(s: sno_snapshot) -> Self {
        Snapshot {
            partition: s.partition,
            sequence_min: s.sequence_min,
            sequence_max: s.sequence_max,
            sequence: s.sequence,
            now: s.now,
            wall_hi: s.wall_hi,
            wall_safe: s.wall_safe,
            drifts: s.drifts,
        }
    }
}

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

impl From<Stats> for sno_stats {
    fn from(s: Stats) -> Self {
        sno_stats {
            overflows: s.overflows,
            overflow_episodes: s.overflow_episodes,
            drifts: s.drifts,
            regressions: s.regressions,
            waits: s.waits,
        }
    }
}

/// An opaque, thread-safe generator. Create with sno_generator_new or sno_generator_restore,
/// release with sno_generator_free.
pub struct sno_generator {
    pub(crate) inner: sno_core::Generator,
}
