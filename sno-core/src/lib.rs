//! # sno-core
//!
//! Compact, sortable, unique IDs in the **sno** format: 10 bytes (a 39-bit timestamp in 4 ms units
//! since 2010-01-01 plus a tick-tock bit, a meta byte, a 2-byte partition and a 2-byte sequence),
//! written canonically as 16 characters over `23456789abcdefghijklmnopqrstuvwx`. Both forms sort in
//! time order.
//!
//! ```
//! # #[cfg(feature = "std")] {
//! let id = sno_core::new(7);
//! let text = id.to_string();
//! assert_eq!(text.len(), 16);
//! let back: sno_core::Id = text.parse().unwrap();
//! assert_eq!(back, id);
//! assert_eq!(back.meta(), 7);
//! # }
//! ```
//!
//! The crate is always `#![no_std]`; features:
//! * `std` (default): the system clock, the global generator ([`new`]), blocking
//!   [`Generator::next`], OS-seeded default partitions and fork safety;
//! * `alloc`: overflow observers;
//! * `serde`: a string in human-readable formats, the 10 raw bytes otherwise;
//! * `simd` (default): SSSE3 / AVX2 / AVX-512 VBMI codec kernels on x86_64, picked at run time
//!   (CPUID once, no std needed) or at compile time when `target-feature`s guarantee them;
//! * `postgres-types`: `ToSql`/`FromSql` of the `postgres-types` crate (for `postgres` and
//!   `tokio-postgres`) on every ID type, stored as [`Format::column_type`] says (see `sql`);
//! * `sqlx-postgres`, `sqlx-sqlite`, or `sqlx` for both: sqlx 0.8's `Type`/`Encode`/`Decode`
//!   for PostgreSQL and SQLite (two features, so that a PostgreSQL user compiles no SQLite);
//! * `rusqlite`: `ToSql`/`FromSql` of rusqlite 0.32 to 0.43 (the module `sql` has the
//!   details of the database features, which imply `std`);
//! * `uuid`: conversions between `uuid::Uuid` and the formats stored as UUIDs (ULID, UUIDv7,
//!   SCRU128, TypeID); no_std like the rest;
//! * `web`: the JavaScript host of a `wasm32-unknown-unknown` build without `std` (the web
//!   build, bindings/web): `HostClock` (`Date.now()`), [`ThreadRng`](rng::ThreadRng) over
//!   `crypto.getRandomValues`, default partitions from it, [`GeneratorSettings`] and the
//!   [`wait`] policy, all imported from the module `sno`; inert on other targets.
//!
//! ```
//! # #[cfg(feature = "uuid")] {
//! use sno_core::{typeid::TypeId, ulid::Ulid, uuid7::Uuid7};
//! let ulid: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse()?;
//! assert_eq!(Ulid::from(uuid::Uuid::from(ulid)), ulid);
//! let v4 = uuid::Uuid::from_u128(0x550e8400_e29b_41d4_a716_446655440000);
//! assert!(Uuid7::try_from(v4).is_err()); // UUIDv7 checks the version
//! let typeid = TypeId::from(v4).with_prefix("user")?; // a Uuid has no prefix
//! assert_eq!(uuid::Uuid::from(typeid), v4);
//! # }
//! # Ok::<(), sno_core::Error>(())
//! ```
//!
//! Beside sno, the crate speaks the 128-bit formats [`ulid`], [`uuid7`] (RFC 9562) and
//! [`scru128`], the 160-bit [`scru160`] and [`ksuid`] (KSUID: seconds since 2014 and a
//! 128-bit payload, 27 base62 characters), and the 64-bit [`nanoflake`] (Nanoflakes) and
//! [`ulidflake`] (Ulid-Flake): value types, strict codecs, serde, and monotonic generators with
//! an injected clock and RNG ([`rng`], [`monotonic`]). [`typeid`] (TypeID, spec v0.3) puts a
//! type prefix before a UUID in lower-case Crockford base32 (`user_01h455vb4pex5vsknk084sn02q`),
//! generated as a UUIDv7. Every format implements [`IdFormat`] and is listed in [`Format`];
//! [`AnyId`] holds a value of any of them.
//!
//! Decoding is **strict**: exactly 16 bytes, every byte in the alphabet, otherwise an [`Error`] that
//! names the byte and its position (the Go original decodes any 16 bytes into garbage).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The `web` feature is the JavaScript host of wasm32-unknown-unknown: without `std`, nothing
// else can provide its clock and randomness.
#[cfg(all(
    feature = "web",
    not(feature = "std"),
    not(all(target_family = "wasm", target_os = "unknown"))
))]
compile_error!("sno-core's `web` feature is for wasm32-unknown-unknown (a JavaScript host)");

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod alphabet;
mod any;
#[cfg(feature = "std")]
mod any_generator;
mod batch;
mod bytes;
pub mod clock;
mod describe;
#[cfg(any(feature = "std", feature = "web"))]
mod entropy;
mod error;
mod error_details;
#[cfg(feature = "std")]
mod fast_time;
#[cfg(feature = "std")]
mod fork;
mod format;
mod id_macros;
pub mod js;
pub mod ksuid;
mod millis_block;
pub mod model;
pub mod monotonic;
pub mod nanoflake;
#[cfg(any(feature = "std", feature = "web"))]
mod partition;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod platform;
mod radix;
pub mod rng;
pub mod scru128;
pub mod scru160;
#[cfg(feature = "serde")]
mod serde;
#[cfg(any(feature = "std", feature = "web"))]
mod settings;
mod sno;
#[cfg(any(
    feature = "postgres-types",
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "rusqlite"
))]
pub mod sql;
#[cfg(target_has_atomic = "64")]
mod sync;
#[cfg(target_has_atomic = "64")]
mod thread_block;
pub mod time;
pub mod typeid;
pub mod ulid;
pub mod ulidflake;
pub mod uuid7;
#[cfg(feature = "uuid")]
mod uuid_interop;
#[cfg(any(feature = "std", feature = "web"))]
pub mod wait;
#[cfg(all(
    any(feature = "std", feature = "web"),
    target_family = "wasm",
    target_os = "unknown"
))]
mod wasm_host;

