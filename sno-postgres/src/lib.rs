//! The `sno` PostgreSQL extension: the binary `sno` type (the codec of `sno-core`, strict text
//! input, binary send and receive, btree and hash operator classes, casts, accessors) and a
//! generator for every format with a PostgreSQL column type. `sno_new()` mints on a partition
//! leased by `sno-lease` from the same lease table and namespace as the application's
//! processes: preloaded (`shared_preload_libraries = 'sno'`), one lease for the whole server,
//! held by a background worker, every backend minting from shared memory. docs/postgres.md has
//! the design and its argument.
//!
//! One file per job: `id_type.rs` the `sno` type, `generate.rs` the generators, `mint.rs`
//! `sno_new()` in each mode, `settings.rs` the `sno.*` settings and the modes, `server.rs` the
//! shared memory and the backends' minting, `worker.rs` the background worker, `lease.rs` a
//! backend's own lease (the opt-in backend mode), `status.rs` what operators read, `errors.rs`
//! the SQLSTATE of every core and lease error.

mod errors;
mod generate;
mod id_type;
mod lease;
mod mint;
mod server;
mod settings;
mod status;
mod worker;

::pgrx::pg_module_magic!();

/// Called once when the library is loaded: registers the `sno.*` settings; loaded by
/// `shared_preload_libraries`, also asks for the shared memory and registers the worker.
#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    // SAFETY: a plain read of PostgreSQL's flag, set while the postmaster loads the preloads.
    let preloaded = unsafe { pgrx::pg_sys::process_shared_preload_libraries_in_progress };
    settings::register(preloaded);
    if preloaded {
        server::init();
        worker::register();
    }
}
