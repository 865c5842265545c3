//! The C ABI's generated files, from the core's tables:
//!
//! - `sno-ffi/src/generated.rs`: the common per-format C surface (value type, text length,
//!   `new`, `encode`, `encode_cstr`, `decode`, `unix_ms` (and its deprecated name
//!   `timestamp_ms`), `compare`, the generator handle and its
//!   `new`/`free`/`next`/`try_next`/`next_at_unix_ms`) as plain `extern "C"` items, so that
//!   cbindgen sees them, and the `sno_format` enum of the generic API, the functions of a format
//!   with a param (`new`, `from_<binary>`: its text), and a reader per flag and number field
//!   for the formats of [`Abi::FIELD_READERS`]. Every name, length and line of documentation is
//!   read from the core's format table ([`Format`]: its facts, [`Format::fields`],
//!   [`Format::about`]) and the format's [`Extras`](sno_core::model::Extras); [`Abi`] holds what
//!   the published ABI fixed otherwise (a name kept from 0.2). The bodies are calls of the
//!   generic helpers of `sno-ffi/src/formats.rs` (a field reader calls the core type's
//!   accessor); what a format adds beyond the model stays in `sno-ffi/src/extras/<fmt>.rs`.
//! - `sno-ffi/src/status.rs`: the `sno_status` enum from the core's error table and the C notes
//!   of [`statuses`].
//!
//! After a change: `SNO_BLESS=1 cargo test -p sno-surfaces`, then re-bless the header
//! (`SNO_BLESS=1 cargo test -p sno-ffi --test header`).

pub mod statuses;

use std::fmt::Write as _;

use sno_core::model::{FieldKind, FieldSpec, Unit};
use sno_core::{ColumnType, Epoch, ErrorKind, Format};

use crate::Surface;
use statuses::{C_ONLY, NOTES};

/// What the published ABI fixed beyond the core's table: the C names kept from 0.2, which a
/// new format does not have.
struct Abi;

impl Abi {
    /// The formats whose `<prefix>_unix_ms` was `<prefix>_timestamp_ms` in 0.2 (kept,
    /// deprecated).
    const TIMESTAMP_MS_ALIAS: &[Format] = &[
        Format::Ulid,
        Format::Uuid7,
        Format::Scru128,
        Format::Scru160,
    ];
    /// The formats whose generator has `<prefix>_generator_try_next` (the others' `next` never
    /// waits, or waited in 0.2 with no way around it).
    const TRY_NEXT: &[Format] = &[Format::Ulid, Format::Nanoflake, Format::UlidFlake];
    /// The formats with a reader `<prefix>_<field>` of each flag and each number field of at
    /// most 32 bits but the time (the others read theirs through a fields struct or
    /// out-pointers).
    const FIELD_READERS: &[Format] = &[Format::Sno, Format::Scru128, Format::Scru160];
}

