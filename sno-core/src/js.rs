//! The format table as JavaScript reads it: one JSON text ([`JsTable`]) from which the Node
//! package (`bindings/node/formats.js`, through the addon's `formats()`) and the web build
//! (`bindings/web/js/formats.js`, through `js/table.js`) build one class and namespace per
//! format, and the rule by which a field is a JavaScript number or a bigint.

use core::fmt::{self, Display, Formatter, Write};

use crate::model::{CamelCase, FieldKind};
use crate::{AnyId, Epoch, Format};

/// The widest number field a JavaScript number holds exactly; wider ones are bigints.
///
/// ```
/// use sno_core::js::MAX_NUMBER_BITS;
/// use sno_core::model::FieldKind;
/// assert_eq!(FieldKind::Uint { bits: MAX_NUMBER_BITS }.js_type(), "number");
/// assert_eq!(FieldKind::Uint { bits: MAX_NUMBER_BITS + 1 }.js_type(), "bigint");
/// ```
pub const MAX_NUMBER_BITS: u8 = 53;

impl FieldKind {
    /// The JavaScript type of a field of this kind: `number` (at most [`MAX_NUMBER_BITS`]
    /// bits), `bigint`, `boolean` or `string`.
    ///
    /// ```
    /// use sno_core::Format;
    /// let kinds: Vec<&str> = Format::Ulid.fields().iter().map(|f| f.kind.js_type()).collect();
    /// assert_eq!(kinds, ["number", "bigint"]);
    /// ```
    pub const fn js_type(self) -> &'static str {
        match self {
            FieldKind::Uint { bits } if bits <= MAX_NUMBER_BITS => "number",
            FieldKind::Uint { .. } => "bigint",
            FieldKind::Bool => "boolean",
            FieldKind::Text => "string",
        }
    }
}

/// The format table as JSON, an array in [`Format::ALL`] order whose entries JavaScript builds
/// each format's class and namespace from. An entry's members, every name in camel case:
///
/// - `index` (the position, which the bindings' per-format calls take), `name`, `className`
///   ([`Format::node_class`]), `displayName`, `binaryLen`, `maxTextLen`, and `textLen` for a
///   format whose text order is value order (`textOrder`: fixed-length canonical text);
/// - `hasUnixMs` (a value may carry its time), `hasEpoch` (its time is relative to an epoch the
///   caller knows), `hasGlobal` (a process-wide generator), `lenient` (a lenient decoder);
/// - `columnType`, `postgresType`, `sqliteType` ([`Format::column_type`]);
/// - `fields`: `{name, coreName, bits, unit, kind}` each, `kind` by [`FieldKind::js_type`];
///   `inputs`: the fields a value is made from, `{name, kind}` with `kind` `uint`, `boolean` or
///   `string`;
/// - what the format has beyond the model ([`Extras`](crate::model::Extras)): `textForms` and
///   `numbers` (`{name, coreName}` each), `conversions` (class names), and `param`
///   (`{name, binary, fromName, sourceClass}`) for a format with one;
/// - for a format with a generator of its own, `generatorOptions` and `generatorRequired`
///   (its settings).
///
/// ```
/// use sno_core::js::JsTable;
/// let json = JsTable.to_string();
/// assert!(json.starts_with(r#"[{"index":0,"name":"sno","className":"Id","#));
/// assert!(json.contains(r#""name":"unixMs","coreName":"unix_ms","bits":48"#));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct JsTable;

impl Display for JsTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('[')?;
        for (index, format) in Format::ALL.into_iter().enumerate() {
            if index > 0 {
                f.write_char(',')?;
            }
            entry(f, index, format)?;
        }
        f.write_char(']')
    }
}

