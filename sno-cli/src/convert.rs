//! `sno convert ID... --to F`: IDs as values of another format with the same 128 bits (ULID,
//! UUIDv7, TypeID), by the core's conversions.

use std::io::{self, Write};

use sno_core::typeid::TypeId;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyId, Error, Format};

use crate::args::{ConvertArgs, usage};
use crate::inspect::read;
use crate::output::report;
use crate::status::{EXIT_FAILURE, EXIT_OK};

/// `Ok` for a valid TypeID prefix, else the core's [`Error::InvalidPrefix`].
pub(crate) fn check_prefix(prefix: &str) -> Result<(), Error> {
    TypeId::from_uuid(prefix, [0; 16]).map(|_| ())
}

pub(crate) fn convert(
    args: &ConvertArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<i32> {
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