#[doc(hidden)]
pub use sno::codec::backends as __backends;

pub use any::AnyId;
#[cfg(feature = "std")]
pub use any_generator::AnyGenerator;
pub use batch::{MAX_BATCH, batch_len};
#[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
pub use clock::HostClock;
#[cfg(feature = "std")]
pub use clock::SystemClock;
pub use clock::{Clock, ClockKind, MillisClock};
#[cfg(target_has_atomic = "64")]
pub use clock::{LeasedClock, ManualClock};
pub use error::{Error, ErrorKind, JsClass};
pub use error_details::{Detail, DetailValue, Details};
pub use format::{ColumnType, Epoch, Format, FormatSet, Setting};
#[cfg(any(feature = "std", feature = "web"))]
pub use settings::{GeneratorSettings, HasGenerator};
// Through the public `generator` module, and shown as links to it (not copied here).
pub use describe::{About, FieldInput, FieldKind, FieldSpec, Unit};
#[cfg(all(target_has_atomic = "64", feature = "alloc"))]
#[doc(no_inline)]
pub use generator::OverflowObserver;
#[cfg(target_has_atomic = "64")]
#[doc(no_inline)]
pub use generator::{
    Generator, GeneratorBuilder, Overflow, Snapshot, SnapshotField, Stats, StatsField,
};
#[cfg(feature = "std")]
pub use model::ProcessWide;
pub use model::{Field, FieldValue, Fields, FromFields, IdFormat, Text};
#[cfg(feature = "std")]
pub use partition::partition_from_env;
#[cfg(target_has_atomic = "64")]
pub use sno::generator;
#[cfg(feature = "std")]
pub use sno::global::{global_generator, new, try_global_generator, try_new};
pub use sno::id::{BINARY_LEN, ENCODED_LEN, Id};

/// The README's Rust examples, compiled and run as doc tests so they stay true.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

/// The Rust examples of docs/formats.md, compiled and run as doc tests so they stay true.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../../docs/formats.md")]
struct FormatsDocDoctests;

/// The crate's own README (its crates.io page), compiled and run as a doc test.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