/// One entry of the table (the core's names need no escaping in JSON).
fn entry(f: &mut Formatter<'_>, index: usize, format: Format) -> fmt::Result {
    write!(
        f,
        r#"{{"index":{index},"name":"{}","className":"{}","displayName":"{}","binaryLen":{},"maxTextLen":{},"#,
        format.name(),
        format.node_class(),
        format.display_name(),
        format.binary_len(),
        format.max_text_len(),
    )?;
    if format.text_order() {
        // The canonical text of a format with fixed-length text is its shortest accepted one.
        write!(f, r#""textLen":{},"#, format.min_text_len())?;
    }
    let column = format.column_type();
    write!(
        f,
        r#""hasUnixMs":{},"hasEpoch":{},"textOrder":{},"hasGlobal":{},"lenient":{},"columnType":"{}","postgresType":"{}","sqliteType":"{}""#,
        format.epoch() != Epoch::Required,
        format.epoch().takes_application_epoch(),
        format.text_order(),
        format.has_process_generator(),
        format.lenient().is_some(),
        column.name(),
        column.postgres(),
        column.sqlite(),
    )?;
    list(f, "fields", format.fields(), |f, field| {
        let (name, unit, kind) = (field.name, field.unit.name(), field.kind.js_type());
        let camel = CamelCase(name);
        let bits = field.bits();
        write!(
            f,
            r#"{{"name":"{camel}","coreName":"{name}","bits":{bits},"unit":"{unit}","kind":"{kind}"}}"#
        )
    })?;
    list(f, "inputs", AnyId::inputs(format), |f, input| {
        let kind = match input.kind {
            FieldKind::Bool => "boolean",
            FieldKind::Text => "string",
            FieldKind::Uint { .. } => "uint",
        };
        write!(
            f,
            r#"{{"name":"{}","kind":"{kind}"}}"#,
            CamelCase(input.name)
        )
    })?;
    let extra = |f: &mut Formatter<'_>, name| {
        write!(f, r#"{{"name":"{}","coreName":"{name}"}}"#, CamelCase(name))
    };
    list(
        f,
        "textForms",
        format.text_forms().map(|(name, ..)| name),
        extra,
    )?;
    list(f, "numbers", format.numbers().map(|(name, _)| name), extra)?;
    list(f, "conversions", format.conversions(), |f, to| {
        write!(f, r#""{}""#, to.node_class())
    })?;
    if let Some(p) = format.param_facts() {
        let (name, source) = (CamelCase(p.setting.name()), p.source.node_class());
        write!(
            f,
            r#","param":{{"name":"{name}","binary":"{}","#,
            CamelCase(p.binary)
        )?;
        // `from` and the binary form's name: `fromUuid` (the name's first letter upper case,
        // the rest as `CamelCase` writes it: `CamelCase` of `from_uuid` without an allocation).
        let mut binary = p.binary.chars();
        f.write_str(r#""fromName":"from"#)?;
        if let Some(first) = binary.next() {
            f.write_char(first.to_ascii_uppercase())?;
        }
        write!(
            f,
            r#"{}","sourceClass":"{source}"}}"#,
            CamelCase(binary.as_str())
        )?;
    }
    if format.has_generator() {
        let setting =
            |f: &mut Formatter<'_>, s: &crate::Setting| write!(f, r#""{}""#, CamelCase(s.name()));
        list(f, "generatorOptions", format.settings(), setting)?;
        list(f, "generatorRequired", format.required_settings(), setting)?;
    }
    f.write_char('}')
}

/// The member `,"key":[…]` of `items`, each written by `item`.
fn list<T>(
    f: &mut Formatter<'_>,
    key: &str,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut Formatter<'_>, T) -> fmt::Result,
) -> fmt::Result {
    write!(f, r#","{key}":["#)?;
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        item(f, x)?;
    }
    f.write_char(']')
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// The table is JSON, with an entry per format whose fields are the core's.
    #[test]
    fn table_is_json_of_every_format() {
        let table: serde_json::Value = serde_json::from_str(&JsTable.to_string()).unwrap();
        let entries = table.as_array().unwrap();
        assert_eq!(entries.len(), Format::ALL.len());
        for (entry, format) in entries.iter().zip(Format::ALL) {
            assert_eq!(entry["name"], format.name());
            assert_eq!(
                entry["fields"].as_array().unwrap().len(),
                format.fields().len()
            );
            assert_eq!(entry["generatorOptions"].is_array(), format.has_generator());
            assert_eq!(entry["textLen"].is_u64(), format.text_order());
        }
        let at = |format| Format::ALL.iter().position(|f| *f == format).unwrap();
        let typeid = &entries[at(Format::TypeId)];
        assert_eq!(typeid["param"]["fromName"], "fromUuid");
        assert_eq!(typeid["param"]["sourceClass"], "Uuid7");
        let nanoflake = &entries[at(Format::Nanoflake)];
        assert_eq!(nanoflake["numbers"][0]["name"], "referenceTimestampMs");
        assert_eq!(nanoflake["generatorRequired"][1], "generatorId");
    }
}
