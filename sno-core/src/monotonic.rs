//! What the monotonic formats (every format with a generator of its own state machine)
//! share: the state-machine traits each format's generator implements ([`MillisState`],
//! [`BlockState`]) and, with std, the wrapper that makes one thread-safe with a clock
//! ([`Shared`], in `shared.rs`). The formats' shared macros are in `id_macros`, their byte
//! helpers in `bytes`.

mod traits;

pub use crate::millis_block::{Block, MAX_BLOCK};
pub use traits::{BlockState, MillisState};

#[cfg(feature = "std")]
mod shared;

#[cfg(feature = "std")]
pub(crate) use shared::or_panic;
#[cfg(feature = "std")]
pub use shared::{MAX_ROLLBACK_WAIT_MS, Shared, until_next_millisecond};
#[cfg(feature = "std")]
pub(crate) use shared::{next_per_thread_waiting, next_within_max_wait};

#[cfg(all(test, feature = "std"))]
pub(crate) mod block_props;
