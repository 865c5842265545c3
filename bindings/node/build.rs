//! napi-rs link setup.
fn main() {
    napi_build::setup();
}
