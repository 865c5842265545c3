#!/usr/bin/env python3
"""Short-lived processes in a row on a tiny namespace: every one that exits releases its lease.

For each store (a throwaway PostgreSQL, then a throwaway Redis, started by scripts/store-server),
runs N processes one after another, cycling through the languages:
  - the CLI:  sno new -n 3 (the sno-cli binary),
  - Python:   sno.new() three times, from the installed wheel,
  - Node:     newString() three times, from the built addon,
all configured by the environment alone, on a namespace of TWO partitions with a 15 s TTL
(SNO_LEASE_PARTITIONS=0-1, SNO_LEASE_TTL=15). Two such chains run side by side, so two processes
hold the two partitions at the busiest moment. A process that kept its partition after it exited
would block it for 15 s, and the third process would fail with lease_no_free_partition: every
process must succeed, and all IDs must be distinct (exact text). On each partition the IDs of the
processes that held it in turn lie in disjoint unit windows, in order.

usage: short_lived.py --cli BIN --python PY --node NODE --node-module DIR [--processes 1000]
The interpreter running this script needs the sno package (it decodes the IDs).
"""

import argparse
import collections
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import sno

REPO = Path(__file__).resolve().parents[2]
STORE_SERVER = REPO / "scripts" / "store-server"

PY_WORKER = "import sno\nfor _ in range(3): print(sno.new())"
NODE_WORKER = "const sno = require(process.argv[1]); for (let i = 0; i < 3; i++) console.log(sno.newString())"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chain(commands, env, results, failures):
    for lang, cmd in commands:
        started = time.monotonic()
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
        took = time.monotonic() - started
        if p.returncode != 0:
            failures.append(f"{lang}: exit {p.returncode} after {took:.2f} s: {p.stderr.strip()[:300]}")
            return
        texts = [line.split(" ")[0] for line in p.stdout.splitlines() if line.strip()]
        if len(texts) != 3:
            failures.append(f"{lang}: printed {p.stdout!r}")
            return
        results.append((lang, texts, took))


def run_store(args, kind, root):
    directory = os.path.join(root, kind)
    url = subprocess.run(
        ["bash", str(STORE_SERVER), "start", kind, directory, str(free_port())],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SNO_")}
        env.update(
            SNO_LEASE_URL=url,
            SNO_LEASE_NAMESPACE=f"short-{kind}",
            SNO_LEASE_TTL="15",
            SNO_LEASE_PARTITIONS="0-1",
        )
        languages = args.languages.split(",")
        commands = []
        for i in range(args.processes):
            lang = languages[i % len(languages)]
            if lang == "cli":
                cmd = [args.cli, "new", "-n", "3"]
            elif lang == "python":
                cmd = [args.python, "-c", PY_WORKER]
            else:
                cmd = [args.node, "-e", NODE_WORKER, args.node_module]
            commands.append((lang, cmd))
        results, failures = [], []
        started = time.monotonic()
        threads = [
            threading.Thread(target=chain, args=(commands[c::2], env, results, failures))
            for c in range(2)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
    finally:
        subprocess.run(["bash", str(STORE_SERVER), "stop", kind, directory], check=False)

    if failures:
        sys.exit(f"{kind}: FAILED: {len(failures)} of the chains stopped at a failing process:\n  " + "\n  ".join(failures))
    seen = set()
    duplicates = 0
    spans = collections.defaultdict(list)  # partition -> [(first unit, last unit, process)]
    per_lang = collections.Counter()
    for index, (lang, texts, _) in enumerate(results):
        units = []
        for text in texts:
            if text in seen:
                duplicates += 1
            seen.add(text)
            id_ = sno.ID.from_str(text)
            units.append((id_.partition, id_.units))
        partitions = {p for p, _ in units}
        if len(partitions) != 1 or not partitions <= {0, 1}:
            sys.exit(f"{kind}: FAILED: a {lang} process minted on partitions {partitions}")
        spans[partitions.pop()].append((min(u for _, u in units), max(u for _, u in units), index))
        per_lang[lang] += 1
    overlapping = 0
    for windows in spans.values():
        windows.sort()
        overlapping += sum(1 for a, b in zip(windows, windows[1:]) if b[0] <= a[1])
    slowest = max(took for _, _, took in results)
    print(
        f"{kind}: {len(results)} processes in a row ({dict(sorted(per_lang.items()))}), {len(seen)} IDs, "
        f"{duplicates} duplicates, {overlapping} overlapping windows, slowest process {slowest:.2f} s, "
        f"{elapsed:.1f} s in all"
    )
    if duplicates or overlapping or len(results) != args.processes:
        sys.exit(f"{kind}: FAILED")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--node-module", required=True)
    parser.add_argument("--processes", type=int, default=1000)
    parser.add_argument("--stores", default="pg,redis")
    parser.add_argument("--languages", default="cli,python,node")
    args = parser.parse_args()
    args.node_module = str(Path(args.node_module).resolve())
    with tempfile.TemporaryDirectory(prefix="sno-short-", dir=os.environ.get("SNO_TEST_STORE_ROOT")) as root:
        os.chmod(root, 0o755)
        for kind in args.stores.split(","):
            run_store(args, kind, root)


if __name__ == "__main__":
    main()
