//! The `sno` binary: [`sno_cli::run`] on the process's arguments and standard streams.

use std::process::ExitCode;

mod signals;

fn main() -> ExitCode {
    // First, while no other thread exists: Ctrl-C, SIGTERM and SIGHUP release a leased
    // partition before the process ends as the signal ends it.
    signals::release_on_signals();
    let code = sno_cli::run(
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        // Locked per message, not for the whole command: a signal's release keeps it from then on.
        &mut std::io::stderr(),
    );
    // A partition leased through SNO_LEASE_URL is freed now, for IDs after this process's, not
    // one TTL later (a crash still waits the TTL out).
    sno_lease::release_process_lease();
    signals::command_done();
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
