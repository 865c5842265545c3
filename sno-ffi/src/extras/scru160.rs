//! `sno_scru160_*` beyond the generated surface (generated.rs, with the hex text form): SCRU160
//! IDs (deprecated by SCRU128; for existing data): the counter and random16 fields.

use sno_core::scru160::Scru160Id;

use crate::generated::sno_scru160;

/// The 16-bit counter field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_counter(id: sno_scru160) -> u16 {
    Scru160Id::from_bytes(id.bytes).counter()
}

/// The 16-bit random16 field (the 80-bit random80 is bytes 10..20). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_random16(id: sno_scru160) -> u16 {
    Scru160Id::from_bytes(id.bytes).random16()
}
