//! The `sno` command line, written once: the `sno` binary of this crate and the Python console
//! script `sno` (through the extension module) both call [`run`], so they print the same bytes
//! and exit with the same statuses.
//!
//! * `sno new [--format F] [-n N] [--meta M] [--partition P] [--epoch MS] [--generator-id G] [--sid S] [--prefix P]`
//! * `sno inspect ID... [--format F] [--json] [--epoch MS | --nanoflake-epoch MS | --ulidflake-epoch MS]`
//! * `sno convert ID... --to F [--format F] [--prefix P]`
//!
//! Formats are read with [`AnyId::detect`] (or [`AnyId::parse_as`] when `--format` names one);
//! fields come from [`AnyId::fields`], errors are the core's [`Error`] messages.
//! `docs/cli.md` describes the output and the JSON objects.
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
use sno_core::rng::ThreadRng;
use sno_core::typeid::TypeId;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyId, Error, FieldValue, Format, nanoflake, ulidflake};

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
        Err(e) => return clap_error(&e, &args, out, err),
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
                let _ = writeln!(err, "sno: error: cannot write the output: {e}");
            }
            EXIT_FAILURE
        }
    }
}

/// Prints clap's help or version to `out`, or its error as one line to `err`.
fn clap_error(e: &clap::Error, args: &[OsString], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => EXIT_OK,
                Err(_) => EXIT_FAILURE,
            }
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.write_all(text.as_bytes());
            EXIT_USAGE
        }
        _ => {
            // The first paragraph and the tips, on one line (not the usage).
            let mut lines = text.lines().map(str::trim);
            let first: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
            let mut first = first.join(" ");
            for tip in lines.filter(|l| l.starts_with("tip:")) {
                first.push_str("; ");
                first.push_str(tip);
            }
            usage(err, args, first.strip_prefix("error: ").unwrap_or(&first))
        }
    }
}

/// Writes a usage error, pointing at the help of the subcommand in `args`.
fn usage(err: &mut dyn Write, args: &[OsString], message: &str) -> i32 {
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

/// Writes `message` to `err` after what `out` holds, so that a terminal shows both in order.
fn report(out: &mut dyn Write, err: &mut dyn Write, message: &str) -> io::Result<()> {
    out.flush()?;
    let _ = writeln!(err, "{message}");
    Ok(())
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
fn parse_uint(text: &str, max: u16) -> Result<u16, String> {
    let (digits, radix) = match text.get(..2) {
        Some("0x" | "0X") => (&text[2..], 16),
        Some("0o" | "0O") => (&text[2..], 8),
        Some("0b" | "0B") => (&text[2..], 2),
        _ => (text, 10),
    };
    u16::from_str_radix(digits, radix)
        .ok()
        .filter(|v| *v <= max && !digits.starts_with('+'))
        .ok_or_else(|| format!("expected a number 0 ..= {max}"))
}

fn parse_meta(text: &str) -> Result<u8, String> {
    parse_uint(text, u8::MAX.into()).map(|v| v as u8)
}

fn parse_partition(text: &str) -> Result<u16, String> {
    parse_uint(text, u16::MAX)
}

fn parse_generator_id(text: &str) -> Result<u16, String> {
    parse_uint(text, nanoflake::MAX_GENERATOR_ID)
}

fn parse_sid(text: &str) -> Result<u8, String> {
    parse_uint(text, ulidflake::MAX_SID.into()).map(|v| v as u8)
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
                report(out, err, &e.to_string())?;
                return Ok(EXIT_FAILURE);
            }
        }
    }
    Ok(EXIT_OK)
}

