//! The C ABI follows the core's model: every kind of the core's error table has a `sno_status`
//! of the same number and name (`SNO_STATUS_` + the upper-cased code) described by the table's
//! summary, and every format of the core's table has a `sno_format` of the same number and name,
//! as the committed `include/sno.h` declares them.

use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::path::PathBuf;

use sno::{sno_format, sno_format_from_name, sno_format_name, sno_status, sno_status_str};
use sno_core::{ErrorKind, Format};

/// The enumerators (and `#define` aliases of enumerators) of `typedef enum <name>` in the
/// header, with their values.
fn enumerators(name: &str) -> BTreeMap<String, i64> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../include/sno.h");
    let header = std::fs::read_to_string(path).expect("include/sno.h");
    let start = header
        .find(&format!("typedef enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name}"));
    let end = start + header[start..].find('}').expect("end of enum");
    let mut values = BTreeMap::new();
    for line in header[start..end].lines() {
        if let Some((key, value)) = line.trim().trim_end_matches(',').split_once(" = ") {
            values.insert(key.to_string(), value.parse().expect("a number"));
        }
    }
    for line in header.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["#define", alias, target] = words[..]
            && let Some(&value) = values.get(target)
        {
            values.insert(alias.to_string(), value);
        }
    }
    values
}

fn status_text(status: i32) -> String {
    // SAFETY: sno_status_str returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(sno_status_str(status)) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_error_kind_has_its_status() {
    let statuses = enumerators("sno_status");
    for kind in ErrorKind::ALL {
        let name = format!("SNO_STATUS_{}", kind.code().to_uppercase());
        assert_eq!(
            statuses.get(&name),
            Some(&i64::from(kind.status())),
            "{kind:?}: {name} = {}",
            kind.status()
        );
        assert_eq!(
            status_text(kind.status().into()),
            kind.summary(),
            "{kind:?}"
        );
    }
    // Every status of the enum is described, and the C layer's own ones are no core kind.
    for (name, &value) in &statuses {
        let value = i32::try_from(value).expect("a status number");
        assert_ne!(status_text(value), "unknown status", "{name}");
        let core = u8::try_from(value).ok().and_then(ErrorKind::from_status);
        if let Some(kind) = core {
            assert!(
                name == &format!("SNO_STATUS_{}", kind.code().to_uppercase())
                    || name == "SNO_STATUS_NOT_VERSION7",
                "{name} has the number of {kind:?}"
            );
        }
    }
    assert_eq!(sno_status::InvalidPrefix as i32, 39);
}

#[test]
fn every_format_has_its_sno_format() {
    let formats = enumerators("sno_format");
    assert_eq!(formats.len(), Format::ALL.len(), "{formats:?}");
    for (i, format) in Format::ALL.iter().enumerate() {
        let name = format!("SNO_FORMAT_{}", format.name().to_uppercase());
        assert_eq!(formats.get(&name), Some(&(i as i64)), "{format:?}: {name}");
        let i = i32::try_from(i).expect("a small number");
        // SAFETY: sno_format_name returns NULL or a static NUL-terminated string.
        let c_name = unsafe { sno_format_name(i).as_ref().map(|p| CStr::from_ptr(p)) };
        assert_eq!(c_name.and_then(|n| n.to_str().ok()), Some(format.name()));
        let mut back = sno_format::Sno;
        let display = CString::new(format.display_name()).expect("no NUL");
        // SAFETY: a NUL-terminated name and a live out-pointer.
        let status = unsafe { sno_format_from_name(display.as_ptr(), &mut back) };
        assert_eq!(status, sno_status::Ok, "{format:?}");
        assert_eq!(back as i32, i, "{format:?}");
    }
    let past = i32::try_from(Format::ALL.len()).expect("a small number");
    assert!(sno_format_name(past).is_null());
}
