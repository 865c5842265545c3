"""sno against uuid_utils, python-ulid and the standard library, in one run.

    python bindings/python/bench/bench.py            # peers that are installed are measured
    pip install uuid-utils python-ulid               # to include them

Prints ns/op (best of several timeit repeats) and each peer's ratio to sno.new().
"""

import sys
import timeit
import uuid

import sno


def measure(stmt, number=200_000, repeat=7):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e9


def main():
    text = str(sno.new())
    ids = sno.new_many(1000)
    texts = [str(i) for i in ids]
    rows = [
        ("sno.new()", measure(sno.new)),
        ("str(sno.new())", measure(lambda: str(sno.new()))),
        ("sno.ID.from_str(s)", measure(lambda: sno.ID.from_str(text))),
        ("sno.new_many(1000) per ID", measure(lambda: sno.new_many(1000), number=2000) / 1000),
        ("sno.new_many(1000, as_str=True) per ID", measure(lambda: sno.new_many(1000, as_str=True), number=2000) / 1000),
        ("[str(i) for i in ids] per ID (1000)", measure(lambda: [str(i) for i in ids], number=2000) / 1000),
        ("sno.encode_many(ids) per ID (1000)", measure(lambda: sno.encode_many(ids), number=2000) / 1000),
        ("[sno.ID(t) for t in texts] per ID (1000)", measure(lambda: [sno.ID(t) for t in texts], number=2000) / 1000),
        ("sno.decode_many(texts) per ID (1000)", measure(lambda: sno.decode_many(texts), number=2000) / 1000),
        ("uuid.uuid4() (stdlib)", measure(uuid.uuid4, number=50_000)),
    ]
    try:
        import uuid_utils

        rows += [("uuid_utils.uuid7()", measure(uuid_utils.uuid7)), ("uuid_utils.uuid4()", measure(uuid_utils.uuid4))]
    except ImportError:
        print("uuid_utils not installed: skipped", file=sys.stderr)
    try:
        import ulid

        rows.append(("ulid.ULID() (python-ulid)", measure(ulid.ULID, number=50_000)))
    except ImportError:
        print("python-ulid not installed: skipped", file=sys.stderr)
    base = rows[0][1]
    print(f"Python {sys.version.split()[0]}, sno {sno.__version__}")
    print("| operation | ns/op | vs sno.new() |\n|---|---|---|")
    for name, ns in rows:
        print(f"| {name} | {ns:.0f} | {ns / base:.2f}x |")


if __name__ == "__main__":
    main()
