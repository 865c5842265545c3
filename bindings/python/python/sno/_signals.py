"""``sno.release_on_signals()``: Ctrl-C, ``SIGTERM`` and ``SIGHUP`` release the process lease,
then the process ends (or goes on) as it would have."""

import signal

from sno._sno import release_process_lease

# The signals that end a process by default and that a deployment sends to stop one: Ctrl-C,
# `kill`'s (and Kubernetes', systemd's) default, a closed terminal. Windows has no SIGHUP.
_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class _Release:
    """The handler of one signal: releases the process lease, then does what the handler it
    replaced would have done."""

    __slots__ = ("previous",)

    def __init__(self, previous):
        self.previous = previous

    def __call__(self, signum, frame):
        release_process_lease()
        if callable(self.previous):
            return self.previous(signum, frame)
        # The default action: ends the process, and its status is the signal's.
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)
        return None


def release_on_signals() -> None:
    """Makes ``SIGINT`` (Ctrl-C), ``SIGTERM`` and ``SIGHUP`` release the process lease (the
    partition ``SNO_LEASE_URL`` leased for :func:`sno.new`, see :func:`release_process_lease`)
    before the process ends, so that the next process can take the partition at once rather than
    one TTL later. Opt in: by default a signal's default action ends the process without
    ``atexit``, and the partition stays taken until its grant expires.

    Each signal then releases, and goes on to what it did before: the handler installed before
    this call runs next (Python's ``KeyboardInterrupt`` for Ctrl-C, a server's graceful shutdown,
    …); a signal that had its default action gets it back and is raised again, so the process
    ends as the signal ends it (its exit status is the signal's). A signal that is ignored
    (``nohup`` ignores ``SIGHUP``), or handled outside Python, is left alone. Install your own
    handlers first: one installed later replaces this one. Idempotent; call it from the main
    thread (Python's rule for ``signal.signal``), for instance at start-up::

        import sno

        sno.release_on_signals()
        ids = sno.new_many(1000)   # leases on SNO_LEASE_URL; SIGTERM now frees the partition

    A process that did not lease releases nothing and ends the same way. The ``sno`` console
    script calls it.
    """
    for signum in _SIGNALS:
        previous = signal.getsignal(signum)
        if previous is None or previous == signal.SIG_IGN or isinstance(previous, _Release):
            continue
        signal.signal(signum, _Release(previous))
