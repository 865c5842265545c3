//! The command line's definition (clap): the commands, their options and the parsers of their
//! values; and how clap's own errors, and ours, come out as one-line usage errors.

use std::ffi::OsString;
use std::io::Write;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand};
use sno_core::{Format, nanoflake, ulidflake};

use crate::output::escape;
use crate::status::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE};

/// Generate IDs; inspect and convert IDs of every format libsno speaks.
#[derive(Parser, Debug)]
#[command(
    name = "sno",
    bin_name = "sno",
    version,
    arg_required_else_help = true,
    after_help = "Exit status: 0 ok, 1 an ID could not be read, converted or generated, 2 usage error."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Generate IDs, one per line (sno by default).
    New(NewArgs),
    /// Print every field of each ID (its format detected, unless --format names it).
    Inspect(InspectArgs),
    /// Convert IDs to a format with the same bits (ULID, UUIDv7, TypeID).
    Convert(ConvertArgs),
    /// Leased partitions: who holds which partition of a namespace (SNO_LEASE_URL's store).
    #[command(subcommand)]
    Lease(LeaseCommand),
}

#[derive(Subcommand, Debug)]
pub(crate) enum LeaseCommand {
    /// Every partition of the namespace held by a live lease: its holder (host, pid, program),
    /// since when, renewed when, and how long until it expires. Read-only: nothing is freed.
    Status(LeaseStatusArgs),
}

#[derive(Args, Debug)]
pub(crate) struct LeaseStatusArgs {
    /// The namespace [default: SNO_LEASE_NAMESPACE, else `default`].
    #[arg(long, value_name = "NS")]
    pub(crate) namespace: Option<String>,
    /// One JSON object instead of name=value text.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args, Debug)]
pub(crate) struct NewArgs {
    /// The format of the IDs [default: sno].
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    pub(crate) format: Option<Format>,
    /// How many IDs (0 ..= 16777216; run again for more).
    #[arg(
        short = 'n',
        value_name = "N",
        default_value = "1",
        value_parser = parse_count,
        allow_negative_numbers = true
    )]
    pub(crate) count: usize,
    /// sno: the meta byte, 0 ..= 255 (0x.. hex allowed) [default: 0].
    #[arg(long, value_name = "M", value_parser = parse_meta)]
    pub(crate) meta: Option<u8>,
    /// sno: the partition, 0 ..= 65535 (0x.. hex allowed) [default: the process's: SNO_PARTITION,
    /// a leased one with SNO_LEASE_URL, else a random one].
    #[arg(long, value_name = "P", value_parser = parse_partition)]
    pub(crate) partition: Option<u16>,
    /// nanoflake (required), ulidflake [default: 2024-01-01]: the epoch, in Unix milliseconds.
    #[arg(long, value_name = "MS", value_parser = parse_epoch, allow_negative_numbers = true)]
    pub(crate) epoch: Option<i64>,
    /// nanoflake (required): the generator id, 0 ..= 1023.
    #[arg(long, value_name = "G", value_parser = parse_generator_id)]
    pub(crate) generator_id: Option<u16>,
    /// ulidflake: the scalable variant with this sid, 0 ..= 31 [default: the stand-alone variant].
    #[arg(long, value_name = "S", value_parser = parse_sid)]
    pub(crate) sid: Option<u8>,
    /// typeid: the type prefix, a-z and '_' [default: none].
    #[arg(long, value_name = "PREFIX")]
    pub(crate) prefix: Option<String>,
    /// Print each new ID as `sno inspect` does (every field), not only its text.
    #[arg(long)]
    pub(crate) inspect: bool,
}

#[derive(Args, Debug)]
pub(crate) struct InspectArgs {
    /// The IDs.
    #[arg(value_name = "ID", required = true)]
    pub(crate) ids: Vec<String>,
    /// Read every ID as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    pub(crate) format: Option<Format>,
    /// One JSON object per line and reading instead of name=value text.
    #[arg(long)]
    pub(crate) json: bool,
    /// The epoch of Nanoflakes and Ulid-Flakes, in Unix milliseconds.
    #[arg(
        long,
        value_name = "MS",
        value_parser = parse_epoch,
        allow_negative_numbers = true,
        conflicts_with_all = ["nanoflake_epoch", "ulidflake_epoch"]
    )]
    pub(crate) epoch: Option<i64>,
    /// The epoch of Nanoflakes (they do not carry it: no time without it), in Unix milliseconds.
    #[arg(long, value_name = "MS", value_parser = parse_epoch, allow_negative_numbers = true)]
    pub(crate) nanoflake_epoch: Option<i64>,
    /// The epoch of Ulid-Flakes, in Unix milliseconds [default: 1704067200000, 2024-01-01].
    #[arg(long, value_name = "MS", value_parser = parse_epoch, allow_negative_numbers = true)]
    pub(crate) ulidflake_epoch: Option<i64>,
}

#[derive(Args, Debug)]
pub(crate) struct ConvertArgs {
    /// The IDs.
    #[arg(value_name = "ID", required = true)]
    pub(crate) ids: Vec<String>,
    /// The format to convert to.
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    pub(crate) to: Format,
    /// Read every ID as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    pub(crate) format: Option<Format>,
    /// --to typeid: the type prefix [default: a TypeID's own, else none].
    #[arg(long, value_name = "PREFIX")]
    pub(crate) prefix: Option<String>,
}

