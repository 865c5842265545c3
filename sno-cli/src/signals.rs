//! The `sno` binary's signals (an application owns its signals; the libraries leave them to
//! theirs). Ctrl-C (`SIGINT`), `SIGTERM` and `SIGHUP` release the process lease (a partition
//! leased through `SNO_LEASE_URL`), so that the next process can take it at once instead of one
//! TTL later, then end the process as the signal would have: the shell sees the signal
//! (`128 + n`, `WIFSIGNALED`). `SIGPIPE` is left as it is (ignored by Rust's runtime: a closed
//! pipe ends the command quietly with status 1).
//!
//! Unix: the three signals are blocked in the main thread before any other thread exists (every
//! thread started later, the lease's among them, inherits the mask), and a thread of their own
//! waits for them with `sigwait`: the release runs on an ordinary thread, never in a signal
//! handler. A signal the process was started with ignored (`nohup` ignores `SIGHUP`, a shell
//! starts background jobs with `SIGINT` ignored) stays ignored. Once the first signal is taken,
//! a second one ends the process at once (its default action), release or not.
//!
//! Windows: a console control handler (`SetConsoleCtrlHandler`; Ctrl-C, Ctrl-Break, the
//! console closed), which Windows runs on a thread of its own; it releases, then lets the
//! default handler end the process (`STATUS_CONTROL_C_EXIT`).

use std::sync::Mutex;

/// Taken by whichever ends the process first: the thread that handles a signal, or `main` when
/// the command is over ([`command_done`]). Neither lets it go, so the other never starts
/// ending the process a second way (a signal's death against an exit status).
static ENDING: Mutex<()> = Mutex::new(());

/// Starts watching the signals. Call it first thing in `main`, before any other thread exists.
pub(crate) fn release_on_signals() {
    watch();
}

/// Called by `main` once the command is done (and its lease released): from now on `main` ends
/// the process with the command's status; a signal arriving meanwhile waits for that, or, if it
/// came first, `main` waits for the signal to end the process.
pub(crate) fn command_done() {
    std::mem::forget(ENDING.lock());
}

/// What a signal does before the process ends: with this thread the one that ends it (and
/// nothing of the command's written to stderr after the release: its generator refuses from
/// then on, and that is no error to report), the process lease released. The locks are kept
/// until the process is gone.
fn release() {
    std::mem::forget(std::io::stderr().lock());
    std::mem::forget(ENDING.lock());
    sno_lease::release_process_lease();
}

/// The signals that release: Ctrl-C, `kill`'s default and a closed terminal.
#[cfg(unix)]
const SIGNALS: [core::ffi::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

#[cfg(unix)]
fn watch() {
    use core::mem::MaybeUninit;
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: `sigemptyset` initialises the set it is given.
    unsafe { libc::sigemptyset(set.as_mut_ptr()) };
    // SAFETY: initialised just above.
    let mut set = unsafe { set.assume_init() };
    let mut any = false;
    for sig in SIGNALS.into_iter().filter(|&sig| default_action(sig)) {
        // SAFETY: `set` is an initialised set, `sig` a valid signal number.
        unsafe { libc::sigaddset(&mut set, sig) };
        any = true;
    }
    if !any {
        return;
    }
    // SAFETY: `set` is initialised; the old mask is not asked for (NULL). Only this thread runs
    // yet, so every later thread inherits the blocked mask: the signals reach the waiting thread
    // only.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, core::ptr::null_mut()) };
    let spawned = std::thread::Builder::new()
        .name("sno-signals".into())
        .spawn(move || wait(set));
    if spawned.is_err() {
        // No thread to take them: the signals keep their default action.
        // SAFETY: as above.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, core::ptr::null_mut()) };
    }
}

/// Whether `sig` has its default action now (not ignored, no handler).
#[cfg(unix)]
fn default_action(sig: core::ffi::c_int) -> bool {
    let mut old = core::mem::MaybeUninit::<libc::sigaction>::zeroed();
    // SAFETY: a NULL new action only reads the current one into `old`, which is writable.
    let read = unsafe { libc::sigaction(sig, core::ptr::null(), old.as_mut_ptr()) };
    // SAFETY: zeroed is a valid `sigaction`, and `sigaction` filled it on success.
    read == 0 && unsafe { old.assume_init() }.sa_sigaction == libc::SIG_DFL
}

/// Waits for one of the signals of `set`, releases, then raises it with its default action,
/// which ends the process.
#[cfg(unix)]
fn wait(set: libc::sigset_t) {
    let mut sig: core::ffi::c_int = 0;
    // SAFETY: `set` is initialised and `sig` writable; `sigwait` returns 0 once it took a signal
    // (a nonzero value, which Linux never returns here, is waited again).
    while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
    // A second signal now ends the process at once: this thread is the only one that does not
    // block them, and their action is the default one.
    // SAFETY: as in `watch`.
    unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, core::ptr::null_mut()) };
    release();
    // SAFETY: restoring the default action of a valid signal, then sending it to this thread,
    // which does not block it: the process ends as the signal's default action ends it.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
    // Not reached; if it were, the status a shell gives a process the signal ended.
    std::process::exit(128 + sig);
}

/// `PHANDLER_ROUTINE`: a console control event in, `TRUE` when handled.
#[cfg(windows)]
type HandlerRoutine = unsafe extern "system" fn(event: u32) -> i32;

#[cfg(windows)]
#[link(name = "kernel32")]
unsafe extern "system" {
    fn SetConsoleCtrlHandler(handler: Option<HandlerRoutine>, add: i32) -> i32;
}

#[cfg(windows)]
fn watch() {
    // SAFETY: registers a handler that lives as long as the process (a plain function); Windows
    // calls it on a thread of its own, not in an interrupted one.
    unsafe { SetConsoleCtrlHandler(Some(on_control), 1) };
}

/// Releases, then returns `FALSE`: the next handler, the default one, ends the process.
#[cfg(windows)]
unsafe extern "system" fn on_control(_event: u32) -> i32 {
    release();
    0
}

/// No signals to watch here: a process ended by one keeps its partition for the TTL.
#[cfg(not(any(unix, windows)))]
fn watch() {}
