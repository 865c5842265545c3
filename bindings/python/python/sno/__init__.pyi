from datetime import datetime

from sno._sno import Generator as _NativeGenerator
from sno import (
    nanoflake as nanoflake,
    scru128 as scru128,
    scru160 as scru160,
    ulid as ulid,
    ulidflake as ulidflake,
    uuid7 as uuid7,
)
from sno._errors import (
    ClockRegressionError as ClockRegressionError,
    ConfigError as ConfigError,
    DecodeError as DecodeError,
    ForkedGeneratorError as ForkedGeneratorError,
    RandomnessExhaustedError as RandomnessExhaustedError,
    RandomnessUnavailableError as RandomnessUnavailableError,
    SequenceExhaustedError as SequenceExhaustedError,
    SnoError as SnoError,
    TimeRangeError as TimeRangeError,
)
from sno._sno import (
    BINARY_LEN as BINARY_LEN,
    ENCODED_LEN as ENCODED_LEN,
    ID as ID,
    MAX_BATCH as MAX_BATCH,
    SCRU128 as SCRU128,
    SCRU160 as SCRU160,
    ULID as ULID,
    Nanoflake as Nanoflake,
    UlidFlake as UlidFlake,
    UUID7 as UUID7,
    __version__ as __version__,
    decode_many as decode_many,
    encode_many as encode_many,
    new as new,
    new_many as new_many,
)

__all__ = [
    "BINARY_LEN",
    "ENCODED_LEN",
    "ClockRegressionError",
    "ConfigError",
    "DecodeError",
    "ForkedGeneratorError",
    "Generator",
    "ID",
    "MAX_BATCH",
    "Nanoflake",
    "RandomnessExhaustedError",
    "RandomnessUnavailableError",
    "SCRU128",
    "SCRU160",
    "SequenceExhaustedError",
    "SnoError",
    "TimeRangeError",
    "ULID",
    "UUID7",
    "UlidFlake",
    "__version__",
    "decode_many",
    "encode_many",
    "new",
    "nanoflake",
    "new_many",
    "scru128",
    "scru160",
    "ulid",
    "ulidflake",
    "uuid7",
]

class Generator(_NativeGenerator):
    def new_with_time(self, meta: int, time: datetime) -> ID: ...
