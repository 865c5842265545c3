//! The one limit every batch call shares (`new_many`, `newStrings`, `sno_generator_next_many`,
//! …), checked before anything is allocated or generated.

use crate::error::Error;

/// The most IDs one batch call makes or converts: 16 777 216 (2^24). It keeps a single call's
/// memory bounded (a Python list of that many IDs is about 1 GiB; a JavaScript string of that
/// many UUIDs would already pass V8's longest string) and its duration short enough to stay
/// responsive. Loop for more.
pub const MAX_BATCH: usize = 1 << 24;

/// `requested` as a batch length, or [`Error::BatchTooLarge`] when it is negative or above
/// [`MAX_BATCH`].
///
/// ```
/// use sno_core::{batch_len, Error, MAX_BATCH};
/// assert_eq!(batch_len(3), Ok(3));
/// assert_eq!(batch_len(MAX_BATCH as i128), Ok(MAX_BATCH));
/// assert_eq!(batch_len(-1), Err(Error::BatchTooLarge { requested: -1, max: MAX_BATCH as u64 }));
/// assert!(batch_len(1 << 40).is_err());
/// ```
pub const fn batch_len(requested: i128) -> Result<usize, Error> {
    if requested < 0 || requested > MAX_BATCH as i128 {
        return Err(Error::BatchTooLarge {
            requested,
            max: MAX_BATCH as u64,
        });
    }
    Ok(requested as usize)
}
