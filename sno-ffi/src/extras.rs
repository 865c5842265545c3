//! What single formats add to the C surface beyond the generated common functions and the
//! generic API: one module per format (Nanoflake's unpadded text, the flakes' fields structs and
//! generator settings, UUIDv7's checked bytes and its fields through out-pointers).

mod nanoflake;
mod ulidflake;
mod uuid7;

pub use nanoflake::*;
pub use ulidflake::*;
pub use uuid7::*;
