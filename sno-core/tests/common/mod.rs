//! Helpers shared by the integration tests: the repository's test-data folder, a TSV reader
//! (tab-split literally, no quoting) and hex.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

/// `testdata/vectors/` at the repository root: the one folder every language's tests read.
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/vectors")
}

/// Every row of a vector file, keyed by the header's column names.
///
/// Under Miri, a file of more than [`MIRI_WHOLE`] rows (the sno codec tables: thousands of
/// independent cases, no traces) is sampled as it is read, as [`each`] samples: building a map
/// per row is itself minutes of interpretation there.
pub fn rows(file: &str) -> Vec<HashMap<String, String>> {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let body: Vec<&str> = lines.collect();
    let body: Vec<&str> = if cfg!(miri) && body.len() > MIRI_WHOLE {
        each(&body).copied().collect()
    } else {
        body
    };
    body.into_iter()
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), header.len(), "{file}: {line}");
            header
                .iter()
                .zip(cells)
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

/// The rows a test of independent cases checks: every one natively; under Miri (about 10^4
/// times slower) an evenly spaced sample of about 40, first and last included, so the UB check
/// covers every code path in minutes. Never used for traces, whose rows depend on each other.
pub fn each<T>(rows: &[T]) -> impl Iterator<Item = &T> {
    let step = if cfg!(miri) {
        rows.len().div_ceil(40).max(1)
    } else {
        1
    };
    let last = rows.len().checked_sub(1);
    rows.iter()
        .enumerate()
        .filter(move |&(i, _)| i % step == 0 || Some(i) == last)
        .map(|(_, r)| r)
}

/// The most rows a vector file may have for Miri to read it whole.
pub const MIRI_WHOLE: usize = 400;

/// Checks a vector file's row count, except under Miri, where a large file is sampled.
pub fn assert_row_count<T>(rows: &[T], expected: usize) {
    if !(cfg!(miri) && expected > MIRI_WHOLE) {
        assert_eq!(rows.len(), expected);
    }
}

/// A repetition count: `native` normally, `miri` under Miri (thread loops, property cases).
pub const fn scaled(native: usize, miri: usize) -> usize {
    if cfg!(miri) { miri } else { native }
}

/// Four threads make `per_thread` IDs each with `make`: no ID twice, and each thread's IDs
/// strictly increase.
pub fn threads_never_repeat<T: Ord + Copy + Send + 'static>(
    per_thread: usize,
    make: impl Fn() -> T + Send + Sync + 'static,
) {
    let make = std::sync::Arc::new(make);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let make = make.clone();
            std::thread::spawn(move || (0..per_thread).map(|_| make()).collect::<Vec<_>>())
        })
        .collect();
    let mut all = vec![];
    for h in handles {
        let ids = h.join().unwrap();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "per-thread order");
        all.extend(ids);
    }
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n);
}

pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The alphabet, spelled out independently of the crate's tables.
pub const ALPHABET: &[u8] = b"23456789abcdefghijklmnopqrstuvwx";

/// Undoes Go's `strconv.Quote`: `\"`, `\\`, `\n`, `\t`, `\r`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`.
pub fn go_unquote(q: &str) -> Vec<u8> {
    let b = q.as_bytes();
    assert!(
        b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"',
        "not Go-quoted: {q}"
    );
    let inner = &q[1..q.len() - 1];
    let mut out = Vec::new();
    let mut chars = inner.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let (i, e) = chars.next().expect("escape");
        let take = |n: usize| &inner[i + 1..i + 1 + n];
        match e {
            '"' => out.push(b'"'),
            '\\' => out.push(b'\\'),
            '\'' => out.push(b'\''),
            'n' => out.push(b'\n'),
            't' => out.push(b'\t'),
            'r' => out.push(b'\r'),
            'a' => out.push(7),
            'b' => out.push(8),
            'f' => out.push(12),
            'v' => out.push(11),
            'x' => {
                out.push(u8::from_str_radix(take(2), 16).expect("\\x"));
                chars.nth(1);
            }
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let c =
                    char::from_u32(u32::from_str_radix(take(n), 16).expect("\\u")).expect("char");
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                chars.nth(n - 1);
            }
            other => panic!("unknown escape \\{other} in {q}"),
        }
    }
    out
}

/// The error our strict decoder must give for `input`, worked out without the crate.
pub fn expected_text_error(input: &[u8]) -> Option<sno_core::Error> {
    if input.len() != 16 {
        return Some(sno_core::Error::InvalidLength {
            expected: 16,
            actual: input.len(),
        });
    }
    input
        .iter()
        .position(|c| !ALPHABET.contains(c))
        .map(|position| sno_core::Error::InvalidByte {
            position,
            byte: input[position],
        })
}

/// The string a JSON string literal cell (`input_json` columns) holds.
pub fn json_str(cell: &str) -> String {
    serde_json::from_str(cell).expect("a JSON string")
}

/// Randomness played back from scripted queues: `fill_bytes` takes whole byte strings,
/// `next_u64` and `next_u32` their own queues, so a test states what each kind of draw returns.
#[derive(Default)]
pub struct Script {
    pub fills: VecDeque<Vec<u8>>,
    pub u64s: VecDeque<u64>,
    pub u32s: VecDeque<u32>,
}

impl sno_core::rng::RngCore for Script {
    fn next_u32(&mut self) -> u32 {
        self.u32s.pop_front().expect("scripted u32")
    }
    fn next_u64(&mut self) -> u64 {
        self.u64s.pop_front().expect("scripted u64")
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        let bytes = self.fills.pop_front().expect("scripted fill");
        dst.copy_from_slice(&bytes);
    }
}
