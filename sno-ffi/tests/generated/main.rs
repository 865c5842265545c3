//! The committed `sno-ffi/src/generated.rs` must equal what this generator writes from the
//! core's format table (`sno_core::for_each_format!`) and the C descriptions in `spec.rs`.
//! After adding a format to the core or changing a description, regenerate it with
//! `SNO_BLESS=1 cargo test -p sno-ffi --test generated` (then re-bless the header:
//! `SNO_BLESS=1 cargo test -p sno-ffi --test header`).
//!
//! The generated file holds the common per-format C surface (value type, text length, `new`,
//! `encode`, `encode_cstr`, `decode`, `unix_ms` (and its deprecated name `timestamp_ms`), `compare`, the generator handle and its
//! `new`/`free`/`next`/`try_next`/`next_at`) as plain `extern "C"` items, so that cbindgen sees
//! them, and the `sno_format` enum of the generic API. The bodies are calls of the generic
//! helpers of `sno-ffi/src/formats.rs`; format-specific extras stay in the per-format files.

mod spec;
mod statuses;

use std::fmt::Write as _;
use std::path::PathBuf;

use spec::{GeneratorSpec, Repr, SPECS, Spec, Value};
use statuses::{C_ONLY, NOTES};

/// One row of the core's format table.
struct CoreFormat {
    variant: &'static str,
    ty: &'static str,
    name: &'static str,
    display: &'static str,
    binary_len: usize,
    max_text_len: usize,
}

impl CoreFormat {
    /// The core type's path as written in the generated file.
    fn ty(&self) -> String {
        let ty: String = self.ty.chars().filter(|c| !c.is_whitespace()).collect();
        ty.replace("$crate", "sno_core")
    }

    /// The module of the core type (its `try_new`, `Generator`).
    fn module(&self) -> String {
        let ty = self.ty();
        match ty.rsplit_once("::") {
            Some((module, _)) => module.to_string(),
            None => ty,
        }
    }

    /// The C enumerator's Rust variant: the name with its first letter upper-cased, so that
    /// cbindgen writes `SNO_FORMAT_` + the upper-cased name.
    fn c_variant(&self) -> String {
        let mut chars = self.name.chars();
        chars
            .next()
            .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
            .unwrap_or_default()
    }
}

macro_rules! core_table {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        &[$(CoreFormat {
            variant: stringify!($variant),
            ty: stringify!($ty),
            name: $name,
            display: $display,
            binary_len: $bin,
            max_text_len: $text,
        }),*]
    };
}

/// The core's table, in `Format::ALL` order.
const CORE: &[CoreFormat] = sno_core::for_each_format!(core_table);

