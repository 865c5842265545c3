//! The `sno` PostgreSQL extension: the binary `sno` type (the codec of `sno-core`, strict text
//! input, binary send and receive, btree and hash operator classes, casts, accessors) and a
//! generator for every format with a PostgreSQL column type. A backend's sno generator mints on
//! a partition leased by `sno-lease` from the same lease table and namespace as the
//! application's processes: docs/postgres.md has the design and its argument.
//!
//! One file per job: `id_type.rs` the `sno` type, `generate.rs` the generators, `lease.rs` the
//! backend's lease and its settings (`sno.lease_*`), `errors.rs` the SQLSTATE of every core and
//! lease error.

mod errors;
mod generate;
mod id_type;
mod lease;

::pgrx::pg_module_magic!();

/// Called once when the library is loaded into a backend: registers the `sno.*` settings.
#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    lease::register_settings();
}
