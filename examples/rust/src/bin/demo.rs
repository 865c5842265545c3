//! libsno demo: generates sno IDs and prints every field; `demo ID...` inspects given IDs.
//!
//! ```text
//! cargo run --release -p sno-examples --bin demo
//! cargo run --release -p sno-examples --bin demo -- brpk4q72xwf2m63l
//! ```

use std::process::ExitCode;

use sno_core::{Generator, Id};

fn print(id: &Id) {
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    println!(
        "{id}  bytes={}  time={}  units={}  tick={}  meta={}  partition={:#06x}  sequence={}",
        id.as_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
        sno_core::time::format_utc(id.unix_nanos(), &mut utc),
        id.timestamp(),
        u8::from(id.tick_tock()),
        id.meta(),
        id.partition(),
        id.sequence(),
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        let mut status = ExitCode::SUCCESS;
        for arg in &args {
            match arg.parse::<Id>() {
                Ok(id) => print(&id),
                Err(e) => {
                    eprintln!("{arg}: {e}");
                    status = ExitCode::FAILURE;
                }
            }
        }
        return status;
    }
    println!("# five IDs from the global generator (meta 0..4)");
    for meta in 0..5 {
        print(&sno_core::new(meta));
    }
    println!("\n# a generator with partition 0x0102 and sequences 100..=199");
    let g = match Generator::builder()
        .partition(0x0102)
        .sequence_bounds(100, 199)
        .build()
    {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    for _ in 0..3 {
        match g.next(42) {
            Ok(id) => print(&id),
            Err(e) => eprintln!("{e}"),
        }
    }
    println!("\n# strict decoding");
    for bad in ["BRPK4Q72XWF2M63L", "brpk4q72xwf2m63", "brpk4q72xwf2m6zl"] {
        match bad.parse::<Id>() {
            Ok(id) => print(&id),
            Err(e) => println!("{bad:<16}  -> {e}"),
        }
    }
    println!(
        "\n# snapshot (persist it to survive restarts)\n{:?}",
        g.snapshot()
    );
    ExitCode::SUCCESS
}
