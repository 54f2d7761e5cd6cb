"""latmon-log: the text log latmon's own tools write (docs/latmon-log.md), read into the run model
like every other format. The parser checks every line's CRC, the sequence numbers and counts of
each series and the trailer, and reports each problem with the file name and line number: in
strict mode it raises :class:`~latmon.errors.InputError` at the first problem; with
``keep_going=True`` it keeps every record that passed its own check and lists the problems on the
result. The grammar it shares with the writer (keys, integers, escapes, the CRC) is
:mod:`latmon.inputs.logformat`.
Over 500 lines on purpose: the parser and its link to the run model are one reader, as for every
other format.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.logformat import (
    FORMAT_VERSION,
    HEX8,
    INT,
    INT64_MAX,
    INT64_MIN,
    KEY,
    MAX_LINE,
    RECORD_TAGS,
    UINT64_MAX,
)
from latmon.inputs.readers import Problems, ReadOptions
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "latmon-log"
#: header keys that describe a series (a run's value is the default of its series)
_SERIES_KEYS = ("unit", "clock_hz", "resolution")
_ESCAPE = re.compile(r"\\x([0-9a-f]{2})")


def unescape_value(text: str) -> str:
    """Undo :func:`latmon.inputs.logformat.escape_value`; bytes that are not valid UTF-8
    become U+FFFD."""
    raw = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    return raw.encode("latin-1").decode("utf-8", errors="replace")


@dataclass
class Problem:
    """One thing wrong in a log, located by line number (1-based, in the file)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class LogSeries:
    """One series of a log as read."""

    sid: int
    name: str
    fields: tuple[str, ...]
    meta: dict[str, str]
    seq: np.ndarray  # int64, the seq of each kept sample
    values: np.ndarray  # int64, shape (samples, len(fields))
    bins: list[tuple[int | None, int | None, int]]
    counters: dict[str, int]

    def field(self, name: str) -> np.ndarray:
        """The values of one field as a 1-D int64 array."""
        return self.values[:, self.fields.index(name)]

    @property
    def latency(self) -> np.ndarray:
        return self.field("latency")


@dataclass
class LogRun:
    """One log (from `H latmon_log=1` to its `E` trailer) as read from a file."""

    path: str
    first_line: int
    last_line: int
    meta: dict[str, str]
    series: list[LogSeries]
    problems: list[Problem] = field(default_factory=list)
    foreign_lines: int = 0

    @property
    def damaged(self) -> bool:
        return bool(self.problems)


class _SeriesBuilder:
    def __init__(self, sid: int, name: str, fields: tuple[str, ...], meta: dict[str, str]):
        self.sid = sid
        self.name = name
        self.fields = fields
        self.meta = meta
        self.seq: list[int] = []
        self.rows: list[list[int]] = []
        self.bins: list[tuple[int | None, int | None, int]] = []
        self.counters: dict[str, int] = {}
        self.next_seq = 0
        self.missing: set[int] = set()
        self.bin_records = 0

    def build(self) -> LogSeries:
        order = np.argsort(np.asarray(self.seq, dtype=np.int64), kind="stable")
        values = np.asarray(self.rows, dtype=np.int64).reshape(len(self.rows), len(self.fields))
        return LogSeries(
            sid=self.sid,
            name=self.name,
            fields=self.fields,
            meta=self.meta,
            seq=np.asarray(self.seq, dtype=np.int64)[order],
            values=values[order],
            bins=self.bins,
            counters=self.counters,
        )


class _Damage(Exception):
    """A problem in the current line; the line is dropped."""


class _LogBuilder:
    def __init__(self, path: str, first_line: int) -> None:
        self.path = path
        self.first_line = first_line
        self.meta: dict[str, str] = {}
        self.series: dict[int, _SeriesBuilder] = {}
        self.names: set[str] = set()
        self.problems: list[Problem] = []
        self.crc = zlib.crc32(b"")
        self.lines = 0
        self.foreign = 0

    def add_to_trailer(self, raw_line: str) -> None:
        self.crc = zlib.crc32((raw_line + "\n").encode("latin-1"), self.crc)
        self.lines += 1

    def finish(self, last_line: int) -> LogRun:
        return LogRun(
            path=self.path,
            first_line=self.first_line,
            last_line=last_line,
            meta=self.meta,
            series=[b.build() for b in self.series.values()],
            problems=self.problems,
            foreign_lines=self.foreign,
        )


