//! The `sno` command line, written once: the `sno` binary of this crate and the Python console
//! script `sno` (through the extension module) both call [`run`], so they print the same bytes
//! and exit with the same statuses.
//!
//! * `sno new [--format F] [-n N] [--meta M] [--partition P] [--epoch MS] [--generator-id G] [--sid S] [--prefix P]`
//! * `sno inspect ID... [--format F] [--json] [--epoch MS | --nanoflake-epoch MS | --ulidflake-epoch MS]`
//! * `sno convert ID... --to F [--format F] [--prefix P]`
//!
//! Formats are read with [`AnyId::detect`] (or [`AnyId::parse_as`] when `--format` names one);
//! fields come from [`AnyId::fields`], errors are the core's [`Error`] messages. Every message
//! is one line, its control and other non-printable characters escaped (`\n`, `\x1b`,
//! `\u{202e}`), as is the input echoed in text output. `docs/cli.md` describes the output, the
//! escaping and the JSON objects.
//!
//! ```
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let code = sno_cli::run(["sno", "inspect", "brpk4q72xwf2m63l"], &mut out, &mut err);
//! assert_eq!(code, sno_cli::EXIT_OK);
//! assert!(String::from_utf8(out)?.starts_with("brpk4q72xwf2m63l format=sno "));
//! # Ok::<(), std::string::FromUtf8Error>(())
//! ```

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand};
use sno_core::typeid::TypeId;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyId, Error, FieldValue, Format, Setting, nanoflake, ulidflake};

/// Exit status: every ID was generated, read or converted.
pub const EXIT_OK: i32 = 0;
/// Exit status: some ID could not be read (unrecognised, ambiguous, invalid for `--format`),
/// converted or generated, or the output could not be written.
pub const EXIT_FAILURE: i32 = 1;
/// Exit status: a usage error (unknown command or option, a value out of range, an option
/// that does not apply to the format).
pub const EXIT_USAGE: i32 = 2;

/// Generate IDs; inspect and convert IDs of every format libsno speaks.
#[derive(Parser, Debug)]
#[command(
    name = "sno",
    bin_name = "sno",
    version,
    arg_required_else_help = true,
    after_help = "Exit status: 0 ok, 1 an ID could not be read, converted or generated, 2 usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate IDs, one per line (sno by default).
    New(NewArgs),
    /// Print every field of each ID (its format detected, unless --format names it).
    Inspect(InspectArgs),
    /// Convert IDs to a format with the same bits (ULID, UUIDv7, TypeID).
    Convert(ConvertArgs),
}

#[derive(Args, Debug)]
struct NewArgs {
    /// The format of the IDs [default: sno].
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    format: Option<Format>,
    /// How many IDs (0 ..= 16777216; run again for more).
    #[arg(
        short = 'n',
        value_name = "N",
        default_value = "1",
        value_parser = parse_count,
        allow_negative_numbers = true
    )]
    count: usize,
    /// sno: the meta byte, 0 ..= 255 (0x.. hex allowed) [default: 0].
    #[arg(long, value_name = "M", value_parser = parse_meta)]
    meta: Option<u8>,
    /// sno: the partition, 0 ..= 65535 (0x.. hex allowed) [default: the process's: SNO_PARTITION,
    /// a leased one with SNO_LEASE_URL, else a random one].
    #[arg(long, value_name = "P", value_parser = parse_partition)]
    partition: Option<u16>,
    /// nanoflake (required), ulidflake [default: 2024-01-01]: the epoch, in Unix milliseconds.
    #[arg(long, value_name = "MS", value_parser = parse_epoch, allow_negative_numbers = true)]
    epoch: Option<i64>,
    /// nanoflake (required): the generator id, 0 ..= 1023.
    #[arg(long, value_name = "G", value_parser = parse_generator_id)]
    generator_id: Option<u16>,
    /// ulidflake: the scalable variant with this sid, 0 ..= 31 [default: the stand-alone variant].
    #[arg(long, value_name = "S", value_parser = parse_sid)]
    sid: Option<u8>,
    /// typeid: the type prefix, a-z and '_' [default: none].
    #[arg(long, value_name = "PREFIX")]
    prefix: Option<String>,
    /// Print each new ID as `sno inspect` does (every field), not only its text.
    #[arg(long)]
    inspect: bool,
}

