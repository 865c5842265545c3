//! The core's format table as JavaScript reads it (`formats()`): each format's facts, named
//! fields and extras (other text forms, numbers, a lenient decoder), from which `formats.js`
//! builds one class per format; and the camel case every name takes in JavaScript.

use napi_derive::napi;
use sno_core::{Epoch, FieldKind, FieldSpec, Format, Setting};

/// A core name (snake case) in JavaScript's camel case: `epoch_ms` → `epochMs`.
pub(crate) fn camel_case(name: &str) -> String {
    sno_core::model::CamelCase(name).to_string()
}

/// The widest number field a JS number holds exactly; wider ones are bigints.
pub(crate) const MAX_NUMBER_BITS: u8 = 53;

/// The JavaScript type of a field's value: `number`, `bigint`, `boolean` or `string`.
fn js_type(field: &FieldSpec) -> &'static str {
    match field.kind {
        FieldKind::Uint { bits } if bits <= MAX_NUMBER_BITS => "number",
        FieldKind::Bool => "boolean",
        FieldKind::Text => "string",
        _ => "bigint",
    }
}

/// A named field as the table describes it.
#[napi(object)]
pub struct FieldInfo {
    /// The JavaScript name (the getter, the key of `fields()`).
    pub name: String,
    /// The core's name (snake case).
    pub core_name: String,
    /// Width in bits (0 for text).
    pub bits: u32,
    /// What it counts: `unix_ms`, `sno_units`, `epoch_ms` or `none`.
    pub unit: String,
    /// `number` (at most 53 bits), `bigint`, `boolean` or `string`.
    #[napi(ts_type = "'number' | 'bigint' | 'boolean' | 'string'")]
    pub kind: String,
}

/// What a value has beyond the model that JavaScript reads by name (the core's
/// `Extras::texts` and `Extras::numbers`): a getter of the class.
#[napi(object)]
pub struct ExtraInfo {
    /// The JavaScript name (the getter: `hex`, `referenceTimestampMs`).
    pub name: String,
    /// The core's name (snake case), which `fmtTextForm` and `fmtNumber` take.
    pub core_name: String,
}

/// A format's param (the core's `Extras::param`: a text part outside the binary form), whose
/// constructors are the namespace's `new(param)` and `newString(param)` and the class's
/// `from<Binary>(param, binary)`.
#[napi(object)]
pub struct ParamInfo {
    /// The JavaScript name of the param (`prefix`).
    pub name: String,
    /// The JavaScript name of the binary form (`uuid`).
    pub binary: String,
    /// The constructor from a binary form: `from` and the binary form's name (`fromUuid`).
    pub from_name: String,
    /// The class of the format whose values give the binary form (`Uuid7`): its values and
    /// texts are taken there.
    pub source_class: String,
}

/// One format of the core's table, as JavaScript builds its class from it.
#[napi(object)]
pub struct FormatInfo {
    /// The position in the table: the first argument of the `fmt*` functions.
    pub index: u32,
    /// The stable lower-case name (`ulid`): the namespace's name.
    pub name: String,
    /// The class's name: the core's `Format::node_class` (`Id`, `Ulid`, `UlidFlake`).
    pub class_name: String,
    /// The name in prose (`ULID`).
    pub display_name: String,
    /// Bytes of the binary form.
    pub binary_len: u32,
    /// Characters of the longest text form.
    pub max_text_len: u32,
    /// Characters of every canonical text, for a format with fixed-length text (`textOrder`);
    /// absent otherwise.
    pub text_len: Option<u32>,
    /// Whether a value carries its time (`unixMs`, `unixNs`, `timestamp`); Nanoflakes do not
    /// (and a value with a UUID only when it is a version 7 one).
    pub has_unix_ms: bool,
    /// Whether the time is kept relative to an epoch the caller knows (`unixMsAt(epochMs)`).
    pub has_epoch: bool,
    /// Whether text order is value order (fixed-length text in an ascending alphabet), so that
    /// `compare` needs no native call.
    pub text_order: bool,
    /// Whether the format has a process-wide generator (`new`, `newString`, `newStrings`,
    /// `newMany` of its namespace).
    pub has_global: bool,
    /// The settings of its `Generator` besides `maxWaitMs` (absent: no `Generator`).
    pub generator_options: Option<Vec<String>>,
    /// Which of them are required.
    pub generator_required: Vec<String>,
    /// The named fields, in layout order.
    pub fields: Vec<FieldInfo>,
    /// The other text forms (a `string` getter each, `fmtTextForm`).
    pub text_forms: Vec<ExtraInfo>,
    /// The numbers besides the fields (a `number` getter each, `fmtNumber`).
    pub numbers: Vec<ExtraInfo>,
    /// The classes a value converts to as it is (the core's `Format::conversions`): a method
    /// `to<Class>()` each, which is the class's `fromBytes` of the value's bytes.
    pub conversions: Vec<String>,
    /// Whether the format has a lenient decoder (`parseLenient`, `fmtCanonicalLenient`).
    pub lenient: bool,
    /// The param, for a format with one.
    pub param: Option<ParamInfo>,
    /// The recommended database column (the core's `Format::column_type`): `bytes` (the
    /// binary form), `uuid` (the 128 bits as a UUID) or `bigint` (a signed 64-bit integer).
    #[napi(ts_type = "'bytes' | 'uuid' | 'bigint'")]
    pub column_type: String,
    /// The PostgreSQL column type of `columnType`: `bytea`, `uuid` or `bigint`.
    #[napi(ts_type = "'bytea' | 'uuid' | 'bigint'")]
    pub postgres_type: String,
    /// The SQLite column type of `columnType`: `BLOB` or `INTEGER`.
    #[napi(ts_type = "'BLOB' | 'INTEGER'")]
    pub sqlite_type: String,
}

