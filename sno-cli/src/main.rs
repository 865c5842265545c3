//! The `sno` binary: [`sno_cli::run`] on the process's arguments and standard streams.

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = sno_cli::run(
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
