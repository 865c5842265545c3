"""monotonic ULIDs (26 Crockford base32 characters).

``new()`` takes the next value from a process-wide generator (thread-safe, strictly increasing,
renewed in a child after ``os.fork()``); ``Generator()`` is one of your own.

>>> from sno import ulid
>>> a, b = ulid.new(), ulid.new()
>>> a < b
True
>>> ulid.ULID.from_str(str(a)) == a
True
>>> str(ulid.ULID("01ARZ3NDEKTSV4RRFFQ69G5FAV"))
'01ARZ3NDEKTSV4RRFFQ69G5FAV'
"""

from sno._sno import ULID
from sno._sno import ULIDGenerator as Generator
from sno._sno import ulid_new as new
from sno._sno import ulid_new_many as new_many

__all__ = ["ULID", "Generator", "new", "new_many"]
