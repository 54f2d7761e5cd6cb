"""cyclictest ``-v`` output: one line per wake-up, ``thread:cycle:latency`` (µs; ns with -N).

    Thread 0 Interval: 1500
           0:       0:      20
           0:       1:      19

Cycle numbers of a thread count up by one; a gap means lines were lost (a damaged capture),
which is reported (cyclictest itself never reports a missed period). The text does not say
whether -N was given: the unit is µs unless --input-unit ns says so.

Strict: before the first sample cyclictest's own preamble (``Max CPUs = 2``, ``# /dev/...``)
is allowed; from the first sample on, every line must be a sample, a ``Thread N Interval``
line or a ``#`` comment — anything else is reported with its file:line and text. The file is
streamed in blocks by the C parser (:mod:`latmon.inputs.textscan`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT, us_or_ns
from latmon.inputs.textscan import PROBLEMS, scan, shown
from latmon.model import Run, Series

NAME = "cyclictest-verbose"

SAMPLE = re.compile(r"^\s*(\d+):\s*(\d+):\s*(-?\d+)\s*$")
_INTERVAL = re.compile(rb"^Thread (\d+) Interval: (\d+)\s*$")


@dataclass
class State:
    """What one pass over the file learns besides the samples."""

    samples_seen: int = 0
    foreign: int = 0
    intervals: dict[int, str] = field(default_factory=dict)
    last_cycle: dict[int, int] = field(default_factory=dict)


def _line_of_sample(path: Path, row: int) -> int | None:
    """The line number of the row-th sample line (0-based), by reading the file again (only
    on the error path)."""
    seen = 0
    with path.open("rb") as f:
        for number, line in enumerate(f, 1):
            if SAMPLE.match(line.decode("latin-1")):
                if seen == row:
                    return number
                seen += 1
    return None


def scan_threads(
    path: Path, options: ReadOptions, problems: Problems, state: State
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(thread, cycles, latencies in ns) batch by batch, every check applied."""
    unit_ns = us_or_ns(options, str(path), "cyclictest samples")

    def bad_line(number: int, status: int, text: bytes) -> None:
        m = _INTERVAL.match(text.rstrip(b"\r"))
        if m:
            state.intervals[int(m.group(1))] = m.group(2).decode()
            return
        if state.samples_seen == 0 and status in (1, 2):
            state.foreign += 1  # cyclictest's preamble
            return
        problems.add(number, f"not a thread:cycle:latency line: {PROBLEMS[status]}: {shown(text)}")

    for rows in scan(path, delim=":", nfields=3, column=-1, scale=0, bad_line=bad_line):
        base_row = state.samples_seen
        state.samples_seen += len(rows)
        threads, cycles, latency = rows[:, 0], rows[:, 1], rows[:, 2]
        wrong = (threads < 0) | (threads >= 1 << 20) | (cycles < 0)
        wrong |= np.abs(latency) >= LIMIT // unit_ns
        if np.any(wrong):
            bad = int(np.flatnonzero(wrong)[0])
            raise problems.fatal(
                _line_of_sample(path, base_row + bad),
                "a number too large for a thread, cycle or latency",
            )
        for thread in np.unique(threads).tolist():
            mine = np.flatnonzero(threads == thread)
            c = cycles[mine]
            prev = state.last_cycle.get(thread)
            steps = np.diff(c, prepend=c[0] - 1 if prev is None else prev)
            keep = np.ones(len(c), bool)
            if np.any(steps != 1):
                last = prev
                for k in range(len(c)):  # the damaged path: row by row, as written
                    cycle = int(c[k])
                    if last is not None and cycle != last + 1:
                        lost = f" ({cycle - last - 1} lines lost)" if cycle > last else ""
                        problems.add(
                            _line_of_sample(path, base_row + int(mine[k])),
                            f"thread {thread}: cycle {cycle} follows {last}{lost}",
                        )
                        if cycle <= last:
                            keep[k] = False
                            continue
                    last = cycle
                state.last_cycle[thread] = last if last is not None else int(c[-1])
            else:
                state.last_cycle[thread] = int(c[-1])
            yield thread, c[keep], latency[mine][keep] * unit_ns


def series_of(
    thread: int, state: State, options: ReadOptions, path: Path, columns: dict[str, np.ndarray]
) -> Series:
    """The series of one thread (its samples in ``columns``, or none when streamed)."""
    meta = {"thread": str(thread)}
    if thread in state.intervals:
        meta["interval_us"] = state.intervals[thread]
    lat = columns.get("latency")
    return Series(
        name=f"thread{thread}",
        unit="ns",
        resolution=us_or_ns(options, str(path), "cyclictest samples"),
        columns=columns,
        counters={"events": len(lat)} if lat is not None else {},
        meta=meta,
    )


def run_of(
    path: Path, options: ReadOptions, problems: Problems, state: State, _: dict[str, str]
) -> Run:
    """The run (without series) after a pass over the file."""
    unit_ns = us_or_ns(options, str(path), "cyclictest samples")
    meta = {"source": "cyclictest", "format": NAME, "input_unit": "ns" if unit_ns == 1 else "us"}
    if state.foreign:
        meta["foreign_lines"] = str(state.foreign)
    return Run(meta=meta, series=[], path=str(path), problems=problems.items)


def read(path: Path, options: ReadOptions, problems: Problems) -> list[Run]:
    state = State()
    latencies: dict[int, list[np.ndarray]] = {}
    cycles: dict[int, list[np.ndarray]] = {}
    for thread, c, lat in scan_threads(path, options, problems, state):
        latencies.setdefault(thread, []).append(lat)
        cycles.setdefault(thread, []).append(c)
    if not latencies:
        raise InputError(
            str(path), None, "no thread:cycle:latency lines: is this cyclictest -v output?"
        )
    run = run_of(path, options, problems, state, {})
    for thread in sorted(latencies):
        columns = {
            "latency": np.concatenate(latencies[thread]),
            "cycle": np.concatenate(cycles[thread]),
        }
        run.series.append(series_of(thread, state, options, path, columns))
    return [run]
