"""UUIDv7 (RFC 9562, Method 1 counter).

``new()`` takes the next value from a process-wide generator (thread-safe, strictly increasing,
renewed in a child after ``os.fork()``); ``Generator()`` is one of your own.

>>> from sno import uuid7
>>> a, b = uuid7.new(), uuid7.new()
>>> a < b
True
>>> uuid7.UUID7.from_str(str(a)) == a
True
>>> str(uuid7.UUID7("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"))
'017f22e2-79b0-7cc3-98c4-dc0c0c07398f'
"""

from sno._sno import UUID7
from sno._sno import UUID7Generator as Generator
from sno._sno import uuid7_new as new
from sno._sno import uuid7_new_many as new_many

__all__ = ["UUID7", "Generator", "new", "new_many"]
