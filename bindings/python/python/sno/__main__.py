"""The ``sno`` command line: ``sno new [-n N] [--meta M] [--partition P]`` and ``sno inspect ID...``."""

import argparse
import sys

import sno


def _byte(text):
    value = int(text, 0)
    if not 0 <= value <= 255:
        raise argparse.ArgumentTypeError(f"{text} is outside 0..255")
    return value


def _u16(text):
    value = int(text, 0)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is outside 0..65535")
    return value


def _inspect(text):
    id_ = sno.ID.from_str(text)
    return "\n".join(
        [
            f"{id_}",
            f"  time       {id_.timestamp.isoformat(timespec='milliseconds').replace('+00:00', 'Z')}",
            f"  unix_ns    {id_.unix_ns}",
            f"  units      {id_.units}",
            f"  tick_tock  {int(id_.tick_tock)}",
            f"  meta       {id_.meta}",
            f"  partition  {id_.partition} (0x{id_.partition:04x})",
            f"  sequence   {id_.sequence}",
            f"  bytes      {id_.bytes.hex()}",
        ]
    )


def main(argv=None):
    parser = argparse.ArgumentParser(prog="sno", description="Generate and inspect sno IDs.")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="generate IDs")
    new.add_argument("-n", type=int, default=1, help="how many (default 1)")
    new.add_argument("--meta", type=_byte, default=0, help="meta byte 0..255")
    new.add_argument("--partition", type=_u16, help="partition 0..65535 (default: the process's)")
    inspect = sub.add_parser("inspect", help="print every field of IDs")
    inspect.add_argument("ids", nargs="+", metavar="ID")
    args = parser.parse_args(argv)

    if args.command == "new":
        if args.n < 0:
            parser.error("-n must not be negative")
        if args.partition is None:
            ids = sno.new_many(args.n, args.meta)
        else:
            gen = sno.Generator(partition=args.partition)
            ids = [gen.new(args.meta) for _ in range(args.n)]
        sys.stdout.write("".join(f"{i}\n" for i in ids))
        return 0
    status = 0
    for text in args.ids:
        try:
            print(_inspect(text))
        except sno.DecodeError as e:
            print(f"{text}: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
