//! A lease on one partition: acquired from a store, renewed in the background, released on
//! close or drop.

use core::time::Duration;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, mpsc};
use std::thread::JoinHandle;
use std::time::Instant;

use sno_core::{Generator, GeneratorBuilder, SystemClock};

use crate::error::Error;
use crate::fence::{Fence, millis_after_unit, unit_of_millis};
use crate::generator::LeasedGenerator;
use crate::options::LeaseOptions;
use crate::shared::{FenceSlot, Seen, Shared, State};
use crate::shared_mint::SharedMint;
use crate::store::{Grant, Request, Store};
use crate::stores;

/// A partition leased from a store (PostgreSQL or Redis) for this process.
///
/// [`Lease::acquire`] takes a free partition of the namespace; a background thread renews it
/// every third of the TTL; [`close`](Lease::close) or drop releases it. If a renewal finds the
/// lease taken by another holder (it expired while the store or the network was down), the
/// thread leases a new partition and the generator continues on it. The generator never stamps
/// an ID outside the window its grant allows (see the [crate's safety argument](crate)).
///
/// ```no_run
/// use sno_lease::{Lease, LeaseOptions};
/// let lease = Lease::acquire("postgres://app@db/app", &LeaseOptions::new("orders"))?;
/// let ids = lease.generator()?;
/// let id = ids.next(0)?;
/// assert_eq!(id.partition(), lease.partition());
/// # Ok::<(), sno_lease::Error>(())
/// ```
#[derive(Debug)]
pub struct Lease {
    shared: Arc<Shared>,
    /// The renewal thread, and the channel on which it says it is done (taken by the first
    /// close).
    renewer: Mutex<Option<Renewer>>,
}

type Renewer = (JoinHandle<()>, mpsc::Receiver<()>);

impl Lease {
    /// Leases a free partition of `options`' namespace from the store at `url`
    /// (`postgres://…`, `postgresql://…`, `redis://…`, `redis+unix://…`), and starts renewing
    /// it. Returns once the grant can be used: when the partition's earlier holders stamped IDs
    /// up to a moment the local clock has not reached yet (a partition released a moment ago,
    /// or the first TTL of a Redis namespace), this waits for it, at most one TTL.
    ///
    /// Errors: [`Error::InvalidUrl`], [`Error::InvalidOptions`], [`Error::Unreachable`] (also
    /// when the store does not answer within the options' timeout),
    /// [`Error::AuthenticationFailed`], [`Error::NoFreePartition`], [`Error::Store`].
    pub fn acquire(url: &str, options: &LeaseOptions) -> Result<Lease, Error> {
        Lease::acquire_into(url, options, FenceSlot::Own(Fence::new()))
    }

    /// [`acquire`](Self::acquire) for a [`SharedMint`] in memory that processes share: the lease
    /// drives the mint's fence and partition, and every process that maps the mint mints under
    /// it with [`SharedMint::try_next`] (this lease has no [`generator`](Self::generator) of
    /// its own). [`close`](Self::close) (or drop) closes the mint, then releases past the
    /// highest unit any process admitted; a later `acquire_shared` drives it again. One lease
    /// drives a mint at a time: another while one does is [`Error::Unavailable`].
    ///
    /// ```no_run
    /// use sno_lease::{Lease, LeaseOptions, SharedMint};
    /// // PostgreSQL's extension keeps the mint in shared memory; a leaked box stands in here.
    /// let mint: &'static SharedMint = Box::leak(Box::new(SharedMint::new()?));
    /// let lease = Lease::acquire_shared("postgres://ids@db/ids", &LeaseOptions::new("orders"), mint)?;
    /// let id = mint.try_next(0)?; // in any process that maps the mint
    /// assert_eq!(id.partition(), lease.partition());
    /// # Ok::<(), sno_lease::Error>(())
    /// ```
    pub fn acquire_shared(
        url: &str,
        options: &LeaseOptions,
        mint: &'static SharedMint,
    ) -> Result<Lease, Error> {
        if mint.leased.swap(true, Ordering::AcqRel) {
            return Err(Error::Unavailable {
                detail: "this shared mint is driven by another lease (one lease at a time)",
            });
        }
        Lease::acquire_into(url, options, FenceSlot::Mint(mint)).inspect_err(|_| {
            mint.leased.store(false, Ordering::Release);
        })
    }

