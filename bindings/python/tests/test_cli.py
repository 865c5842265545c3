"""The ``sno`` console script is the Rust command line: ``python -m sno``, the installed ``sno``
entry point and the Rust binary ``sno`` (crate sno-cli) print the same stdout and stderr and exit
with the same status for the same arguments.

The Rust binary is ``$SNO_CLI_BIN``, else the newest of ``target/{debug,release}/sno`` (under
``$CARGO_TARGET_DIR`` or the repository's ``target``); a missing binary fails the tests."""

import contextlib
import io
import json
import os
import pathlib
import signal
import subprocess
import sys
import sysconfig

import pytest

import sno
import sno.__main__
from _vectors import VECTORS, rows

REPO = VECTORS.parents[1]


def _rust_binary():
    given = os.environ.get("SNO_CLI_BIN")
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"SNO_CLI_BIN={given} is not a file"
        return path
    targets = [REPO / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        targets.insert(0, pathlib.Path(os.environ["CARGO_TARGET_DIR"]))
    found = [t / profile / "sno" for t in targets for profile in ("debug", "release")]
    found = [p for p in found if p.is_file()]
    assert found, f"no Rust sno binary under {targets}: run `cargo build -p sno-cli` or set SNO_CLI_BIN"
    return max(found, key=lambda p: p.stat().st_mtime)


def _entry_point():
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        path = pathlib.Path(folder) / "sno"
        if path.is_file():
            return path
    raise AssertionError("the `sno` console script is not installed beside this Python")


@pytest.fixture(scope="module")
def commands():
    return {
        "rust": [str(_rust_binary())],
        "python -m sno": [sys.executable, "-m", "sno"],
        "entry point": [str(_entry_point())],
    }


def _env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SNO_PARTITION", "SNO_LEASE_"))}
    env.pop("PYTHONPATH", None)
    return env


def run_all(commands, args, tmp_path, **env):
    """(stdout, stderr, status) of each command, run in an empty directory."""
    results = {}
    for name, command in commands.items():
        out = subprocess.run([*command, *args], capture_output=True, cwd=tmp_path, env={**_env(), **env}, timeout=120)
        results[name] = (out.stdout, out.stderr, out.returncode)
    return results


def _vector_texts():
    texts = {
        "sno": [r["encoded"] for r in rows("sno_codec.tsv")[:40]],
        "ulid": [r["ulid"] for r in rows("ulid_vectors.tsv")[:40]],
        "uuid7": [r["uuid"] for r in rows("uuidv7_vectors.tsv")[:40]],
        "scru128": [r["scru128"] for r in rows("scru128_vectors.tsv")[:40]],
        "scru160": [r["base32hex"] for r in rows("scru160_vectors.tsv")[:40]],
        "nanoflake": [r["base36"] for r in rows("nanoflakes_vectors.tsv")[:40]],
        "ulidflake": [r["ulidflake"] for r in rows("ulidflake_vectors.tsv")[:40]],
        "typeid": [r["typeid"] for r in rows("typeid_valid.tsv")],
        "typeid_invalid": [r["typeid"] for r in rows("typeid_invalid.tsv")],
        "ksuid": [r["ksuid"] for r in rows("ksuid_vectors.tsv")],
        # Every invalid row an argument can carry (not the one with a NUL).
        "ksuid_invalid": [t for r in rows("ksuid_invalid.tsv") if "\0" not in (t := json.loads(r["input_json"]))],
    }
    return texts


_TEXTS = _vector_texts()

SAME_OUTPUT = [
    [],
    ["--help"],
    ["--version"],
    ["help", "new"],
    ["new", "--help"],
    ["inspect", "--help"],
    ["convert", "-h"],
    ["inspect", *_TEXTS["sno"], *_TEXTS["ulid"], *_TEXTS["uuid7"], *_TEXTS["scru128"], *_TEXTS["scru160"]],
    ["inspect", "--json", *_TEXTS["sno"], *_TEXTS["ulid"], *_TEXTS["uuid7"], *_TEXTS["scru128"], *_TEXTS["scru160"]],
    ["inspect", "--format", "nanoflake", "--nanoflake-epoch", "1640995200000", *_TEXTS["nanoflake"]],
    ["inspect", "--format", "ulidflake", "--json", *_TEXTS["ulidflake"]],
    ["inspect", *_TEXTS["ulidflake"]],
    ["inspect", "--format", "ulid", *_TEXTS["ulid"]],
    ["inspect", "--json", *_TEXTS["typeid"]],
    ["inspect", "--format", "typeid", "--", *_TEXTS["typeid"], *_TEXTS["typeid_invalid"]],
    ["inspect", *_TEXTS["ksuid"]],
    ["inspect", "--json", *_TEXTS["ksuid"]],
    ["inspect", "--format", "ksuid", "--", *_TEXTS["ksuid_invalid"]],
    ["inspect", "00CMXB6TAK4SA", "jnxxr658jlkw", "--epoch", "0"],
    ["inspect", "BRPK4Q72XWF2M63L", "00CMXB6TAK4S-", "x" * 50, "2222228a2222g22é", "VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV"],
    ["inspect", "--format", "ulid", "brpk4q72xwf2m63l"],
    ["inspect", b"\xff\xfe"],
    ["inspect", b"2222228a2222g22\xe9"],
    ["inspect", "00CMXB6TAK4SA", "--ulidflake-epoch", str(10**30)],
    ["inspect", "1", "--nanoflake-epoch", str(-(10**30))],
    ["inspect", "--jsn", "x"],
    ["inspect", "--format", "nope", "x"],
    ["new", "-n", str(10**12)],
    ["new", "-n", "-1"],
    ["new", "--meta", "300"],
    ["new", "--format", "ulid", "--partition", "1"],
    ["new", "--format", "nanoflake"],
    ["new", "--format", "ulidflake", "--epoch", "-1"],
    ["new", "-n", "0"],
    ["bogus"],
    ["convert", "--to", "ulid", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "brpk4q72xwf2m63l"],
    ["convert", "--to", "uuid7", "01FWHE4YDGFK1SHH6W1G60EECF", "01ARZ3NDEKTSV4RRFFQ69G5FAV"],
    ["convert", "--to", "typeid", "--prefix", "user", "01890a5d-ac96-774b-bcce-b302099a8057", "01FWHE4YDGFK1SHH6W1G60EECF"],
    ["convert", "--to", "uuid7", "user_01h455vb4pex5vsknk084sn02q", "prefix_0123456789abcdefghjkmnpqrs"],
    ["convert", "--to", "typeid", "--prefix", "User", "01FWHE4YDGFK1SHH6W1G60EECF"],
    ["new", "--format", "typeid", "--prefix", "user_"],
]


@pytest.mark.parametrize("args", SAME_OUTPUT, ids=lambda a: " ".join(map(str, a))[:60] or "(none)")
def test_same_output_and_status(commands, args, tmp_path):
    results = run_all(commands, args, tmp_path)
    rust = results.pop("rust")
    assert rust[1] or rust[2] == 0, "a failure says why"
    for name, result in results.items():
        assert result == rust, f"{name} differs from the Rust binary for {args}"


@pytest.mark.parametrize(
    "args",
    [
        ["new", "-n", "5"],
        ["new", "-n", "5", "--meta", "7", "--partition", "0x102"],
        ["new", "-n", "5", "--format", "ulid"],
        ["new", "-n", "5", "--format", "uuid7"],
        ["new", "-n", "5", "--format", "scru128"],
        ["new", "-n", "5", "--format", "scru160"],
        ["new", "-n", "5", "--format", "ksuid"],
        ["new", "-n", "5", "--format", "ulidflake", "--sid", "3"],
        ["new", "-n", "5", "--format", "nanoflake", "--epoch", "1640995200000", "--generator-id", "5"],
        ["new", "-n", "5", "--format", "typeid", "--prefix", "user"],
    ],
    ids=lambda a: " ".join(a[3:]) or "sno",
)
def test_new_same_shape(commands, args, tmp_path):
    """New IDs differ from run to run: the same count and status, and each reads back as the
    format, with the options applied."""
    results = run_all(commands, args, tmp_path)
    fmt = args[args.index("--format") + 1] if "--format" in args else "sno"
    extra = ["--nanoflake-epoch", "1640995200000"] if fmt == "nanoflake" else []
    inspected = []
    for name, (out, err, code) in results.items():
        assert (code, err) == (0, b""), name
        ids = out.decode().split()
        assert len(ids) == 5, name
        read = subprocess.run(
            [*commands["rust"], "inspect", "--format", fmt, "--json", *extra, *ids],
            capture_output=True,
            env=_env(),
        )
        assert read.returncode == 0, read.stderr
        inspected.append(read.stdout.decode().splitlines())
    for readings in inspected:
        assert all(('"format":"%s"' % fmt) in r for r in readings)
        if "--meta" in args:
            assert all('"meta":7,"partition":258,' in r for r in readings)
        if "--sid" in args:
            assert all('"sid":3,' in r for r in readings)
        if "--prefix" in args:
            assert all('"prefix":"user",' in r for r in readings)


def test_same_environment_errors(commands, tmp_path):
    results = run_all(commands, ["new"], tmp_path, SNO_PARTITION="banana")
    rust = results.pop("rust")
    assert rust[0] == b"" and b"SNO_PARTITION" in rust[1] and rust[2] == 1
    assert all(result == rust for result in results.values())


def test_captured_in_process(capsys):
    """The output goes through Python's sys.stdout and sys.stderr: capture sees it."""
    assert sno.__main__.main(["inspect", "brpk4q72xwf2m63l", "BRPK4Q72XWF2M63L"]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("brpk4q72xwf2m63l format=sno text=brpk4q72xwf2m63l time=2031-05-08T23:03:34.976Z ")
    assert captured.err.startswith("BRPK4Q72XWF2M63L: sno: the text (16 bytes) is an ID of no format")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert sno.__main__.main(["new", "-n", "3", "--format", "ulid"]) == 0
        assert sno.__main__.main(["--version"]) == 0
    ids = out.getvalue().splitlines()[:3]
    assert [str(sno.ULID(i)) for i in ids] == ids and ids == sorted(set(ids))
    assert out.getvalue().splitlines()[3] == f"sno {sno.__version__}"
    assert err.getvalue() == ""


def test_a_stream_that_raises_raises():
    class Broken(io.StringIO):
        def write(self, text):
            raise ValueError("closed for the test")

    with contextlib.redirect_stdout(Broken()), pytest.raises(ValueError, match="closed for the test"):
        sno.__main__.main(["new"])


@pytest.mark.parametrize("name", ["rust", "python -m sno", "entry point"])
def test_ctrl_c_ends_a_long_new(commands, name, tmp_path):
    """SIGINT while `sno new` writes ends it as the signal does, printing nothing: the binary and
    the console script alike (no KeyboardInterrupt traceback; a leased partition is released
    first, tests/test_signals.py). The pipe is not read past the first line, so the command
    cannot finish before the signal."""
    p = subprocess.Popen(
        [*commands[name], "new", "-n", str(sno.MAX_BATCH)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=_env(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal starts it
    )
    assert len(p.stdout.readline()) == 17
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert (p.returncode, err) == (-signal.SIGINT, b"")
    assert out.count(b"\n") < sno.MAX_BATCH - 1
