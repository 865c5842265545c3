"""The type stubs cannot drift from the native module (_sno.pyi is written by tests/surfaces from
the core's format table and the hand-written bindings/python/stubs/_sno.pyi.in): mypy's stubtest
checks every class, method, property and signature (test_api.py runs it on the installed
package); these tests show that it fails on a wrong stub, and check the special methods stubtest
lets pass (a missing ``__int__`` or ``__hash__`` in a stub goes unnoticed by it)."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import sno
import sno._sno

PACKAGE = Path(sno.__file__).parent

# Special methods a stub may leave out: object's own, with the same signatures.
INHERITED_FROM_OBJECT = {"__doc__", "__module__", "__repr__", "__str__"}


def stub_classes():
    """Each class of _sno.pyi with the names it declares, its stub base classes' included."""
    tree = ast.parse((PACKAGE / "_sno.pyi").read_text())
    own = {}
    bases = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            own[node.name] = {item.name for item in node.body if isinstance(item, ast.FunctionDef)} | {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
            bases[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]

    def names(cls):
        out = set(own[cls])
        for base in bases[cls]:
            if base in own:
                out |= names(base)
        return out

    return {cls: names(cls) for cls in own}


def test_every_special_method_of_the_runtime_is_in_the_stub():
    declared = stub_classes()
    runtime = {name: obj for name, obj in vars(sno._sno).items() if isinstance(obj, type)}
    assert set(runtime) <= set(declared), set(runtime) - set(declared)
    for name, cls in runtime.items():
        missing = set(vars(cls)) - INHERITED_FROM_OBJECT - declared[name]
        assert not missing, f"{name}: {sorted(missing)} are not in _sno.pyi"


def test_stubtest_fails_on_a_wrong_stub(tmp_path):
    """A copy of the package's stubs, made wrong in three ways, first on MYPYPATH: stubtest
    names each fault (the runtime still comes from the installed package)."""
    stubs = tmp_path / "stubs" / "sno"
    shutil.copytree(PACKAGE, stubs, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    text = (stubs / "_sno.pyi").read_text()
    faults = {
        # A method left out: SCRU128's to_uuid.
        "    def entropy(self) -> builtins.int: ...\n    def to_uuid(self) -> _UUID: ...\n": (
            "    def entropy(self) -> builtins.int: ...\n",
            "sno._sno.SCRU128.to_uuid is not present in stub",
        ),
        # A method declared as a property.
        "    def fields(self) -> dict": ("    @property\n    def fields(self) -> dict", "sno._sno.ID.fields is inconsistent"),
        # A parameter renamed.
        "def unix_ms_at(self, epoch_ms: builtins.int) -> builtins.int: ...": (
            "def unix_ms_at(self, epoch: builtins.int) -> builtins.int: ...",
            "sno._sno.Nanoflake.unix_ms_at is inconsistent",
        ),
    }
    for old, (new, _) in faults.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (stubs / "_sno.pyi").write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "sno"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(tmp_path / "stubs")},
    )
    assert out.returncode == 1, out.stdout + out.stderr
    for _, message in faults.values():
        assert message in out.stdout, out.stdout
