"""The ``sno`` command line: ``sno new``, ``sno inspect ID...``, ``sno convert ID... --to F``
(``sno --help``; docs/cli.md). It is the Rust ``sno-cli`` crate, run inside the extension
module: the same output and exit statuses as the ``sno`` binary."""

import os
import signal
import sys

from sno._signals import release_on_signals
from sno._sno import _run_cli  # type: ignore[attr-defined]  # private: not in _sno.pyi


def main(argv=None):
    """Runs the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status.

    As the program (``argv`` not given: the ``sno`` console script, ``python -m sno``) it
    handles signals as the ``sno`` binary does: Ctrl-C, ``SIGTERM`` and ``SIGHUP`` release a
    partition leased through ``SNO_LEASE_URL`` (:func:`sno.release_on_signals`), then end the
    process by the signal, printing nothing (on POSIX, Ctrl-C raises no ``KeyboardInterrupt``).
    A caller that passes ``argv`` keeps its process's signals as they are."""
    if argv is None:
        # POSIX: Ctrl-C ends the process by SIGINT, as the binary. (Windows keeps Python's
        # KeyboardInterrupt, whose exit status is the console's Ctrl-C one, STATUS_CONTROL_C_EXIT,
        # as the binary's; SIGINT's default action there would exit with 3.)
        if os.name == "posix" and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        release_on_signals()
    return _run_cli(None if argv is None else ["sno", *argv])


if __name__ == "__main__":
    sys.exit(main())