    /// [`acquire`](Self::acquire) driving `fence`.
    fn acquire_into(url: &str, options: &LeaseOptions, fence: FenceSlot) -> Result<Lease, Error> {
        options.validate()?;
        let mut store = stores::open(url)?;
        let holder = crate::status::holder_name(random());
        let span = u32::from(options.last - options.first) + 1;
        let start = options.first + (random() % u64::from(span)) as u16;
        let req = Request {
            options,
            holder: &holder,
            start,
        };
        let grant = store.acquire(&req, options.timeout)?;
        let shared = Arc::new(Shared {
            fence,
            options: options.clone(),
            store: store.description().to_owned(),
            holder,
            state: Mutex::new(State {
                grant,
                closed: false,
                last_error: None,
                version: 0,
            }),
            changed: Condvar::new(),
            generator: OnceLock::new(),
            seen: Seen::default(),
            pid: std::process::id(),
            renewals: AtomicU64::new(0),
            renewal_failures: AtomicU64::new(0),
        });
        {
            let mut state = shared.lock();
            install(&shared, &mut state, grant);
            shared.publish(&state);
        }
        let (done, finished) = mpsc::channel();
        let renewer = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("sno-lease".into())
                .spawn(move || {
                    renew_loop(&shared, store);
                    let _ = done.send(());
                })
                .map_err(|e| Error::Store {
                    detail: format!("cannot start the renewal thread: {e}"),
                })?
        };
        let lease = Lease {
            shared,
            renewer: Mutex::new(Some((renewer, finished))),
        };
        lease.wait_for_window();
        Ok(lease)
    }

    /// [`acquire`](Self::acquire) with the URL of `SNO_LEASE_URL` and the options of
    /// [`LeaseOptions::from_env`]; [`sno_core::Error::InvalidEnvironment`] when `SNO_LEASE_URL`
    /// is unset.
    pub fn from_env() -> Result<Lease, Error> {
        let url = crate::options::env_text("SNO_LEASE_URL")?.ok_or(Error::Id(
            sno_core::Error::InvalidEnvironment {
                variable: "SNO_LEASE_URL",
                reason: "not set: it names the store to lease from (postgres://… or redis://…)",
            },
        ))?;
        Lease::acquire(&url, &LeaseOptions::from_env()?)
    }

    /// Sleeps until the local clock reaches the start of the grant's window, for at most one
    /// TTL (plus a second for the clocks to disagree).
    fn wait_for_window(&self) {
        let from_ms = self.grant().ids_from_unix_ms;
        let deadline = Instant::now() + self.shared.options.ttl + Duration::from_secs(1);
        loop {
            let now_ms = SystemClock::precise_unix_ns() / 1_000_000;
            let now = Instant::now();
            if now_ms >= from_ms || now >= deadline {
                return;
            }
            let left = Duration::from_millis((from_ms - now_ms) as u64).min(deadline - now);
            std::thread::sleep(left.min(Duration::from_millis(250)));
        }
    }

    /// The generator of this lease: every ID it mints carries the leased partition, and none
    /// lies outside the grant's window. One lease drives one generator (a second call is
    /// [`Error::Unavailable`]); it follows the lease to a new partition if the lease is lost.
    ///
    /// ```no_run
    /// # let lease = sno_lease::Lease::acquire("redis://127.0.0.1/", &Default::default())?;
    /// let ids = lease.generator()?;
    /// assert!(lease.generator().is_err());
    /// # Ok::<(), sno_lease::Error>(())
    /// ```
    pub fn generator(&self) -> Result<LeasedGenerator, Error> {
        self.generator_with(Generator::builder())
    }

    /// [`generator`](Self::generator) with the builder's sequence bounds, maximum wait and
    /// observer (its clock must be the system clock; its partition is replaced by the lease's).
    /// In a `fork()` child of the process that acquired the lease: [`sno_core::Error::Forked`]
    /// (the partition is the parent's; lease anew in the child).
    pub fn generator_with(
        &self,
        builder: GeneratorBuilder<SystemClock>,
    ) -> Result<LeasedGenerator, Error> {
        if self.shared.forked() {
            // The partition is the parent's (and so is the lock): a child leases its own.
            return Err(Error::Id(sno_core::Error::Forked {
                partition: self.shared.partition(),
            }));
        }
        if self.shared.fence.mint().is_some() {
            return Err(Error::Unavailable {
                detail: "this lease drives a shared mint: mint with SharedMint::try_next",
            });
        }
        let state = self.shared.lock();
        if state.closed {
            return Err(Error::Unavailable {
                detail: "the lease is closed",
            });
        }
        if self.shared.generator.get().is_some() {
            return Err(Error::Unavailable {
                detail: "this lease already drives a generator (one lease, one generator)",
            });
        }
        let generator = Arc::new(builder.partition(state.grant.partition).build()?);
        // Set under the state lock, which every partition switch holds too.
        let _ = self.shared.generator.set(Arc::clone(&generator));
        drop(state);
        Ok(LeasedGenerator::new(Arc::clone(&self.shared), generator))
    }

    /// The current grant: partition, token, window and expiry (read under the lease's lock, so
    /// consistent; in a `fork()` child, from lock-free copies).
    pub fn grant(&self) -> Grant {
        if self.shared.forked() {
            return self.shared.seen_grant();
        }
        self.shared.lock().grant
    }

    /// The partition currently leased.
    pub fn partition(&self) -> u16 {
        self.grant().partition
    }

    /// The fencing token of the current grant: larger than every token granted before it in
    /// the namespace.
    pub fn token(&self) -> u64 {
        self.grant().token
    }

    /// When the store lets the current grant lapse unless it is renewed (Unix ms, the store's
    /// clock).
    pub fn expires_unix_ms(&self) -> i64 {
        self.grant().expires_unix_ms
    }

    /// The options the lease was acquired with.
    pub fn options(&self) -> &LeaseOptions {
        &self.shared.options
    }

    /// The holder name stored with the grant (`host/pid/program/random`: see [`Holding`](crate::Holding)).
    pub fn holder(&self) -> &str {
        &self.shared.holder
    }

    /// The store's address without any secret (`postgres://user@host:5432/db`,
    /// `redis://host:6379/0`).
    pub fn store(&self) -> &str {
        &self.shared.store
    }

    /// The last renewal error, until a renewal succeeds again (`None` once the lease is
    /// closed, and in a `fork()` child, where the parent renews).
    pub fn last_error(&self) -> Option<Error> {
        if self.shared.forked() || self.is_closed() {
            return None;
        }
        self.shared.lock().last_error.clone()
    }

    /// How many renewals the store granted so far (a new partition after a lost lease counts
    /// as none).
    pub fn renewals(&self) -> u64 {
        self.shared.renewals.load(Ordering::Relaxed)
    }

    /// How many renewals failed so far: the store unreachable or silent, an error, or the lease
    /// found lost ([`last_error`](Self::last_error) says the latest).
    pub fn renewal_failures(&self) -> u64 {
        self.shared.renewal_failures.load(Ordering::Relaxed)
    }

    /// How long until the current grant lapses unless it is renewed, by this machine's clock
    /// against the store's expiry (zero once past, and once the lease is closed: its grant is
    /// released).
    ///
    /// ```no_run
    /// # let lease = sno_lease::Lease::acquire("redis://127.0.0.1/", &Default::default())?;
    /// println!("{} renewals, {} failed, expires in {:?}",
    ///     lease.renewals(), lease.renewal_failures(), lease.expires_in());
    /// # Ok::<(), sno_lease::Error>(())
    /// ```
    pub fn expires_in(&self) -> Duration {
        if self.is_closed() {
            return Duration::ZERO;
        }
        let now_ms = SystemClock::precise_unix_ns() / 1_000_000;
        Duration::from_millis(u64::try_from(self.expires_unix_ms() - now_ms).unwrap_or(0))
    }

    /// Whether the lease was closed.
    pub fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }

    /// Stops renewing and releases the partition in the store. The generator refuses from now
    /// on with [`sno_core::Error::LeaseExpired`]. The release tells the store where this
    /// holder's IDs end, so the partition can be granted again at once, for IDs after those
    /// (the argument: `src/fence.rs`, "Releasing"); a process that crashes instead frees its
    /// partition one TTL later. Returns within the options' timeout: if the store is slow, the
    /// release goes on in the background (bounded by the same timeout), and if it cannot be
    /// reached the grant simply expires. Idempotent; it takes `&self`, so a lease that other
    /// threads read meanwhile (the process-wide lease, a binding's lease object) closes where
    /// it is shared, and a second call while the first releases returns at once.
    pub fn close(&self) {
        let renewer = self
            .renewer
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if self.shared.forked() {
            // A fork() child's copy: the renewal thread and the connection are the parent's, and
            // so may be the lock. Only this process's view is marked closed (`is_closed`,
            // `expires_in`), lock-free; the parent's lease is untouched.
            self.shared.close_in_fork_child();
            if let Some(renewer) = renewer {
                core::mem::forget(renewer);
            }
            return;
        }
        {
            let mut state = self.shared.lock();
            if !state.closed {
                state.closed = true;
                state.version += 1;
                // Published before the fence closes: a minting thread refused by the closed
                // fence synchronises with the fence's epoch store, so it then reads
                // `is_closed() == true` (a loop that stops on a refusal once closed relies on
                // it; `sno-lease/tests/faults.rs`).
                self.shared.publish(&state);
                self.shared.fence.close();
                if let Some(mint) = self.shared.fence.mint() {
                    mint.leased.store(false, Ordering::Release);
                }
            }
        }
        self.shared.changed.notify_all();
        if let Some((handle, finished)) = renewer {
            // The thread may be inside a renewal, then releases: wait for it within the timeout,
            // else let it finish on its own (both its calls are bounded).
            if finished.recv_timeout(self.shared.options.timeout).is_ok() {
                let _ = handle.join();
            }
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.close();
    }
}

