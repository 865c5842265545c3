//! The core's format table as JSON (`sno_formats`: `sno_core::js::JsTable`, which the Node
//! package's `formats()` gives too), exported only by the build that `scripts/build-web` runs
//! once to write it into `js/table.js`: `formats.js` builds each class and namespace from that
//! file, and `formats.wasm` holds none of this (docs/wasm.md, "Sizes").

use alloc::string::ToString;

use sno_core::js::JsTable;

use crate::io::{output, put};

/// The core's format table as JSON, in `Format::ALL` order: what `formats.js` builds each class
/// and namespace from (the members are `JsTable`'s).
#[unsafe(no_mangle)]
pub extern "C" fn sno_formats() -> i32 {
    output(|out| {
        put(out, JsTable.to_string().as_bytes());
        Ok(())
    })
}
