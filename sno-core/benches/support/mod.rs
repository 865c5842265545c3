//! Shared by the criterion benches: reading back this run's medians to print same-run ratios.

use std::path::PathBuf;

/// Where criterion writes its estimates (its own rules, minus `cargo metadata`).
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("criterion")
}

/// Criterion's median for one benchmark of this run, in ns per iteration.
pub fn median_ns(group: &str, function: &str, param: &str) -> Option<f64> {
    let path = criterion_dir()
        .join(group)
        .join(function)
        .join(param)
        .join("new/estimates.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}
