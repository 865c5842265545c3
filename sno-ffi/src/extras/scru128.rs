//! `sno_scru128_*` beyond the common surface (generated.rs): SCRU128 IDs (25 base36 digits,
//! lower case out, either case in).

use sno_core::scru128::Scru128Id;

use crate::generated::sno_scru128;

/// The 24-bit counter_hi field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_counter_hi(id: sno_scru128) -> u32 {
    Scru128Id::from_bytes(id.bytes).counter_hi()
}

/// The 24-bit counter_lo field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_counter_lo(id: sno_scru128) -> u32 {
    Scru128Id::from_bytes(id.bytes).counter_lo()
}

/// The 32-bit entropy field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_entropy(id: sno_scru128) -> u32 {
    Scru128Id::from_bytes(id.bytes).entropy()
}
