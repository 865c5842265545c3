//! libsno demo: generates sno IDs and prints every field; `demo inspect ID...` (or `demo ID...`)
//! recognises the format of each given ID (sno, ULID, UUIDv7, SCRU128, SCRU160, Ulid-Flake,
//! Nanoflake) by length and alphabet, and prints every reading of ambiguous text.
//!
//! ```text
//! cargo run --release -p sno-examples --bin demo
//! cargo run --release -p sno-examples --bin demo -- inspect brpk4q72xwf2m63l 00CMXB6TAK4SA
//! ```

use std::process::ExitCode;

use sno_core::nanoflake::Nanoflake;
use sno_core::scru128::Scru128Id;
use sno_core::scru160::Scru160Id;
use sno_core::ulid::Ulid;
use sno_core::ulidflake::UlidFlake;
use sno_core::uuid7::Uuid7;
use sno_core::{Error, Generator, Id};

/// ISO 8601 UTC of Unix milliseconds, or a note past year 9999.
fn iso(ms: i64) -> String {
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    sno_core::time::format_utc_millis(ms, &mut utc).map_or_else(
        || format!("unix_ms {ms} (outside years 1970..=9999)"),
        str::to_owned,
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A format's name, its text lengths, and its reading of a text: the fields, or the error.
type Reader = (
    &'static str,
    &'static [usize],
    fn(&str) -> Result<String, Error>,
);

/// Every format the demo reads; a text is tried with each whose lengths include its own.
const READERS: [Reader; 7] = [
    ("sno", &[16], |t| {
        let id: Id = t.parse()?;
        let mut utc = [0u8; sno_core::time::UTC_LEN];
        Ok(format!(
            "time={}  units={}  tick={}  meta={}  partition={:#06x}  sequence={}  bytes={}",
            sno_core::time::format_utc(id.unix_nanos(), &mut utc),
            id.timestamp(),
            u8::from(id.tick_tock()),
            id.meta(),
            id.partition(),
            id.sequence(),
            hex(id.as_bytes())
        ))
    }),
    ("ULID", &[26], |t| {
        let u: Ulid = t.parse()?;
        let ms = u.unix_ms() as i64;
        Ok(format!(
            "time={}  randomness={:#022x}  bytes={}",
            iso(ms),
            u.randomness(),
            hex(u.as_bytes())
        ))
    }),
    ("UUIDv7", &[32, 36, 38, 45], |t| {
        let u = Uuid7::decode_lenient(t.as_bytes())?;
        let ms = u.unix_ms() as i64;
        Ok(format!(
            "time={}  rand_a={:#05x}  rand_b={:#018x}  text={u}",
            iso(ms),
            u.rand_a(),
            u.rand_b()
        ))
    }),
    ("SCRU128", &[25], |t| {
        let s: Scru128Id = t.parse()?;
        let ms = s.unix_ms() as i64;
        Ok(format!(
            "time={}  counter_hi={}  counter_lo={}  entropy={}",
            iso(ms),
            s.counter_hi(),
            s.counter_lo(),
            s.entropy()
        ))
    }),
    ("SCRU160", &[32, 40], |t| {
        let s: Scru160Id = t.parse()?;
        let ms = s.unix_ms() as i64;
        let mut h = [0u8; 40];
        Ok(format!(
            "time={}  counter={}  random16={}  random80={:#022x}  base32hex={s}  hex={}",
            iso(ms),
            s.counter(),
            s.random16(),
            s.random80(),
            s.encode_hex(&mut h)
        ))
    }),
    ("Ulid-Flake", &[13], |t| {
        let f: UlidFlake = t.parse()?;
        Ok(format!(
            "time={} (default epoch)  randomness={}  scalable: randomness={} sid={}  int={}",
            iso(f.unix_ms()),
            f.randomness(),
            f.scalable_randomness(),
            f.sid(),
            f.to_i64()
        ))
    }),
    (
        "Nanoflake",
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
        |t| {
            let n: Nanoflake = t.parse()?;
            Ok(format!(
                "timestamp={} ms after the application's epoch  generator_id={}  sequence={}  int={}",
                n.timestamp(),
                n.generator_id(),
                n.sequence(),
                n.to_i64()
            ))
        },
    ),
];

/// Prints every reading of `text`; the error of the first format of its length if none.
fn inspect(text: &str) -> Result<(), String> {
    let mut first_error = None;
    let mut readings = vec![];
    for (name, lengths, read) in READERS {
        if !lengths.contains(&text.len()) {
            continue;
        }
        match read(text) {
            Ok(fields) => readings.push(format!("{text}  [{name}]  {fields}")),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    if readings.len() > 1 {
        println!("{text}: {} readings (ambiguous shape)", readings.len());
    }
    for r in &readings {
        println!("{r}");
    }
    match (readings.is_empty(), first_error) {
        (false, _) => Ok(()),
        (true, Some(e)) => Err(e.to_string()),
        (true, None) => Err(format!("no format has {}-byte text", text.len())),
    }
}

fn print(id: &Id) {
    println!(
        "{id}  [sno]  {}",
        READERS[0].2(&id.to_string()).unwrap_or_default()
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        let ids = if args[0] == "inspect" {
            &args[1..]
        } else {
            &args[..]
        };
        let mut status = ExitCode::SUCCESS;
        for arg in ids {
            if let Err(e) = inspect(arg) {
                eprintln!("{arg}: {e}");
                status = ExitCode::FAILURE;
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
