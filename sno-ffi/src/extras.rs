//! What single formats add to the C surface beyond the generated common functions and the
//! generic API: one module per format (UUIDv7's lenient forms, SCRU160's hex,
//! the flakes' generator settings, …).

mod nanoflake;
mod scru128;
mod scru160;
mod ulidflake;
mod uuid7;

pub use nanoflake::*;
pub use scru128::*;
pub use scru160::*;
pub use ulidflake::*;
pub use uuid7::*;
