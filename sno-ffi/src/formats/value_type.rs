//! The trait of the C value types, below both the value helpers and the generator handles.

use sno_core::Error;

/// A C value type (a `{ uint8_t bytes[N]; }` struct, or an `int64_t` typedef) and the core type
/// it stands for.
pub(crate) trait CId: Copy {
    /// The core value type.
    type Core: Copy;
    /// Length of the fixed-length text (`encode`).
    const TEXT_LEN: usize;
    /// The core value, or an error if the bytes are not a value of the format (UUIDv7 only).
    fn to_core(self) -> Result<Self::Core, Error>;
    /// The C struct of a core value.
    fn from_core(id: Self::Core) -> Self;
    /// Writes the canonical text into `out` (`TEXT_LEN` bytes).
    fn encode(id: &Self::Core, out: &mut [u8]);
}
