from datetime import datetime

from sno._sno import (
    BINARY_LEN as BINARY_LEN,
    ENCODED_LEN as ENCODED_LEN,
    ClockRegressionError as ClockRegressionError,
    ConfigError as ConfigError,
    DecodeError as DecodeError,
    ID as ID,
    SequenceExhaustedError as SequenceExhaustedError,
    SnoError as SnoError,
    TimeRangeError as TimeRangeError,
    __version__ as __version__,
    new as new,
    new_many as new_many,
)

__all__ = [
    "BINARY_LEN",
    "ENCODED_LEN",
    "ClockRegressionError",
    "ConfigError",
    "DecodeError",
    "Generator",
    "ID",
    "SequenceExhaustedError",
    "SnoError",
    "TimeRangeError",
    "__version__",
    "new",
    "new_many",
]

class Generator:
    def __init__(
        self,
        partition: int | None = None,
        sequence_min: int = 0,
        sequence_max: int = 65535,
        snapshot: dict[str, int] | None = None,
    ) -> None: ...
    def new(self, meta: int = 0) -> ID: ...
    def try_new(self, meta: int = 0) -> ID: ...
    def new_with_time(self, meta: int, time: datetime) -> ID: ...
    def snapshot(self) -> dict[str, int]: ...
    def stats(self) -> dict[str, int]: ...
    @property
    def partition(self) -> int: ...
    @property
    def sequence_min(self) -> int: ...
    @property
    def sequence_max(self) -> int: ...
    @property
    def capacity(self) -> int: ...