def _parse_pairs(tokens: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not KEY.match(key) or value == "":
            raise _Damage(f"malformed key=value pair {token!r}")
        if key in out:
            raise _Damage(f"key {key!r} given twice")
        out[key] = unescape_value(value)
    return out


def _parse_int(text: str, what: str) -> int:
    if not INT.match(text):
        raise _Damage(f"{what} {text!r} is not an integer")
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise _Damage(f"{what} {text} does not fit a signed 64-bit integer")
    return value


def _parse_count(text: str, what: str) -> int:
    if not text.isdigit():
        raise _Damage(f"{what} {text!r} is not a non-negative integer")
    value = int(text)
    if value > UINT64_MAX:
        raise _Damage(f"{what} {text} does not fit an unsigned 64-bit integer")
    return value


class _Reader:
    def __init__(self, path: str, keep_going: bool) -> None:
        self.path = path
        self.keep_going = keep_going
        self.runs: list[LogRun] = []
        self.log: _LogBuilder | None = None
        self.orphan_problems: list[Problem] = []

    def problem(self, line: int, message: str) -> None:
        if not self.keep_going:
            raise InputError(self.path, line, message)
        if self.log is not None:
            self.log.problems.append(Problem(line, message))
        else:
            self.orphan_problems.append(Problem(line, message))

    def feed(self, lines: Iterable[str]) -> list[LogRun]:
        number = 0
        for number, raw in enumerate(lines, start=1):
            line = raw.rstrip("\n")
            if line.endswith("\r"):
                line = line[:-1]
            self.line(number, line)
        if self.log is not None:
            self.problem(number, "no trailer (E record): the log is truncated")
            self.end_log(number)
        if not self.runs:
            message = "no latmon-log found (no 'H latmon_log=1 *<crc>' record)"
            if self.orphan_problems:
                message += f"; first problem: {self.orphan_problems[0]}"
            raise InputError(self.path, None, message)
        if self.orphan_problems:
            # Records outside any log: attach to the nearest log so they are not lost silently.
            self.runs[0].problems[:0] = self.orphan_problems
        return self.runs

    def end_log(self, last_line: int) -> None:
        assert self.log is not None
        run = self.log.finish(last_line)
        self.runs.append(run)
        self.log = None

    def line(self, number: int, line: str) -> None:
        if len(line) < 2 or line[0] not in RECORD_TAGS or line[1] != " ":
            if self.log is not None:
                self.log.foreign += 1  # a console's other text inside a log
            return
        if len(line) > MAX_LINE:
            self.problem(number, f"line longer than {MAX_LINE} bytes")
            if self.log is not None:
                self.log.add_to_trailer(line)
            return
        if line[0] == "E":
            self.trailer(number, line)
            return
        content, sep, crc = line.rpartition(" *")
        if not sep or not HEX8.match(crc):
            self.problem(number, "record without a valid ' *<crc32>' suffix")
            if self.log is not None:
                self.log.add_to_trailer(line)
            return
        if not line.isascii() or f"{zlib.crc32(content.encode('ascii')):08x}" != crc:
            self.problem(number, "CRC mismatch: the line is corrupted")
            if self.log is not None:
                self.log.add_to_trailer(line)
            return
        tokens = content.split(" ")
        if tokens[0] == "H" and len(tokens) == 2 and tokens[1].startswith("latmon_log="):
            self.begin(number, line, tokens[1])
            return
        if self.log is None:
            self.problem(
                number,
                f"{tokens[0]} record outside a log (before 'H latmon_log=1' or after a "
                "trailer): the start of the log is missing",
            )
            return
        self.log.add_to_trailer(line)
        try:
            self.record(number, tokens)
        except _Damage as damage:
            self.problem(number, str(damage))

    def begin(self, number: int, line: str, token: str) -> None:
        if self.log is not None:
            self.problem(number, "a new log starts before the previous one's trailer")
            self.end_log(number - 1)
        version = token.partition("=")[2]
        if version != str(FORMAT_VERSION):
            # A log of an unknown version cannot be read at all, even with keep-going.
            raise InputError(
                self.path,
                number,
                f"latmon-log version {version!r} is not supported (this reader knows version "
                f"{FORMAT_VERSION}); update latmon",
            )
        self.log = _LogBuilder(self.path, number)
        self.log.add_to_trailer(line)
        self.log.meta["latmon_log"] = version

    def record(self, number: int, tokens: list[str]) -> None:
        log = self.log
        assert log is not None
        tag = tokens[0]
        if tag == "H":
            pairs = _parse_pairs(tokens[1:])
            if not pairs:
                raise _Damage("H record without key=value pairs")
            for key in pairs:
                if key in log.meta:
                    raise _Damage(f"header key {key!r} given twice")
            log.meta.update(pairs)
            return
        if len(tokens) < 2:
            raise _Damage(f"{tag} record without a series id")
        sid = _parse_count(tokens[1], "series id")
        if tag == "C":
            self.declare(sid, tokens[2:])
            return
        builder = log.series.get(sid)
        if builder is None:
            raise _Damage(f"series {sid} is used before its C record")
        if tag == "S":
            self.sample(number, builder, tokens[2:])
        elif tag == "B":
            if len(tokens) != 5:
                raise _Damage("B record must be 'B <id> <lo> <hi> <count>'")
            lo = None if tokens[2] == "-" else _parse_int(tokens[2], "bin lo")
            hi = None if tokens[3] == "+" else _parse_int(tokens[3], "bin hi")
            count = _parse_count(tokens[4], "bin count")
            if lo is not None and hi is not None and hi <= lo:
                raise _Damage(f"empty bin [{lo}, {hi})")
            if builder.bins:
                prev_hi = builder.bins[-1][1]
                if prev_hi is None or lo is None or lo < prev_hi:
                    raise _Damage(f"bins of series {builder.name!r} overlap or are out of order")
            builder.bins.append((lo, hi, count))
            builder.bin_records += 1
        elif tag == "X":
            pairs = _parse_pairs(tokens[2:])
            for key, value in pairs.items():
                builder.counters[key] = _parse_count(value, f"counter {key}")

    def declare(self, sid: int, tokens: list[str]) -> None:
        log = self.log
        assert log is not None
        if sid > 0xFFFF:
            raise _Damage(f"series id {sid} is out of range 0..65535")
        if sid in log.series:
            raise _Damage(f"series {sid} declared twice")
        meta = _parse_pairs(tokens)
        name = meta.pop("name", None)
        if name is None:
            raise _Damage(f"series {sid} has no name=")
        if name in log.names:
            raise _Damage(f"series name {name!r} declared twice")
        fields = tuple(meta.pop("fields", "latency").split(","))
        if "latency" not in fields or len(set(fields)) != len(fields):
            raise _Damage(f"fields={','.join(fields)} must name 'latency' once")
        log.names.add(name)
        log.series[sid] = _SeriesBuilder(sid, name, fields, meta)

    def sample(self, number: int, builder: _SeriesBuilder, tokens: list[str]) -> None:
        if len(tokens) != 1 + len(builder.fields):
            raise _Damage(
                f"S record of series {builder.name!r} needs a seq and {len(builder.fields)} "
                f"value(s), found {len(tokens)} field(s)"
            )
        seq = _parse_count(tokens[0], "seq")
        values = [_parse_int(t, "sample value") for t in tokens[1:]]
        if seq == builder.next_seq:
            builder.next_seq += 1
        elif seq > builder.next_seq:
            lost = seq - builder.next_seq
            self.problem(
                number,
                f"series {builder.name!r}: expected seq {builder.next_seq}, found {seq}: "
                f"{lost} sample(s) lost before this line",
            )
            builder.missing.update(range(builder.next_seq, min(seq, builder.next_seq + 1_000_000)))
            builder.next_seq = seq + 1
        elif seq in builder.missing:
            builder.missing.discard(seq)
            self.problem(number, f"series {builder.name!r}: seq {seq} is out of order")
        else:
            raise _Damage(f"series {builder.name!r}: seq {seq} is a duplicate")
        builder.seq.append(seq)
        builder.rows.append(values)

    def trailer(self, number: int, line: str) -> None:
        log = self.log
        if log is None:
            self.problem(number, "trailer (E record) without a log before it")
            return
        tokens = line.split(" ")
        try:
            pairs = _parse_pairs(tokens[1:])
            lines = _parse_count(pairs["lines"], "lines")
            crc = pairs["crc32"]
        except (_Damage, KeyError):
            self.problem(number, "malformed trailer: expected 'E lines=<n> crc32=<8 hex>'")
            self.end_log(number)
            return
        for builder in log.series.values():
            self.check_counts(number, builder)
        if lines != log.lines:
            self.problem(
                number,
                f"trailer counts {lines} record lines but the log has {log.lines}: "
                f"{abs(lines - log.lines)} line(s) {'lost' if lines > log.lines else 'extra'}",
            )
        elif crc != f"{log.crc:08x}":
            self.problem(
                number,
                f"log CRC mismatch (trailer {crc}, computed {log.crc:08x}): "
                "lines were corrupted or reordered",
            )
        self.end_log(number)

    def check_counts(self, number: int, builder: _SeriesBuilder) -> None:
        expected = builder.counters.get("samples")
        if expected is None:
            self.problem(number, f"series {builder.name!r} has no final X samples= count")
            return
        if builder.missing:
            first = min(builder.missing)
            self.problem(
                number,
                f"series {builder.name!r}: {len(builder.missing)} sample(s) missing "
                f"(first seq {first})",
            )
        if expected > builder.next_seq:
            self.problem(
                number,
                f"series {builder.name!r}: the writer wrote {expected} samples, the last "
                f"{expected - builder.next_seq} are missing",
            )
        elif expected < builder.next_seq:
            self.problem(
                number,
                f"series {builder.name!r}: the writer wrote {expected} samples but seq reaches "
                f"{builder.next_seq - 1}",
            )
        bins = builder.counters.get("bins", 0)
        if bins != builder.bin_records:
            self.problem(
                number,
                f"series {builder.name!r}: the writer wrote {bins} bins, {builder.bin_records} "
                "were read",
            )


def read_lines(
    lines: Iterable[str], path: str = "<input>", keep_going: bool = False
) -> list[LogRun]:
    """Read every latmon-log in ``lines`` (strings, with or without line ends)."""
    return _Reader(path, keep_going).feed(lines)


def read_file(path: str | Path, keep_going: bool = False) -> list[LogRun]:
    """Read every latmon-log in a file. Raises InputError (strict) or marks problems."""
    path = Path(path)
    try:
        with path.open(encoding="latin-1", newline="\n") as stream:
            return read_lines(stream, str(path), keep_going)
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    """Every run of the log; with ``options.keep_going`` the valid part of a damaged one. The
    parser checks the records (CRC, damage rules) and lists each log's problems."""
    return [run_from_log(log) for log in read_file(path, keep_going=options.keep_going)]


def _int_key(where: str, key: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(where, None, f"{key}={text!r} is not an integer") from None
    if value <= 0:
        raise InputError(where, None, f"{key}={text} must be positive")
    return value


def histogram_from_bins(bins: list[tuple[int | None, int | None, int]]) -> HistogramSpec:
    """The model's histogram from latmon-log B records (lo None: underflow, hi None: overflow)."""
    lo, hi, count = [], [], []
    underflow, overflow = 0, 0
    underflow_hi: int | None = None
    overflow_lo: int | None = None
    for b_lo, b_hi, b_count in bins:
        if b_lo is None:
            underflow += b_count
            underflow_hi = b_hi
        elif b_hi is None:
            overflow += b_count
            overflow_lo = b_lo
        else:
            lo.append(b_lo)
            hi.append(b_hi)
            count.append(b_count)
    return HistogramSpec(
        lo=np.asarray(lo, dtype=np.int64),
        hi=np.asarray(hi, dtype=np.int64),
        count=np.asarray(count, dtype=np.int64),
        underflow=underflow,
        underflow_hi=underflow_hi,
        overflow=overflow,
        overflow_lo=overflow_lo,
    )


def series_from_log(log: LogRun, s: LogSeries) -> SeriesSpec:
    where = f"{log.path}:{log.first_line}"
    merged = {k: log.meta[k] for k in _SERIES_KEYS if k in log.meta}
    merged.update({k: s.meta[k] for k in _SERIES_KEYS if k in s.meta})
    unit = merged.get("unit")
    if unit not in ("ns", "cycles"):
        raise InputError(where, None, f"series {s.name!r}: unit must be ns or cycles, not {unit!r}")
    clock_hz = _int_key(where, "clock_hz", merged["clock_hz"]) if "clock_hz" in merged else None
    if unit == "cycles" and clock_hz is None:
        raise InputError(where, None, f"series {s.name!r}: unit=cycles needs clock_hz=")
    resolution = _int_key(where, "resolution", merged.get("resolution", "1"))
    columns = {name: np.ascontiguousarray(s.values[:, i]) for i, name in enumerate(s.fields)}
    if not len(s.values) and s.bins:
        columns = {}
    return SeriesSpec(
        name=s.name,
        unit=unit,
        clock_hz=clock_hz,
        resolution=resolution,
        columns=columns,
        histogram=histogram_from_bins(s.bins) if s.bins else None,
        counters=dict(s.counters),
        meta={k: v for k, v in s.meta.items() if k not in _SERIES_KEYS},
    )


def run_from_log(log: LogRun) -> RunSpec:
    """One latmon-log as the run model's plain data."""
    if "source" not in log.meta:
        raise InputError(f"{log.path}:{log.first_line}", None, "the log header has no source=")
    return RunSpec(
        meta={k: v for k, v in log.meta.items() if k not in _SERIES_KEYS},
        series=[series_from_log(log, s) for s in log.series],
        path=log.path,
        problems=[str(p) for p in log.problems],
    )
