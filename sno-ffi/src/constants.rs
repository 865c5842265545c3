//! The constants of the C header (`SNO_*` lengths, partition flags, limits, the version):
//! cbindgen writes them first, in this order, because this module is declared first in
//! `lib.rs`.

/// Bytes in the binary form of an ID.
pub const SNO_BINARY_LEN: usize = 10;
/// Bytes in the text form of an ID (no terminating NUL).
pub const SNO_ENCODED_LEN: usize = 16;
/// `sno_generator_options.partition` (as 0 does) and sno_generator_restore's `partition`:
/// a per-process default partition, resp. the snapshot's own.
pub const SNO_PARTITION_DEFAULT: i32 = -1;
/// Or'ed with a partition number p (0..=65535) in `sno_generator_options.partition` (and
/// accepted by sno_generator_restore) to ask for partition p: `SNO_PARTITION_FIXED | 7`. It is
/// 65536, above every partition, so a zeroed options struct can mean the default partition.
pub const SNO_PARTITION_FIXED: i32 = 0x1_0000;
/// The most IDs one batch call (sno_generator_next_many) makes: 16 777 216 (2^24); more is
/// SNO_STATUS_BATCH_TOO_LARGE, answered before anything is generated.
pub const SNO_MAX_BATCH: usize = 16_777_216;
const _: () = assert!(SNO_MAX_BATCH == sno_core::MAX_BATCH);
/// Written to `retry_at_unix_ns` when no retry can ever succeed (the sno time range ends
/// 2079-09-07T15:47:35.552Z): INT64_MAX.
pub const SNO_RETRY_NEVER: i64 = i64::MAX;
/// Major version of the library.
pub const SNO_VERSION_MAJOR: u32 = 0;
/// Minor version of the library.
pub const SNO_VERSION_MINOR: u32 = 2;
/// Patch version of the library.
pub const SNO_VERSION_PATCH: u32 = 0;
/// `(MAJOR << 16) | (MINOR << 8) | PATCH`, as returned by sno_version().
pub const SNO_VERSION_NUMBER: u32 =
    (SNO_VERSION_MAJOR << 16) | (SNO_VERSION_MINOR << 8) | SNO_VERSION_PATCH;