/// The C spelling of a status: `SNO_STATUS_` and the variant's name in upper snake case, as
/// cbindgen writes it (`not_version_7` is `SNO_STATUS_NOT_VERSION7`).
fn status_name(kind: ErrorKind) -> String {
    let mut out = String::from("SNO_STATUS_");
    for (i, c) in format!("{kind:?}").chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The core's prose with each error code in backquotes (`` `value_overflow` ``) written as its
/// C status.
fn c_prose(text: &str) -> String {
    crate::prose_with_codes(text, status_name)
}

/// One format's C surface, read from the core's table.
struct Spec {
    format: Format,
}

impl Spec {
    /// The formats with a per-format C value type: all but those with a text part outside their
    /// binary form (a param: [`param_surface`]), in table order.
    fn all() -> Vec<Spec> {
        Format::ALL
            .into_iter()
            .filter(|f| f.param().is_none())
            .map(|format| Spec { format })
            .collect()
    }

    /// The library's own format (sno): its value type and generator are `types.rs`'s and
    /// `sno.rs`'s, its functions `sno_id_*`.
    fn own(&self) -> bool {
        self.format == Format::Sno
    }

    /// The prefix of its functions (`sno_ulid`; sno's are `sno_id_*`) and its C type's name.
    fn prefix(&self) -> String {
        if self.own() {
            "sno_id".into()
        } else {
            format!("sno_{}", self.format.name())
        }
    }

    /// The core type's path as written in the generated file.
    fn ty(&self) -> String {
        let ty: String = core_type(self.format)
            .0
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        ty.replace("$crate", "sno_core")
    }

    /// The module of the core type (its `try_new`, `Generator`).
    fn module(&self) -> String {
        let ty = self.ty();
        let (module, _) = ty.rsplit_once("::").expect("a path in the core");
        module.to_owned()
    }

    /// Whether C holds a value as a non-negative `int64_t` (the 64-bit formats) rather than a
    /// struct of bytes.
    fn by_value(&self) -> bool {
        self.format.column_type() == ColumnType::BigInt
    }

    /// The text `encode` writes: the canonical one where it has a fixed length, else the
    /// format's other text form of the longest length (a Nanoflake's zero-padded digits): its
    /// name (`None`: the canonical text), length and description.
    fn fixed_text(&self) -> (Option<&'static str>, usize, String) {
        let f = self.format;
        if f.text_order() {
            return (None, f.min_text_len(), c_prose(f.about().text));
        }
        let (name, len, _) = f
            .text_forms()
            .find(|(_, len, _)| *len == f.max_text_len())
            .unwrap_or_else(|| panic!("{f}: no text form of fixed length for C's encode"));
        (Some(name), len, format!("the {name} text"))
    }

    /// The name of the constant of the fixed text's length.
    fn text_const(&self) -> String {
        let max = if self.format.text_order() { "" } else { "MAX_" };
        format!(
            "SNO_{}_{max}ENCODED_LEN",
            self.format.name().to_ascii_uppercase()
        )
    }

    /// The fields that lay out the binary form, each once (not a second reading of bits another
    /// field has: a Ulid-Flake's scalable view), as prose: `48-bit unix_ms (milliseconds since
    /// 1970)`.
    fn layout(&self) -> String {
        let mut end = 0;
        let mut parts = Vec::new();
        for f in self.format.fields() {
            if f.bits() == 0 || f.at < end {
                continue;
            }
            end = f.at + f.bits();
            parts.push(format!("{}-bit {} ({})", f.bits(), f.name, f.doc));
        }
        parts.join(", ")
    }
}

macro_rules! core_types {
    ($($variant:ident { ty: $ty:ty $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        &[$((Format::$variant, stringify!($ty), stringify!($variant))),*]
    };
}

/// Each format of the core's table with its ID type (as written in the table) and variant.
const CORE_TYPES: &[(Format, &str, &str)] = sno_core::for_each_format!(core_types);

/// `f`'s core type (its path as the macro writes it) and table variant.
fn core_type(f: Format) -> (&'static str, &'static str) {
    let (_, ty, variant) = CORE_TYPES
        .iter()
        .find(|(core, _, _)| *core == f)
        .unwrap_or_else(|| panic!("{f} is not in for_each_format!"));
    (ty, variant)
}

/// The time field a `<prefix>_unix_ms` reads, for the formats whose first field is a time of a
/// fixed epoch.
fn time_field(format: Format) -> Option<&'static FieldSpec> {
    let first = format.fields().first()?;
    (format.epoch() == Epoch::Fixed && first.unit.is_time()).then_some(first)
}

/// Appends `text` as `///` lines indented by `indent`, wrapped at 100 columns; `\n\n` starts a
/// new paragraph.
fn doc(out: &mut String, indent: &str, text: &str) {
    let width = 100 - indent.len() - 4;
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            let _ = writeln!(out, "{indent}///");
        }
        for line in crate::wrap(paragraph, width) {
            let _ = writeln!(out, "{indent}/// {line}");
        }
    }
}

/// Appends an `extern "C"` function: its documentation, `# Safety` section (for an unsafe
/// one), signature and body.
fn function(out: &mut String, docs: &str, safety: Option<&str>, signature: &str, body: &str) {
    doc(out, "", docs);
    if let Some(safety) = safety {
        out.push_str("///\n/// # Safety\n");
        doc(out, "", safety);
    }
    out.push_str("#[unsafe(no_mangle)]\n");
    let unsafety = if safety.is_some() { "unsafe " } else { "" };
    let _ = writeln!(out, "pub {unsafety}extern \"C\" fn {signature} {{");
    for line in body.lines() {
        let _ = writeln!(out, "    {line}");
    }
    out.push_str("}\n\n");
}

