"""Property tests (hypothesis): round trips, ordering, strictness."""

from hypothesis import given, settings, strategies as st

import sno
from _vectors import ALPHABET, expected_error

settings.register_profile("ci", max_examples=2000, deadline=None)
settings.load_profile("ci")


@given(st.binary(min_size=10, max_size=10))
def test_round_trip(raw):
    id_ = sno.ID.from_bytes(raw)
    text = str(id_)
    assert len(text) == 16 and all(ord(c) in ALPHABET for c in text)
    assert sno.ID.from_str(text) == id_ and bytes(id_) == raw


@given(st.binary(min_size=10, max_size=10), st.binary(min_size=10, max_size=10))
def test_order_matches_in_every_form(x, y):
    a, b = sno.ID.from_bytes(x), sno.ID.from_bytes(y)
    assert (a < b) == (x < y) == (str(a) < str(b))
    assert (a == b) == (x == y)


@given(st.binary(min_size=16, max_size=16))
def test_arbitrary_ascii_inputs(data):
    text = data.decode("latin-1")
    want = expected_error(text.encode("utf-8"))
    try:
        got = sno.ID.from_str(text)
    except sno.DecodeError as e:
        assert (e.code, e.position) == want
    else:
        assert want is None and str(got) == text


@given(st.lists(st.binary(min_size=10, max_size=10), max_size=40))
def test_batch_round_trip(raws):
    ids = [sno.ID.from_bytes(r) for r in raws]
    texts = sno.encode_many(ids)
    assert texts == [str(i) for i in ids]
    assert sno.decode_many(texts) == ids


@given(st.lists(st.binary(min_size=16, max_size=16), min_size=1, max_size=12))
def test_batch_matches_single(items):
    texts = [d.decode("latin-1") for d in items]
    single = []
    for i, t in enumerate(texts):
        try:
            single.append(sno.ID.from_str(t))
        except sno.DecodeError as e:
            first_error = (i, e.code, e.position)
            break
    else:
        first_error = None
    try:
        got = sno.decode_many(texts)
    except sno.DecodeError as e:
        assert (e.index, e.code, e.position) == first_error
    else:
        assert first_error is None and got == single
