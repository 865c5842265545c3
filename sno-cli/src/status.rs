//! The exit statuses of [`run`](crate::run), below every module that returns one.

/// Exit status: every ID was generated, read or converted.
pub const EXIT_OK: i32 = 0;
/// Exit status: some ID could not be read (unrecognised, ambiguous, invalid for `--format`),
/// converted or generated, or the output could not be written.
pub const EXIT_FAILURE: i32 = 1;
/// Exit status: a usage error (unknown command or option, a value out of range, an option
/// that does not apply to the format).
pub const EXIT_USAGE: i32 = 2;
