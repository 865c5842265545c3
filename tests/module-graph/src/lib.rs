//! Keeps the workspace free of import cycles, so that each layout shows its architecture: a
//! module only uses modules below it. `tests/no_cycles.rs` runs the Rust checker ([`rust`]) over
//! every crate's library sources and the JavaScript checker ([`js`]) over the Node package's
//! own files (as Node loads them and as a browser build does); each failure names the crate or
//! package and every edge of each cycle with the file, line and path that make it.
//!
//! Std only, no dependencies: a test build of this crate takes seconds.

pub mod files;
pub mod graph;
pub mod js;
pub mod rust;
