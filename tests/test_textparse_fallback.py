"""The pure-Python fallback of the C text parser gives the C parser's results: rows, status,
offset, fraction digits and every value written, on generated inputs and parameters. The C
extension is optional in the package (a platform without a wheel or a compiler gets the
fallback), so this is what keeps the two one parser."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latmon.inputs import _textparse_py
from latmon.inputs._textparse import parse as parse_c

# Bytes that matter to the grammar, plus a few that do not.
ALPHABET = b"0123456789+-.,: \t\r\n#xe9"
texts = st.lists(st.sampled_from(list(ALPHABET)), max_size=80).map(bytes)
# Numbers near the limits (2^62 and its scaled bounds) written out in full.
big = st.integers(min_value=-(1 << 63), max_value=1 << 63).map(lambda v: str(v).encode())
lines = st.lists(
    st.one_of(texts, big, st.builds(lambda a, b: a + b"." + b, big, big)), max_size=6
).map(b"\n".join)


@settings(max_examples=600, deadline=None)
@given(
    buf=st.one_of(texts, lines),
    delim=st.sampled_from([44, 58, 9, 32]),
    nfields=st.integers(1, 4),
    column=st.integers(-1, 3),
    scale=st.integers(0, 9),
    capacity=st.integers(0, 12),
    non_negative=st.booleans(),
)
def test_fallback_equals_the_c_parser(
    buf: bytes, delim: int, nfields: int, column: int, scale: int, capacity: int, non_negative: bool
) -> None:
    if column >= nfields:
        with pytest.raises(ValueError):
            parse_c(buf, delim, nfields, column, scale, np.zeros(1, np.int64))
        with pytest.raises(ValueError):
            _textparse_py.parse(buf, delim, nfields, column, scale, np.zeros(1, np.int64))
        return
    out_c = np.full(capacity, -7, np.int64)
    out_py = out_c.copy()
    got_c = parse_c(buf, delim, nfields, column, scale, out_c, non_negative)
    got_py = _textparse_py.parse(buf, delim, nfields, column, scale, out_py, non_negative)
    assert got_py == got_c
    assert out_py.tolist() == out_c.tolist()


def test_fallback_reads_a_two_dimensional_output() -> None:
    out = np.zeros((2, 3), np.int64)
    assert _textparse_py.parse(b"   0:   5:   20\n1:2:3\n", 58, 3, -1, 0, out) == (2, 0, 22, 0)
    assert out.tolist() == [[0, 5, 20], [1, 2, 3]]


def test_a_number_of_thousands_of_digits_is_too_large_in_both() -> None:
    out = np.zeros(2, np.int64)
    for text in (b"9" * 5000 + b"\n", b"0" * 5000 + b"1\n"):
        assert _textparse_py.parse(text, 44, 1, 0, 0, out) == parse_c(text, 44, 1, 0, 0, out)