/// The generator `sno new` draws from, after checking that every option given applies.
fn generator(format: Format, args: &NewArgs) -> Result<Next, Setup> {
    let options: [(&str, bool, &[Format]); 6] = [
        ("--meta", args.meta.is_some(), &[Format::Sno]),
        ("--partition", args.partition.is_some(), &[Format::Sno]),
        (
            "--epoch",
            args.epoch.is_some(),
            &[Format::Nanoflake, Format::UlidFlake],
        ),
        (
            "--generator-id",
            args.generator_id.is_some(),
            &[Format::Nanoflake],
        ),
        ("--sid", args.sid.is_some(), &[Format::UlidFlake]),
        ("--prefix", args.prefix.is_some(), &[Format::TypeId]),
    ];
    for (flag, given, formats) in options {
        if given && !formats.contains(&format) {
            let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
            return Err(Setup::Usage(format!(
                "{flag} applies to {} IDs only, not {}",
                names.join(" and "),
                format.name()
            )));
        }
    }
    let setting = |e: Error| Setup::Usage(e.to_string());
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
        Format::Ulid => Box::new(|| sno_core::ulid::try_new().map(AnyId::from)),
        Format::Uuid7 => Box::new(|| sno_core::uuid7::try_new().map(AnyId::from)),
        Format::Scru128 => Box::new(|| sno_core::scru128::try_new().map(AnyId::from)),
        Format::Scru160 => Box::new(|| sno_core::scru160::try_new().map(AnyId::from)),
        Format::Nanoflake => {
            let (Some(epoch), Some(id)) = (args.epoch, args.generator_id) else {
                return Err(Setup::Usage(
                    "nanoflake IDs need --epoch MS (the application's epoch) and --generator-id G"
                        .to_owned(),
                ));
            };
            let g =
                nanoflake::Generator::new(nanoflake::Monotonic::new(epoch, id).map_err(setting)?);
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::UlidFlake if args.epoch.is_none() && args.sid.is_none() => {
            Box::new(|| ulidflake::try_new().map(AnyId::from))
        }
        Format::UlidFlake => {
            let config = ulidflake::Config {
                epoch_ms: args.epoch.unwrap_or(ulidflake::DEFAULT_EPOCH_MS),
                sid: args.sid,
                ..ulidflake::Config::default()
            };
            let state = ulidflake::Monotonic::with_config(ThreadRng, config).map_err(setting)?;
            let g = ulidflake::Generator::new(state);
            Box::new(move || g.next().map(AnyId::from))
        }
        Format::TypeId => {
            let prefix = args.prefix.clone().unwrap_or_default();
            check_prefix(&prefix).map_err(setting)?;
            Box::new(move || TypeId::try_new(&prefix).map(AnyId::from))
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
    Int(i64),
    /// An unsigned field; `wide` (more than 53 bits) is a JSON string, so that no JSON reader
    /// rounds it.
    Uint {
        value: u128,
        wide: bool,
    },
    Bool(bool),
    Null,
}

/// The widest field JSON gives as a number (a double holds every integer of 53 bits).
const JSON_NUMBER_BITS: u8 = 53;

/// The named values of one reading, in output order.
fn reading(input: &str, id: &AnyId, epochs: &Epochs) -> Vec<(&'static str, Value)> {
    let (unix_ms, epoch) = match id {
        AnyId::Nanoflake(n) => (
            epochs.nanoflake.map(|e| n.unix_ms_at(e)),
            Some(epochs.nanoflake),
        ),
        AnyId::UlidFlake(f) => (
            Some(f.unix_ms_at(epochs.ulidflake)),
            Some(Some(epochs.ulidflake)),
        ),
        other => (other.unix_ms(), None),
    };
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    let time = unix_ms.and_then(|ms| sno_core::time::format_utc_millis(ms, &mut utc));
    let or_null = |v: Option<Value>| v.unwrap_or(Value::Null);
    let mut values = vec![
        ("input", Value::Text(input.to_owned())),
        ("format", Value::Text(id.format().name().to_owned())),
        ("text", Value::Text(id.text().as_str().to_owned())),
        ("time", or_null(time.map(|t| Value::Text(t.to_owned())))),
        ("unix_ms", or_null(unix_ms.map(Value::Int))),
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

/// Writes one reading: `INPUT name=value ...` (null values left out), or a JSON object.
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
                Value::Int(v) => v.to_string(),
                Value::Uint { value, wide: true } => format!("\"{value}\""),
                Value::Uint { value, wide: false } => value.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Null => "null".to_owned(),
            });
        } else if i == 0 {
            // The input, as given: the line's key.
            if let Value::Text(t) = value {
                line.push_str(t);
            }
        } else {
            let text = match value {
                Value::Text(t) => t.clone(),
                Value::Int(v) => v.to_string(),
                Value::Uint { value, .. } => value.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Null => continue,
            };
            line.push_str(&format!(" {name}={text}"));
        }
    }
    line.push_str(if json { "}\n" } else { "\n" });
    out.write_all(line.as_bytes())
}

fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
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
                    count += 1;
                }
            }
        }
        assert_eq!(count, words.len().pow(3));
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
