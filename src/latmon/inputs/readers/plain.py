"""Plain numbers: one latency per line, or a CSV column of them. The unit comes from the column
name (``latency_us``, ``lat_ns``, ``cycles``…) or --input-unit, else ns. Decimals are converted
exactly (``12.5`` µs = 12500 ns); a value finer than 1 ns is refused rather than rounded. Blank
lines and ``#`` comments are skipped.

Strict: every other line must hold a number in the chosen column, at least 0 and below 2^62 ns
(the headroom every reader leaves for sums); a line that does not is reported with its file:line
and text. A CSV with several columns needs the column named —
by a header with one ``latency…`` column, or by ``--column NAME|N`` — and every row must have
as many fields as the first. The file is streamed in blocks by the C parser
(:mod:`latmon.inputs.textscan`): memory does not grow with the file or with the length of a line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import UNIT_NS
from latmon.inputs.textscan import MAX_LINE, PROBLEMS, Scan, scan, shown
from latmon.model import Run, Series

NAME = "plain"
NUMBER = re.compile(r"^\s*[+-]?\d+(\.\d+)?\s*$")
_UNIT_IN_NAME = re.compile(r"(?:^|[_\s(\[])(ns|us|ms|s)[)\]]?$")
_SCALE = {1: 0, 1_000: 3, 1_000_000: 6, 1_000_000_000: 9}


@dataclass
class Layout:
    """Where the numbers are: column, fields per row, unit, and where the data start."""

    column: int
    fields: int
    factor: int
    unit: str
    start: int  # byte offset of the first data line
    first_line: int


def layout(path: Path, options: ReadOptions) -> Layout:
    """Read the head of the file: header or not, which column, which unit."""
    try:
        with path.open("rb") as f:
            head = f.read(MAX_LINE + 1)
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None
    offset = 0
    number = 0
    while offset < len(head):
        end = head.find(b"\n", offset)
        raw = head[offset : (end + 1 if end >= 0 else len(head))]
        number += 1
        if end < 0 and len(head) > MAX_LINE:
            raise InputError(
                str(path),
                number,
                f"a line longer than {MAX_LINE >> 20} MiB: not one number per line "
                f"(starts {shown(raw[:40])})",
            )
        text = raw.decode("utf-8", "backslashreplace").strip()
        if not text or text.startswith("#"):
            offset += len(raw)
            continue
        cells = [c.strip() for c in text.split(",")]
        header = not all(NUMBER.match(c) for c in cells)
        return _choose(path, options, cells, header, number, offset + (len(raw) if header else 0))
    raise InputError(str(path), None, "no latency values")


def _choose(
    path: Path, options: ReadOptions, cells: list[str], header: bool, number: int, start: int
) -> Layout:
    wanted = options.column
    names = [c.lower() for c in cells] if header else []
    if wanted is not None:
        if wanted.isdigit():
            column = int(wanted) - 1
            if not 0 <= column < len(cells):
                raise InputError(
                    str(path), number, f"--column {wanted}: the rows have {len(cells)} columns"
                )
        elif header and wanted.lower() in names:
            column = names.index(wanted.lower())
        else:
            what = f"columns {', '.join(cells)}" if header else "no header to name columns"
            raise InputError(
                str(path), number, f"--column {wanted!r}: no such column ({what}); give a number"
            )
    elif header:
        picks = [i for i, n in enumerate(names) if n.startswith("lat")] or (
            [0] if len(names) == 1 else []
        )
        if len(picks) != 1:
            raise InputError(
                str(path),
                number,
                f"which column holds the latency? name one 'latency' or give --column "
                f"(found {', '.join(cells)})",
            )
        column = picks[0]
    elif len(cells) > 1:
        raise InputError(
            str(path),
            number,
            f"{len(cells)} columns ({shown(','.join(cells).encode(), 30)}) and no header: "
            "choose the latency column with --column N",
        )
    else:
        column = 0
    unit = options.input_unit
    if header and unit is None:
        m = _UNIT_IN_NAME.search(names[column])
        if m:
            unit = m.group(1)
        elif "cycle" in names[column]:
            unit = "cycles"
    if unit == "cycles":
        raise InputError(
            str(path),
            number,
            "latencies in cycles: convert them, or write a latmon-log with clock_hz "
            "(docs/latmon-log.md)",
        )
    factor = UNIT_NS.get(unit or "ns", 1)
    first = number + 1 if header else number
    return Layout(column, len(cells), factor, unit or "ns", start, first)


@dataclass
class Streamed:
    """A plain input read as a stream: the run (series without samples) and its batches;
    ``batches()`` may be called again to re-read the file."""

    run: Run
    batches: Callable[[], Iterator[np.ndarray]]


def stream(path: Path, options: ReadOptions, problems: Problems | None = None) -> Streamed:
    """The run of a plain file and a re-readable stream of its values (ns), checked line by
    line; the run's resolution and problems are complete once the stream has been read."""
    lay = layout(path, options)
    if problems is None:
        problems = Problems(str(path), options.keep_going)
    found = Scan()
    series = Series(name=path.stem, unit="ns", resolution=lay.factor)
    run = Run(
        meta={"source": "plain", "format": NAME, "input_unit": lay.unit},
        series=[series],
        path=str(path),
        problems=problems.items,
    )
    first_pass = [True]

    def bad_line(number: int, status: int, text: bytes) -> None:
        if first_pass[0]:
            hint = " (one integer or decimal per line, no unit: give it with --input-unit)"
            problems.add(
                number,
                f"not a latency: {PROBLEMS[status]}: {shown(text)}" + (hint if status == 1 else ""),
            )

    def batches() -> Iterator[np.ndarray]:
        yield from scan(
            path,
            delim=",",
            nfields=lay.fields,
            column=lay.column,
            scale=_SCALE[lay.factor],
            bad_line=bad_line,
            start=lay.start,
            first_line=lay.first_line,
            found=found,
            non_negative=True,
        )
        if first_pass[0]:
            first_pass[0] = False
            # the step the numbers are written in: 1 µs for whole µs, 100 ns for 12.3 µs
            series.resolution = max(1, lay.factor // 10**found.max_fraction_digits)

    return Streamed(run, batches)


def read(path: Path, options: ReadOptions, problems: Problems) -> list[Run]:
    streamed = stream(path, options, problems)
    parts = list(streamed.batches())
    values = np.concatenate(parts) if parts else np.empty(0, np.int64)
    if not len(values):
        raise InputError(str(path), None, "no latency values")
    series = streamed.run.series[0]
    series.columns = {"latency": values}
    series.counters = {"events": len(values)}
    return [streamed.run]
