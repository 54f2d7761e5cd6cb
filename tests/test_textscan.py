"""The streaming scanner and its C parser: values across block boundaries, line numbers of bad
lines, CRLF, blank and comment lines, exact decimals, fields."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import latmon.inputs.textscan as textscan
from latmon.errors import InputError
from latmon.inputs._textparse import parse
from latmon.inputs.textscan import scan


def collect(path: Path, **kw: object) -> tuple[list[int], list[tuple[int, int, bytes]]]:
    bad: list[tuple[int, int, bytes]] = []
    values = [
        int(v)
        for part in scan(path, bad_line=lambda *a: bad.append(a), **kw)  # type: ignore[arg-type]
        for v in np.ravel(part)
    ]
    return values, bad


def test_values_and_line_numbers_across_blocks(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(textscan, "BLOCK", 64)  # many blocks, lines cut at block ends
    lines = [str(i * 37) for i in range(500)]
    lines[123] = "oops"
    lines[400] = "# comment"
    path = tmp_path / "n.txt"
    path.write_bytes(("\r\n".join(lines)).encode())  # CRLF, no final newline
    values, bad = collect(path, delim=",", nfields=1, column=0, scale=0)
    want = [i * 37 for i in range(500) if i not in (123, 400)]
    assert values == want
    assert bad == [(124, 1, b"oops\r")]


def test_decimals_scale_exactly_or_are_refused() -> None:
    out = np.zeros(8, np.int64)
    assert parse(b"12.5\n0.001\n-3\n", 44, 1, 0, 3, out)[:3] == (3, 0, 14)
    assert out[:3].tolist() == [12_500, 1, -3000]
    assert parse(b"1.0001\n", 44, 1, 0, 3, out)[1] == 4  # finer than the unit: refused
    assert parse(b"1.5000\n", 44, 1, 0, 3, out)[:2] == (1, 0)  # trailing zeros are fine
    for bad in (b"1.\n", b".5\n", b"1e3\n", b"0x10\n", b"1 2\n", b"--1\n", b"nan\n"):
        assert parse(bad, 44, 1, 0, 0, out)[1] == 1, bad
    assert parse(b"9223372036854775807\n", 44, 1, 0, 0, out)[1] == 3
    # 19 digits past int64: refused, not wrapped around to a negative value
    for text in (b"9223372036854775808\n", b"99999999999999999999\n", b"-9999999999999999999\n"):
        assert parse(text, 44, 1, 0, 0, out)[1] == 3, text


def test_fields_of_csv_and_cyclictest_lines() -> None:
    out = np.zeros(8, np.int64)
    assert parse(b"a,7,b\nx,8,y\n", 44, 3, 1, 0, out)[:2] == (2, 0)  # only column 1 is numeric
    assert out[:2].tolist() == [7, 8]
    assert parse(b"1,2\n1,2,3\n", 44, 2, 0, 0, out)[:3] == (1, 2, 4)  # wrong field count
    assert parse(b"   0:   5:   20\n", 58, 3, -1, 0, out)[:2] == (1, 0)
    assert out[:3].tolist() == [0, 5, 20]


def test_a_line_longer_than_a_block_is_refused(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(textscan, "BLOCK", 1024)
    monkeypatch.setattr(textscan, "MAX_LINE", 1024)
    path = tmp_path / "long.txt"
    path.write_bytes(b"1\n2\n" + b"3" * 5000 + b"\n4\n")
    with pytest.raises(InputError, match=r"long.txt:3: a line longer than"):
        collect(path, delim=",", nfields=1, column=0, scale=0)


LIMIT = 2**62


@pytest.mark.parametrize(
    ("text", "scale", "status", "value"),
    [
        (b"18446744073709551716", 0, 3, None),  # 2^64 + 100: used to wrap to 100
        (b"9223372036854775808", 0, 3, None),  # 2^63: used to become -2^63
        (b"99999999999999999999999999999999999999", 0, 3, None),
        (b"4611686018427387903", 0, 0, LIMIT - 1),  # the largest accepted
        (b"4611686018427387904", 0, 3, None),  # 2^62
        (b"-4611686018427387903", 0, 0, -(LIMIT - 1)),
        (b"4611686018427387.903", 3, 0, LIMIT - 1),  # the integer part at its limit
        (b"4611686018427387.904", 3, 3, None),
        (b"4611686018.427387903", 9, 0, LIMIT - 1),
        (b"00000000000000000000000000000000000042", 0, 0, 42),  # leading zeros are not size
    ],
)
def test_numbers_at_the_integer_limits(text: bytes, scale: int, status: int, value: int) -> None:
    out = np.zeros(2, np.int64)
    rows, got, _, _ = parse(text + b"\n", 44, 1, 0, scale, out)
    assert got == status and rows == (status == 0)
    if value is not None:
        assert int(out[0]) == value


def test_negative_numbers_are_refused_when_asked() -> None:
    out = np.zeros(4, np.int64)
    assert parse(b"5\n-5\n", 44, 1, 0, 0, out)[:2] == (2, 0)  # allowed by default
    assert parse(b"5\n-5\n", 44, 1, 0, 0, out, True)[:3] == (1, 5, 2)  # stops at line 2
    assert parse(b"-0\n+7\n", 44, 1, 0, 0, out, True)[:2] == (2, 0)  # -0 is 0
