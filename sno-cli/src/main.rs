//! The `sno` binary: [`sno_cli::run`] on the process's arguments and standard streams.

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = sno_cli::run(
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    // A partition leased through SNO_LEASE_URL is freed now, for IDs after this process's, not
    // one TTL later (a crash still waits the TTL out).
    sno_lease::release_process_lease();
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