/// A newer grant of this holder, whose window the generator takes at `switch_at_ms` (Unix ms,
/// the local clock that stamps IDs). The grant the generator mints under was lost (the store
/// restarted or failed over, or let it expire and granted the partition to another holder),
/// but its window stays this holder's alone: every later grant of that partition starts its
/// window after it (`src/fence.rs`, the claim), and so does every grant of a new epoch after a
/// restart or failover. So the generator keeps minting in it until it ends or the new window
/// opens, whichever comes first, instead of waiting for the new window from the moment of the
/// loss (after a restart that is one TTL: longer than a `next` waits by default).
#[derive(Clone, Copy)]
struct Pending {
    grant: Grant,
    switch_at_ms: i64,
}

/// The local clock in Unix milliseconds: the clock the fence's windows are compared with.
fn wall_ms() -> i64 {
    SystemClock::precise_unix_ns() / 1_000_000
}

/// Makes `grant` the one the generator mints under: its window and partition, in one switch.
fn install(shared: &Shared, state: &mut State, grant: Grant) {
    shared.fence.switch(
        unit_of_millis(grant.ids_from_unix_ms),
        unit_of_millis(grant.ids_before_unix_ms),
        || {
            if let Some(g) = shared.generator.get() {
                g.repartition(grant.partition);
            }
            if let Some(mint) = shared.fence.mint() {
                mint.generator.repartition(grant.partition);
            }
        },
    );
    state.grant = grant;
}