#[derive(Args, Debug)]
struct InspectArgs {
    /// The IDs.
    #[arg(value_name = "ID", required = true)]
    ids: Vec<String>,
    /// Read every ID as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    format: Option<Format>,
    /// One JSON object per line and reading instead of name=value text.
    #[arg(long)]
    json: bool,
    /// The epoch of Nanoflakes and Ulid-Flakes, in Unix milliseconds.
    #[arg(
        long,
        value_name = "MS",
        value_parser = parse_epoch,
        allow_negative_numbers = true,
        conflicts_with_all = ["nanoflake_epoch", "ulidflake_epoch"]
    )]
    epoch: Option<i64>,
    /// The epoch of Nanoflakes (they do not carry it: no time without it), in Unix milliseconds.
    #[arg(long, value_name = "MS", value_parser = parse_epoch, allow_negative_numbers = true)]
    nanoflake_epoch: Option<i64>,
    /// The epoch of Ulid-Flakes, in Unix milliseconds [default: 1704067200000, 2024-01-01].
    #[arg(long, value_name = "MS", value_parser = parse_epoch, allow_negative_numbers = true)]
    ulidflake_epoch: Option<i64>,
}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// The IDs.
    #[arg(value_name = "ID", required = true)]
    ids: Vec<String>,
    /// The format to convert to.
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    to: Format,
    /// Read every ID as this format instead of detecting it.
    #[arg(long, value_name = "FORMAT", value_parser = FormatParser)]
    format: Option<Format>,
    /// --to typeid: the type prefix [default: a TypeID's own, else none].
    #[arg(long, value_name = "PREFIX")]
    prefix: Option<String>,
}

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
        Command::New(a) => new(a, &mut out, err),
        Command::Inspect(a) => inspect(a, &mut out, err),
        Command::Convert(a) => convert(a, &mut out, err),
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

