"""Nanoflakes: Snowflake-layout 64-bit IDs (41-bit ms since your epoch, 10-bit generator id,
12-bit sequence), written in lower-case base36 without padding (``.padded`` sorts as text).

There is no process-wide generator: Nanoflakes are unique only across generators with distinct
ids and one epoch, so you choose both.

>>> from sno import nanoflake
>>> g = nanoflake.Generator(epoch_ms=1640995200000, generator_id=5)
>>> a, b = g.new(), g.new()
>>> a < b and a.generator_id == 5
True
>>> n = nanoflake.Nanoflake("jnxxr658jlkw")
>>> (int(n), n.timestamp_ms, n.sequence, n.padded)
(2588350721531334656, 617110901244, 0, '0jnxxr658jlkw')
"""

from sno._sno import Nanoflake
from sno._sno import NanoflakeGenerator as Generator

__all__ = ["Nanoflake", "Generator"]
