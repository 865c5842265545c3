"""The ``sno`` command line: ``sno new``, ``sno inspect ID...``, ``sno convert ID... --to F``
(``sno --help``; docs/cli.md). It is the Rust ``sno-cli`` crate, run inside the extension
module: the same output and exit statuses as the ``sno`` binary."""

import sys

from sno._sno import _run_cli  # type: ignore[attr-defined]  # private: not in _sno.pyi


def main(argv=None):
    """Runs the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    return _run_cli(None if argv is None else ["sno", *argv])


if __name__ == "__main__":
    sys.exit(main())
