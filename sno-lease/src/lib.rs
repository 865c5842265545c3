//! Fleet-unique sno partitions: leases from PostgreSQL or Redis, and generators that fence
//! themselves to their lease.
//!
//! A sno ID is unique per partition. Two processes that share a partition repeat each other's
//! IDs whenever both mint in one 4 ms unit, and random partitions collide across a fleet (1 %
//! for 37 processes, 50 % for 300). This crate hands each process a partition of its own from a
//! store the fleet already runs:
//!
//! - [`Lease::acquire`] takes a free partition of a namespace (a range of partitions) from
//!   PostgreSQL (`postgres://…`, the table is created on first use) or Redis (`redis://…`),
//!   with a TTL and a fencing token that only grows; a background thread renews it every third
//!   of the TTL and [`Lease::close`] (or drop) releases it.
//! - [`Lease::generator`] gives the [`LeasedGenerator`]: it stamps only IDs inside the window
//!   of time that its grant owns, so it never repeats another holder's IDs, whatever the
//!   clocks, the network or the store do. The argument, with its assumptions, is written
//!   next to the code in `src/fence.rs` and summarised in `docs/fleet.md`.
//! - [`process_generator`] / [`try_new`]: the process-wide generator, configured by
//!   `SNO_PARTITION` or `SNO_LEASE_URL` (+ `SNO_LEASE_NAMESPACE`, `SNO_LEASE_TTL`,
//!   `SNO_LEASE_PARTITIONS`) with no code at all; the C, Python and Node libraries use it.
//! - [`SnoGenerator`]: a plain or a leased generator behind one surface, with what a leased one
//!   refuses ([`sno_core::Error::LeasedGenerator`]), and [`Mint`], what a caller's own wait
//!   loop needs of any of them; the C, Python and Node `Generator`s wrap it.
//!
//! ```no_run
//! use core::time::Duration;
//! use sno_lease::{Lease, LeaseOptions};
//!
//! let options = LeaseOptions::new("orders").ttl(Duration::from_secs(15));
//! let lease = Lease::acquire("postgres://app@db.internal/app", &options)?;
//! let ids = lease.generator()?;
//! let id = ids.next(0)?;
//! println!("{id} on partition {} (token {})", lease.partition(), lease.token());
//! # Ok::<(), sno_lease::Error>(())
//! ```
//!
//! Features: `postgres` and `redis` (both on by default) choose the stores compiled in.

#[cfg(any(feature = "postgres", feature = "redis"))]
mod address;
mod error;
mod fence;
mod generator;
mod lease;
mod mint;
mod options;
mod process;
mod shared;
mod shared_mint;
mod sno_generator;
mod status;
mod store;
mod stores;

#[cfg(feature = "postgres")]
mod pg_tls;
#[cfg(feature = "postgres")]
mod pg_url;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "redis")]
mod redis;
#[cfg(any(feature = "postgres", feature = "redis"))]
mod tls;

pub use error::Error;
pub use generator::LeasedGenerator;
pub use lease::Lease;
pub use mint::Mint;
pub use options::{DEFAULT_TTL, LeaseOptions, MAX_NAMESPACE_LEN, MAX_TTL, MIN_TTL, parse_duration};
pub use process::{
    ProcessGenerator, check_explicit_partition, process_generator, release_process_lease, try_new,
};
pub use shared_mint::SharedMint;
pub use sno_generator::SnoGenerator;
pub use status::{NamespaceStatus, status};
pub use store::{Grant, Holding};

/// The Rust examples of `docs/fleet.md`, compiled as doc tests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/fleet.md")]
struct FleetDoctests;

/// The crate's own README (its crates.io page), compiled as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
