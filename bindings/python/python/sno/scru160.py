"""SCRU160 IDs (deprecated by SCRU128; for existing data): 32 base32hex characters, or 40 hex
digits (``.hex``); either form and either case is decoded.

``new()`` takes the next value from a process-wide generator (thread-safe, increasing, renewed in
a child after ``os.fork()``); ``Generator()`` is one of your own.

>>> from sno import scru160
>>> a, b = scru160.new(), scru160.new()
>>> a < b
True
>>> s = scru160.SCRU160("05TTUP1HNCPNH30VEK64KDQT9BSNU4C4")
>>> (s.counter, s.hex)
(13176, '017bdf6431bb33788c1f750c4a375d4af97f1184')
>>> scru160.SCRU160(s.hex) == s
True
"""

from sno._sno import SCRU160
from sno._sno import SCRU160Generator as Generator
from sno._sno import scru160_new as new
from sno._sno import scru160_new_many as new_many

__all__ = ["SCRU160", "Generator", "new", "new_many"]
