"""sno, ULID, UUIDv7 and SCRU128 against their Python peers, in one run.

    python bindings/python/bench/bench.py            # peers that are installed are measured
    pip install uuid-utils python-ulid scru128       # to include them

Prints ns/op (best of several timeit repeats): first sno against the standard library and
uuid_utils (ratio to sno.new()), then each 128-bit format against its peer (peer / libsno: above 1
means libsno is faster).
"""

import importlib
import sys
import timeit
import uuid

import sno
from sno import scru128, ulid, uuid7


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
    formats()


def peer(module):
    """The peer module, or None (with a note) when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"{module} not installed: its rows are skipped", file=sys.stderr)
        return None


def formats():
    """Each 128-bit format against its peer: generate, generate as text, parse. Callables are
    bound to locals first on both sides, so attribute lookups are not measured."""
    cases = []
    py_ulid, uuid_utils, py_scru128 = peer("ulid"), peer("uuid_utils"), peer("scru128")
    u, v, s = str(ulid.new()), str(uuid7.new()), str(scru128.new())
    ulid_parse, uuid7_parse, scru128_parse = sno.ULID.from_str, sno.UUID7.from_str, sno.SCRU128.from_str
    peer_ulid_parse = py_ulid and py_ulid.ULID.from_str
    peer_uuid = uuid_utils and uuid_utils.UUID
    peer_scru128_parse = py_scru128 and py_scru128.Scru128Id.from_str
    if py_ulid:
        cases += [
            ("ULID new", ulid.new, "ulid.ULID()", py_ulid.ULID),
            ("ULID as text", lambda: str(ulid.new()), "str(ulid.ULID())", lambda: str(py_ulid.ULID())),
            ("ULID parse", lambda: ulid_parse(u), "ulid.ULID.from_str", lambda: peer_ulid_parse(u)),
        ]
    if uuid_utils:
        cases += [
            ("UUIDv7 new", uuid7.new, "uuid_utils.uuid7()", uuid_utils.uuid7),
            ("UUIDv7 as text", lambda: str(uuid7.new()), "str(uuid_utils.uuid7())", lambda: str(uuid_utils.uuid7())),
            ("UUIDv7 parse", lambda: uuid7_parse(v), "uuid_utils.UUID(s)", lambda: peer_uuid(v)),
        ]
    if py_scru128:
        cases += [
            ("SCRU128 new", scru128.new, "scru128.new()", py_scru128.new),
            ("SCRU128 as text", lambda: str(scru128.new()), "scru128.new_string()", py_scru128.new_string),
            ("SCRU128 parse", lambda: scru128_parse(s), "Scru128Id.from_str", lambda: peer_scru128_parse(s)),
        ]
    print("\n| operation | libsno ns/op | peer | peer ns/op | libsno speed-up |\n|---|---|---|---|---|")
    for name, ours, peer_name, theirs in cases:
        a, b = measure(ours, number=100_000), measure(theirs, number=20_000)
        print(f"| {name} | {a:.0f} | {peer_name} | {b:.0f} | {b / a:.2f}x |")


if __name__ == "__main__":
    main()
