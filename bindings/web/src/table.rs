//! The core's format table as JSON (`sno_formats`), exported only by the build that
//! `scripts/build-web` runs once to write it into `js/table.js`: `formats.js` builds each class
//! and namespace from that file, and `formats.wasm` holds none of this (docs/wasm.md, "Sizes").

use alloc::vec::Vec;

use sno_core::model::MAX_BINARY_LEN;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyId, Field, FieldValue, Format};

use crate::errors::R;
use crate::io::{output, put, put_camel, put_decimal};

/// The core's format table as JSON, in `Format::ALL` order: what `formats.js` builds each class
/// and namespace from, as the Node package's `formats()` gives it (`index`, `name`,
/// `className`, `displayName`, `binaryLen`, `maxTextLen`, `textLen`, `hasUnixMs`, `hasEpoch`,
/// `textOrder`, `hasGlobal`, `generatorOptions`, `generatorRequired`, `fields`, `textForms`,
/// `numbers`, `lenient`, `conversions`, `param`, `columnType`, `postgresType`, `sqliteType`),
/// and `inputs`: the fields a value is made from (`fromFields`), with their kinds.
#[unsafe(no_mangle)]
pub extern "C" fn sno_formats() -> i32 {
    output(|out| {
        put(out, b"[");
        for (index, format) in Format::ALL.into_iter().enumerate() {
            let sample = sample(format)?;
            let column = format.column_type();
            put(out, if index == 0 { b"{" } else { b",{" });
            put(out, b"\"index\":");
            put_decimal(out, false, index as u64);
            string(out, "name", format.name());
            string(out, "className", format.node_class());
            string(out, "displayName", format.display_name());
            number(out, "binaryLen", format.binary_len());
            number(out, "maxTextLen", format.max_text_len());
            flag(out, "hasUnixMs", sample.unix_ms().is_some());
            flag(out, "hasEpoch", format.epoch().takes_application_epoch());
            flag(out, "textOrder", format.text_order());
            flag(out, "hasGlobal", format.has_process_generator());
            string(out, "columnType", column.name());
            string(out, "postgresType", column.postgres());
            string(out, "sqliteType", column.sqlite());
            if format.text_order() {
                number(out, "textLen", sample.text().len());
            }
            key(out, "fields");
            for (i, field) in sample.fields().iter().enumerate() {
                put(out, if i == 0 { b"{" } else { b",{" });
                put(out, b"\"name\":\"");
                put_camel(out, field.name);
                put(out, b"\"");
                string(out, "coreName", field.name);
                number(out, "bits", field.bits.into());
                string(out, "unit", field.unit.name());
                string(out, "kind", js_type(field));
                put(out, b"}");
            }
            put(out, b"]");
            key(out, "inputs");
            for (i, input) in AnyId::inputs(format).iter().enumerate() {
                let kind = match input.kind {
                    sno_core::FieldKind::Bool => "boolean",
                    sno_core::FieldKind::Text => "string",
                    _ => "uint",
                };
                put(out, if i == 0 { b"{" } else { b",{" });
                put(out, b"\"name\":\"");
                put_camel(out, input.name);
                put(out, b"\"");
                string(out, "kind", kind);
                put(out, b"}");
            }
            put(out, b"]");
            // What the format has beyond the model (the core's `Extras`), as the Node
            // package's table names it.
            key(out, "textForms");
            for (i, (name, _, _)) in format.text_forms().enumerate() {
                extra(out, i, name);
            }
            put(out, b"]");
            key(out, "numbers");
            for (i, (name, _)) in format.numbers().enumerate() {
                extra(out, i, name);
            }
            put(out, b"]");
            flag(out, "lenient", format.lenient().is_some());
            key(out, "conversions");
            for (i, to) in format.conversions().enumerate() {
                put(out, if i == 0 { b"\"" } else { b",\"" });
                put(out, to.node_class().as_bytes());
                put(out, b"\"");
            }
            put(out, b"]");
            if let Some(p) = format.param_facts() {
                put(out, b",\"param\":{\"name\":\"");
                put_camel(out, p.setting.name());
                put(out, b"\",\"binary\":\"");
                put_camel(out, p.binary);
                // `from` and the binary form's name: `fromUuid`.
                put(out, b"\",\"fromName\":\"from");
                put_camel(out, &alloc::format!("_{}", p.binary));
                put(out, b"\"");
                string(out, "sourceClass", p.source.node_class());
                put(out, b"}");
            }
            if format.has_generator() {
                for (name, settings) in [
                    ("generatorOptions", format.settings()),
                    ("generatorRequired", format.required_settings()),
                ] {
                    key(out, name);
                    for (i, s) in settings.iter().enumerate() {
                        put(out, if i == 0 { b"\"" } else { b",\"" });
                        put_camel(out, s.name());
                        put(out, b"\"");
                    }
                    put(out, b"]");
                }
            }
            put(out, b"}");
        }
        put(out, b"]");
        Ok(())
    })
}

