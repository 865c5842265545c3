"""The ``sno`` command line: ``sno new [-n N] [--meta M] [--partition P]`` and ``sno inspect ID...``,
which recognises every format libsno speaks (sno, ULID, UUIDv7, SCRU128, SCRU160, Ulid-Flake,
Nanoflakes) by length and alphabet, and prints every reading of ambiguous text."""

import argparse
import sys
from datetime import datetime, timedelta, timezone

import sno

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _byte(text):
    value = int(text, 0)
    if not 0 <= value <= 255:
        raise argparse.ArgumentTypeError(f"{text} is outside 0..255")
    return value


def _epoch(text):
    """A Unix-millisecond epoch: any 64-bit value (a one-line error beyond, not a traceback)."""
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise argparse.ArgumentTypeError(f"{text} is outside the 64-bit range of Unix milliseconds")
    return value


def _count(text):
    value = int(text)
    if not 0 <= value <= sno.MAX_BATCH:
        raise argparse.ArgumentTypeError(f"{text} is outside 0..{sno.MAX_BATCH} (run sno new again for more)")
    return value


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr and exit status 2 (argparse prints the usage too)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _u16(text):
    value = int(text, 0)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is outside 0..65535")
    return value


def _iso(unix_ms):
    """ISO 8601 UTC with milliseconds, or a note past what ``datetime`` can write."""
    try:
        when = _EPOCH + timedelta(milliseconds=unix_ms)
    except OverflowError:
        return f"unix_ms {unix_ms} (past year 9999)"
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _sno_fields(id_, _args):
    return [
        ("time", id_.timestamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")),
        ("unix_ns", id_.unix_ns),
        ("units", id_.units),
        ("tick_tock", int(id_.tick_tock)),
        ("meta", id_.meta),
        ("partition", f"{id_.partition} (0x{id_.partition:04x})"),
        ("sequence", id_.sequence),
    ]


def _ulid_fields(u, _args):
    return [("time", _iso(u.unix_ms)), ("unix_ms", u.unix_ms), ("randomness", f"0x{u.randomness:020x}")]


def _uuid7_fields(u, _args):
    return [
        ("time", _iso(u.unix_ms)),
        ("unix_ms", u.unix_ms),
        ("version", u.version),
        ("variant", f"0b{u.variant:02b}"),
        ("rand_a", f"0x{u.rand_a:03x}"),
        ("rand_b", f"0x{u.rand_b:016x}"),
    ]


def _scru128_fields(s, _args):
    return [
        ("time", _iso(s.unix_ms)),
        ("unix_ms", s.unix_ms),
        ("counter_hi", s.counter_hi),
        ("counter_lo", s.counter_lo),
        ("entropy", s.entropy),
    ]


def _scru160_fields(s, _args):
    return [
        ("time", _iso(s.unix_ms)),
        ("unix_ms", s.unix_ms),
        ("counter", s.counter),
        ("random16", s.random16),
        ("random80", f"0x{s.random80:020x}"),
        ("base32hex", str(s)),
        ("hex", s.hex),
    ]


def _ulidflake_fields(f, args):
    unix_ms = f.unix_ms(args.ulidflake_epoch)
    return [
        ("time", _iso(unix_ms)),
        ("unix_ms", f"{unix_ms} (epoch {args.ulidflake_epoch})"),
        ("timestamp_ms", f.timestamp_ms),
        ("randomness", f"{f.randomness} (stand-alone)"),
        ("scalable", f"randomness {f.scalable_randomness}, sid {f.sid}"),
        ("int", int(f)),
    ]


def _nanoflake_fields(n, args):
    if args.nanoflake_epoch is None:
        time = "needs --nanoflake-epoch MS (the application's epoch)"
    else:
        time = _iso(n.unix_ms(args.nanoflake_epoch))
    return [
        ("time", time),
        ("timestamp_ms", f"{n.timestamp_ms} since the epoch"),
        ("generator_id", n.generator_id),
        ("sequence", n.sequence),
        ("int", int(n)),
        ("padded", n.padded),
    ]


# Every format: its name, the text lengths it can have, its strict parser and its fields. A
# string is read as every format whose length matches and whose parser accepts it.
_FORMATS = [
    ("sno", {16}, sno.ID.from_str, _sno_fields),
    ("ULID", {26}, sno.ULID.from_str, _ulid_fields),
    ("UUIDv7", {32, 36, 38, 45}, lambda t: sno.UUID7.parse(t, lenient=True), _uuid7_fields),
    ("SCRU128", {25}, sno.SCRU128.from_str, _scru128_fields),
    ("SCRU160", {32, 40}, sno.SCRU160.from_str, _scru160_fields),
    ("Ulid-Flake", {13}, sno.UlidFlake.from_str, _ulidflake_fields),
    ("Nanoflake", set(range(1, 14)), sno.Nanoflake.from_str, _nanoflake_fields),
]


def _inspect(text, args):
    """Every reading of ``text``, or raises the error of the first format of its length."""
    readings, errors = [], []
    for name, lengths, parse, fields in _FORMATS:
        if len(text.encode("utf-8", "surrogatepass")) not in lengths:
            continue
        try:
            value = parse(text)
        except sno.DecodeError as e:
            errors.append(e)
            continue
        rows = fields(value, args) + [("bytes", value.bytes.hex())]
        body = "\n".join(f"  {k:<13}{v}" for k, v in rows)
        readings.append(f"{text}  [{name}]\n{body}")
    if readings:
        if len(readings) > 1:
            readings.insert(0, f"{text}: {len(readings)} readings (ambiguous shape)")
        return "\n".join(readings)
    if errors:
        raise errors[0]
    raise sno.DecodeError(f"{text!r}: no format has {len(text.encode('utf-8', 'surrogatepass'))}-byte text")


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            # Bytes that are not UTF-8 reach Python as lone surrogates (surrogateescape).
            sys.stderr.write(f"sno: error: argument {ascii(arg)} is not valid UTF-8\n")
            return 2
    parser = _Parser(prog="sno", description="Generate sno IDs; inspect IDs of every format.")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="generate IDs")
    new.add_argument("-n", type=_count, default=1, help=f"how many (default 1, at most {sno.MAX_BATCH})")
    new.add_argument("--meta", type=_byte, default=0, help="meta byte 0..255")
    new.add_argument("--partition", type=_u16, help="partition 0..65535 (default: the process's)")
    inspect = sub.add_parser("inspect", help="print every field of IDs, in every format they read as")
    inspect.add_argument("ids", nargs="+", metavar="ID")
    inspect.add_argument("--nanoflake-epoch", type=_epoch, metavar="MS", help="the Nanoflakes epoch (Unix ms)")
    inspect.add_argument(
        "--ulidflake-epoch",
        type=_epoch,
        metavar="MS",
        default=sno.ulidflake.DEFAULT_EPOCH_MS,
        help="the Ulid-Flake epoch (Unix ms; default 2024-01-01)",
    )
    args = parser.parse_args(argv)

    if args.command == "new":
        try:
            if args.partition is None:
                ids = sno.new_many(args.n, args.meta)
            else:
                gen = sno.Generator(partition=args.partition)
                ids = [gen.new(args.meta) for _ in range(args.n)]
        except sno.SnoError as e:
            sys.stderr.write(f"sno: error: {e}\n")
            return 2
        sys.stdout.write("".join(f"{i}\n" for i in ids))
        return 0
    status = 0
    for text in args.ids:
        try:
            print(_inspect(text, args))
        except sno.SnoError as e:
            print(f"{text}: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