/// The renewal thread: renews every third of the TTL; on a lost lease, leases a new
/// partition and switches the generator to it (at once, or when the lost grant's window ends:
/// [`Pending`]); on close, releases.
fn renew_loop(shared: &Shared, mut store: Box<dyn Store>) {
    let options = &shared.options;
    let retry = (options.ttl / 10).clamp(Duration::from_millis(100), Duration::from_secs(1));
    let mut next = Instant::now() + options.renew_every();
    let mut pending: Option<Pending> = None;
    loop {
        let grant = {
            let mut state = shared.lock();
            loop {
                if state.closed {
                    // The grant the store holds for this holder: the pending one, if any.
                    let grant = pending.map_or(state.grant, |p| p.grant);
                    drop(state);
                    // Read after the close (which happened before this thread took the lock):
                    // no ID past this unit was ever returned (fence.rs, "Releasing").
                    let ids_end = millis_after_unit(shared.fence.high());
                    let req = request(shared, grant.partition);
                    let _ = store.release(&grant, &req, ids_end, options.timeout);
                    return;
                }
                if let Some(p) = pending
                    && wall_ms() >= p.switch_at_ms
                {
                    pending = None;
                    install(shared, &mut state, p.grant);
                    state.version += 1;
                    shared.publish(&state);
                    shared.changed.notify_all();
                    continue;
                }
                let now = Instant::now();
                if now >= next {
                    break;
                }
                let mut wait = next - now;
                if let Some(p) = pending {
                    let left = u64::try_from(p.switch_at_ms - wall_ms()).unwrap_or(0);
                    wait = wait.min(Duration::from_millis(left));
                }
                state = shared
                    .changed
                    .wait_timeout(state, wait)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            pending.map_or(state.grant, |p| p.grant)
        };
        let sent = Instant::now();
        let req = request(shared, grant.partition);
        let renewed = store.renew(&grant, &req, options.renew_timeout());
        let counter = match renewed {
            Ok(_) => &shared.renewals,
            Err(_) => &shared.renewal_failures,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        let outcome = match renewed {
            Err(Error::Lost { .. }) => {
                // The window we mint in stays ours (the next holder's starts after it); lease
                // anew.
                let req = request(shared, random_start(options));
                store
                    .acquire(&req, options.renew_timeout())
                    .map(|g| (g, true))
            }
            other => other.map(|g| (g, false)),
        };
        let mut state = shared.lock();
        match outcome {
            Ok((fresh, switched)) if !state.closed => {
                if switched {
                    let now = wall_ms();
                    let minting_ends = state.grant.ids_before_unix_ms;
                    if fresh.ids_from_unix_ms <= now || minting_ends <= now {
                        pending = None;
                        install(shared, &mut state, fresh);
                    } else {
                        pending = Some(Pending {
                            grant: fresh,
                            switch_at_ms: minting_ends.min(fresh.ids_from_unix_ms),
                        });
                    }
                } else if let Some(p) = pending.as_mut() {
                    // A renewal of the pending grant: its window as the switch will install it.
                    p.grant = fresh;
                } else {
                    shared
                        .fence
                        .extend(unit_of_millis(fresh.ids_before_unix_ms));
                    state.grant = fresh;
                }
                state.last_error = None;
                next = sent + options.renew_every();
            }
            Ok((fresh, _)) => {
                // Closed while the call ran: release what we just got.
                match pending.as_mut() {
                    Some(p) => p.grant = fresh,
                    None => state.grant = fresh,
                }
                next = Instant::now();
            }
            Err(e) => {
                state.last_error = Some(e);
                next = Instant::now() + retry;
            }
        }
        state.version += 1;
        shared.publish(&state);
        drop(state);
        shared.changed.notify_all();
    }
}

fn request(shared: &Shared, start: u16) -> Request<'_> {
    Request {
        options: &shared.options,
        holder: &shared.holder,
        start,
    }
}

fn random_start(options: &LeaseOptions) -> u16 {
    let span = u32::from(options.last - options.first) + 1;
    options.first + (random() % u64::from(span)) as u16
}

/// 64 bits seeded by the standard library from the operating system (no panic path).
fn random() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    h.finish()
}
