//! Gives the shared library a SONAME (cargo-c's rule: 0.y.z → libsno.so.0.y, x.y.z → libsno.so.x);
//! on macOS the same version in its install name (@rpath/libsno.0.y.dylib, @rpath/libsno.x.dylib).
fn main() {
    let major: u32 = env!("CARGO_PKG_VERSION_MAJOR").parse().unwrap_or(0);
    let minor = env!("CARGO_PKG_VERSION_MINOR");
    let soname = if major == 0 {
        format!("libsno.so.0.{minor}")
    } else {
        format!("libsno.so.{major}")
    };
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" || target_os == "android" || target_os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    } else if target_os == "macos" {
        let sover = soname.trim_start_matches("libsno.so.");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libsno.{sover}.dylib");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
