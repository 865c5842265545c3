#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented function"
)]
//! `cargo bench -p sno-core --bench codec`: the sno codec per backend against its peers, in one
//! run.
//!
//! * `single/{encode,decode}/…`: one ID per call: the public entry points (which pick the
//!   backend), every backend this CPU supports through the hidden selector (the batch-only AVX2 /
//!   AVX-512 kernels as a batch of one), and the peers: the `data-encoding` crate with the sno
//!   alphabet (a validating decoder, like ours), and the `base32` crate (base32hex; its API
//!   allocates a `String` / `Vec` per call).
//! * `batch-{encode,decode}/<backend>/<n>`: `Id::encode_many` / `Id::decode_many` at 1, 16,
//!   1 024 and 1 048 576 IDs, with `data-encoding` in a loop as the peer, and `copy`: the same
//!   bytes moved without coding (four IDs per step: 40 bytes ⇄ 64), the memory floor that the
//!   large batches meet.
//!
//! At the end a table prints ns per ID (criterion's median) and each figure's speed-up over
//! `data-encoding` measured in the same run, then the CPU and the kernels the public entry points
//! chose on it (`scripts/bench` copies both into BENCHMARKS.md).

use std::hint::black_box;
use std::time::Duration;

mod support;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use data_encoding::{Encoding, Specification};
use sno_core::__backends::{self as backends, Backend};
use sno_core::{ENCODED_LEN, Id};
use support::median_ns;

const SIZES: [usize; 4] = [1, 16, 1024, 1 << 20];
const PEER: &str = "data-encoding";
const COPY: &str = "copy";

fn sno_encoding() -> Encoding {
    let mut spec = Specification::new();
    spec.symbols.push_str("23456789abcdefghijklmnopqrstuvwx");
    spec.encoding().expect("valid specification")
}

fn sample_ids(n: usize) -> Vec<Id> {
    (0..n as u64)
        .map(|i| {
            let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let b = x.to_be_bytes();
            Id::from_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], i as u8, 9])
        })
        .collect()
}

fn encoded(ids: &[Id]) -> Vec<u8> {
    let mut text = vec![0u8; ids.len() * ENCODED_LEN];
    Id::encode_many(ids, &mut text).expect("lengths match");
    text
}

fn supported() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_supported())
        .collect()
}

fn single(c: &mut Criterion) {
    let ids = sample_ids(1024);
    let texts = encoded(&ids);
    let texts: Vec<&[u8]> = texts.chunks(ENCODED_LEN).collect();
    let peer = sno_encoding();
    let b32 = base32::Alphabet::Rfc4648Hex { padding: false };
    let b32_texts: Vec<String> = ids
        .iter()
        .map(|id| base32::encode(b32, id.as_bytes()))
        .collect();

    let mut g = c.benchmark_group("single");
    g.measurement_time(Duration::from_secs(2));
    let mut i = 0usize;
    let mut next = move || {
        i = (i + 1) & 1023;
        i
    };
    // The harness alone: fetch the input, hand back as many bytes as the operation does.
    g.bench_function(BenchmarkId::new("encode", "floor"), |b| {
        b.iter(|| *black_box(&ids[next()]).as_bytes())
    });
    g.bench_function(BenchmarkId::new("decode", "floor"), |b| {
        b.iter(|| <[u8; 10]>::try_from(&black_box(texts[next()])[..10]))
    });
    g.bench_function(BenchmarkId::new("encode", "public"), |b| {
        b.iter(|| black_box(&ids[next()]).encode_bytes())
    });
    g.bench_function(BenchmarkId::new("decode", "public"), |b| {
        b.iter(|| Id::decode(black_box(texts[next()])))
    });
    // One closure per backend with the backend a constant, so the selector's match folds away
    // and each row times the kernel as the public entry points call it: the scalar, SSE2 and
    // SSSE3 decode rows in the shape of `Id::decode` itself (whose `public` row adds the check
    // that picks SSE2 or SSSE3 by CPU vendor). The AVX2 and AVX-512 rows run a batch of one
    // (`decode_many`: masked or split loads and stores for one ID), which no single-ID entry
    // point uses.
    macro_rules! per_backend {
        ($($backend:ident),*) => {$(
            let backend = Backend::$backend;
            if backend.is_supported() {
                g.bench_function(BenchmarkId::new("encode", backend.name()), |b| {
                    b.iter(|| backends::encode(Backend::$backend, black_box(&ids[next()])).expect("supported"))
                });
                g.bench_function(BenchmarkId::new("decode", backend.name()), |b| {
                    b.iter(|| backends::decode_supported(Backend::$backend, black_box(texts[next()])))
                });
            }
        )*};
    }
    per_backend!(Scalar, Sse2, Ssse3, Avx2, Avx512Vbmi);
    g.bench_function(BenchmarkId::new("encode", PEER), |b| {
        let mut out = [0u8; ENCODED_LEN];
        b.iter(|| {
            peer.encode_mut(black_box(ids[next()].as_bytes()), &mut out);
            out
        })
    });
    g.bench_function(BenchmarkId::new("decode", PEER), |b| {
        let mut out = [0u8; 10];
        b.iter(|| peer.decode_mut(black_box(texts[next()]), &mut out).is_ok())
    });
    g.bench_function(BenchmarkId::new("encode", "base32"), |b| {
        b.iter(|| base32::encode(b32, black_box(ids[next()].as_bytes())))
    });
    g.bench_function(BenchmarkId::new("decode", "base32"), |b| {
        b.iter(|| base32::decode(b32, black_box(&b32_texts[next()])))
    });
    g.finish();
}

