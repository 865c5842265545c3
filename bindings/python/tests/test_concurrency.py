"""Threads, fork and multiprocessing never produce a duplicate."""

import multiprocessing as mp
import os
import threading

import sno


def test_threads_share_a_generator():
    g = sno.Generator(partition=11)
    out = [[] for _ in range(8)]

    def work(slot):
        out[slot] = [g.new() for _ in range(20000)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for ids in out:
        assert ids == sorted(ids)
    everything = [i for ids in out for i in ids]
    assert len(set(everything)) == len(everything) == 160000


def test_fork_child_never_repeats_parent_ids():
    parent = sno.new()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        data = b"".join(bytes(sno.new()) for _ in range(2000))
        os.write(w, data)
        os._exit(0)
    os.close(w)
    ours = {sno.new() for _ in range(2000)}
    chunks = []
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.waitpid(pid, 0)
    data = b"".join(chunks)
    theirs = [sno.ID.from_bytes(data[i:i + 10]) for i in range(0, len(data), 10)]
    assert len(theirs) == 2000
    assert all(t.partition != parent.partition for t in theirs)
    assert not ours.intersection(theirs)


def _worker(n):
    return [bytes(sno.new()) for _ in range(n)]


def test_multiprocessing_workers_never_collide():
    mine = {bytes(sno.new()) for _ in range(1000)}
    for method in ("fork", "spawn"):
        with mp.get_context(method).Pool(3) as pool:
            batches = pool.map(_worker, [3000] * 6)
        everything = [b for batch in batches for b in batch]
        assert len(set(everything)) == len(everything)
        assert not mine.intersection(everything)
