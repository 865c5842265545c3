"""The public surface of the `sno` package as text: every public name of `sno` and of its
submodules, each class's public members (and the special methods it defines), with signatures
where Python can read them. tests/test_surface.py compares it with the committed baseline
tests/surface.txt, so the public names and signatures do not change by accident.
"""

import importlib
import inspect
import types

MODULES = [
    "sno", "sno.ulid", "sno.uuid7", "sno.scru128", "sno.scru160", "sno.nanoflake", "sno.ulidflake",
    "sno.typeid", "sno.ksuid", "sno.sqlalchemy", "sno.psycopg",
]
# What every class has from `object` or that says nothing about the API.
IGNORED = {
    "__doc__", "__module__", "__dict__", "__weakref__", "__slots__", "__annotations__",
    "__qualname__", "__firstlineno__", "__static_attributes__", "__text_signature__",
    "__match_args__", "__dataclass_fields__", "__dataclass_params__", "__parameters__",
    "__orig_bases__", "__abstractmethods__", "_abc_impl", "__signature__", "__getstate__",
}


def signature(obj) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(?)"


def describe_member(cls, name: str) -> str:
    raw = inspect.getattr_static(cls, name)
    if isinstance(raw, (staticmethod,)) or type(raw).__name__ == "builtin_function_or_method":
        return f"  static {name}{signature(getattr(cls, name))}"
    if isinstance(raw, classmethod) or type(raw).__name__ == "classmethod_descriptor":
        return f"  classmethod {name}{signature(getattr(cls, name))}"
    if isinstance(raw, property) or type(raw).__name__ in ("getset_descriptor", "member_descriptor"):
        return f"  property {name}"
    if callable(raw):
        return f"  method {name}{signature(getattr(cls, name))}"
    return f"  attribute {name}: {type(raw).__name__} = {raw!r}"


def describe_class(cls) -> list[str]:
    bases = ", ".join(b.__qualname__ for b in cls.__bases__ if b is not object)
    lines = [f"class {cls.__module__}.{cls.__qualname__}({bases})"]
    names = set()
    for klass in cls.__mro__:
        if klass is object or klass.__module__ == "builtins" and klass is not cls:
            continue
        if not klass.__module__.startswith("sno"):
            continue
        names.update(vars(klass))
    for name in sorted(names - IGNORED):
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue
        lines.append(describe_member(cls, name))
    return lines


def surface() -> str:
    lines = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        public = getattr(module, "__all__", None)
        if public is None:
            public = [n for n in vars(module) if not n.startswith("_")]
        lines.append(f"module {module_name}")
        for name in sorted(public):
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                lines.append(f"  submodule {name}")
            elif inspect.isclass(obj):
                home = f"{obj.__module__}.{obj.__qualname__}"
                lines.append(f"  class {name} = {home}")
            elif callable(obj):
                lines.append(f"  function {name}{signature(obj)}")
            else:
                lines.append(f"  value {name}: {type(obj).__name__}")
    classes = {}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and obj.__module__.startswith("sno"):
                classes[f"{obj.__module__}.{obj.__qualname__}"] = obj
    for key in sorted(classes):
        lines.extend(describe_class(classes[key]))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(surface(), end="")