/// Prints clap's help or version to `out`, or its error as one line to `err`.
pub(crate) fn clap_error(
    mut e: clap::Error,
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let text = e.render().to_string();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => EXIT_OK,
                Err(_) => EXIT_FAILURE,
            }
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.write_all(e.render().to_string().as_bytes());
            EXIT_USAGE
        }
        _ => {
            // The user's text in the message escaped, so that its only line breaks are clap's;
            // then the first paragraph and the tips, on one line (not the usage).
            escape_context(&mut e);
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim);
            let first: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
            let mut first = first.join(" ");
            for tip in lines.filter(|l| l.starts_with("tip:")) {
                first.push_str("; ");
                first.push_str(tip);
            }
            write_usage(err, args, first.strip_prefix("error: ").unwrap_or(&first))
        }
    }
}

/// Escapes ([`escape`]) the text of a clap error's context (the arguments and values it quotes,
/// the user's among them), so that its message has no line break or control character of the
/// user's. The usage, which the message leaves out, is left as is.
fn escape_context(e: &mut clap::Error) {
    use clap::builder::StyledStr;
    use clap::error::{ContextKind, ContextValue};
    let styled = |s: &StyledStr| StyledStr::from(escape(&s.to_string()));
    let escaped: Vec<(ContextKind, ContextValue)> = e
        .context()
        .filter(|(kind, _)| *kind != ContextKind::Usage)
        .filter_map(|(kind, value)| {
            let value = match value {
                ContextValue::String(s) => ContextValue::String(escape(s)),
                ContextValue::Strings(v) => {
                    ContextValue::Strings(v.iter().map(|s| escape(s)).collect())
                }
                ContextValue::StyledStr(s) => ContextValue::StyledStr(styled(s)),
                ContextValue::StyledStrs(v) => {
                    ContextValue::StyledStrs(v.iter().map(styled).collect())
                }
                _ => return None,
            };
            Some((kind, value))
        })
        .collect();
    for (kind, value) in escaped {
        e.insert(kind, value);
    }
}

/// Writes a usage error, `message` escaped ([`escape`]), pointing at the help of the subcommand
/// in `args`.
pub(crate) fn usage(err: &mut dyn Write, args: &[OsString], message: &str) -> i32 {
    write_usage(err, args, &escape(message))
}

/// Writes a usage error whose `message` is one escaped line, pointing at the help of the
/// subcommand in `args`.
fn write_usage(err: &mut dyn Write, args: &[OsString], message: &str) -> i32 {
    let cli = Cli::command();
    let sub = args.iter().skip(1).find_map(|a| {
        cli.get_subcommands()
            .map(clap::Command::get_name)
            .find(|name| a.to_str() == Some(*name))
    });
    let help = match sub {
        Some(name) => format!("sno {name} --help"),
        None => "sno --help".to_owned(),
    };
    let message = message.strip_prefix("sno: ").unwrap_or(message);
    let _ = writeln!(err, "sno: error: {message} (see {help})");
    EXIT_USAGE
}

/// `--format` / `--to`: a [`Format`] by name (help lists the names from [`Format::ALL`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FormatParser;

impl TypedValueParser for FormatParser {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        let parse = |text: &str| text.parse::<Format>();
        parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Format::ALL
                .into_iter()
                .map(|f| PossibleValue::new(f.name())),
        ))
    }
}

/// `-n`: a batch length (the core's bound and message).
fn parse_count(text: &str) -> Result<usize, String> {
    let requested: i128 = text
        .parse()
        .map_err(|_| format!("expected a count 0 ..= {}", sno_core::MAX_BATCH))?;
    sno_core::batch_len(requested).map_err(|e| e.to_string())
}

/// An unsigned number up to `max`: decimal, or `0x` hex, `0o` octal, `0b` binary.
fn parse_uint<T: TryFrom<u16>>(text: &str, max: u16) -> Result<T, String> {
    let (digits, radix) = match text.get(..2) {
        Some("0x" | "0X") => (&text[2..], 16),
        Some("0o" | "0O") => (&text[2..], 8),
        Some("0b" | "0B") => (&text[2..], 2),
        _ => (text, 10),
    };
    u16::from_str_radix(digits, radix)
        .ok()
        .filter(|v| *v <= max && !digits.starts_with('+'))
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| format!("expected a number 0 ..= {max}"))
}

fn parse_meta(text: &str) -> Result<u8, String> {
    parse_uint(text, u8::MAX.into())
}

fn parse_partition(text: &str) -> Result<u16, String> {
    parse_uint(text, u16::MAX)
}

fn parse_generator_id(text: &str) -> Result<u16, String> {
    parse_uint(text, nanoflake::MAX_GENERATOR_ID)
}

fn parse_sid(text: &str) -> Result<u8, String> {
    parse_uint(text, ulidflake::MAX_SID.into())
}

fn parse_epoch(text: &str) -> Result<i64, String> {
    text.parse()
        .map_err(|_| "expected Unix milliseconds, a 64-bit integer".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn numbers_take_bases_and_refuse_out_of_range() {
        assert_eq!(parse_meta("0xff"), Ok(255));
        assert_eq!(parse_meta("0b101"), Ok(5));
        assert_eq!(parse_partition("0o17"), Ok(15));
        assert!(parse_meta("256").is_err());
        assert!(parse_meta("+1").is_err());
        assert!(parse_meta("-1").is_err());
        assert!(parse_meta("0x").is_err());
        assert_eq!(parse_generator_id("1023"), Ok(1023));
        assert!(parse_generator_id("1024").is_err());
        assert!(parse_sid("32").is_err());
        assert!(parse_count("-1").is_err());
        assert_eq!(parse_count("16777216"), Ok(sno_core::MAX_BATCH));
        assert!(parse_count("16777217").is_err());
    }
}
