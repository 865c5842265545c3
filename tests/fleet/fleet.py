#!/usr/bin/env python3
"""A fleet of processes in Rust, Python and Node leasing partitions from one namespace.

For each store (a throwaway PostgreSQL, then a throwaway Redis, started by scripts/store-server),
starts N processes at once, a third each of:
  - Rust:   sno-lease mint (the process-wide generator of the sno-lease crate),
  - Python: sno.new() of the installed wheel,
  - Node:   newString() of the built addon,
all configured by environment alone (SNO_LEASE_URL, SNO_LEASE_NAMESPACE, SNO_LEASE_TTL). Each mints
IDs for a few seconds and prints them. Then every ID is decoded and checked: 0 duplicates, and no
partition used by two processes at once. A partition may pass from one process to another (a
process that finished released it, or its lease expired, before a late starter's random search
landed on it: likely when 200 starts spread over seconds on a busy machine); the fence then keeps
their IDs in disjoint windows of time units, which is what is checked: on each partition, the
units of one process all lie before those of the next.

usage: fleet.py --rust BIN --python PY --node NODE --node-module DIR [--processes 200] [--seconds 3]
The interpreter running this script needs the sno package (it decodes the IDs).
"""

import argparse
import collections
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sno

REPO = Path(__file__).resolve().parents[2]
STORE_SERVER = REPO / "scripts" / "store-server"

PY_WORKER = """
import sys, time, sno
end = time.monotonic() + float(sys.argv[1])
out = sys.stdout
while True:
    out.write(str(sno.new()) + "\\n")
    if time.monotonic() >= end:
        break
    time.sleep(0.01)
out.flush()
"""

NODE_WORKER = """
const sno = require(process.argv[1]);
const end = Date.now() + Number(process.argv[2]) * 1000;
const lines = [];
const tick = () => {
  lines.push(sno.newString());
  if (Date.now() >= end) { process.stdout.write(lines.join('\\n') + '\\n'); return; }
  setTimeout(tick, 10);
};
tick();
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_fleet(args, kind, root):
    directory = os.path.join(root, kind)
    url = subprocess.run(
        ["bash", str(STORE_SERVER), "start", kind, directory, str(free_port())],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    try:
        env = dict(os.environ)
        env.pop("SNO_PARTITION", None)
        env.update(SNO_LEASE_URL=url, SNO_LEASE_NAMESPACE=f"fleet-{kind}", SNO_LEASE_TTL="2")
        seconds = str(args.seconds)
        commands = []
        for i in range(args.processes):
            lang = args.languages[i % len(args.languages)]
            if lang == "rust":
                cmd = [args.rust, "mint", "--seconds", seconds, "--rate", "100"]
            elif lang == "python":
                cmd = [args.python, "-c", PY_WORKER, seconds]
            else:
                cmd = [args.node, "-e", NODE_WORKER, args.node_module, seconds]
            commands.append((lang, cmd))
        started = time.monotonic()
        procs = [
            (lang, subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            for lang, cmd in commands
        ]
        results = []
        failures = []
        for lang, p in procs:
            try:
                out, err = p.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                failures.append(f"{lang} pid {p.pid}: timed out")
                continue
            if p.returncode != 0:
                failures.append(f"{lang} pid {p.pid}: exit {p.returncode}: {err.strip()[:300]}")
                continue
            texts = [line.split(" ")[0] for line in out.splitlines() if line and not line.startswith("grant ")]
            results.append((lang, texts))
        elapsed = time.monotonic() - started
    finally:
        subprocess.run(["bash", str(STORE_SERVER), "stop", kind, directory], check=False)

    if failures:
        sys.exit(f"{kind}: {len(failures)} processes failed:\n  " + "\n  ".join(failures[:10]))
    seen = set()
    duplicates = 0
    owners = collections.defaultdict(set)  # partition -> process indexes
    spans = {}  # (partition, process index) -> [first unit, last unit]
    per_lang = collections.Counter()
    for index, (lang, texts) in enumerate(results):
        if not texts:
            sys.exit(f"{kind}: a {lang} process minted nothing")
        for text in texts:
            if text in seen:
                duplicates += 1
            seen.add(text)
            id_ = sno.ID.from_str(text)
            owners[id_.partition].add(index)
            span = spans.setdefault((id_.partition, index), [id_.units, id_.units])
            span[0], span[1] = min(span[0], id_.units), max(span[1], id_.units)
        per_lang[lang] += len(texts)
    passed_on = {p: ix for p, ix in owners.items() if len(ix) > 1}
    # A partition held by several processes in turn: their unit windows must not overlap.
    overlapping = {}
    for partition, indexes in passed_on.items():
        windows = sorted(spans[(partition, i)] + [i] for i in indexes)
        for (_, last, a), (first, _, b) in zip(windows, windows[1:]):
            if first <= last:
                overlapping[partition] = (a, b, last, first)
    print(
        f"{kind}: {len(results)} processes ({dict(sorted(per_lang.items()))} IDs), {len(seen)} IDs, "
        f"{len(owners)} partitions, {duplicates} duplicates, {len(passed_on)} partitions passed on "
        f"(in disjoint unit windows), {len(overlapping)} shared at once, {elapsed:.1f} s"
    )
    if duplicates or overlapping:
        sys.exit(
            f"{kind}: FAILED: {duplicates} duplicate IDs, partitions used by two processes at once "
            f"(process, process, last unit of the first, first unit of the second): "
            f"{dict(list(overlapping.items())[:5])}"
        )
    # Each process held one partition for its whole run (one lease, renewed, never lost).
    per_process = collections.Counter(index for (_, index) in spans)
    several = {i: n for i, n in per_process.items() if n != 1}
    if several:
        sys.exit(f"{kind}: FAILED: processes that used more than one partition: {several}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rust", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--node-module", required=True)
    parser.add_argument("--processes", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--stores", default="pg,redis")
    parser.add_argument("--languages", default="rust,python,node")
    args = parser.parse_args()
    args.languages = args.languages.split(",")
    args.node_module = str(Path(args.node_module).resolve())
    with tempfile.TemporaryDirectory(prefix="sno-fleet-", dir=os.environ.get("SNO_TEST_STORE_ROOT")) as root:
        os.chmod(root, 0o755)
        for kind in args.stores.split(","):
            run_fleet(args, kind, root)


if __name__ == "__main__":
    main()
