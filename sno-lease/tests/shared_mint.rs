//! A lease driving a mint in memory that processes share (issue #43: PostgreSQL's extension
//! keeps one in shared memory, held by its background worker, minted from by every backend):
//! forked processes mint under one lease across its renewals, with no duplicate and inside its
//! grant; closing refuses every process and releases past the highest ID any of them minted.

#![cfg(unix)]

mod support;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sno_core::{Error as IdError, Id};
use sno_lease::{Error, Lease, LeaseOptions, SharedMint};
use support::{BOTH, Server, serial};

const CHILDREN: usize = 4;
const PER_PROCESS: usize = 20_000;

/// The mapping: the mint, then one slot per ID of every process (the parent's last).
struct Mapping {
    mint: SharedMint,
    ids: [AtomicU64; (CHILDREN + 1) * PER_PROCESS * 2],
}

/// A mint in a fresh anonymous shared mapping, made before the fork as PostgreSQL's postmaster
/// makes its shared memory; never unmapped (the test's processes end with it).
fn shared_mapping() -> &'static Mapping {
    let size = core::mem::size_of::<Mapping>();
    // SAFETY: a fresh anonymous shared mapping of `size` bytes, zeroed by the kernel.
    let base = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(base, libc::MAP_FAILED);
    let mapping = base.cast::<Mapping>();
    // SAFETY: page-aligned, large enough; the ids are zeroed atomics already; the mint is
    // written once, before anyone reads it, and never moved.
    unsafe {
        (&raw mut (*mapping).mint).write(SharedMint::new().expect("a mint"));
        &*mapping
    }
}

/// Mints `PER_PROCESS` IDs into `slots`, over about three seconds (past a 2 s TTL's renewals),
/// waiting out refusals that pass (a used-up unit, a renewal late).
fn mint_into(mint: &SharedMint, slots: &[AtomicU64]) -> Result<(), IdError> {
    let started = Instant::now();
    for i in 0..PER_PROCESS {
        let id = loop {
            match mint.try_next(0) {
                Ok(id) => break id,
                Err(IdError::SequenceExhausted { .. } | IdError::LeasePending { .. })
                | Err(IdError::LeaseExpired { .. })
                    if started.elapsed() < Duration::from_secs(20) =>
                {
                    std::thread::sleep(Duration::from_micros(200));
                }
                Err(e) => return Err(e),
            }
        };
        let mut wide = [0u8; 16];
        wide[6..].copy_from_slice(id.as_bytes());
        let wide = u128::from_be_bytes(wide);
        slots[2 * i].store((wide >> 64) as u64, Ordering::Relaxed);
        slots[2 * i + 1].store(wide as u64 | 1 << 63, Ordering::Release);
        if i % 1000 == 999 {
            std::thread::sleep(Duration::from_millis(150));
        }
    }
    Ok(())
}

#[test]
fn processes_mint_under_one_lease_in_shared_memory() {
    let _serial = serial();
    for kind in BOTH {
        let server = Server::start(kind);
        let opts = LeaseOptions::new("shared-mint").ttl(Duration::from_secs(2));
        let mapping = shared_mapping();
        let mint = &mapping.mint;
        assert!(matches!(
            mint.try_next(0),
            Err(IdError::LeaseExpired { .. })
        ));
        let lease = Lease::acquire_shared(&server.url, &opts, mint).unwrap();
        assert!(mint.is_leased());
        assert!(matches!(lease.generator(), Err(Error::Unavailable { .. })));
        assert!(matches!(
            Lease::acquire_shared(&server.url, &opts, mint),
            Err(Error::Unavailable { .. })
        ));
        let slots = |p: usize| &mapping.ids[p * PER_PROCESS * 2..(p + 1) * PER_PROCESS * 2];
        let mut children = Vec::new();
        for c in 0..CHILDREN {
            // SAFETY: the child only mints into the shared mapping (no allocation, no lock: the
            // reservation is a const thread-local) and leaves with _exit.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0);
            if pid == 0 {
                let code = i32::from(mint_into(mint, slots(c)).is_err());
                // SAFETY: ends the child without the parent's exit handlers or destructors.
                unsafe { libc::_exit(code) };
            }
            children.push(pid);
        }
        mint_into(mint, slots(CHILDREN)).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        for pid in children {
            let mut status = 0;
            // SAFETY: waits for a child forked above.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            assert!(
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                "{kind:?}: a child could not mint"
            );
        }
        let grant = lease.grant();
        assert!(lease.renewals() > 0, "{kind:?}: minted across renewals");
        let mut ids: Vec<Id> = mapping
            .ids
            .chunks(2)
            .map(|w| {
                let wide = u128::from(w[0].load(Ordering::Acquire)) << 64
                    | u128::from(w[1].load(Ordering::Acquire) & !(1 << 63));
                let bytes: [u8; 10] = wide.to_be_bytes()[6..].try_into().unwrap();
                Id::from_bytes(bytes)
            })
            .collect();
        assert_eq!(ids.len(), (CHILDREN + 1) * PER_PROCESS);
        ids.sort_unstable();
        assert!(
            ids.windows(2).all(|p| p[0] != p[1]),
            "{kind:?}: a duplicate"
        );
        assert!(ids.iter().all(|id| id.partition() == grant.partition));
        let highest = *ids.last().unwrap();
        assert!(highest.unix_ms() < grant.ids_before_unix_ms);
        // Closing refuses every process, then releases past the highest ID any of them minted.
        lease.close();
        assert!(!mint.is_leased());
        assert!(matches!(
            mint.try_next(0),
            Err(IdError::LeaseExpired { .. })
        ));
        let next = Lease::acquire(
            &server.url,
            &opts.clone().partitions(grant.partition..=grant.partition),
        )
        .unwrap();
        assert!(
            next.grant().ids_from_unix_ms > highest.unix_ms(),
            "{kind:?}: the next holder starts after every process's IDs"
        );
        drop(next);
        // A later lease drives the mint again.
        let again = Lease::acquire_shared(&server.url, &opts, mint).unwrap();
        let id = mint.try_next(0).unwrap();
        assert_eq!(id.partition(), again.partition());
        assert!(id > highest || id.partition() != highest.partition());
    }
}
