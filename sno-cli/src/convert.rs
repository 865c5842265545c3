//! `sno convert ID... --to F`: IDs as values of another format with the same 128 bits (the
//! core's `Format::same_bits`), by the core's conversions.

use std::io::{self, Write};

use sno_core::{AnyId, Format};

use crate::args::{ConvertArgs, usage};
use crate::inspect::read;
use crate::output::report;
use crate::status::{EXIT_FAILURE, EXIT_OK};

pub(crate) fn convert(
    args: &ConvertArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<i32> {
    if let Some(prefix) = &args.prefix {
        let message = match args.to {
            to if to.param().is_some() => to
                .check_param(prefix)
                .and_then(Result::err)
                .map(|e| e.to_string()),
            _ => Some(format!(
                "--prefix applies to --to {} only",
                names(Format::param).join(", ")
            )),
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
/// share their bits (`AnyId::convert`: a value of a format with a param gets `param`; one of the
/// same format keeps its own unless `param` is given).
fn convert_to(id: AnyId, to: Format, param: Option<&str>) -> Result<AnyId, String> {
    match id.convert(to, param) {
        Some(converted) => converted.map_err(|e| e.to_string()),
        None => Err(format!(
            "sno: cannot convert a {} to {}: only formats with the same 128 bits convert ({})",
            id.format().display_name(),
            to.display_name(),
            Format::ALL
                .into_iter()
                .filter(|f| Format::ALL.iter().any(|g| f.same_bits(*g)))
                .map(Format::display_name)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The names of the formats for which `has` is `Some`.
fn names<T>(has: fn(Format) -> Option<T>) -> Vec<&'static str> {
    Format::ALL
        .into_iter()
        .filter(|f| has(*f).is_some())
        .map(Format::name)
        .collect()
}
