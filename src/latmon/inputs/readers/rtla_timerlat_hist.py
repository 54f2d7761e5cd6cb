"""rtla timerlat histogram text (``rtla timerlat hist``, standard output; kernel tools, rtla).

    # RTLA timerlat histogram
    # Time unit is microseconds (us)          or nanoseconds (ns) with -n
    # Duration:   0 00:00:03
    Index   IRQ-000   Thr-000   IRQ-001   Thr-001      [Usr-NNN with -u]
    4             0         0         1         0      bucket, then one count per column
    ...
    over:       392       450       511       593      above the last bucket
    count:     1696      1697      1669      1669
    min:         32        53         4        41
    avg:        866      1016       916      1066
    max:      66924     67224     67968     68048

The timerlat tracer's per-CPU timer fires; its IRQ handler records how late it ran (IRQ) and
the timerlat thread then records how late it woke (Thr, and Usr for a user-space thread): the
IRQ/thread split of one wake-up. One histogram series per column: ``irq-cpuN``,
``thread-cpuN`` (``user-cpuN``). rtla truncates each latency to whole buckets; rows of zeros are
left out unless --with-zeros. The text does not give the bucket size (-b): it is the greatest
common divisor of the row indices' gaps (1 when only one row is present).
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import numpy as np

from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "rtla-timerlat-hist"

_COLUMN = re.compile(r"^(IRQ|Thr|Usr)-(\d+)$")
_CONTEXT = {"IRQ": "irq", "Thr": "thread", "Usr": "user"}
_SUMMARY = ("over", "count", "min", "avg", "max")


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    text = path.read_text(errors="replace")
    unit_ns = 1_000
    columns: list[tuple[str, int]] | None = None
    rows: dict[int, list[int]] = {}
    summary: dict[str, list[str]] = {}
    duration = None
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        if line.startswith("#"):
            if "nanoseconds" in line:
                unit_ns = 1
            m = re.match(r"# Duration:\s+(.*\S)", line)
            if m:
                duration = m.group(1)
            continue
        if words[0] == "Index":
            parsed = [_COLUMN.match(w) for w in words[1:]]
            if not all(parsed):
                raise problems.fatal(number, f"unknown column in {line.strip()!r}")
            columns = [(_CONTEXT[m.group(1)], int(m.group(2))) for m in parsed if m]
            continue
        if columns is None:
            problems.add(number, "a line before the 'Index' header")
            continue
        key = words[0].rstrip(":")
        values = words[1:]
        if words[0].endswith(":") and key in _SUMMARY:
            if len(values) != len(columns):
                problems.add(number, f"'{key}:' has {len(values)} values for {len(columns)}")
                continue
            summary[key] = values
            continue
        if not all(w.isdigit() for w in words) or len(values) != len(columns):
            problems.add(number, f"not a histogram row of {len(columns)} counts: {line.strip()!r}")
            continue
        index, row = int(words[0]), [int(v) for v in values]
        if not all(-LIMIT < v * unit_ns < LIMIT for v in [index, *row]):
            problems.add(number, "a number too large to be a count or a latency")
            continue
        if rows and index <= max(rows):
            problems.add(number, f"bucket {index} is repeated or out of order")
            continue
        rows[index] = row
    if columns is None:
        raise problems.fatal(None, "no 'Index IRQ-000 ...' header: is this rtla timerlat hist?")
    indices = sorted(rows)
    gaps = [b - a for a, b in itertools.pairwise(indices)]
    width = math.gcd(*gaps) if gaps else 1
    lo = np.array(indices, dtype=np.int64)
    matrix = np.array([rows[i] for i in indices], dtype=np.int64).reshape(-1, len(columns))
    end = (indices[-1] + width) if indices else 0
    series = []
    for k, (context, cpu) in enumerate(columns):
        counts = matrix[:, k]
        keep = counts > 0
        over = int(summary["over"][k]) if "over" in summary else 0
        counters = {"events": int(counts.sum()) + over, "overflows": over}
        if "count" in summary and int(summary["count"][k]) != counters["events"]:
            problems.add(
                None,
                f"{context}-cpu{cpu}: 'count:' says {summary['count'][k]}, the rows and "
                f"'over:' add up to {counters['events']} (rows lost?)",
            )
        for key in ("min", "max"):
            if key in summary and summary[key][k].isdigit():
                counters[key] = int(summary[key][k]) * unit_ns
        series.append(
            SeriesSpec(
                name=f"{context}-cpu{cpu}",
                unit="ns",
                resolution=width * unit_ns,
                histogram=HistogramSpec(
                    lo=lo[keep] * unit_ns,
                    hi=(lo[keep] + width) * unit_ns,
                    count=counts[keep],
                    overflow=over,
                    overflow_lo=end * unit_ns if over else None,
                ),
                counters=counters,
                meta={"cpu": str(cpu), "context": context},
            )
        )
    meta = {
        "source": "rtla",
        "tool": "rtla timerlat",
        "format": NAME,
        "input_unit": "ns" if unit_ns == 1 else "us",
        "bucket": str(width * unit_ns),
    }
    if duration:
        meta["duration"] = duration
    return [RunSpec(meta=meta, series=series, path=str(path), problems=problems.items)]
