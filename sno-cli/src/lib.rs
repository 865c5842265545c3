//! The `sno` command line, written once: the `sno` binary of this crate and the Python console
//! script `sno` (through the extension module) both call [`run`], so they print the same bytes
//! and exit with the same statuses.
//!
//! * `sno new [--format F] [-n N] [--meta M] [--partition P] [--epoch MS] [--generator-id G] [--sid S] [--prefix P]`
//! * `sno inspect ID... [--format F] [--json] [--epoch MS | --nanoflake-epoch MS | --ulidflake-epoch MS]`
//! * `sno convert ID... --to F [--format F] [--prefix P]`
//! * `sno lease status [--namespace NS] [--json]`
//!
//! Formats are read with [`AnyId::detect`](sno_core::AnyId::detect) (or
//! [`AnyId::parse_as`](sno_core::AnyId::parse_as) when `--format` names one); fields come from
//! [`AnyId::fields`](sno_core::AnyId::fields), errors are the core's
//! [`Error`](sno_core::Error) messages. Every message is one line, its control and other
//! non-printable characters escaped (`\n`, `\x1b`, `\u{202e}`), as is the input echoed in text
//! output. `docs/cli.md` describes the output, the escaping and the JSON objects.
//!
//! One module per job: `args` (the commands and options, usage errors), `new`, `inspect` and
//! `convert` and `lease` (one command each), `output` (escaping, text and JSON), `status` (the exit statuses).
//!
//! ```
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let code = sno_cli::run(["sno", "inspect", "brpk4q72xwf2m63l"], &mut out, &mut err);
//! assert_eq!(code, sno_cli::EXIT_OK);
//! assert!(String::from_utf8(out)?.starts_with("brpk4q72xwf2m63l format=sno "));
//! # Ok::<(), std::string::FromUtf8Error>(())
//! ```

mod args;
mod convert;
mod inspect;
mod lease;
mod new;
mod output;
mod status;

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use clap::Parser;

use crate::args::{Cli, Command, clap_error};
use crate::output::escape;

pub use crate::status::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE};

/// Runs the command line `args` (the program name first, as `std::env::args_os` gives it),
/// writing the output to `out` and messages to `err`, and returns the exit status:
/// [`EXIT_OK`], [`EXIT_FAILURE`] or [`EXIT_USAGE`]. It never exits the process and never panics.
/// `out` is written through a buffer, flushed before each message to `err`.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return clap_error(e, &args, out, err),
    };
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let result = match &cli.command {
        Command::New(a) => new::new(a, &mut out, err),
        Command::Inspect(a) => inspect::inspect(a, &mut out, err),
        Command::Convert(a) => convert::convert(a, &mut out, err),
        Command::Lease(args::LeaseCommand::Status(a)) => lease::status(a, &mut out, err),
    }
    .and_then(|code| out.flush().map(|()| code));
    match result {
        Ok(code) => code,
        Err(e) => {
            // The buffer is dropped unwritten: the stream already failed.
            drop(out.into_parts());
            if e.kind() != io::ErrorKind::BrokenPipe {
                let message = escape(&format!("sno: error: cannot write the output: {e}"));
                let _ = writeln!(err, "{message}");
            }
            EXIT_FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::shows;

    /// A stream whose writes fail with `kind`.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn output_errors_end_the_command_with_status_1() {
        let mut err = Vec::new();
        let args = ["sno", "new", "-n", "100000"];
        assert_eq!(
            run(args, &mut Failing(io::ErrorKind::BrokenPipe), &mut err),
            EXIT_FAILURE
        );
        assert_eq!(err, b"", "a closed pipe ends the command quietly");
        assert_eq!(
            run(args, &mut Failing(io::ErrorKind::Other), &mut err),
            EXIT_FAILURE
        );
        assert!(String::from_utf8_lossy(&err).starts_with("sno: error: cannot write the output: "));
        let mut err = Vec::new();
        assert_eq!(
            run(
                ["sno", "--help"],
                &mut Failing(io::ErrorKind::Other),
                &mut err
            ),
            EXIT_FAILURE
        );
    }

    #[test]
    fn every_short_command_line_ends_with_a_status() {
        let with_param = sno_core::Format::ALL
            .into_iter()
            .find(|f| f.param_facts().is_some())
            .expect("a format with a param")
            .name();
        let words = [
            "new",
            "inspect",
            "convert",
            "help",
            "--help",
            "-n",
            "2",
            "-1",
            "--format",
            "ulid",
            "nanoflake",
            "--meta",
            "0x1",
            "--epoch",
            "0",
            "--generator-id",
            "--sid",
            "--json",
            "--to",
            "uuid7",
            "--",
            "00CMXB6TAK4SA",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "",
            "é",
            with_param,
            "--prefix",
            "a\n\nb",
            "\x1b[2J",
            "-\u{9b}\u{202e}",
        ];
        let mut count = 0;
        for a in words {
            for b in words {
                for c in words {
                    let (mut out, mut err) = (Vec::new(), Vec::new());
                    let code = run(["sno", a, b, c], &mut out, &mut err);
                    assert!(
                        matches!(code, EXIT_OK | EXIT_FAILURE | EXIT_USAGE),
                        "{a} {b} {c}"
                    );
                    assert!(
                        code == EXIT_OK || !err.is_empty(),
                        "{a} {b} {c}: a failure says why"
                    );
                    // One line per message (a usage error is one message), nothing to escape.
                    let err = String::from_utf8(err).expect("UTF-8");
                    let lines = err.lines().count();
                    assert!(lines <= if code == EXIT_USAGE { 1 } else { 2 }, "{err}");
                    assert!(err.chars().all(|c| c == '\n' || shows(c)), "{err}");
                    count += 1;
                }
            }
        }
        assert_eq!(count, words.len().pow(3));
    }

    #[test]
    fn what_run_echoes_comes_out_escaped_on_one_line() {
        // NUL, which no process argument holds, through `run`.
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            run(["sno", "inspect", "a\0b"], &mut out, &mut err),
            EXIT_FAILURE
        );
        assert_eq!(
            String::from_utf8(err).expect("UTF-8"),
            "a\\x00b: sno: the text (3 bytes) is an ID of no format libsno knows; as nanoflake: invalid byte 0x00 at position 1: not in the alphabet\n"
        );
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            run(["sno", "new", "--format", "a\0\n"], &mut out, &mut err),
            EXIT_USAGE
        );
        let err = String::from_utf8(err).expect("UTF-8");
        assert!(
            err.starts_with("sno: error: invalid value 'a\\x00\\n' for '--format <FORMAT>'"),
            "{err}"
        );
    }
}
