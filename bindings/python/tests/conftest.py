"""pytest fixtures; the helpers live in _vectors.py."""

import pytest

from _vectors import rows


@pytest.fixture(scope="session")
def codec_rows():
    return rows("sno_codec.tsv")
