//! Snapshot safety across `kill -9`: the `persist` example is killed mid-generation and
//! restarted from its last persisted snapshot and lease, once with the clock set back and once
//! with it set forward, and no ID repeats across the three lives.

use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use sno_core::Id;

fn start(dir: &Path, out: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_persist"))
        .args(["--state", dir.join("gen.state").to_str().unwrap()])
        .args(["--out", dir.join(out).to_str().unwrap()])
        .args(["--every-ms", "10"])
        .args(extra)
        .spawn()
        .expect("persist starts")
}

/// The IDs a life wrote; a kill may cut the last line short.
fn ids(dir: &Path, out: &str) -> Vec<Id> {
    let text = std::fs::read_to_string(dir.join(out)).expect("output exists");
    let lines: Vec<&str> = text.lines().collect();
    let mut ids = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match line.parse::<Id>() {
            Ok(id) => ids.push(id),
            Err(e) => assert!(i + 1 == lines.len(), "line {i} {line:?}: {e}"),
        }
    }
    ids
}

/// The lease in the state file now.
fn lease(dir: &Path) -> u64 {
    let text = std::fs::read_to_string(dir.join("gen.state")).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix("lease=")).unwrap();
    line.parse().unwrap()
}

fn kill_after(mut child: Child, ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
}

#[test]
fn no_duplicate_across_kill_and_restart() {
    let dir = std::env::temp_dir().join(format!("sno-persist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // Life 1: killed mid-generation. Everything it wrote lies at or below the lease on disk.
    kill_after(start(&dir, "1.txt", &[]), 400);
    let (first, lease1) = (ids(&dir, "1.txt"), lease(&dir));
    assert!(first.len() > 1000, "life 1 made {} IDs", first.len());
    assert!(first.iter().all(|id| id.timestamp() <= lease1));

    // Life 2: restarted with the clock 1 s behind, killed too. It waits for the clock to pass
    // life 1's lease (about 1 s), then every ID is in a later unit.
    kill_after(start(&dir, "2.txt", &["--offset-ms", "-1000"]), 1_800);
    let (second, lease2) = (ids(&dir, "2.txt"), lease(&dir));
    assert!(!second.is_empty(), "life 2 made no ID");
    assert!(
        second
            .iter()
            .all(|id| id.timestamp() > lease1 && id.timestamp() <= lease2)
    );

    // Life 3: the clock back to normal (1 s ahead of life 2's), runs to the end.
    let mut third = start(&dir, "3.txt", &["--count", "50000"]);
    assert!(third.wait().unwrap().success());
    let third = ids(&dir, "3.txt");
    assert_eq!(third.len(), 50_000);
    assert!(third.iter().all(|id| id.timestamp() > lease2));

    let mut seen = HashSet::new();
    for id in first.iter().chain(&second).chain(&third) {
        assert!(seen.insert(*id), "duplicate {id}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
