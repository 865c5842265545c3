//! `SNO_PARTITION`, `SNO_CLOCK` and `SNO_LEASE_URL` as the core's process-wide generator reads them. Each
//! case runs in a child process (the environment is read once per process): the `#[ignore]`d
//! `child_*` tests are the children's entry points, started by the tests below.

use std::process::Command;

/// Runs the ignored test `name` in a child process with `env` set, and returns whether it passed.
fn run_child(name: &str, env: &[(&str, &str)]) -> bool {
    let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
    cmd.args(["--ignored", "--exact", name, "--test-threads", "1"])
        .env_remove("SNO_PARTITION")
        .env_remove("SNO_LEASE_URL")
        .env_remove("SNO_CLOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("1 passed") || stdout.contains("1 failed"),
        "{stdout}"
    );
    out.status.success()
}

#[test]
fn a_fixed_partition_stamps_every_id() {
    assert!(run_child("child_partition_77", &[("SNO_PARTITION", "77")]));
    assert!(run_child(
        "child_partition_77",
        &[("SNO_PARTITION", " 77 ")]
    ));
    assert!(!run_child("child_partition_77", &[]), "the check can fail");
}

#[test]
fn invalid_values_are_errors_at_first_use() {
    for bad in ["", "abc", "-1", "65536", "7.5", "0x10", "1 2"] {
        assert!(
            run_child("child_invalid_partition", &[("SNO_PARTITION", bad)]),
            "SNO_PARTITION={bad:?}"
        );
    }
    assert!(!run_child(
        "child_invalid_partition",
        &[("SNO_PARTITION", "5")]
    ));
}

#[test]
fn leasing_needs_sno_lease() {
    assert!(run_child(
        "child_lease_url_refused",
        &[("SNO_LEASE_URL", "postgres://db/ids")]
    ));
}

#[test]
fn unset_keeps_the_random_default() {
    assert!(run_child("child_default", &[]));
}

#[test]
#[ignore = "a child of a_fixed_partition_stamps_every_id"]
fn child_partition_77() {
    assert_eq!(sno_core::partition_from_env(), Ok(Some(77)));
    let id = sno_core::try_new(1).unwrap();
    assert_eq!(id.partition(), 77);
    assert!(sno_core::global_generator().has_explicit_partition());
}

#[test]
#[ignore = "a child of invalid_values_are_errors_at_first_use"]
fn child_invalid_partition() {
    let e = sno_core::try_new(0).unwrap_err();
    assert_eq!(e.code(), "invalid_environment");
    assert!(e.to_string().contains("SNO_PARTITION"), "{e}");
    // And at every later use.
    assert_eq!(sno_core::try_new(0).unwrap_err(), e);
    assert!(std::panic::catch_unwind(sno_core::global_generator).is_err());
}

#[test]
#[ignore = "a child of leasing_needs_sno_lease"]
fn child_lease_url_refused() {
    let e = sno_core::try_new(0).unwrap_err();
    assert_eq!(e.code(), "invalid_environment");
    assert!(e.to_string().contains("sno_lease"), "{e}");
}

#[test]
#[ignore = "a child of unset_keeps_the_random_default"]
fn child_default() {
    assert_eq!(sno_core::partition_from_env(), Ok(None));
    assert!(sno_core::try_new(0).is_ok());
    assert!(!sno_core::global_generator().has_explicit_partition());
}

#[test]
fn a_fixed_partition_refuses_in_a_fork_child() {
    assert!(run_child("child_fork_refuses", &[("SNO_PARTITION", "78")]));
}

#[test]
#[ignore = "a child of a_fixed_partition_refuses_in_a_fork_child"]
fn child_fork_refuses() {
    assert_eq!(sno_core::try_new(0).unwrap().partition(), 78);
    // SAFETY: the child only calls the generator (atomics) and `_exit`.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = match sno_core::try_new(0) {
            Err(sno_core::Error::Forked { partition: 78 }) => 0,
            _ => 1,
        };
        // SAFETY: ends the child without running the parent's destructors or test harness.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child forked above; `status` is a valid out-pointer.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the child minted with 78"
    );
    assert_eq!(
        sno_core::try_new(0).unwrap().partition(),
        78,
        "the parent keeps it"
    );
}

#[test]
fn sno_clock_selects_the_process_wide_clock() {
    for fast in ["fast", "FAST", "Fast"] {
        assert!(
            run_child("child_fast_clock", &[("SNO_CLOCK", fast)]),
            "{fast}"
        );
    }
    assert!(run_child(
        "child_precise_clock",
        &[("SNO_CLOCK", "precise")]
    ));
    assert!(run_child("child_precise_clock", &[]));
    assert!(!run_child("child_fast_clock", &[]), "the check can fail");
    for bad in ["", "slow", " fast", "fast ", "coarse", "1"] {
        assert!(
            run_child("child_invalid_clock", &[("SNO_CLOCK", bad)]),
            "SNO_CLOCK={bad:?}"
        );
    }
}

#[test]
#[ignore = "a child of sno_clock_selects_the_process_wide_clock"]
fn child_fast_clock() {
    assert_eq!(
        sno_core::ClockKind::from_env(),
        Ok(sno_core::ClockKind::Fast)
    );
    let g = sno_core::try_global_generator().unwrap();
    assert_eq!(g.clock().kind(), sno_core::ClockKind::Fast);
    let (a, b) = (sno_core::new(0), sno_core::new(0));
    assert!(a < b);
    // The millisecond formats' process-wide generators read the same variable.
    let (u, v) = (
        sno_core::ulid::try_new().unwrap(),
        sno_core::ulid::try_new().unwrap(),
    );
    assert!(u < v);
    assert!(sno_core::uuid7::try_new().is_ok());
    assert!(sno_core::scru128::try_new().is_ok());
    assert!(sno_core::scru160::try_new().is_ok());
    assert!(sno_core::ulidflake::try_new().is_ok());
}

#[test]
#[ignore = "a child of sno_clock_selects_the_process_wide_clock"]
fn child_precise_clock() {
    let g = sno_core::try_global_generator().unwrap();
    assert_eq!(g.clock().kind(), sno_core::ClockKind::Precise);
}

#[test]
#[ignore = "a child of sno_clock_selects_the_process_wide_clock"]
fn child_invalid_clock() {
    let e = sno_core::try_new(0).unwrap_err();
    assert_eq!(e.code(), "invalid_environment");
    assert!(e.to_string().contains("SNO_CLOCK"), "{e}");
    assert_eq!(sno_core::ClockKind::from_env(), Err(e));
    assert_eq!(sno_core::ulid::try_new(), Err(e));
    assert_eq!(sno_core::uuid7::try_new(), Err(e));
    assert_eq!(sno_core::scru128::try_new(), Err(e));
    assert_eq!(sno_core::scru160::try_new(), Err(e));
    assert_eq!(sno_core::ulidflake::try_new(), Err(e));
    assert!(std::panic::catch_unwind(sno_core::ulid::global_generator).is_err());
    assert!(std::panic::catch_unwind(sno_core::uuid7::global_generator).is_err());
}
