"""The pure-Python twin of the C parser :mod:`latmon.inputs._textparse`
(src/latmon/inputs/_textparse.c).

Used when the C extension is not there: a platform without a wheel and without a C compiler
(the extension is optional in pyproject.toml, so installing from the sdist never fails on it).
Same rules, same results, same status codes and offsets, the same values written to ``out``
(tests/test_textparse_fallback.py compares the two on generated inputs); about two orders of
magnitude slower, which only matters for inputs of millions of lines.

parse(buf, delim, nfields, column, scale, out) -> (rows, status, offset, max_frac); see the C
file's header for the contract.
"""

from __future__ import annotations

import re
from typing import Any

OK, NOT_A_NUMBER, FIELD_COUNT, TOO_LARGE, TOO_FINE, NEGATIVE = range(6)
#: |value| < 2^62 leaves int64 headroom for sums (the readers' LIMIT).
LIMIT = 1 << 62

_BLANKS = b" \t"
#: One number as the C parser reads it: blanks, sign, digits, '.' and digits, blanks. A '.'
#: without a digit after it is left unread, so the character check after it refuses the field
#: as the C code does.
_NUMBER = re.compile(rb"[ \t]*([+-]?)([0-9]*)(?:\.([0-9]+))?[ \t]*")


def _at_eol(buf: bytes, p: int, end: int) -> bool:
    return p == end or buf[p] == 10 or (buf[p] == 13 and (p + 1 == end or buf[p + 1] == 10))


def _number(
    buf: bytes, p: int, end: int, scale: int, delim: int, non_negative: bool
) -> tuple[int, int, int, int]:
    """(status, value, fraction digits, position after the field's trailing blanks)."""
    m = _NUMBER.match(buf, p, end)
    assert m is not None  # every part of the pattern may be empty
    sign, digits, fraction = m.group(1), m.group(2), m.group(3)
    if not digits:
        return NOT_A_NUMBER, 0, 0, p
    significant = digits.lstrip(b"0")
    # The integer part may be at most (LIMIT - 1) // 10^scale, as in C; the scaled value is
    # checked against LIMIT below. (A bound on the length first: int() refuses strings of
    # thousands of digits.)
    if len(significant) > 19 or int(significant or b"0") > (LIMIT - 1) // 10**scale:
        return TOO_LARGE, 0, 0, p
    q = m.end()
    if not _at_eol(buf, q, end) and buf[q] != delim:
        return NOT_A_NUMBER, 0, 0, p
    frac = fraction or b""
    if frac[scale:].strip(b"0"):
        return TOO_FINE, 0, 0, p
    kept = frac[:scale]
    v = int(significant or b"0") * 10**scale + (
        int(kept) * 10 ** (scale - len(kept)) if kept else 0
    )
    if v >= LIMIT:
        return TOO_LARGE, 0, 0, p
    if sign == b"-" and v != 0 and non_negative:
        return NEGATIVE, 0, 0, p
    return OK, (-v if sign == b"-" else v), len(frac), q


def parse(
    buf: Any,
    delim: int,
    nfields: int,
    column: int,
    scale: int,
    out: Any,
    non_negative: bool = False,
) -> tuple[int, int, int, int]:
    """Parse whole lines of ``buf`` into the int64 buffer ``out``; see the module docstring."""
    if scale < 0 or scale > 9 or nfields < 1 or column >= nfields:
        raise ValueError("parse: bad scale, field count or column")
    data = bytes(buf)
    dst = memoryview(out).cast("B").cast("q")
    end = len(data)
    per_row = nfields if column < 0 else 1
    capacity = len(dst)
    rows = written = max_frac = 0
    status = OK
    line = 0
    while line < end:
        p = line
        while p < end and data[p] in _BLANKS:
            p += 1
        if _at_eol(data, p, end) or data[p] == 35:
            eol = data.find(b"\n", p)
            line = eol + 1 if eol >= 0 else end
            continue
        if written + per_row > capacity:
            break
        bad = OK
        index = 0
        p = line
        while True:
            if column < 0 or index == column:
                bad, value, frac, p = _number(data, p, end, scale, delim, non_negative)
                if bad != OK:
                    break
                max_frac = max(max_frac, frac)
                dst[written + (index if column < 0 else 0)] = value
            else:
                while p < end and data[p] != delim and data[p] != 10:
                    p += 1
                if p > line and data[p - 1] == 13 and (p == end or data[p] == 10):
                    p -= 1
            index += 1
            if _at_eol(data, p, end):
                break
            if data[p] != delim:
                bad = NOT_A_NUMBER
                break
            if index >= nfields:
                bad = FIELD_COUNT
                break
            p += 1
        if bad == OK and index != nfields:
            bad = FIELD_COUNT
        if bad != OK:
            status = bad
            break
        eol = data.find(b"\n", p)
        line = eol + 1 if eol >= 0 else end
        written += per_row
        rows += 1
    return rows, status, line, max_frac