/// Prints clap's help or version to `out`, or its error as one line to `err`.
fn clap_error(
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
fn usage(err: &mut dyn Write, args: &[OsString], message: &str) -> i32 {
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

/// Writes `message`, escaped ([`escape`]), to `err` after what `out` holds, so that a terminal
/// shows both in order.
fn report(out: &mut dyn Write, err: &mut dyn Write, message: &str) -> io::Result<()> {
    out.flush()?;
    let _ = writeln!(err, "{}", escape(message));
    Ok(())
}

/// `text` on one line with nothing a terminal acts on: each control or other non-printable
/// character escaped as in a Rust string literal (the original can be read back). `\t`, `\n`,
/// `\r` and `\\` (a backslash); `\xHH` for the other ASCII controls (C0 and DEL); `\u{H}` for
/// every other character [`char::escape_debug`] escapes: C1 controls, format characters
/// (bidirectional overrides, zero-width characters), separators other than the space, combining
/// marks, unassigned and private-use code points. Every message, and the input echoed in text
/// output, goes through it.
fn escape(text: &str) -> String {
    use std::fmt::Write as _;
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        let _ = match c {
            '\t' => escaped.write_str("\\t"),
            '\n' => escaped.write_str("\\n"),
            '\r' => escaped.write_str("\\r"),
            '\\' => escaped.write_str("\\\\"),
            c if c.is_ascii_control() => write!(escaped, "\\x{:02x}", u32::from(c)),
            c if printable(c) => escaped.write_char(c),
            c => write!(escaped, "\\u{{{:x}}}", u32::from(c)),
        };
    }
    escaped
}

/// Whether `c` shows as itself: [`char::escape_debug`] leaves it alone (quotes aside), which it
/// does for no control, format, separator (but the space), combining, unassigned or
/// private-use character.
fn printable(c: char) -> bool {
    matches!(c, '\'' | '"') || c.escape_debug().len() == 1
}

/// `--format` / `--to`: a [`Format`] by name (help lists the names from [`Format::ALL`]).
#[derive(Clone, Copy, Debug)]
struct FormatParser;

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

/// Why `sno new` cannot start: a usage error, or a failure of the environment.
enum Setup {
    Usage(String),
    Failure(String),
}

/// A source of IDs of one format.
type Next = Box<dyn FnMut() -> Result<AnyId, Error>>;

fn new(args: &NewArgs, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<i32> {
    let format = args.format.unwrap_or(Format::Sno);
    let mut next = match generator(format, args) {
        Ok(next) => next,
        Err(Setup::Usage(message)) => {
            return Ok(usage(err, &["sno".into(), "new".into()], &message));
        }
        Err(Setup::Failure(message)) => {
            report(out, err, &message)?;
            return Ok(EXIT_FAILURE);
        }
    };
    let epochs = Epochs {
        nanoflake: args.epoch,
        ulidflake: args.epoch.unwrap_or(ulidflake::DEFAULT_EPOCH_MS),
    };
    for _ in 0..args.count {
        match next() {
            Ok(id) if args.inspect => write_reading(out, &id.text(), &id, &epochs, false)?,
            Ok(id) => {
                out.write_all(id.text().as_bytes())?;
                out.write_all(b"\n")?;
            }
            Err(e) => {
                report(out, err, &generator_error(&e, format, &epochs))?;
                return Ok(EXIT_FAILURE);
            }
        }
    }
    Ok(EXIT_OK)
}

/// The message of a generator error. Nanoflakes and Ulid-Flakes count milliseconds since an
/// epoch in a field of 41 and 43 bits: a clock the field cannot hold (the core's
/// [`Error::MillisOutOfRange`]) means an epoch in the future or too far back, and the message
/// names the epoch.
fn generator_error(e: &Error, format: Format, epochs: &Epochs) -> String {
    let field = match format {
        Format::Nanoflake => epochs
            .nanoflake
            .map(|epoch| (epoch, nanoflake::MAX_TIMESTAMP)),
        Format::UlidFlake => Some((epochs.ulidflake, ulidflake::MAX_TIMESTAMP)),
        _ => None,
    };
    let (&Error::MillisOutOfRange { unix_millis: now }, Some((epoch, max))) = (e, field) else {
        return e.to_string();
    };
    let name = format.display_name();
    let (epoch_text, now_text) = (unix_ms_text(epoch), unix_ms_text(now));
    if now < epoch {
        format!(
            "sno: the {name} epoch {epoch_text} is after the clock, {now_text}: an epoch must be in the past"
        )
    } else {
        let bits = u64::BITS - max.leading_zeros();
        format!(
            "sno: the {name} epoch {epoch_text} is more than {max} ms before the clock, {now_text}: more than its {bits}-bit timestamp holds; choose a later epoch"
        )
    }
}

/// `TIME (MS ms)` with the UTC time when it is within years 1970 ..= 9999, else `MS ms`.
fn unix_ms_text(ms: i64) -> String {
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    match sno_core::time::format_utc_millis(ms, &mut utc) {
        Some(time) => format!("{time} ({ms} ms)"),
        None => format!("{ms} ms"),
    }
}

/// The usage error of an epoch before 1970 (the core refuses it), named as the epoch.
fn negative_epoch(format: Format, epoch_ms: i64) -> Setup {
    Setup::Usage(format!(
        "--epoch {epoch_ms}: a {} epoch is 0 or later (Unix milliseconds)",
        format.display_name()
    ))
}

/// The generator `sno new` draws from, after checking that every option given applies.
fn generator(format: Format, args: &NewArgs) -> Result<Next, Setup> {
    // Each flag sets one of the core's generation settings; the core's table says which
    // formats take it (`Format::settings`).
    let options = [
        ("--meta", args.meta.is_some(), Setting::Meta),
        ("--partition", args.partition.is_some(), Setting::Partition),
        ("--epoch", args.epoch.is_some(), Setting::EpochMs),
        (
            "--generator-id",
            args.generator_id.is_some(),
            Setting::GeneratorId,
        ),
        ("--sid", args.sid.is_some(), Setting::Sid),
        ("--prefix", args.prefix.is_some(), Setting::Prefix),
    ];
    for (flag, given, setting) in options {
        if given && !format.settings().contains(&setting) {
            let names: Vec<&str> = Format::ALL
                .into_iter()
                .filter(|f| f.settings().contains(&setting))
                .map(Format::name)
                .collect();
            return Err(Setup::Usage(format!(
                "{flag} applies to {} IDs only, not {}",
                names.join(" and "),
                format.name()
            )));
        }
    }
    Ok(match format {
        Format::Sno => {
            let meta = args.meta.unwrap_or(0);
            match args.partition {
                Some(partition) => {
                    let g = sno_core::Generator::builder()
                        .partition(partition)
                        .build()
                        .map_err(|e| Setup::Failure(e.to_string()))?;
                    Box::new(move || g.next(meta).map(AnyId::from))
                }
                None => {
                    let g = sno_lease::process_generator()
                        .map_err(|e| Setup::Failure(e.to_string()))?;
                    Box::new(move || g.next(meta).map(AnyId::from))
                }
            }
        }
        // A generator of the format's own settings, when one is given or the format has no
        // process-wide generator: the core builds it from them (`AnyGenerator`).
        other
            if other.has_generator()
                && (!other.has_process_generator()
                    || options.iter().any(|&(_, given, _)| given)) =>
        {
            let mut settings = sno_core::GeneratorSettings::new();
            for (setting, value) in [
                (Setting::EpochMs, args.epoch),
                (Setting::GeneratorId, args.generator_id.map(i64::from)),
                (Setting::Sid, args.sid.map(i64::from)),
            ] {
                if let Some(value) = value {
                    settings.set(setting, value);
                }
            }
            let g = sno_core::AnyGenerator::new(other, &settings).map_err(|e| match e {
                // Before 1970: named as the epoch.
                Error::MillisOutOfRange { .. } => negative_epoch(other, args.epoch.unwrap_or(0)),
                Error::InvalidArgument { name, .. }
                    if name == Setting::EpochMs.name() && args.epoch.is_some() =>
                {
                    negative_epoch(other, args.epoch.unwrap_or(0))
                }
                Error::InvalidArgument { name, reason } => {
                    let flag = options
                        .iter()
                        .find(|(_, _, setting)| setting.name() == name)
                        .map_or(name, |&(flag, _, _)| flag);
                    Setup::Usage(format!("{flag} {reason} for {} IDs", other.name()))
                }
                e => Setup::Usage(e.to_string()),
            })?;
            Box::new(move || g.next(sno_core::time::DEFAULT_MAX_WAIT))
        }
        Format::TypeId => {
            let prefix = args.prefix.clone().unwrap_or_default();
            check_prefix(&prefix).map_err(|e| Setup::Usage(e.to_string()))?;
            Box::new(move || TypeId::try_new(&prefix).map(AnyId::from))
        }
        // The process-wide generator of a format that has one.
        other if other.has_process_generator() => {
            Box::new(move || AnyId::try_new(other).unwrap_or(Err(Error::UnknownFormat)))
        }
        other => {
            return Err(Setup::Usage(format!(
                "sno new cannot make {} IDs yet",
                other.display_name()
            )));
        }
    })
}

/// The epochs of the formats that do not carry theirs.
struct Epochs {
    nanoflake: Option<i64>,
    ulidflake: i64,
}

fn inspect(args: &InspectArgs, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<i32> {
    let epochs = Epochs {
        nanoflake: args.epoch.or(args.nanoflake_epoch),
        ulidflake: args
            .epoch
            .or(args.ulidflake_epoch)
            .unwrap_or(ulidflake::DEFAULT_EPOCH_MS),
    };
    let mut status = EXIT_OK;
    for input in &args.ids {
        let text = input.as_bytes();
        let message = match read(args.format, text) {
            Ok(id) => {
                write_reading(out, input, &id, &epochs, args.json)?;
                continue;
            }
            Err(e @ Error::AmbiguousFormat { candidates }) => {
                for format in candidates.iter() {
                    if let Ok(id) = AnyId::parse_as(format, text) {
                        write_reading(out, input, &id, &epochs, args.json)?;
                    }
                }
                format!("{input}: {e}")
            }
            Err(e @ Error::UnrecognizedFormat { .. }) => format!("{input}: {e}{}", why_not(text)),
            Err(e) => format!("{input}: {e}"),
        };
        report(out, err, &message)?;
        status = EXIT_FAILURE;
    }
    Ok(status)
}

/// `text` as `format` when one is named, else in the format [`AnyId::detect`] finds.
fn read(format: Option<Format>, text: &[u8]) -> Result<AnyId, Error> {
    match format {
        Some(format) => AnyId::parse_as(format, text),
        None => AnyId::detect(text),
    }
}

/// For text no format reads: what each format whose length it has says about it.
fn why_not(text: &[u8]) -> String {
    let mut why = String::new();
    for format in Format::ALL {
        match AnyId::parse_as(format, text) {
            Err(Error::InvalidLength { .. }) | Ok(_) => {}
            Err(e) => {
                let message = e.to_string();
                let message = message.strip_prefix("sno: ").unwrap_or(&message);
                why.push_str(&format!("; as {}: {message}", format.name()));
            }
        }
    }
    why
}

/// A value of the output: plain `name=value` text or a JSON value.
enum Value {
    Text(String),
    /// A time or an epoch in Unix milliseconds: a JSON number within ±[`JSON_MAX_INT`], else `null`.
    Int(i64),
    /// An unsigned field; `wide` (more than 53 bits) is a JSON string, so that no JSON reader
    /// rounds it.
    Uint {
        value: u128,
        wide: bool,
    },
    Bool(bool),
    /// Unknown: left out of the text, `null` in JSON.
    Null,
    /// Known, but past `i64` (a Nanoflake or Ulid-Flake epoch plus its timestamp): the word
    /// [`OUT_OF_RANGE`] in the text, `null` in JSON. Never a saturated number.
    OutOfRange,
}

/// The widest field JSON gives as a number (a double holds every integer of 53 bits).
const JSON_NUMBER_BITS: u8 = 53;

/// The largest magnitude JSON gives as a number, 2^53 − 1: every JSON reader, doubles
/// included, holds it and every integer below exactly (and tells it from its neighbours).
const JSON_MAX_INT: u64 = (1 << JSON_NUMBER_BITS) - 1;

/// The text of a value past `i64`.
const OUT_OF_RANGE: &str = "out-of-range";

/// The Unix milliseconds of a timestamp of `timestamp` ms since `epoch_ms`: checked, so that a
/// sum past `i64` is [`Value::OutOfRange`], not a saturated number.
fn since_epoch(epoch_ms: i64, timestamp: u64) -> Value {
    i64::try_from(timestamp)
        .ok()
        .and_then(|t| epoch_ms.checked_add(t))
        .map_or(Value::OutOfRange, Value::Int)
}

/// The named values of one reading, in output order.
fn reading(input: &str, id: &AnyId, epochs: &Epochs) -> Vec<(&'static str, Value)> {
    let (unix_ms, epoch) = match id {
        AnyId::Nanoflake(n) => (
            epochs
                .nanoflake
                .map_or(Value::Null, |e| since_epoch(e, n.timestamp())),
            Some(epochs.nanoflake),
        ),
        AnyId::UlidFlake(f) => (
            since_epoch(epochs.ulidflake, f.timestamp()),
            Some(Some(epochs.ulidflake)),
        ),
        other => (other.unix_ms().map_or(Value::Null, Value::Int), None),
    };
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    let time = match unix_ms {
        Value::Int(ms) => sno_core::time::format_utc_millis(ms, &mut utc),
        _ => None,
    };
    let or_null = |v: Option<Value>| v.unwrap_or(Value::Null);
    let mut values = vec![
        ("input", Value::Text(input.to_owned())),
        ("format", Value::Text(id.format().name().to_owned())),
        ("text", Value::Text(id.text().as_str().to_owned())),
        ("time", or_null(time.map(|t| Value::Text(t.to_owned())))),
        ("unix_ms", unix_ms),
    ];
    if let Some(epoch) = epoch {
        values.push(("epoch_ms", or_null(epoch.map(Value::Int))));
    }
    for field in id.fields().iter() {
        let value = match field.value {
            FieldValue::Uint(value) => Value::Uint {
                value,
                wide: field.bits > JSON_NUMBER_BITS,
            },
            FieldValue::Bool(b) => Value::Bool(b),
            FieldValue::Text(t) => Value::Text(t.to_owned()),
        };
        // A field named like a value above (`unix_ms`) holds the same number: given once.
        if !values.iter().any(|(name, _)| *name == field.name) {
            values.push((field.name, value));
        }
    }
    let hex: String = id.as_slice().iter().map(|b| format!("{b:02x}")).collect();
    values.push(("hex", Value::Text(hex)));
    values
}

/// Writes one reading: `INPUT name=value ...` (null values left out, text escaped), or a JSON
/// object.
fn write_reading(
    out: &mut dyn Write,
    input: &str,
    id: &AnyId,
    epochs: &Epochs,
    json: bool,
) -> io::Result<()> {
    let values = reading(input, id, epochs);
    let mut line = String::new();
    for (i, (name, value)) in values.iter().enumerate() {
        if json {
            line.push(if i == 0 { '{' } else { ',' });
            line.push_str(&json_string(name));
            line.push(':');
            line.push_str(&match value {
                Value::Text(t) => json_string(t),
                Value::Int(v) if v.unsigned_abs() <= JSON_MAX_INT => v.to_string(),
                Value::Uint { value, wide: true } => format!("\"{value}\""),
                Value::Uint { value, wide: false } => value.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Int(_) | Value::Null | Value::OutOfRange => "null".to_owned(),
            });
        } else if i == 0 {
            // The input, as given: the line's key.
            if let Value::Text(t) = value {
                line.push_str(&escape(t));
            }
        } else {
            let text = match value {
                Value::Text(t) => escape(t),
                Value::Int(v) => v.to_string(),
                Value::Uint { value, .. } => value.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::OutOfRange => OUT_OF_RANGE.to_owned(),
                Value::Null => continue,
            };
            line.push_str(&format!(" {name}={text}"));
        }
    }
    line.push_str(if json { "}\n" } else { "\n" });
    out.write_all(line.as_bytes())
}

/// `text` as a JSON string: `"` and `\` escaped, `\t` `\n` `\r`, and `\uXXXX` (UTF-16 units)
/// for every other character [`escape`] escapes, DEL, C1 controls and bidirectional overrides
/// included, which JSON would allow raw. A JSON reader gets the text back exactly; a terminal
/// shows no control character.
fn json_string(text: &str) -> String {
    use std::fmt::Write as _;
    let mut json = String::with_capacity(text.len() + 2);
    json.push('"');
    for c in text.chars() {
        let _ = match c {
            '"' => json.write_str("\\\""),
            '\\' => json.write_str("\\\\"),
            '\t' => json.write_str("\\t"),
            '\n' => json.write_str("\\n"),
            '\r' => json.write_str("\\r"),
            c if printable(c) => json.write_char(c),
            c => c
                .encode_utf16(&mut [0; 2])
                .iter()
                .try_for_each(|unit| write!(json, "\\u{unit:04x}")),
        };
    }
    json.push('"');
    json
}

/// `Ok` for a valid TypeID prefix, else the core's [`Error::InvalidPrefix`].
fn check_prefix(prefix: &str) -> Result<(), Error> {
    TypeId::from_uuid(prefix, [0; 16]).map(|_| ())
}

fn convert(args: &ConvertArgs, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<i32> {
    if let Some(prefix) = &args.prefix {
        let message = match args.to {
            Format::TypeId => check_prefix(prefix).err().map(|e| e.to_string()),
            _ => Some("--prefix applies to --to typeid only".to_owned()),
        };
        if let Some(message) = message {
            return Ok(usage(err, &["sno".into(), "convert".into()], &message));
        }
    }
    let mut status = EXIT_OK;
    for input in &args.ids {
        let converted = match read(args.format, input.as_bytes()) {
            Err(e) => Err(e.to_string()),
            Ok(id) => convert_to(id, args.to, args.prefix.as_deref()),
        };
        match converted {
            Ok(id) => {
                out.write_all(id.text().as_bytes())?;
                out.write_all(b"\n")?;
            }
            Err(message) => {
                report(out, err, &format!("{input}: {message}"))?;
                status = EXIT_FAILURE;
            }
        }
    }
    Ok(status)
}

/// `id` as a value of `to`: the same value, or the core's conversion between formats that
/// share their 128 bits (a TypeID made gets `prefix`; one converted to a TypeID keeps its own
/// unless `prefix` is given).
fn convert_to(id: AnyId, to: Format, prefix: Option<&str>) -> Result<AnyId, String> {
    let prefix_or_none = prefix.unwrap_or_default();
    let converted = match (id, to) {
        (AnyId::TypeId(t), Format::TypeId) => match prefix {
            Some(prefix) => TypeId::from_uuid(prefix, t.uuid_bytes()).map(AnyId::from),
            None => Ok(id),
        },
        (id, to) if id.format() == to => Ok(id),
        (AnyId::Ulid(u), Format::Uuid7) => Uuid7::try_from(u).map(AnyId::from),
        (AnyId::Uuid7(u), Format::Ulid) => Ok(Ulid::from(u).into()),
        (AnyId::Uuid7(u), Format::TypeId) => TypeId::from_uuid7(prefix_or_none, u).map(AnyId::from),
        (AnyId::Ulid(u), Format::TypeId) => {
            TypeId::from_uuid(prefix_or_none, u.to_bytes()).map(AnyId::from)
        }
        (AnyId::TypeId(t), Format::Uuid7) => t.to_uuid7().map(AnyId::from),
        (AnyId::TypeId(t), Format::Ulid) => Ok(Ulid::from_bytes(t.uuid_bytes()).into()),
        (id, to) => {
            return Err(format!(
                "sno: cannot convert a {} to {}: only formats with the same 128 bits convert (ULID, UUIDv7, TypeID)",
                id.format().display_name(),
                to.display_name()
            ));
        }
    };
    converted.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

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
            "typeid",
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

    /// Whether `c` may be written as it is: printable, or the backslash that starts an escape.
    fn shows(c: char) -> bool {
        !c.is_control() && (printable(c) || c == '\\')
    }

    #[test]
    fn escape_writes_controls_and_invisible_characters_as_in_a_rust_literal() {
        for (text, escaped) in [
            ("plain 01ARZ3NDEKTSV4RRFFQ69G5FAV é 'quoted' \"too\"", None),
            (
                "\0\x01\x07\x08\x0b\x0c\x1b[31m\x1f\x7f",
                Some("\\x00\\x01\\x07\\x08\\x0b\\x0c\\x1b[31m\\x1f\\x7f"),
            ),
            ("\t\n\r\\", Some("\\t\\n\\r\\\\")),
            (
                "\u{80}\u{85}\u{9b}\u{9f}",
                Some("\\u{80}\\u{85}\\u{9b}\\u{9f}"),
            ),
            (
                "\u{202e}\u{2066}\u{200b}\u{feff}\u{ad}",
                Some("\\u{202e}\\u{2066}\\u{200b}\\u{feff}\\u{ad}"),
            ),
            (
                "\u{2028}\u{2029}\u{a0}\u{3000}",
                Some("\\u{2028}\\u{2029}\\u{a0}\\u{3000}"),
            ),
            (
                "e\u{301}\u{e000}\u{e0001}\u{10ffff}",
                Some("e\\u{301}\\u{e000}\\u{e0001}\\u{10ffff}"),
            ),
        ] {
            assert_eq!(escape(text), escaped.unwrap_or(text), "{text:?}");
        }
        // Every character: escaped, or one that shows as itself.
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            let e = escape(&c.to_string());
            assert!(
                (printable(c) && c != '\\' && e == c.to_string()) || e.starts_with('\\'),
                "{c:?}"
            );
            assert!(e.chars().all(shows), "{c:?}");
        }
    }

    #[test]
    fn json_strings_give_the_text_back_with_no_raw_control() {
        let every: String = (0..=0x10_ffff).filter_map(char::from_u32).collect();
        for text in [
            "",
            "user_01h455vb4pex5vsknk084sn02q",
            "\"quoted\" \\ back\tslash\n",
            "\0\x1b[2J\x7f\u{85}\u{9b}\u{202e}\u{2028}\u{e0001}",
            &every,
        ] {
            let json = json_string(text);
            let back: String = serde_json::from_str(&json).expect("a JSON string");
            assert_eq!(back, text);
            assert!(json.chars().all(shows), "{json:?}");
        }
        assert_eq!(
            json_string("a\x1b\u{9b}\u{202e}\u{e0001}é"),
            r#""a\u001b\u009b\u202e\udb40\udc01é""#
        );
        assert_eq!(json_string("\u{7f}\"\\\n"), r#""\u007f\"\\\n""#);
    }

    #[test]
    fn a_reading_escapes_its_input() {
        let id = AnyId::detect(b"01ARZ3NDEKTSV4RRFFQ69G5FAV").expect("a ULID");
        let epochs = Epochs {
            nanoflake: None,
            ulidflake: ulidflake::DEFAULT_EPOCH_MS,
        };
        let mut out = Vec::new();
        write_reading(&mut out, "a\n\x1b\u{9b}", &id, &epochs, false).expect("written");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.starts_with("a\\n\\x1b\\u{9b} format=ulid "), "{text}");
        assert_eq!(text.lines().count(), 1);
        let mut out = Vec::new();
        write_reading(&mut out, "a\n\x1b\u{9b}", &id, &epochs, true).expect("written");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.starts_with(r#"{"input":"a\n\u001b\u009b","#), "{text}");
    }

    #[test]
    fn messages_of_every_layer_come_out_escaped_on_one_line() {
        // A lower layer's message quoting what it was given (a store's answer, say).
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let message = "sno lease: the store answered: ERROR:  bad\nDETAIL:  \x1b]0;owned\x07";
        report(&mut out, &mut err, message).expect("reported");
        assert_eq!(
            String::from_utf8(err).expect("UTF-8"),
            "sno lease: the store answered: ERROR:  bad\\nDETAIL:  \\x1b]0;owned\\x07\n"
        );
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

    #[test]
    fn a_clock_outside_a_flake_field_is_blamed_on_the_epoch() {
        let epochs = Epochs {
            nanoflake: Some(0),
            ulidflake: 1_000,
        };
        let now = |unix_millis| Error::MillisOutOfRange { unix_millis };
        // Too far back: the field is full (Nanoflakes made with epoch 0 after 2039).
        assert_eq!(
            generator_error(&now(1 << 41), Format::Nanoflake, &epochs),
            "sno: the Nanoflake epoch 1970-01-01T00:00:00.000Z (0 ms) is more than 2199023255551 ms before the clock, 2039-09-07T15:47:35.552Z (2199023255552 ms): more than its 41-bit timestamp holds; choose a later epoch"
        );
        assert_eq!(
            generator_error(&now(500), Format::UlidFlake, &epochs),
            "sno: the Ulid-Flake epoch 1970-01-01T00:00:01.000Z (1000 ms) is after the clock, 1970-01-01T00:00:00.500Z (500 ms): an epoch must be in the past"
        );
        // Other errors, and other formats, are the core's.
        let rollback = Error::ClockRollback {
            last_unix_millis: 2,
            unix_millis: 1,
        };
        assert_eq!(
            generator_error(&rollback, Format::Nanoflake, &epochs),
            rollback.to_string()
        );
        assert_eq!(
            generator_error(&now(1 << 48), Format::Ulid, &epochs),
            now(1 << 48).to_string()
        );
    }

    #[test]
    fn flake_times_are_checked_never_saturated() {
        assert!(matches!(since_epoch(1, 2), Value::Int(3)));
        assert!(matches!(since_epoch(i64::MAX, 1), Value::OutOfRange));
        assert!(matches!(since_epoch(i64::MIN, 1), Value::Int(v) if v == i64::MIN + 1));
        assert!(matches!(since_epoch(0, u64::MAX), Value::OutOfRange));
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
