//! What a lease, its renewal thread and its generator share: the fence, the grant under a lock,
//! and lock-free copies of it for the generator's error paths and a `fork()` child.

use core::time::Duration;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

use sno_core::{Generator, SystemClock};

use crate::error::Error;
use crate::fence::Fence;
use crate::options::LeaseOptions;
use crate::shared_mint::SharedMint;
use crate::store::Grant;

/// What the lease, its renewal thread and its generator share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) fence: FenceSlot,
    pub(crate) options: LeaseOptions,
    pub(crate) holder: String,
    /// The store's address without any secret.
    pub(crate) store: String,
    pub(crate) state: Mutex<State>,
    pub(crate) changed: Condvar,
    pub(crate) generator: OnceLock<Arc<Generator<SystemClock>>>,
    /// Lock-free copies of the grant and of `closed`, written under the lock: the generator's
    /// error paths read them, and so does a `fork()` child, which must never take the mutex
    /// (the parent's renewal thread may have held it at the moment of the fork).
    pub(crate) seen: Seen,
    /// The process that acquired the lease.
    pub(crate) pid: u32,
    /// Renewals that the store granted, and those that failed (unreachable, refused, lost):
    /// for operators ([`Lease::renewals`](crate::Lease::renewals)).
    pub(crate) renewals: AtomicU64,
    pub(crate) renewal_failures: AtomicU64,
}

/// The fence a lease drives: its own (its generator lives in this process), or that of a mint
/// in memory processes share ([`SharedMint`]), whose generator it repartitions on a switch.
#[derive(Debug)]
pub(crate) enum FenceSlot {
    Own(Fence),
    Mint(&'static SharedMint),
}

impl core::ops::Deref for FenceSlot {
    type Target = Fence;

    fn deref(&self) -> &Fence {
        match self {
            FenceSlot::Own(fence) => fence,
            FenceSlot::Mint(mint) => &mint.fence,
        }
    }
}

impl FenceSlot {
    /// The shared mint, when the lease drives one.
    pub(crate) fn mint(&self) -> Option<&'static SharedMint> {
        match self {
            FenceSlot::Own(_) => None,
            FenceSlot::Mint(mint) => Some(mint),
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Seen {
    partition: AtomicU32,
    token: AtomicU64,
    ids_from: AtomicI64,
    ids_before: AtomicI64,
    expires: AtomicI64,
    closed: AtomicBool,
    version: AtomicU64,
}

#[derive(Debug)]
pub(crate) struct State {
    pub(crate) grant: Grant,
    pub(crate) closed: bool,
    pub(crate) last_error: Option<Error>,
    /// Bumped by every renewal, switch and close: what waiting callers watch.
    pub(crate) version: u64,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // The state holds plain values: a panic elsewhere cannot leave it half-written.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits (at most `at_most`) for the lease to change: a renewal, a new partition or a close.
    pub(crate) fn wait_for_change(&self, at_most: Duration) {
        self.wait_for_change_since(self.version(), at_most);
    }

    /// Waits (at most `at_most`) until the change count differs from `seen`.
    pub(crate) fn wait_for_change_since(&self, seen: u64, at_most: Duration) {
        if self.forked() {
            // No renewal comes in a fork() child, and the lock is the parent's.
            std::thread::sleep(at_most);
            return;
        }
        let state = self.lock();
        let _ = self
            .changed
            .wait_timeout_while(state, at_most, |s| s.version == seen);
    }

    /// Whether this is a `fork()` child's copy of the lease.
    pub(crate) fn forked(&self) -> bool {
        std::process::id() != self.pid
    }

    /// Copies the grant and `closed` for lock-free readers; called with the lock held.
    pub(crate) fn publish(&self, state: &State) {
        let g = &state.grant;
        self.seen
            .partition
            .store(u32::from(g.partition), Ordering::Relaxed);
        self.seen.token.store(g.token, Ordering::Relaxed);
        self.seen
            .ids_from
            .store(g.ids_from_unix_ms, Ordering::Relaxed);
        self.seen
            .ids_before
            .store(g.ids_before_unix_ms, Ordering::Relaxed);
        self.seen
            .expires
            .store(g.expires_unix_ms, Ordering::Relaxed);
        self.seen.closed.store(state.closed, Ordering::Release);
        self.seen.version.store(state.version, Ordering::Release);
    }

    /// The change count (renewals, switches, close), lock-free: taken before a call that may
    /// fail, it lets [`wait_for_change_since`](Self::wait_for_change_since) miss no change.
    pub(crate) fn version(&self) -> u64 {
        self.seen.version.load(Ordering::Acquire)
    }

    pub(crate) fn seen_grant(&self) -> Grant {
        Grant {
            partition: self.partition(),
            token: self.token(),
            ids_from_unix_ms: self.seen.ids_from.load(Ordering::Relaxed),
            ids_before_unix_ms: self.seen.ids_before.load(Ordering::Relaxed),
            expires_unix_ms: self.seen.expires.load(Ordering::Relaxed),
        }
    }

    /// The current partition (lock-free).
    pub(crate) fn partition(&self) -> u16 {
        self.seen.partition.load(Ordering::Relaxed) as u16
    }

    /// Whether the lease was closed (lock-free).
    pub(crate) fn is_closed(&self) -> bool {
        self.seen.closed.load(Ordering::Acquire)
    }

    /// Marks a `fork()` child's copy closed for this process's readers, without the lock (the
    /// parent's: a thread of the parent may have held it at the fork).
    pub(crate) fn close_in_fork_child(&self) {
        self.seen.closed.store(true, Ordering::Release);
    }

    /// The current token (lock-free).
    pub(crate) fn token(&self) -> u64 {
        self.seen.token.load(Ordering::Relaxed)
    }
}
