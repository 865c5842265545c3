"""TypeIDs (jetify-com/typeid, spec v0.3): a type prefix, ``_``, and a UUID as 26 characters of
lower-case Crockford base32 (``user_01h455vb4pex5vsknk084sn02q``).

``new(prefix)`` makes one with a UUIDv7 from the process-wide UUIDv7 generator (thread-safe,
strictly increasing, renewed in a child after ``os.fork()``). Any UUID is a valid suffix when
reading (``TypeID(text)``, ``TypeID.from_uuid(prefix, uuid)``); the binary form (``bytes``,
``from_bytes``, ``int``) is the UUID alone, without the prefix.

>>> from sno import typeid
>>> a, b = typeid.new("user"), typeid.new("user")
>>> a < b and a.prefix == "user"
True
>>> t = typeid.TypeID("user_01h455vb4pex5vsknk084sn02q")
>>> (t.prefix, t.suffix, str(t.uuid))
('user', '01h455vb4pex5vsknk084sn02q', '01890a5d-ac96-774b-bcce-b302099a8057')
>>> typeid.TypeID.from_uuid("user", t.uuid) == t
True
"""

from sno._sno import TypeID

new = TypeID.new

__all__ = ["TypeID", "new"]