/// Appends the deprecated 0.2 name of `new_name` (a function of the same signature, with its
/// `# Safety` section where `safety` gives one), which calls it; cbindgen turns `#[deprecated]`
/// into `SNO_DEPRECATED(note)` in the header.
fn deprecated(out: &mut String, new_name: &str, safety: Option<&str>, signature: &str, call: &str) {
    let note = format!("use {new_name}");
    let docs = format!("Deprecated: the same as {new_name}; kept for the 0.2 ABI.");
    let mut f = String::new();
    function(&mut f, &docs, safety, signature, call);
    // The attribute line (doc lines start with `///`): `#[deprecated]` goes before it.
    let attributes = format!("\n#[deprecated(note = \"{note}\")]\n#[unsafe(no_mangle)]\n");
    out.push_str(&f.replacen("\n#[unsafe(no_mangle)]\n", &attributes, 1));
}

/// The C value type and its text-length constant.
fn value_type(out: &mut String, spec: &Spec) {
    let f = spec.format;
    let c = spec.prefix();
    let ty = spec.ty();
    let text_const = spec.text_const();
    let (form, len, _) = spec.fixed_text();
    let display = f.display_name();
    match form {
        None => doc(
            out,
            "",
            &format!("Characters in the text of a {display} (no terminating NUL)."),
        ),
        Some(form) => doc(
            out,
            "",
            &format!(
                "Characters in the {form} text of a {display}, its longest (no terminating NUL)."
            ),
        ),
    }
    let _ = writeln!(out, "pub const {text_const}: usize = {len};\n");
    if spec.by_value() {
        doc(
            out,
            "",
            &format!(
                "{}.\n\nA {display}: a non-negative int64_t of {}. Valid values are 0 ..= INT64_MAX; functions taking one refuse a negative value with SNO_STATUS_VALUE_OVERFLOW. Numeric order is time order.",
                c_prose(f.about().summary),
                spec.layout()
            ),
        );
        out.push_str(
            "#[repr(transparent)]\n#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\n",
        );
        let _ = writeln!(out, "pub struct {c}(pub i64);");
        let form = form.map(|name| format!(", {name:?}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "crate::formats::c_i64_id!({c}, {ty}, {text_const}{form});\n"
        );
    } else {
        doc(
            out,
            "",
            &format!(
                "{}.\n\nA {display} in its {}-byte binary form: {}, big-endian; byte order (memcmp) is time order.",
                c_prose(f.about().summary),
                f.binary_len(),
                spec.layout()
            ),
        );
        out.push_str("#[repr(C)]\n#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\n");
        let _ = writeln!(out, "pub struct {c} {{");
        out.push_str("    /// The binary form.\n");
        let _ = writeln!(out, "    pub bytes: [u8; {}],\n}}", f.binary_len());
        let _ = writeln!(out, "crate::formats::c_id!({c}, {ty}, {text_const});\n");
    }
}

/// The generator handle and its common functions.
fn generator(out: &mut String, spec: &Spec) {
    let f = spec.format;
    let p = spec.prefix();
    let c = &p;
    let module = spec.module();
    let display = f.display_name();
    let generation = c_prose(f.about().generation);
    let _ = writeln!(
        out,
        "/// An opaque, thread-safe {display} generator (see {p}_generator_new)."
    );
    let _ = writeln!(
        out,
        "pub struct {p}_generator {{\n    inner: {module}::Generator,\n}}"
    );
    let _ = writeln!(
        out,
        "crate::formats::c_generator!({p}_generator, {module}::Generator);\n"
    );
    if f.settings().is_empty() {
        function(
            out,
            &format!(
                "Creates a {display} generator on the system clock and a per-thread CSPRNG. Free it with {p}_generator_free. Thread-safe."
            ),
            Some("`out` must be NULL or writable."),
            &format!("{p}_generator_new(out: *mut *mut {p}_generator) -> sno_status"),
            "// SAFETY: forwarded contract.\nunsafe { crate::formats::generator_new(out) }",
        );
        function(
            out,
            &format!(
                "{p}_generator_new on the clock `clock`: a sno_clock (SNO_CLOCK_PRECISE, as \
                 {p}_generator_new uses, or SNO_CLOCK_FAST, the cached clock that costs a few \
                 nanoseconds to read); another value is SNO_STATUS_UNKNOWN_CLOCK. Thread-safe."
            ),
            Some("`out` must be NULL or writable."),
            &format!(
                "{p}_generator_new_with_clock(clock: i32, out: *mut *mut {p}_generator) -> sno_status"
            ),
            "// SAFETY: forwarded contract.\nunsafe { crate::formats::generator_new_with_clock(clock, out) }",
        );
    }
    function(
        out,
        &format!(
            "Releases a {display} generator; NULL is ignored. Call once, after every user is done."
        ),
        Some(&format!(
            "`generator` must be NULL or a live pointer from {p}_generator_new."
        )),
        &format!("{p}_generator_free(generator: *mut {p}_generator)"),
        "// SAFETY: forwarded contract.\nunsafe { crate::formats::generator_free(generator) }",
    );
    let step_safety = Some("`generator` must be NULL or live; `out` NULL or writable.");
    let signature = |name: &str, arg: &str| {
        format!(
            "{p}_generator_{name}(\n    generator: *const {p}_generator,\n{arg}    out: *mut {c},\n) -> sno_status"
        )
    };
    let mut step = |name: &str, docs: &str, arg: &str, call: &str| {
        function(
            out,
            docs,
            step_safety,
            &signature(name, arg),
            &format!(
                "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::generator_step(generator, out, |g| g.{call}) }}"
            ),
        );
    };
    step(
        "next",
        &format!(
            "The next {display} of this generator: {generation}. Thread-safe: share one generator between threads."
        ),
        "",
        "next()",
    );
    let try_next = Abi::TRY_NEXT.contains(&f);
    if try_next {
        step(
            "try_next",
            &format!(
                "As {p}_generator_next, but never waits: the status at once where next waits. Thread-safe."
            ),
            "",
            "try_next()",
        );
    }
    let rules = if try_next {
        format!("the rules of {p}_generator_try_next")
    } else {
        "the same rules".into()
    };
    step(
        "next_at_unix_ms",
        &format!(
            "The next {display} for an explicit time in Unix milliseconds (the clock is not read), with {rules}; a time outside the format's range is SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe."
        ),
        "    unix_ms: i64,\n",
        "next_at_unix_ms(unix_ms)",
    );
    deprecated(
        out,
        &format!("{p}_generator_next_at_unix_ms"),
        step_safety,
        &signature("next_at", "    unix_ms: i64,\n"),
        &format!(
            "// SAFETY: forwarded contract.\nunsafe {{ {p}_generator_next_at_unix_ms(generator, unix_ms, out) }}"
        ),
    );
}

/// The common surface of one format.
fn format_surface(out: &mut String, spec: &Spec) {
    let f = spec.format;
    let p = spec.prefix();
    let c = &p;
    let ty = spec.ty();
    let about = f.about();
    let (form, n, text) = spec.fixed_text();
    let _ = writeln!(out, "// {}: {p}_*\n", f.display_name());
    if !spec.own() {
        value_type(out, spec);
    }
    if f.has_process_generator() {
        let process_wide = match about.process_wide {
            "" => String::new(),
            more => format!(" ({})", c_prose(more)),
        };
        function(
            out,
            &format!(
                "A new {} from the process-wide generator{process_wide}: {}; reset after fork(). Thread-safe.",
                f.display_name(),
                c_prose(about.generation)
            ),
            Some("`out` must be NULL or writable."),
            &format!("{p}_new(out: *mut {c}) -> sno_status"),
            &format!(
                "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::new_global(out, {}::try_new) }}",
                spec.module()
            ),
        );
    }
    let (id_param, id_arg, id_safety) = if spec.by_value() {
        (format!("id: {c}"), "&id", "")
    } else {
        (
            format!("id: *const {c}"),
            "id",
            "`id` must be NULL or valid; ",
        )
    };
    let forwarded = if spec.by_value() {
        "// SAFETY: `&id` is valid; `out` forwarded."
    } else {
        "// SAFETY: forwarded contract."
    };
    let encode = form.map_or_else(|| "encode".to_owned(), |form| format!("encode_{form}"));
    function(
        out,
        &format!("Writes the {n}-character text (no NUL): {text}. Thread-safe."),
        Some(&format!(
            "{id_safety}`out` NULL or valid for {n} byte writes."
        )),
        &format!("{p}_{encode}({id_param}, out: *mut c_char) -> sno_status"),
        &format!("{forwarded}\nunsafe {{ crate::formats::encode({id_arg}, out) }}"),
    );
    if form.is_none() {
        function(
            out,
            &format!(
                "Writes the text and a NUL; `out_len` must be at least {}, else SNO_STATUS_BUFFER_TOO_SMALL. Thread-safe.",
                n + 1
            ),
            Some(&format!(
                "{id_safety}`out` NULL or valid for `out_len` byte writes."
            )),
            &format!(
                "{p}_encode_cstr(\n    {id_param},\n    out: *mut c_char,\n    out_len: usize,\n) -> sno_status"
            ),
            &format!(
                "{forwarded}\nunsafe {{ crate::formats::encode_cstr({id_arg}, out, out_len) }}"
            ),
        );
    }
    // sno's `sno_id_decode` (no position) is its own, in sno.rs.
    let decode = if spec.own() { "decode_at" } else { "decode" };
    function(
        out,
        &format!(
            "Strictly decodes `len` bytes: {}. On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
            c_prose(about.decode)
        ),
        Some(
            "`text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or writable.",
        ),
        &format!(
            "{p}_{decode}(\n    text: *const c_char,\n    len: usize,\n    out: *mut {c},\n    error_position: *mut usize,\n) -> sno_status"
        ),
        &format!(
            "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::decode(text, len, out, error_position, <{ty} as sno_core::IdFormat>::decode) }}"
        ),
    );
    if let Some(takes) = f.lenient() {
        function(
            out,
            &format!("As {p}_decode, also accepting {takes}. Thread-safe."),
            Some(&format!("As {p}_decode.")),
            &format!(
                "{p}_decode_lenient(\n    text: *const c_char,\n    len: usize,\n    out: *mut {c},\n    error_position: *mut usize,\n) -> sno_status"
            ),
            &format!(
                "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::decode(text, len, out, error_position, <{ty} as sno_core::IdFormat>::decode_lenient) }}"
            ),
        );
    }
    // The other text forms (the one `encode` writes aside).
    for (name, len, what) in f.text_forms().filter(|(name, _, _)| Some(*name) != form) {
        let constant = format!(
            "SNO_{}_{}_LEN",
            f.name().to_ascii_uppercase(),
            name.to_ascii_uppercase()
        );
        doc(
            out,
            "",
            &format!(
                "Characters in the {name} text of a {} (no terminating NUL).",
                f.display_name()
            ),
        );
        let _ = writeln!(out, "pub const {constant}: usize = {len};\n");
        function(
            out,
            &format!("Writes the {len}-character {name} text (no NUL): {what}. Thread-safe."),
            Some(&format!(
                "{id_safety}`out` NULL or valid for {len} byte writes."
            )),
            &format!("{p}_encode_{name}({id_param}, out: *mut c_char) -> sno_status"),
            &format!(
                "{forwarded}\nunsafe {{\n    crate::formats::encode_with({id_arg}, out, {constant}, |id, out| {{\n        crate::formats::fixed_text(id, Some({name:?}), out)\n    }})\n}}"
            ),
        );
    }
    if let Some(time) = time_field(f).filter(|_| !spec.own()) {
        let start = match time.unit {
            Unit::EpochSecs => " (the start of its second)",
            _ => "",
        };
        function(
            out,
            &format!("The time: milliseconds since the Unix epoch{start}. Thread-safe."),
            None,
            &format!("{p}_unix_ms(id: {c}) -> u64"),
            &format!("crate::formats::unix_ms::<{ty}>(&id.bytes)"),
        );
        if Abi::TIMESTAMP_MS_ALIAS.contains(&f) {
            deprecated(
                out,
                &format!("{p}_unix_ms"),
                None,
                &format!("{p}_timestamp_ms(id: {c}) -> u64"),
                &format!("{p}_unix_ms(id)"),
            );
        }
    }
    if Abi::FIELD_READERS.contains(&f) {
        for field in f.fields().iter().filter(|field| !field.unit.is_time()) {
            let name = field.name;
            let c_type = match field.kind {
                FieldKind::Bool => "bool",
                FieldKind::Uint { bits } if bits <= 32 => {
                    ["u8", "u16", "u32"][usize::from(bits > 8) + usize::from(bits > 16)]
                }
                _ => continue,
            };
            function(
                out,
                &format!("{} Thread-safe.", crate::field_doc(field)),
                None,
                &format!("{p}_{name}(id: {c}) -> {c_type}"),
                &format!("{ty}::from_bytes(id.bytes).{name}()"),
            );
        }
    }
    if !spec.by_value() {
        function(
            out,
            "-1, 0 or 1 as `a` sorts before, equal to, or after `b` (time order, as memcmp). Thread-safe.",
            None,
            &format!("{p}_compare(a: {c}, b: {c}) -> i32"),
            "a.bytes.cmp(&b.bytes) as i32",
        );
    }
    // The conversions into this format (the core's `Format::conversions` of another).
    for from in Format::ALL
        .into_iter()
        .filter(|from| from.conversions().any(|to| to == f))
    {
        let name = from.name();
        // The target's constant fields are what a value of the same bits may lack.
        let constants: Vec<String> = f
            .fields()
            .iter()
            .filter_map(|c| c.constant.map(|v| format!("{} {v}", c.name)))
            .collect();
        let rules = if constants.is_empty() {
            String::new()
        } else {
            format!(" (its constant fields: {})", constants.join(", "))
        };
        function(
            out,
            &format!(
                "The {} with the same {} bits as the {} `{name}`: the status of the {}'s rules where the bits break them{rules}, or where `{name}` does not hold a valid {}. Thread-safe.",
                f.display_name(),
                8 * f.binary_len(),
                from.display_name(),
                f.display_name(),
                from.display_name()
            ),
            Some("`out` must be NULL or writable."),
            &format!("{p}_from_{name}({name}: sno_{name}, out: *mut {c}) -> sno_status"),
            &format!(
                "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::convert({name}, out, crate::formats::from_same_bits) }}"
            ),
        );
    }
    if f.has_generator() && !spec.own() {
        generator(out, spec);
    }
}

/// The functions of a format with a param (a text part outside its binary form, so no fixed C
/// value type): `sno_<fmt>_new` and `sno_<fmt>_from_<binary>`, which write its text, and the
/// constants of its longest text and param.
fn param_surface(out: &mut String, f: Format) {
    let Some(param) = f.param_facts() else { return };
    let (name, display, setting) = (f.name(), f.display_name(), param.setting.name());
    let upper = name.to_ascii_uppercase();
    let text_const = format!("SNO_{upper}_MAX_ENCODED_LEN");
    let param_const = format!("SNO_{upper}_MAX_{}_LEN", setting.to_ascii_uppercase());
    let variant = core_type(f).1;
    out.push_str(&format!(
        "// {display}: the value is text (its {setting} is outside the binary form)\n\n"
    ));
    doc(
        out,
        "",
        &format!("Characters in the longest {display} text (no terminating NUL)."),
    );
    let _ = writeln!(
        out,
        "pub const {text_const}: usize = {};\n",
        f.max_text_len()
    );
    doc(
        out,
        "",
        &format!("Characters in the longest {display} {setting}."),
    );
    let _ = writeln!(out, "pub const {param_const}: usize = {};\n", param.max_len);
    let written = format!(
        "and a NUL, to `out`. `out_len` must exceed the text's length ({text_const} + 1 always does), else SNO_STATUS_BUFFER_TOO_SMALL; the length without the NUL goes to `written` (may be NULL). A {setting} its rules refuse has the rule in sno_last_error_message. Thread-safe."
    );
    let safety = format!(
        "`{setting}` NULL or NUL-terminated; `out` NULL or valid for `out_len` writes; `written` NULL or writable."
    );
    let source = param.source;
    function(
        out,
        &format!(
            "Writes the text of a new {display}, of `{setting}` (NUL-terminated): {}; and a {} from the process-wide {} generator (as sno_{}_new), {written}",
            c_prose(param.doc),
            source.display_name(),
            source.display_name(),
            source.name(),
        ),
        Some(&safety),
        &format!(
            "sno_{name}_new(\n    {setting}: *const c_char,\n    out: *mut c_char,\n    out_len: usize,\n    written: *mut usize,\n) -> sno_status"
        ),
        &format!(
            "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::with_param(sno_core::Format::{variant}, {setting}, None, out, out_len, written) }}"
        ),
    );
    let binary = param.binary;
    function(
        out,
        &format!(
            "Writes the text of the {display} of `{setting}` (NUL-terminated, as sno_{name}_new takes it) and the {binary} in `{binary}` (`{binary}_len` bytes: {}, else SNO_STATUS_INVALID_LENGTH; the binary form sno_parse_as gives), {written} With sno_parse_as and the {setting} field of sno_inspect, it round-trips a {display}.",
            f.binary_len()
        ),
        Some(&format!(
            "`{setting}` NULL or NUL-terminated; `{binary}` valid for `{binary}_len` reads (NULL only with length 0); `out` NULL or valid for `out_len` writes; `written` NULL or writable."
        )),
        &format!(
            "sno_{name}_from_{binary}(\n    {setting}: *const c_char,\n    {binary}: *const u8,\n    {binary}_len: usize,\n    out: *mut c_char,\n    out_len: usize,\n    written: *mut usize,\n) -> sno_status"
        ),
        &format!(
            "let {binary} = Some(({binary}, {binary}_len));\n// SAFETY: forwarded contract.\nunsafe {{ crate::formats::with_param(sno_core::Format::{variant}, {setting}, {binary}, out, out_len, written) }}"
        ),
    );
}

/// The `sno_format` enum and the table the generic API reads it with.
fn format_enum(out: &mut String, specs: &[Spec]) {
    out.push_str("// The generic API's formats (any.rs)\n\n");
    doc(
        out,
        "",
        "An ID format, numbered in the order of the core's format table (sno_format_name gives its name). Functions of the generic API take a format as an `int32_t` (a value that is no sno_format gives SNO_STATUS_UNKNOWN_FORMAT) and write one as a sno_format.",
    );
    out.push_str(
        "#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub enum sno_format {\n",
    );
    for (i, f) in Format::ALL.into_iter().enumerate() {
        let functions = specs
            .iter()
            .find(|s| s.format == f)
            .map(|s| format!("; {}_*", s.prefix()))
            .unwrap_or_default();
        doc(
            out,
            "    ",
            &format!(
                "{}: a binary form of {} bytes, a text of up to {} characters{functions}.",
                f.display_name(),
                f.binary_len(),
                f.max_text_len()
            ),
        );
        let _ = writeln!(out, "    {} = {i},", c_variant(f));
    }
    out.push_str("}\n\n");
    let _ = writeln!(
        out,
        "/// Every format, in `sno_core::Format::ALL` order: the core's, C's and its name.\npub(crate) const FORMATS: [(sno_core::Format, sno_format, &std::ffi::CStr); {}] = [",
        Format::ALL.len()
    );
    for (f, variant) in CORE_TYPES.iter().map(|(f, _, v)| (f, v)) {
        let _ = writeln!(
            out,
            "    (sno_core::Format::{variant}, sno_format::{}, c\"{}\"),",
            c_variant(*f),
            f.name()
        );
    }
    out.push_str("];\n");
}

/// The C enumerator's Rust variant: the name with its first letter upper-cased, so that
/// cbindgen writes `SNO_FORMAT_` + the upper-cased name.
fn c_variant(format: Format) -> String {
    let mut chars = format.name().chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The whole `generated.rs`.
fn generate() -> String {
    let specs = Spec::all();
    let mut out = String::new();
    let generic_only: Vec<&str> = Format::ALL
        .into_iter()
        .filter(|f| !specs.iter().any(|s| s.format == *f))
        .map(Format::name)
        .collect();
    let header = format!(
        "GENERATED by `tests/surfaces` (src/c) from the core's format table (`sno_core::for_each_format!`, the formats' extras); do not edit. Regenerate with `SNO_BLESS=1 cargo test -p sno-surfaces`.\n\nThe common per-format C surface (value type, `new`, `encode`, `encode_cstr`, `decode`, `unix_ms` (and its deprecated name `timestamp_ms`), `compare`, the generator handle) over the generic helpers of `formats.rs`, the field readers of the formats whose C callers read fields one by one, the functions of the formats with a param outside their binary form (no fixed C value type: the generic API, `new` and `from_<binary>`, which write the text), and the `sno_format` enum of the generic API (`any.rs`). Formats with a param: {}.",
        if generic_only.is_empty() {
            "none".to_string()
        } else {
            generic_only.join(", ")
        }
    );
    for line in {
        let mut d = String::new();
        doc(&mut d, "", &header);
        d
    }
    .lines()
    {
        let _ = writeln!(out, "//!{}", line.trim_start_matches("///"));
    }
    out.push_str("#![allow(non_camel_case_types, reason = \"C naming for the C API\")]\n\n");
    out.push_str("use std::ffi::c_char;\n\n");
    if specs.iter().any(Spec::own) {
        out.push_str("use crate::types::sno_id;\n");
    }
    out.push_str("use crate::status::sno_status;\n\n");
    for spec in &specs {
        format_surface(&mut out, spec);
    }
    for f in Format::ALL {
        param_surface(&mut out, f);
    }
    format_enum(&mut out, &specs);
    out
}

/// One `sno_status`: its Rust variant, number, and documentation.
struct Status {
    variant: String,
    number: u8,
    doc: String,
}

/// Every status, in number order: the core's error kinds (their summaries, with C's notes) and
/// the C layer's own.
fn statuses() -> Vec<Status> {
    let mut all: Vec<Status> = sno_core::ErrorKind::ALL
        .iter()
        .map(|kind| {
            let variant = format!("{kind:?}");
            let summary = kind.summary();
            let mut doc = summary[..1].to_uppercase() + &summary[1..] + ".";
            let note = match variant.as_str() {
                "InvalidLength" => Some(
                    sno_core::Format::ALL
                        .iter()
                        .map(|f| {
                            let text = match (f.min_text_len(), f.max_text_len()) {
                                (min, max) if min == max => format!("{max}"),
                                (min, max) => format!("{min} to {max}"),
                            };
                            format!("{} {text} characters of text or {} bytes", f.display_name(), f.binary_len())
                        })
                        .collect::<Vec<_>>()
                        .join("; ")
                        + " (the C constants SNO_ENCODED_LEN, SNO_<FORMAT>_ENCODED_LEN and SNO_<FORMAT>_MAX_ENCODED_LEN; docs/formats.md).",
                ),
                "ClockRollback" => Some(format!(
                    "A millisecond generator's clock went back: returned by try_next and next_at; next waits for the clock to catch up when it went back at most {} ms, within its maximum wait.",
                    sno_core::wait::MAX_ROLLBACK_WAIT_MS
                )),
                _ => NOTES.iter().find(|(v, _)| *v == variant).map(|(_, n)| n.to_string()),
            };
            if let Some(note) = note {
                doc = doc + "\n\n" + &note;
            }
            Status { variant, number: kind.status(), doc }
        })
        .chain(C_ONLY.iter().map(|c| Status {
            variant: c.variant.to_string(),
            number: c.number,
            doc: c.doc.to_string(),
        }))
        .collect();
    all.sort_by_key(|s| s.number);
    all
}

/// The whole generated `status.rs`: the `sno_status` enum, its list, and the C layer's own
/// descriptions.
fn generate_statuses() -> String {
    let mut out = String::new();
    out.push_str("//! GENERATED by `tests/surfaces` (src/c) from the core's error table (`sno_core::ErrorKind`)\n//! and the C notes in `tests/surfaces/src/c/statuses.rs`; do not edit. Regenerate with\n//! `SNO_BLESS=1 cargo test -p sno-surfaces`.\n//!\n//! The `sno_status` enum every fallible C function returns.\n");
    out.push_str("#![allow(non_camel_case_types, reason = \"C naming for the C API\")]\n\n");
    out.push_str("/// Result of every fallible function. Values are fixed and never reused.\n#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub enum sno_status {\n");
    let all = statuses();
    for s in &all {
        doc(&mut out, "    ", &s.doc);
        let _ = writeln!(out, "    {} = {},", s.variant, s.number);
    }
    out.push_str("}\n\n");
    let _ = writeln!(
        out,
        "/// Every status, in number order.\npub(crate) const ALL: [sno_status; {}] = [",
        all.len()
    );
    for s in &all {
        let _ = writeln!(out, "    sno_status::{},", s.variant);
    }
    out.push_str("];\n\n");
    let _ = writeln!(
        out,
        "/// The descriptions (sno_status_str) of the C layer's own statuses; the others' are the\n/// summaries of the core's error table.\npub(crate) const C_ONLY: [(sno_status, &std::ffi::CStr); {}] = [",
        C_ONLY.len()
    );
    for c in C_ONLY {
        let _ = writeln!(out, "    (sno_status::{}, c\"{}\"),", c.variant, c.summary);
    }
    out.push_str("];\n");
    out
}

/// The C ABI's generated files: `sno-ffi/src/generated.rs` and `sno-ffi/src/status.rs`.
pub fn surfaces() -> Vec<Surface> {
    vec![
        Surface {
            path: "sno-ffi/src/generated.rs".into(),
            text: generate(),
        },
        Surface {
            path: "sno-ffi/src/status.rs".into(),
            text: generate_statuses(),
        },
    ]
}

/// The numbers of every `sno_status`, in the enum's order, and the core kinds C's notes name:
/// what `tests/c.rs` checks (each note names a core kind, no number twice, C's own numbers free).
pub fn status_numbers() -> (Vec<u8>, Vec<&'static str>) {
    (
        statuses().iter().map(|s| s.number).collect(),
        NOTES.iter().map(|(variant, _)| *variant).collect(),
    )
}
