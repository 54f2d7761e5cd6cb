"""Streaming, strict reading of numeric text columns: a file is read in blocks of whole lines
(memory bounded by the block, whatever the file or line length) and each block parsed by the C
parser :mod:`latmon.inputs._textparse` into int64 at tens of millions of numbers per second. Where
the C extension was not built (a platform without a wheel and without a compiler), its
pure-Python twin :mod:`latmon.inputs._textparse_py` reads the same way, only slower.

A line the parser rejects is handed to the caller's ``bad_line`` callback with its number and
text; the callback raises (a user error naming file:line and the text), or returns to skip the
line (``--keep-going``, or a line the format allows such as cyclictest's ``Thread 0 Interval``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

try:
    from latmon.inputs._textparse import parse
except ImportError:  # the C extension is optional (pyproject.toml); same results, slower
    from latmon.inputs._textparse_py import parse

from latmon.errors import InputError

#: Bytes read at a time; also the longest line accepted.
BLOCK = 4 << 20
MAX_LINE = BLOCK

#: The parser's status codes, as words.
PROBLEMS = {
    1: "not a number",
    2: "wrong number of fields",
    3: "a number too large to be a latency",
    4: "more digits than the unit's resolution (finer than 1 ns)",
    5: "a negative number (a latency is at least 0)",
}


def shown(text: bytes, limit: int = 60) -> str:
    """A line for an error message: decoded leniently, cut to ``limit`` characters, quoted."""
    s = text.rstrip(b"\r\n").decode("utf-8", "backslashreplace")
    return repr(s if len(s) <= limit else s[:limit] + "…")


@dataclass
class Scan:
    """What a scan found besides the values."""

    max_fraction_digits: int = 0
    lines: int = 0


def scan(
    path: Path,
    *,
    delim: str,
    nfields: int,
    column: int,
    scale: int,
    bad_line: Callable[[int, int, bytes], None],
    start: int = 0,
    first_line: int = 1,
    found: Scan | None = None,
    non_negative: bool = False,
) -> Iterator[np.ndarray]:
    """Values of ``path`` from byte ``start`` (line ``first_line``) on, one array per block:
    the field ``column`` (shape (rows,)) or every field when column < 0 (shape (rows,
    nfields)), each scaled by 10**scale; with ``non_negative``, a value below 0 is a bad
    line."""
    width = nfields if column < 0 else 1
    found = found if found is not None else Scan()
    line_no = first_line
    carry = b""
    try:
        f = path.open("rb")
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None
    with f:
        f.seek(start)
        while True:
            chunk = f.read(BLOCK)
            if carry:
                first_end = chunk.find(b"\n")
                if len(carry) + (first_end if first_end >= 0 else len(chunk)) > MAX_LINE:
                    raise InputError(
                        str(path),
                        line_no,
                        f"a line longer than {MAX_LINE >> 20} MiB: not one number per line "
                        f"(starts {shown(carry[:40])})",
                    )
            data = carry + chunk if carry else chunk
            if not chunk:
                if not data:
                    break
                if not data.endswith(b"\n"):
                    data += b"\n"
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                if len(data) > MAX_LINE:
                    raise InputError(
                        str(path),
                        line_no,
                        f"a line longer than {MAX_LINE >> 20} MiB: not one number per line "
                        f"(starts {shown(data[:40])})",
                    )
                carry = data
                continue
            block, carry = data[:cut], data[cut:]
            if len(carry) > MAX_LINE:
                raise InputError(
                    str(path),
                    line_no + block.count(b"\n"),
                    f"a line longer than {MAX_LINE >> 20} MiB: not one number per line",
                )
            n_lines = block.count(b"\n")
            out = np.empty(n_lines * width, dtype=np.int64)
            view = memoryview(block)
            pos = 0
            while pos < len(block):
                rows, status, offset, frac = parse(
                    view[pos:], ord(delim), nfields, column, scale, out, non_negative
                )
                found.max_fraction_digits = max(found.max_fraction_digits, frac)
                if rows:
                    values = out[: rows * width].copy()
                    yield values if width == 1 else values.reshape(rows, width)
                if status == 0:
                    break
                bad_at = pos + offset
                eol = block.index(b"\n", bad_at)
                number = line_no + block.count(b"\n", 0, bad_at)
                bad_line(number, status, block[bad_at:eol])
                pos = eol + 1
            line_no += n_lines
            found.lines = line_no - 1
            if not chunk:
                break
