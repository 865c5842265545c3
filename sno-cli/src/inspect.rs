//! `sno inspect ID...`: every field of each ID, its format detected (or named); and the reading
//! of one ID, which `sno new --inspect` prints too.

use std::io::{self, Write};

use sno_core::{AnyId, Error, FieldValue, Format, ulidflake};

use crate::args::InspectArgs;
use crate::output::{JSON_NUMBER_BITS, Value, report, write_values};
use crate::status::{EXIT_FAILURE, EXIT_OK};

/// The epochs of the formats that do not carry theirs.
pub(crate) struct Epochs {
    pub(crate) nanoflake: Option<i64>,
    pub(crate) ulidflake: i64,
}

pub(crate) fn inspect(
    args: &InspectArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<i32> {
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
pub(crate) fn read(format: Option<Format>, text: &[u8]) -> Result<AnyId, Error> {
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

/// Writes the reading of `id`, read from `input`: `INPUT name=value ...`, or a JSON object.
pub(crate) fn write_reading(
    out: &mut dyn Write,
    input: &str,
    id: &AnyId,
    epochs: &Epochs,
    json: bool,
) -> io::Result<()> {
    write_values(out, &reading(input, id, epochs), json)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn flake_times_are_checked_never_saturated() {
        assert!(matches!(since_epoch(1, 2), Value::Int(3)));
        assert!(matches!(since_epoch(i64::MAX, 1), Value::OutOfRange));
        assert!(matches!(since_epoch(i64::MIN, 1), Value::Int(v) if v == i64::MIN + 1));
        assert!(matches!(since_epoch(0, u64::MAX), Value::OutOfRange));
    }
}
