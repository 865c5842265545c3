//! `sno new`: IDs of any format from one generator, the process-wide one (sno with
//! `SNO_PARTITION` or `SNO_LEASE_URL`, the other formats' own) or one built from the options.

use std::io::{self, Write};

use sno_core::{AnyId, Error, Format, Setting, nanoflake, ulidflake};

use crate::args::{NewArgs, usage};
use crate::inspect::{Epochs, write_reading};
use crate::output::report;
use crate::status::{EXIT_FAILURE, EXIT_OK};

/// Why `sno new` cannot start: a usage error, or a failure of the environment.
enum Setup {
    Usage(String),
    Failure(String),
}

/// A source of IDs of one format.
type Next = Box<dyn FnMut() -> Result<AnyId, Error>>;

pub(crate) fn new(args: &NewArgs, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<i32> {
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
                    // Never on a partition the fleet may hold by lease: a usage error while
                    // SNO_LEASE_URL is set (the one rule of every layer, sno-lease's).
                    sno_lease::check_explicit_partition().map_err(|e| {
                        let why = e.to_string();
                        let why = why.strip_prefix("sno: ").unwrap_or(&why).to_owned();
                        Setup::Usage(format!("--partition {partition}: {why}"))
                    })?;
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
        // A format with a param (its `--prefix`), checked before any ID is made.
        other if other.param().is_some() => {
            let param = args.prefix.clone().unwrap_or_default();
            if let Some(Err(e)) = other.check_param(&param) {
                return Err(Setup::Usage(e.to_string()));
            }
            Box::new(move || {
                AnyId::try_new_with_param(other, &param).unwrap_or(Err(Error::UnknownFormat))
            })
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
