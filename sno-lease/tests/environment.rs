//! The process-wide generator's environment, through the `sno-lease mint` worker (one process
//! per case: the environment is read once per process). No store is needed: every case here
//! fails before connecting, or needs no lease.

use std::process::Command;

/// Runs `sno-lease mint` for a moment with `env` (and no other SNO_* variable); returns its exit
/// status and its output.
fn mint(env: &[(&str, &str)]) -> (bool, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sno-lease"));
    cmd.args(["mint", "--seconds", "0", "--rate", "0"]);
    for (k, _) in std::env::vars() {
        if k.starts_with("SNO_") {
            cmd.env_remove(k);
        }
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run sno-lease");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn neither_variable_keeps_a_default_partition() {
    let (ok, out) = mint(&[]);
    assert!(ok, "{out}");
    assert!(out.starts_with("grant "), "{out}");
}

#[test]
fn a_fixed_partition_is_used() {
    let (ok, out) = mint(&[("SNO_PARTITION", "4242")]);
    assert!(ok, "{out}");
    assert!(out.starts_with("grant 4242 0"), "{out}");
}

/// The variables of one case, the error code, and words its message must hold.
type Case = (
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
);

#[test]
fn nothing_is_silently_ignored() {
    let cases: &[Case] = &[
        (
            &[("SNO_PARTITION", "abc")],
            "invalid_environment",
            "SNO_PARTITION",
        ),
        (
            &[
                ("SNO_PARTITION", "1"),
                ("SNO_LEASE_URL", "postgres://127.0.0.1/db"),
            ],
            "invalid_environment",
            "SNO_PARTITION",
        ),
        (
            &[("SNO_LEASE_URI", "postgres://127.0.0.1/db")],
            "lease_invalid_options",
            "SNO_LEASE_URI",
        ),
        (
            &[("SNO_LEASE_TTL", "5")],
            "lease_invalid_options",
            "SNO_LEASE_URL is not",
        ),
        (
            &[
                ("SNO_LEASE_URL", "postgres://127.0.0.1/db"),
                ("SNO_LEASE_TTL", "soon"),
            ],
            "lease_invalid_options",
            "SNO_LEASE_TTL",
        ),
        (
            &[("SNO_LEASE_URL", "mysql://127.0.0.1/db")],
            "lease_invalid_url",
            "mysql",
        ),
        (
            &[("SNO_LEASE_URL", "u:hunter2@db/x")],
            "lease_invalid_url",
            "no scheme",
        ),
    ];
    for (env, code, words) in cases {
        let (ok, out) = mint(env);
        assert!(!ok, "{env:?}: {out}");
        assert!(out.contains(&format!("error {code} ")), "{env:?}: {out}");
        assert!(out.contains(words), "{env:?}: {out}");
        assert!(!out.contains("hunter2"), "{env:?}: {out}");
    }
}

/// A secret in any lease variable, where it does not belong or where it does, never reaches
/// the output (each case fails before connecting).
#[test]
fn environment_errors_echo_no_secret() {
    let secret = "Env-Secret9";
    let url = "postgres://u:Env-Secret9@127.0.0.1/db";
    let cases: &[&[(&str, &str)]] = &[
        &[("SNO_LEASE_URL", url), ("SNO_LEASE_TTL", url)],
        &[("SNO_LEASE_URL", url), ("SNO_LEASE_PARTITIONS", url)],
        &[("SNO_LEASE_URL", url), ("SNO_LEASE_NAMESPACE", url)],
        &[("SNO_LEASE_URL", url), ("SNO_PARTITION", "1")],
        &[("SNO_LEASE_URL", "postgres://u:Env-Secret9@h:99999/db")],
        &[("SNO_LEASE_URL", "postgres://u:Env/Secret9@h:x/db")],
        &[("SNO_LEASE_URL", "host=h password=Env-Secret9 x")],
        &[("SNO_LEASE_URL", "redis://:Env/Secret9@127.0.0.1/")],
        &[("SNO_PARTITION", url)],
        &[("SNO_CLOCK", url)],
    ];
    for env in cases {
        let (ok, out) = mint(env);
        assert!(!ok, "{env:?}: {out}");
        assert!(
            !out.contains(secret) && !out.contains("Env/Secret9"),
            "{env:?}: {out}"
        );
    }
}
