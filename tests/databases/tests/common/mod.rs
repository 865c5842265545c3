//! What both test files check the same way: the `DecodeError` a library's error carries, and
//! the core's length error for a binary value one byte short.

use sno_core::Error;
use sno_core::Format;
use sno_core::sql::DecodeError;

/// The DecodeError a library error carries.
pub fn decode_error<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a DecodeError> {
    let mut at = Some(err);
    while let Some(e) = at {
        if let Some(d) = e.downcast_ref::<DecodeError>() {
            return Some(d);
        }
        at = e.source();
    }
    None
}

/// `err` carries the core's length error for `short_bytes(format)`, naming the format.
pub fn assert_short_length(format: Format, err: &(dyn std::error::Error + 'static)) {
    let decode = decode_error(err).unwrap_or_else(|| panic!("{format}: {err}"));
    assert_eq!(
        (decode.format(), decode.error()),
        (
            format,
            Error::InvalidLength {
                expected: format.binary_len(),
                actual: format.binary_len() - 1
            }
        )
    );
}
