"""``sno.json_default``: every ID as its canonical text in JSON."""

from sno._sno import ID_CLASSES


def json_default(obj: object) -> str:
    """The canonical text of a libsno ID, for ``json.dumps(value, default=sno.json_default)``
    (also ``orjson.dumps(value, default=...)`` and msgspec's ``enc_hook``); any other object
    raises ``TypeError``, as ``json`` itself does.

    >>> import json, sno
    >>> json.dumps({"id": sno.ID("brpk4q72xwf2m63l")}, default=sno.json_default)
    '{"id": "brpk4q72xwf2m63l"}'
    """
    if isinstance(obj, ID_CLASSES):
        return str(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