fn batch(c: &mut Criterion) {
    let peer = sno_encoding();
    for n in SIZES {
        let ids = sample_ids(n);
        let text = encoded(&ids);
        let mut out_text = vec![0u8; text.len()];
        let mut out_ids = vec![Id::ZERO; n];

        let mut g = c.benchmark_group("batch-encode");
        g.throughput(Throughput::Elements(n as u64));
        g.measurement_time(Duration::from_secs(if n > 100_000 { 4 } else { 2 }));
        if n > 100_000 {
            g.sample_size(20);
        }
        for backend in supported() {
            g.bench_with_input(BenchmarkId::new(backend.name(), n), &ids, |b, ids| {
                b.iter(|| backends::try_encode_many(backend, black_box(ids), &mut out_text))
            });
        }
        g.bench_with_input(BenchmarkId::new(PEER, n), &ids, |b, ids| {
            b.iter(|| {
                for (id, t) in black_box(ids).iter().zip(out_text.chunks_exact_mut(16)) {
                    peer.encode_mut(id.as_bytes(), t);
                }
            })
        });
        let raw: Vec<u8> = ids.iter().flat_map(|id| *id.as_bytes()).collect();
        if n >= 4 {
            g.bench_with_input(BenchmarkId::new(COPY, n), &raw, |b, raw| {
                b.iter(|| {
                    let steps = black_box(raw).as_chunks::<40>().0;
                    for (s, t) in steps.iter().zip(out_text.as_chunks_mut::<64>().0) {
                        t[..40].copy_from_slice(s);
                        t[40..].copy_from_slice(&s[..24]);
                    }
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group("batch-decode");
        g.throughput(Throughput::Elements(n as u64));
        g.measurement_time(Duration::from_secs(if n > 100_000 { 4 } else { 2 }));
        if n > 100_000 {
            g.sample_size(20);
        }
        for backend in supported() {
            g.bench_with_input(BenchmarkId::new(backend.name(), n), &text, |b, text| {
                b.iter(|| backends::try_decode_many(backend, black_box(text), &mut out_ids))
            });
        }
        g.bench_with_input(BenchmarkId::new(PEER, n), &text, |b, text| {
            let mut raw = vec![0u8; n * 10];
            b.iter(|| {
                for (t, id) in black_box(text)
                    .chunks_exact(16)
                    .zip(raw.chunks_exact_mut(10))
                {
                    if peer.decode_mut(t, id).is_err() {
                        return false;
                    }
                }
                true
            })
        });
        if n >= 4 {
            g.bench_with_input(BenchmarkId::new(COPY, n), &text, |b, text| {
                let mut raw = vec![0u8; n * 10];
                b.iter(|| {
                    let steps = black_box(text).as_chunks::<64>().0;
                    for (t, id) in steps.iter().zip(raw.as_chunks_mut::<40>().0) {
                        id.copy_from_slice(&t[..40]);
                    }
                })
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500));
    targets = single, batch
}

fn cell(ns: Option<f64>, per: usize, peer: Option<f64>) -> String {
    match (ns, peer) {
        (Some(ns), Some(p)) => format!("{:>7.2} ({:>5.1}×)", ns / per as f64, p / ns),
        (Some(ns), None) => format!("{:>7.2}        ", ns / per as f64),
        _ => format!("{:>15}", "n/a"),
    }
}

fn summary() {
    let names: Vec<&str> = supported().iter().map(|b| b.name()).collect();
    println!("\nns per ID (criterion median) and speed-up over {PEER} in this run:");
    print!("{:<20}", "single");
    for n in ["floor", "public"]
        .iter()
        .chain(&names)
        .chain(&[PEER, "base32"])
    {
        print!("{n:>16}");
    }
    println!();
    for op in ["encode", "decode"] {
        let peer = median_ns("single", op, PEER);
        print!("{op:<20}");
        for n in ["floor", "public"]
            .iter()
            .chain(&names)
            .chain(&[PEER, "base32"])
        {
            print!(" {}", cell(median_ns("single", op, n), 1, peer));
        }
        println!();
    }
    for op in ["batch-encode", "batch-decode"] {
        print!("{op:<20}");
        for n in names.iter().chain(&[PEER, COPY]) {
            print!("{n:>16}");
        }
        println!();
        for size in SIZES {
            let param = size.to_string();
            let peer = median_ns(op, PEER, &param);
            print!("{:<20}", format!("  n = {size}"));
            for n in names.iter().chain(&[PEER, COPY]) {
                print!(" {}", cell(median_ns(op, n, &param), size, peer));
            }
            println!();
        }
    }
    println!(
        "CPU: {}; the public entry points use: single encode {}, single decode {} (by vendor), batches {}",
        cpu(),
        Backend::single_encode().name(),
        Backend::single_decode().name(),
        Backend::batch().name()
    );
}

/// The CPU's model name and vendor as Linux reports them (`/proc/cpuinfo`), for the record.
fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(key, _)| key.trim() == name)
            .map(|(_, value)| value.trim().to_owned())
    };
    match (field("model name"), field("vendor_id")) {
        (Some(model), Some(vendor)) => format!("{model} ({vendor})"),
        (model, vendor) => model.or(vendor).unwrap_or_else(|| "unknown".to_owned()),
    }
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
