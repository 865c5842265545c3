"""monotonic KSUIDs (segmentio/ksuid: 27 base62 characters, case-sensitive; 20 bytes, a 32-bit
``timestamp_secs`` in seconds since 2014-05-13T16:53:20Z and a 128-bit ``payload``).

``new()`` takes the next value from a process-wide generator (thread-safe, strictly increasing,
renewed in a child after ``os.fork()``); ``Generator()`` is one of your own. Within a second a
generator increments the payload by 1 (ULID's rule with seconds), so one KSUID gives away the
next ones; where IDs must be unguessable, use ``KSUID.from_fields`` with your own randomness.

>>> from sno import ksuid
>>> a, b = ksuid.new(), ksuid.new()
>>> a < b and str(a) < str(b)
True
>>> ksuid.KSUID.from_str(str(a)) == a
True
>>> k = ksuid.KSUID("0ujtsYcgvSTl8PAuAdqWYSMnLOv")
>>> (k.timestamp_secs, k.unix_ms, hex(k.payload))
(107608047, 1507608047000, '0xb5a1cd34b5f99d1154fb6853345c9735')
>>> k.timestamp.isoformat()
'2017-10-10T04:00:47+00:00'
>>> ksuid.KSUID.from_fields(timestamp_secs=k.timestamp_secs, payload=k.payload) == k
True
"""

from sno._sno import KSUID
from sno._sno import KSUIDGenerator as Generator
from sno._sno import ksuid_new as new
from sno._sno import ksuid_new_many as new_many

__all__ = ["KSUID", "Generator", "new", "new_many"]
