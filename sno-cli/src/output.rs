//! What the commands print: messages escaped onto one line, and readings (named values) as
//! `name=value` text or as JSON objects (serde_json, with a formatter that escapes what
//! messages escape).

use std::io::{self, Write};

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// Writes `message`, escaped ([`escape`]), to `err` after what `out` holds, so that a terminal
/// shows both in order.
pub(crate) fn report(out: &mut dyn Write, err: &mut dyn Write, message: &str) -> io::Result<()> {
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
pub(crate) fn escape(text: &str) -> String {
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

/// A value of the output: plain `name=value` text or a JSON value.
pub(crate) enum Value {
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
pub(crate) const JSON_NUMBER_BITS: u8 = 53;

/// The largest magnitude JSON gives as a number, 2^53 − 1: every JSON reader, doubles
/// included, holds it and every integer below exactly (and tells it from its neighbours).
const JSON_MAX_INT: u64 = (1 << JSON_NUMBER_BITS) - 1;

/// The text of a value past `i64`.
const OUT_OF_RANGE: &str = "out-of-range";

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Text(t) => s.serialize_str(t),
            Value::Int(v) if v.unsigned_abs() <= JSON_MAX_INT => s.serialize_i64(*v),
            Value::Uint { value, wide: true } => s.collect_str(value),
            Value::Uint { value, wide: false } => s.serialize_u128(*value),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(_) | Value::Null | Value::OutOfRange => s.serialize_none(),
        }
    }
}

/// Named values in their order, as one JSON object.
struct Object<'a>(&'a [(&'static str, Value)]);

impl Serialize for Object<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// serde_json's compact output, with strings escaped so that no control character reaches a
/// terminal: `"` and `\` escaped, `\t` `\n` `\r`, and `\uXXXX` (UTF-16 units) for every other
/// character [`escape`] escapes, DEL, C1 controls and bidirectional overrides included, which
/// JSON would allow raw. A JSON reader gets the text back exactly.
struct Escaping;

impl Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| !printable(c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            for unit in c.encode_utf16(&mut [0; 2]) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        // `\b` and `\f` as the other controls are, so that the short escapes are those of
        // `escape`'s text too.
        match char_escape {
            CharEscape::Backspace => writer.write_all(b"\\u0008"),
            CharEscape::FormFeed => writer.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(writer, other),
        }
    }
}

/// `value` as JSON, strings escaped as [`Escaping`] does.
fn to_json(value: &impl Serialize) -> io::Result<Vec<u8>> {
    let mut json = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut json, Escaping,
    ))?;
    Ok(json)
}

/// Writes `value` as one line of JSON, strings escaped as [`Escaping`] does.
pub(crate) fn write_json(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    let mut line = to_json(value)?;
    line.push(b'\n');
    out.write_all(&line)
}

/// Writes one reading, `values` in order (the first is the input, as given): `INPUT
/// name=value ...` (null values left out, text escaped), or one JSON object; then a line feed.
pub(crate) fn write_values(
    out: &mut dyn Write,
    values: &[(&'static str, Value)],
    json: bool,
) -> io::Result<()> {
    let mut line = if json {
        to_json(&Object(values))?
    } else {
        let mut line = String::new();
        for (i, (name, value)) in values.iter().enumerate() {
            let text = match value {
                // The input, as given: the line's key.
                Value::Text(t) if i == 0 => {
                    line.push_str(&escape(t));
                    continue;
                }
                _ if i == 0 => continue,
                Value::Text(t) => escape(t),
                Value::Int(v) => v.to_string(),
                Value::Uint { value, .. } => value.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::OutOfRange => OUT_OF_RANGE.to_owned(),
                Value::Null => continue,
            };
            line.push_str(&format!(" {name}={text}"));
        }
        line.into_bytes()
    };
    line.push(b'\n');
    out.write_all(&line)
}

/// Whether `c` may be written as it is: printable, or the backslash that starts an escape.
#[cfg(test)]
pub(crate) fn shows(c: char) -> bool {
    !c.is_control() && (printable(c) || c == '\\')
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let json_string =
            |text: &str| String::from_utf8(to_json(&text).expect("JSON")).expect("UTF-8");
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
        // `\b` and `\f` as every other control: the short escapes are those of the text's.
        assert_eq!(json_string("\x08\x0c\t\r"), r#""\u0008\u000c\t\r""#);
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
    }
}
