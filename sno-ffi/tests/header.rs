//! The committed `include/sno.h` must equal a fresh cbindgen run (cbindgen is pinned in
//! Cargo.lock as a dev-dependency). Re-bless after an API change with
//! `SNO_BLESS=1 cargo test -p sno-ffi --test header`.

use std::path::PathBuf;

#[test]
fn committed_header_is_current() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generation")
        .write(&mut fresh);
    let path = crate_dir.join("../include/sno.h");
    if std::env::var_os("SNO_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write include/sno.h");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/sno.h is stale: run `SNO_BLESS=1 cargo test -p sno-ffi --test header` and commit it"
    );
}