/// The named fields of `format`, as the core's table states them.
fn field_infos(format: Format) -> Vec<FieldInfo> {
    format
        .fields()
        .iter()
        .map(|f| FieldInfo {
            name: camel_case(f.name),
            core_name: f.name.to_owned(),
            bits: u32::from(f.bits()),
            unit: f.unit.name().to_owned(),
            kind: js_type(f).to_owned(),
        })
        .collect()
}

/// The settings of `format`'s monotonic `Generator` besides `maxWaitMs` (the core's
/// `Format::settings`, in JavaScript's case), and which of them are required; `None` for a format
/// without one (sno's `Generator` is its own class).
fn generator_options(format: Format) -> Option<(Vec<String>, Vec<String>)> {
    let names = |settings: &[Setting]| settings.iter().map(|s| camel_case(s.name())).collect();
    format
        .has_generator()
        .then(|| (names(format.settings()), names(format.required_settings())))
}

/// An extra named `name` in the core.
fn extra_info(name: &str) -> ExtraInfo {
    ExtraInfo {
        name: camel_case(name),
        core_name: name.to_owned(),
    }
}

/// The core's format table, in `Format::ALL` order.
#[napi(catch_unwind)]
pub fn formats() -> Vec<FormatInfo> {
    let info = |(index, format): (usize, Format)| {
        let text_order = format.text_order();
        let generator = generator_options(format);
        FormatInfo {
            index: index as u32,
            name: format.name().to_owned(),
            class_name: format.node_class().to_owned(),
            display_name: format.display_name().to_owned(),
            binary_len: format.binary_len() as u32,
            max_text_len: format.max_text_len() as u32,
            // The canonical text of a format with fixed-length text is its shortest accepted one.
            text_len: text_order.then_some(format.min_text_len() as u32),
            has_unix_ms: format.epoch() != Epoch::Required,
            has_epoch: format.epoch().takes_application_epoch(),
            text_order,
            has_global: format.has_process_generator(),
            generator_required: generator
                .as_ref()
                .map_or_else(Vec::new, |(_, req)| req.clone()),
            generator_options: generator.map(|(known, _)| known),
            fields: field_infos(format),
            text_forms: format
                .text_forms()
                .map(|(name, _, _)| extra_info(name))
                .collect(),
            numbers: format.numbers().map(|(name, _)| extra_info(name)).collect(),
            conversions: format
                .conversions()
                .map(|to| to.node_class().to_owned())
                .collect(),
            lenient: format.lenient().is_some(),
            param: format.param_facts().map(|p| ParamInfo {
                name: camel_case(p.setting.name()),
                binary: camel_case(p.binary),
                from_name: camel_case(&format!("from_{}", p.binary)),
                source_class: p.source.node_class().to_owned(),
            }),
            column_type: format.column_type().name().to_owned(),
            postgres_type: format.column_type().postgres().to_owned(),
            sqlite_type: format.column_type().sqlite().to_owned(),
        }
    };
    Format::ALL.into_iter().enumerate().map(info).collect()
}