/// Appends the `i`th entry `{"name":…,"coreName":…}` of a list of the format's extras (a text
/// form, a number): `name` in camel case, as JavaScript names the getter.
fn extra(out: &mut Vec<u8>, i: usize, name: &str) {
    put(
        out,
        if i == 0 {
            b"{\"name\":\""
        } else {
            b",{\"name\":\""
        },
    );
    put_camel(out, name);
    put(out, b"\"");
    string(out, "coreName", name);
    put(out, b"}");
}

/// Appends the JSON member `,"key":"value"` (`value` has nothing to escape: the core's names).
fn string(out: &mut Vec<u8>, key: &str, value: &str) {
    put(out, b",\"");
    put(out, key.as_bytes());
    put(out, b"\":\"");
    put(out, value.as_bytes());
    put(out, b"\"");
}

/// Appends the JSON member `,"key":n`.
fn number(out: &mut Vec<u8>, key: &str, n: usize) {
    put(out, b",\"");
    put(out, key.as_bytes());
    put(out, b"\":");
    put_decimal(out, false, n as u64);
}

/// Appends the JSON member `,"key":true` or `false`.
fn flag(out: &mut Vec<u8>, key: &str, value: bool) {
    put(out, b",\"");
    put(out, key.as_bytes());
    put(
        out,
        if value {
            b"\":true" as &[u8]
        } else {
            b"\":false"
        },
    );
}

/// Appends the start of the JSON array member `,"key":[`.
fn key(out: &mut Vec<u8>, key: &str) {
    put(out, b",\"");
    put(out, key.as_bytes());
    put(out, b"\":[");
}

/// The widest number field a JavaScript number holds exactly; wider ones are bigints.
const MAX_NUMBER_BITS: u8 = 53;

/// The JavaScript type of a field's value: `number` (at most 53 bits), `bigint`, `boolean` or
/// `string`.
fn js_type(field: &Field<'_>) -> &'static str {
    match field.value {
        FieldValue::Uint(_) if field.bits <= MAX_NUMBER_BITS => "number",
        FieldValue::Uint(_) => "bigint",
        FieldValue::Bool(_) => "boolean",
        FieldValue::Text(_) => "string",
    }
}

/// A value of `format` to read what its values have from (the table: `sno_formats`): for a
/// 128-bit format the UUIDv7 whose fields are all zero (a value of every 128-bit format, whose
/// time a format over UUIDs reads), else the zero value.
fn sample(format: Format) -> R<AnyId> {
    let zero = [0u8; MAX_BINARY_LEN];
    let v7 = Uuid7::from_fields(0, 0, 0)?;
    Ok(AnyId::from_slice_as(format, v7.as_bytes()).or_else(|_| {
        AnyId::from_slice_as(format, zero.get(..format.binary_len()).unwrap_or_default())
    })?)
}
