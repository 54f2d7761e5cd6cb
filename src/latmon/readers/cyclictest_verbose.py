"""cyclictest ``-v`` output: one line per wake-up, ``thread:cycle:latency`` (µs; ns with -N).

    Thread 0 Interval: 1500
           0:       0:      20
           0:       1:      19

Cycle numbers of a thread count up by one; a gap means lines were lost (a damaged capture),
which is reported (cyclictest itself never reports a missed period). The text does not say
whether -N was given: the unit is µs unless --input-unit ns says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from latmon.model import Run, Series
from latmon.readers import Problems, ReadOptions, in_range, us_or_ns

NAME = "cyclictest-verbose"

_SAMPLE = re.compile(r"^\s*(\d+):\s*(\d+):\s*(-?\d+)\s*$")
_INTERVAL = re.compile(r"^Thread (\d+) Interval: (\d+)\s*$")


def sniff(head: str) -> bool:
    lines = [line for line in head.splitlines()[:200] if line.strip()]
    hits = sum(1 for line in lines if _SAMPLE.match(line))
    return hits >= 3 and hits >= len(lines) // 2


def read(path: Path, options: ReadOptions) -> list[Run]:
    problems = Problems(str(path), options.keep_going)
    unit_ns = us_or_ns(options, str(path), "cyclictest samples")
    values: dict[int, list[int]] = {}
    cycles: dict[int, list[int]] = {}
    intervals: dict[int, str] = {}
    foreign = 0
    with path.open(errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = _SAMPLE.match(line)
            if not m:
                m2 = _INTERVAL.match(line)
                if m2:
                    intervals[int(m2.group(1))] = m2.group(2)
                elif line.strip() and not line.startswith("#"):
                    foreign += 1
                continue
            thread, cycle, latency = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if not (in_range(latency * unit_ns) and in_range(cycle) and thread < 1 << 20):
                problems.add(number, "a number too large for a thread, cycle or latency")
                continue
            seen = cycles.setdefault(thread, [])
            if seen and cycle != seen[-1] + 1:
                problems.add(
                    number,
                    f"thread {thread}: cycle {cycle} follows {seen[-1]}"
                    + (f" ({cycle - seen[-1] - 1} lines lost)" if cycle > seen[-1] else ""),
                )
                if cycle <= seen[-1]:
                    continue
            seen.append(cycle)
            values.setdefault(thread, []).append(latency)
    if not values:
        raise problems.fatal(None, "no thread:cycle:latency lines: is this cyclictest -v output?")
    series = []
    for thread in sorted(values):
        lat = np.asarray(values[thread], dtype=np.int64) * unit_ns
        meta = {"thread": str(thread)}
        if thread in intervals:
            meta["interval_us"] = intervals[thread]
        series.append(
            Series(
                name=f"thread{thread}",
                unit="ns",
                resolution=unit_ns,
                columns={"latency": lat, "cycle": np.asarray(cycles[thread], dtype=np.int64)},
                counters={"events": len(lat)},
                meta=meta,
            )
        )
    meta = {"source": "cyclictest", "format": NAME, "input_unit": "ns" if unit_ns == 1 else "us"}
    if foreign:
        meta["foreign_lines"] = str(foreign)
    return [Run(meta=meta, series=series, path=str(path), problems=problems.items)]
