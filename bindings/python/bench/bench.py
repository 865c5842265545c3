"""sno, ULID, UUIDv7 and SCRU128 against their Python peers, in one run.

    python bindings/python/bench/bench.py            # peers that are installed are measured
    pip install uuid-utils python-ulid scru128       # to include them
    pip install ulid-flake==0.1.3 scru160==0.2.3    # (scru160 0.2.3 is yanked, but installs)

Prints ns/op (best of several timeit repeats): first sno against the standard library and
uuid_utils (ratio to sno.new()), then each other format against its peer (peer / libsno: above 1
means libsno is faster). Nanoflakes have no Python package to compare with.
"""

import importlib
import os
import subprocess
import sys
import time
import timeit
import uuid

import sno
from sno import scru128, ulid, uuid7


def measure(stmt, number=200_000, repeat=7, **names):
    """ns per run of `stmt`: a callable, or an expression over `names` (timed as compiled code, so
    no extra Python call wraps it)."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat, globals=names)) / number * 1e9


def main():
    text = str(sno.new())
    ids = sno.new_many(1000)
    texts = [str(i) for i in ids]
    rows = [
        ("sno.new()", measure(sno.new)),
        ("str(sno.new())", measure("str(new())", new=sno.new)),
        ("sno.ID.from_str(s)", measure("from_str(text)", from_str=sno.ID.from_str, text=text)),
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
    # What any sno.new() must at least cost here: a C call, the same clock read, one new object.
    floor = [
        ("sys.getrecursionlimit() (a bare C call)", measure(sys.getrecursionlimit)),
        ("object() (a call that allocates)", measure(object)),
        ("time.time_ns() (a call, CLOCK_REALTIME, a new int)", measure(time.time_ns)),
    ]
    rows += floor
    base = rows[0][1]
    print(f"Python {sys.version.split()[0]}, sno {sno.__version__}")
    print("| operation | ns/op | vs sno.new() |\n|---|---|---|")
    for name, ns in rows:
        print(f"| {name} | {ns:.0f} | {ns / base:.2f}x |")
    peers = dict(rows)
    if "uuid_utils.uuid7()" in peers:
        print(
            f"\n2x uuid_utils.uuid7() needs sno.new() <= {peers['uuid_utils.uuid7()'] / 2:.0f} ns;"
            f" time.time_ns() alone takes {floor[2][1]:.0f} ns (sno.new() is {base:.0f} ns:"
            f" {peers['uuid_utils.uuid7()'] / base:.2f}x)"
        )
    clocks()
    formats()


def clocks():
    """sno.new() on the precise and on the fast clock (SNO_CLOCK, read once per process: each
    figure comes from a child process, three per clock, interleaved, best kept), and a
    Generator of each clock in this process."""
    best = {"precise": float("inf"), "fast": float("inf")}
    for _ in range(3):
        for kind in best:
            env = {**os.environ, "SNO_CLOCK": kind}
            out = subprocess.run(
                [sys.executable, __file__, "--sno-new-ns"], env=env, check=True, capture_output=True, text=True
            )
            best[kind] = min(best[kind], float(out.stdout))
    generators = {kind: sno.Generator(clock=kind) for kind in best}
    own = {kind: measure(g.new) for kind, g in generators.items()}
    print("\n| clock | sno.new() ns (SNO_CLOCK) | Generator(clock=...).new() ns |\n|---|---|---|")
    for kind in best:
        print(f"| {kind} | {best[kind]:.0f} | {own[kind]:.0f} |")
    print(
        f"\nfast clock: sno.new() {best['precise'] - best['fast']:.0f} ns faster than on the precise clock"
        f" ({best['precise']:.0f} -> {best['fast']:.0f} ns)"
    )


class Produced:
    """ns per ID *produced* by `make`, for generators that may raise OverflowError when the
    random bits of one millisecond are used up: a failed call costs its time and yields nothing."""

    def __init__(self, make):
        self.make = make

    def ns(self, number):
        made, start = 0, time.perf_counter()
        for _ in range(number):
            try:
                self.make()
                made += 1
            except OverflowError:
                pass
        return (time.perf_counter() - start) / max(made, 1) * 1e9


def timed(case, number):
    """ns/op of a callable, or ns per produced ID of a `Produced` (best of five runs)."""
    if isinstance(case, Produced):
        return min(case.ns(number // 4) for _ in range(5))
    return measure(case, number=number)


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
    cases += seed_formats()
    print("\n| operation | libsno ns/op | peer | peer ns/op | libsno speed-up |\n|---|---|---|---|---|")
    for name, ours, peer_name, theirs in cases:
        a, b = timed(ours, 100_000), timed(theirs, 20_000)
        print(f"| {name} | {a:.0f} | {peer_name} | {b:.0f} | {b / a:.2f}x |")


def seed_formats():
    """SCRU160 against the `scru160` package (text only: it has no value type) and Ulid-Flake
    against `ulid-flake` (class-level generators, like our process-wide ones)."""
    from sno import scru160, ulidflake

    cases = []
    py_scru160, py_flake, py_scalable = peer("scru160"), peer("ulid_flake.api"), peer("ulid_flake.scalable")
    if py_scru160:
        cases += [
            ("SCRU160 as text", lambda: str(scru160.new()), "scru160.scru160()", py_scru160.scru160),
            ("SCRU160 as hex", lambda: scru160.new().hex, "scru160.scru160f()", py_scru160.scru160f),
        ]
    if py_flake and py_scalable:
        flake, scalable = py_flake.UlidFlake, py_scalable.UlidFlakeScalable
        text = str(ulidflake.new())
        ours_scalable = ulidflake.Generator(sid=7)
        scalable.set_config(sid=7)  # its new(sid) ignores the argument and uses the class's
        flake_parse = sno.UlidFlake

        # ulid-flake raises OverflowError when its increments use up the random bits of one
        # millisecond; ours sleeps until the next one. The 20 (stand-alone) or 15 (scalable)
        # random bits cap either side at about 8 000 / 130 IDs per ms on average.
        cases += [
            ("Ulid-Flake new", Produced(ulidflake.new), "UlidFlake.new()", Produced(flake.new)),
            ("Ulid-Flake as text", Produced(lambda: str(ulidflake.new())), "str(UlidFlake.new())", Produced(lambda: str(flake.new()))),
            ("Ulid-Flake scalable new", Produced(ours_scalable.new), "UlidFlakeScalable.new()", Produced(scalable.new)),
            ("Ulid-Flake parse", lambda: flake_parse(text), "UlidFlake.parse", lambda: flake.parse(text)),
        ]
    return cases


if __name__ == "__main__":
    if sys.argv[1:] == ["--sno-new-ns"]:
        print(measure(sno.new))
    else:
        main()
