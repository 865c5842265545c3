"""Ulid-Flake: 64-bit IDs (43-bit ms since 2024-01-01, then 20 random bits, or 15 random bits and
a 5-bit scalability id), written as 13 upper-case Crockford base32 characters.

``new()`` takes the next stand-alone value from a process-wide generator (thread-safe,
increasing, renewed in a child after ``os.fork()``); ``Generator(sid=..., epoch_ms=...,
entropy_size=...)`` is one of your own.

>>> from sno import ulidflake
>>> a, b = ulidflake.new(), ulidflake.new()
>>> a < b
True
>>> f = ulidflake.UlidFlake("00cmxb6tak4sa")
>>> (str(f), int(f), f.randomness, f.sid)
('00CMXB6TAK4SA', 14246757444195114, 627498, 10)
"""

from sno._sno import ULIDFLAKE_DEFAULT_EPOCH_MS as DEFAULT_EPOCH_MS
from sno._sno import UlidFlake
from sno._sno import UlidFlakeGenerator as Generator
from sno._sno import ulidflake_new as new
from sno._sno import ulidflake_new_many as new_many

__all__ = ["DEFAULT_EPOCH_MS", "UlidFlake", "Generator", "new", "new_many"]