/// Appends `text` as `///` lines indented by `indent`, wrapped at 100 columns; `\n\n` starts a
/// new paragraph.
fn doc(out: &mut String, indent: &str, text: &str) {
    let width = 100 - indent.len() - 4;
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            let _ = writeln!(out, "{indent}///");
        }
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width {
                let _ = writeln!(out, "{indent}/// {line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        let _ = writeln!(out, "{indent}/// {line}");
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

/// Appends the deprecated 0.2 name of `new_name` (a safe function of the same signature, no
/// `# Safety` section), which calls it; cbindgen turns `#[deprecated]` into `SNO_DEPRECATED(note)` in the header.
fn deprecated(out: &mut String, new_name: &str, signature: &str, call: &str) {
    let note = format!("use {new_name}");
    doc(
        out,
        "",
        &format!("Deprecated: the same as {new_name}; kept for the 0.2 ABI."),
    );
    let _ = writeln!(out, "#[deprecated(note = \"{note}\")]");
    out.push_str("#[unsafe(no_mangle)]\n");
    let _ = writeln!(out, "pub extern \"C\" fn {signature} {{\n    {call}\n}}\n");
}

/// The C value type and its text-length constant.
fn value_type(out: &mut String, spec: &Spec, value: &Value, core: &CoreFormat) {
    let (text_const, text_doc) = value.text_const;
    let c = spec.c_type;
    let ty = core.ty();
    doc(out, "", text_doc);
    let _ = writeln!(out, "pub const {text_const}: usize = {};\n", spec.text_len);
    doc(out, "", value.doc);
    match value.repr {
        Repr::Bytes => {
            out.push_str("#[repr(C)]\n#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\n");
            let _ = writeln!(out, "pub struct {c} {{");
            out.push_str("    /// The binary form.\n");
            let _ = writeln!(out, "    pub bytes: [u8; {}],\n}}", core.binary_len);
            let _ = writeln!(out, "crate::formats::c_id!({c}, {ty}, {text_const});\n");
        }
        Repr::I64 { encode } => {
            out.push_str(
                "#[repr(transparent)]\n#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\n",
            );
            let _ = writeln!(out, "pub struct {c}(pub i64);");
            let _ = writeln!(
                out,
                "crate::formats::c_i64_id!({c}, {ty}, {text_const}, {ty}::{encode});\n"
            );
        }
    }
}

/// The generator handle and its common functions.
fn generator(out: &mut String, spec: &Spec, g: &GeneratorSpec, core: &CoreFormat) {
    let p = spec.prefix;
    let c = spec.c_type;
    let module = core.module();
    let display = core.display;
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
    if let Some(docs) = g.new {
        function(
            out,
            docs,
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
    let mut step = |name: &str, docs: &str, arg: &str, call: &str| {
        function(
            out,
            docs,
            step_safety,
            &format!(
                "{p}_generator_{name}(\n    generator: *const {p}_generator,\n{arg}    out: *mut {c},\n) -> sno_status"
            ),
            &format!(
                "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::generator_step(generator, out, |g| g.{call}) }}"
            ),
        );
    };
    step("next", g.next, "", "next()");
    if let Some(docs) = g.try_next {
        step("try_next", docs, "", "try_next()");
    }
    step(
        "next_at",
        g.next_at,
        "    unix_ms: i64,\n",
        "next_at(unix_ms)",
    );
}

/// The common surface of one format.
fn format_surface(out: &mut String, spec: &Spec, core: &CoreFormat) {
    let p = spec.prefix;
    let c = spec.c_type;
    let ty = core.ty();
    let n = spec.text_len;
    let _ = writeln!(out, "// {}: {p}_*\n", core.display);
    if let Some(value) = &spec.value {
        value_type(out, spec, value, core);
    }
    if let Some(docs) = spec.new {
        function(
            out,
            docs,
            Some("`out` must be NULL or writable."),
            &format!("{p}_new(out: *mut {c}) -> sno_status"),
            &format!(
                "// SAFETY: forwarded contract.\nunsafe {{ crate::formats::new_global(out, {}::try_new) }}",
                core.module()
            ),
        );
    }
    let by_value = matches!(
        spec.value,
        Some(Value {
            repr: Repr::I64 { .. },
            ..
        })
    );
    let (id_param, id_arg, id_safety) = if by_value {
        (format!("id: {c}"), "&id", "")
    } else {
        (
            format!("id: *const {c}"),
            "id",
            "`id` must be NULL or valid; ",
        )
    };
    let forwarded = if by_value {
        "// SAFETY: `&id` is valid; `out` forwarded."
    } else {
        "// SAFETY: forwarded contract."
    };
    let (encode, encode_doc) = spec.encode;
    function(
        out,
        encode_doc,
        Some(&format!(
            "{id_safety}`out` NULL or valid for {n} byte writes."
        )),
        &format!("{p}_{encode}({id_param}, out: *mut c_char) -> sno_status"),
        &format!("{forwarded}\nunsafe {{ crate::formats::encode({id_arg}, out) }}"),
    );
    if spec.encode_cstr {
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
    let (decode, decode_doc) = spec.decode;
    function(
        out,
        decode_doc,
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
    if let Some(unix_ms) = &spec.unix_ms {
        let reader = unix_ms.reader;
        function(
            out,
            unix_ms.doc,
            None,
            &format!("{p}_unix_ms(id: {c}) -> u64"),
            &format!("{reader}::from_bytes(id.bytes).unix_ms()"),
        );
        if unix_ms.timestamp_ms_alias {
            deprecated(
                out,
                &format!("{p}_unix_ms"),
                &format!("{p}_timestamp_ms(id: {c}) -> u64"),
                &format!("{p}_unix_ms(id)"),
            );
        }
    }
    if spec.compare {
        function(
            out,
            "-1, 0 or 1 as `a` sorts before, equal to, or after `b` (time order, as memcmp). Thread-safe.",
            None,
            &format!("{p}_compare(a: {c}, b: {c}) -> i32"),
            "a.bytes.cmp(&b.bytes) as i32",
        );
    }
    if let Some(g) = &spec.generator {
        generator(out, spec, g, core);
    }
}

/// The `sno_format` enum and the table the generic API reads it with.
fn format_enum(out: &mut String) {
    out.push_str("// The generic API's formats (any.rs)\n\n");
    doc(
        out,
        "",
        "An ID format, numbered in the order of the core's format table (sno_format_name gives its name). Functions of the generic API take a format as an `int32_t` (a value that is no sno_format gives SNO_STATUS_UNKNOWN_FORMAT) and write one as a sno_format.",
    );
    out.push_str(
        "#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub enum sno_format {\n",
    );
    for (i, core) in CORE.iter().enumerate() {
        let functions = SPECS
            .iter()
            .find(|s| s.format == core.name)
            .map(|s| format!("; {}_*", s.prefix))
            .unwrap_or_default();
        doc(
            out,
            "    ",
            &format!(
                "{}: a binary form of {} bytes, a text of up to {} characters{functions}.",
                core.display, core.binary_len, core.max_text_len
            ),
        );
        let _ = writeln!(out, "    {} = {i},", core.c_variant());
    }
    out.push_str("}\n\n");
    let _ = writeln!(
        out,
        "/// Every format, in `sno_core::Format::ALL` order: the core's, C's and its name.\npub(crate) const FORMATS: [(sno_core::Format, sno_format, &std::ffi::CStr); {}] = [",
        CORE.len()
    );
    for core in CORE {
        let _ = writeln!(
            out,
            "    (sno_core::Format::{}, sno_format::{}, c\"{}\"),",
            core.variant,
            core.c_variant(),
            core.name
        );
    }
    out.push_str("];\n");
}

/// The whole generated file.
fn generate() -> String {
    let mut out = String::new();
    let generic_only: Vec<&str> = CORE
        .iter()
        .filter(|core| !SPECS.iter().any(|s| s.format == core.name))
        .map(|core| core.name)
        .collect();
    let header = format!(
        "GENERATED by `sno-ffi/tests/generated` from the core's format table (`sno_core::for_each_format!`) and the C descriptions in `sno-ffi/tests/generated/spec.rs`; do not edit. Regenerate with `SNO_BLESS=1 cargo test -p sno-ffi --test generated`.\n\nThe common per-format C surface (value type, `new`, `encode`, `encode_cstr`, `decode`, `unix_ms` (and its deprecated name `timestamp_ms`), `compare`, the generator handle) over the generic helpers of `formats.rs`, and the `sno_format` enum of the generic API (`any.rs`). Formats reached through the generic API alone: {}.",
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
    if SPECS.iter().any(|s| s.value.is_none()) {
        out.push_str("use crate::types::sno_id;\n");
    }
    out.push_str("use crate::status::sno_status;\n\n");
    for spec in SPECS {
        let core = CORE
            .iter()
            .find(|core| core.name == spec.format)
            .unwrap_or_else(|| {
                panic!(
                    "spec.rs describes {}, which the core does not know",
                    spec.format
                )
            });
        format_surface(&mut out, spec, core);
    }
    format_enum(&mut out);
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
    out.push_str("//! GENERATED by `sno-ffi/tests/generated` from the core's error table\n//! (`sno_core::ErrorKind`) and the C notes in `sno-ffi/tests/generated/statuses.rs`; do not edit.\n//! Regenerate with `SNO_BLESS=1 cargo test -p sno-ffi --test generated`.\n//!\n//! The `sno_status` enum every fallible C function returns.\n");
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

/// Compares `fresh` with the committed file `path` (relative to sno-ffi), or writes it under
/// `SNO_BLESS`.
fn check_current(path: &str, fresh: &str) {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("SNO_BLESS").is_some() {
        std::fs::write(&full, fresh).unwrap_or_else(|e| panic!("write sno-ffi/{path}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&full).unwrap_or_default();
    assert!(
        committed == fresh,
        "sno-ffi/{path} is stale: run `SNO_BLESS=1 cargo test -p sno-ffi --test generated`, then re-bless the header, and commit both"
    );
}

#[test]
fn generated_code_is_current() {
    check_current("src/generated.rs", &generate());
}

#[test]
fn generated_statuses_are_current() {
    check_current("src/status.rs", &generate_statuses());
}

#[test]
fn every_status_note_names_a_core_kind_and_c_numbers_are_free() {
    let kinds: Vec<String> = sno_core::ErrorKind::ALL
        .iter()
        .map(|k| format!("{k:?}"))
        .collect();
    for (variant, _) in NOTES {
        assert!(
            kinds.iter().any(|k| k == variant),
            "a note for {variant}, which the core does not have"
        );
    }
    for c in C_ONLY {
        assert!(
            sno_core::ErrorKind::from_status(c.number).is_none(),
            "C's own status {} takes number {}, a core kind's",
            c.variant,
            c.number
        );
    }
    let numbers: Vec<u8> = statuses().iter().map(|s| s.number).collect();
    assert!(
        numbers.windows(2).all(|w| w[0] < w[1]),
        "a status number twice: {numbers:?}"
    );
}

#[test]
fn every_spec_names_a_core_format_once() {
    for (i, spec) in SPECS.iter().enumerate() {
        assert!(
            CORE.iter().any(|core| core.name == spec.format),
            "{}",
            spec.format
        );
        assert!(
            SPECS[..i]
                .iter()
                .all(|s| s.format != spec.format && s.prefix != spec.prefix),
            "{} twice",
            spec.format
        );
    }
    assert_eq!(CORE.len(), sno_core::Format::ALL.len());
    for (core, format) in CORE.iter().zip(sno_core::Format::ALL) {
        assert_eq!(core.name, format.name());
        assert_eq!(core.binary_len, format.binary_len());
    }
}
