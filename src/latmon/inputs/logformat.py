"""latmon-log version 1 (specified in docs/latmon-log.md): its grammar (record tags, keys,
integers, escapes, the CRC of a line), the writer, and what the first record of a log looks like.

The writer produces byte-for-byte what the C writer in sw/lib/latmon_log.c produces for the same
calls. The parser, which accepts what the writer emits by the same grammar, is the format's
reader, :mod:`latmon.inputs.readers.latmon_log`.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping
from typing import TextIO

FORMAT_VERSION = 1
MAX_LINE = 4096
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1

KEY = re.compile(r"[a-z][a-z0-9_.]*\Z")
INT = re.compile(r"-?[0-9]+\Z")
HEX8 = re.compile(r"[0-9a-f]{8}\Z")
RECORD_TAGS = frozenset("HCSBXE")

HeaderValue = str | int


def escape_value(value: str) -> str:
    """Escape a value so it holds only characters 0x21-0x7e (spaces and backslashes as \\xHH)."""
    out = []
    for byte in value.encode("utf-8"):
        if 0x21 <= byte <= 0x7E and byte != 0x5C:
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02x}")
    return "".join(out)


def with_crc(content: str) -> str:
    """Return a record line (without LF): content, a space, '*' and the CRC-32 of content."""
    return f"{content} *{zlib.crc32(content.encode('ascii')):08x}"


def _format_int(value: int, what: str) -> str:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"{what}={value} does not fit a signed 64-bit integer")
    return str(value)


def _pairs(items: Mapping[str, HeaderValue]) -> str:
    parts = []
    for key, value in items.items():
        if not KEY.match(key):
            raise ValueError(f"invalid key {key!r}: keys match [a-z][a-z0-9_.]*")
        text = str(value) if isinstance(value, int) else value
        if not isinstance(text, str) or text == "":
            raise ValueError(f"value of {key!r} must be a non-empty string or an int")
        parts.append(f"{key}={escape_value(text)}")
    return " ".join(parts)


class LogWriter:
    """Write one latmon-log to a text stream.

    >>> import io
    >>> f = io.StringIO()
    >>> w = LogWriter(f, source="example", unit="ns")
    >>> sid = w.series("cpu0", cpu=0)
    >>> w.sample(sid, 5123)
    >>> w.close()
    """

    def __init__(self, stream: TextIO, **header: HeaderValue) -> None:
        if "source" not in header or "unit" not in header:
            raise ValueError("a latmon-log header needs source= and unit=")
        if header["unit"] not in ("ns", "cycles"):
            raise ValueError(f"unit must be 'ns' or 'cycles', not {header['unit']!r}")
        if header["unit"] == "cycles" and "clock_hz" not in header:
            raise ValueError("unit=cycles needs clock_hz=")
        self._stream = stream
        self._crc = 0
        self._lines = 0
        self._closed = False
        self._fields: dict[int, int] = {}
        self._samples: dict[int, int] = {}
        self._bins: dict[int, int] = {}
        self._names: set[str] = set()
        self._emit(f"H latmon_log={FORMAT_VERSION}")
        # One H record per key keeps lines short on a serial console.
        for key, value in header.items():
            self._emit(f"H {_pairs({key: value})}")

    def _emit(self, content: str) -> None:
        if self._closed:
            raise ValueError("the log is closed")
        line = with_crc(content) + "\n"
        if len(line) - 1 > MAX_LINE:
            raise ValueError(f"record longer than {MAX_LINE} bytes")
        data = line.encode("ascii")
        self._crc = zlib.crc32(data, self._crc)
        self._lines += 1
        self._stream.write(line)

    def series(self, name: str, fields: Iterable[str] = ("latency",), **meta: HeaderValue) -> int:
        """Declare a series and return its id (0, 1, 2, ... in declaration order)."""
        fields = tuple(fields)
        if "latency" not in fields:
            raise ValueError("fields must include 'latency'")
        if len(set(fields)) != len(fields) or not all(KEY.match(f) for f in fields):
            raise ValueError(f"invalid fields {fields!r}")
        if name in self._names:
            raise ValueError(f"series name {name!r} is already declared")
        sid = len(self._fields)
        items: dict[str, HeaderValue] = {"name": name}
        if fields != ("latency",):
            items["fields"] = ",".join(fields)
        items.update(meta)
        self._emit(f"C {sid} {_pairs(items)}")
        self._names.add(name)
        self._fields[sid] = len(fields)
        self._samples[sid] = 0
        self._bins[sid] = 0
        return sid

    def _check_series(self, sid: int) -> None:
        if sid not in self._fields:
            raise ValueError(f"series {sid} is not declared")

    def sample(self, sid: int, *values: int) -> None:
        """Write one sample: one value per field of the series, in field order."""
        self._check_series(sid)
        if len(values) != self._fields[sid]:
            raise ValueError(f"series {sid} has {self._fields[sid]} fields, got {len(values)}")
        text = " ".join(_format_int(v, "sample value") for v in values)
        self._emit(f"S {sid} {self._samples[sid]} {text}")
        self._samples[sid] += 1

    def samples(self, sid: int, latencies: Iterable[int]) -> None:
        """Write many single-field samples."""
        for value in latencies:
            self.sample(sid, int(value))

    def bin(self, sid: int, lo: int | None, hi: int | None, count: int) -> None:
        """Write one histogram bin [lo, hi); None means unbounded (underflow/overflow bin)."""
        self._check_series(sid)
        lo_text = "-" if lo is None else _format_int(lo, "bin lo")
        hi_text = "+" if hi is None else _format_int(hi, "bin hi")
        if lo is not None and hi is not None and hi <= lo:
            raise ValueError(f"bin [{lo}, {hi}) is empty")
        if count < 0 or count > UINT64_MAX:
            raise ValueError(f"bin count {count} out of range")
        self._emit(f"B {sid} {lo_text} {hi_text} {count}")
        self._bins[sid] += 1

    def counters(self, sid: int, **counters: int) -> None:
        """Write an X record with non-negative integer counters."""
        self._check_series(sid)
        for key, value in counters.items():
            if not isinstance(value, int) or value < 0 or value > UINT64_MAX:
                raise ValueError(f"counter {key}={value!r} must be an integer in 0..2^64-1")
        if counters:
            self._emit(f"X {sid} {_pairs(dict(counters))}")

    def close(self) -> None:
        """Write each series' final counts and the trailer. The stream is not closed."""
        for sid in self._fields:
            self._emit(f"X {sid} samples={self._samples[sid]} bins={self._bins[sid]}")
        self._stream.write(f"E lines={self._lines} crc32={self._crc:08x}\n")
        self._closed = True


def looks_like_latmon_log(head: str) -> bool:
    """True when the text (the start of a file) holds the first record of a latmon-log."""
    return any(_is_magic(line.rstrip("\r")) for line in head.splitlines())


def _is_magic(line: str) -> bool:
    content, sep, crc = line.rpartition(" *")
    return (
        bool(sep)
        and content.startswith("H latmon_log=")
        and " " not in content[2:]
        and HEX8.match(crc) is not None
    )
