"""SCRU128 IDs (25 base36 digits).

``new()`` takes the next value from a process-wide generator (thread-safe, strictly increasing,
renewed in a child after ``os.fork()``); ``Generator()`` is one of your own.

>>> from sno import scru128
>>> a, b = scru128.new(), scru128.new()
>>> a < b
True
>>> scru128.SCRU128.from_str(str(a)) == a
True
>>> str(scru128.SCRU128("0372hg16csmsm50l8dikcvukc"))
'0372hg16csmsm50l8dikcvukc'
"""

from sno._sno import SCRU128
from sno._sno import SCRU128Generator as Generator
from sno._sno import scru128_new as new
from sno._sno import scru128_new_many as new_many

__all__ = ["SCRU128", "Generator", "new", "new_many"]
