"""cyclictest histogram text (``cyclictest -q -h N``, standard output).

    # Histogram
    000000 000000	000003          bucket, then one count per thread (µs; ns with -N)
    ...
    # Total: 000000826 000000983     rt-tests <= 2.6 only; >= 2.7 also drops all-zero rows
    # Min Latencies: 00008 00004
    # Avg Latencies: 00023 00021
    # Max Latencies: 00406 01002
    # Histogram Overflows: 01174 01012
    # Histogram Overflow at cycle number:
    # Thread 0: 00000 00001 ... # 01154 others

With -H (``--histofall``) and more than one thread, each row, ``# Total``, ``# Max Latencies``
and ``# Histogram Overflows`` carry one more column, the threads together, while ``# Min`` and
``# Avg Latencies`` do not: that column is recognised by those two lines, checked against the
threads' own (their sum, their maximum) and left out, since it holds the same samples again.

cyclictest truncates each latency to a whole unit, so bucket k holds latencies in [k, k+1).
The text does not say whether -N was given: the unit is µs unless --input-unit ns says so.
Values above the histogram's range are counted as overflows (an overflow bin whose lower edge is
the histogram's end).

Strict: inside the table every line must be a row (a damaged row is reported with its file:line
and text), and the footer (``# Total`` or ``# Max Latencies``) must follow — without it the
output was cut short and samples are missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT, us_or_ns
from latmon.inputs.textscan import shown
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "cyclictest-hist"

_ROW = re.compile(r"^(\d+)((?:[ \t]+\d+)+)[ \t]*$")
_SUMMARY = re.compile(
    r"^# (Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows):((?:\s+\d+)*)\s*$"
)
_THREAD = re.compile(r"^# Thread (\d+):((?:\s+\d+)*)(?:\s+#\s+(\d+) others)?\s*$")


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    text = path.read_text(errors="replace")
    unit_ns = us_or_ns(options, str(path), "cyclictest histograms")
    rows: dict[int, list[int]] = {}
    summary: dict[str, list[str]] = {}
    overflow_cycles: dict[int, str] = {}
    nthreads: int | None = None
    in_hist = False
    foreign = 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("# Histogram") and not line.startswith("# Histogram O"):
            in_hist = True
            continue
        m = _ROW.match(line)
        if m and in_hist:
            row = [int(v) for v in m.group(2).split()]
            if not all(-LIMIT < v * unit_ns < LIMIT for v in [int(m.group(1)), *row]):
                problems.add(number, "a number too large to be a count or a latency")
                continue
            if nthreads is None:
                nthreads = len(row)
            if len(row) != nthreads:
                problems.add(number, f"{len(row)} counts where the rows have {nthreads}")
                continue
            bucket = int(m.group(1))
            if bucket in rows or (rows and bucket < max(rows)):
                problems.add(number, f"bucket {bucket} is repeated or out of order")
                continue
            rows[bucket] = row
            continue
        m = _SUMMARY.match(line)
        if m:
            values = m.group(2).split()
            if not all(-LIMIT < int(v) * unit_ns < LIMIT for v in values):
                problems.add(number, "a number too large to be a count or a latency")
                continue
            summary[m.group(1)] = values
            continue
        m = _THREAD.match(line)
        if m:
            listed = m.group(2).split()
            others = f" and {int(m.group(3))} others" if m.group(3) else ""
            overflow_cycles[int(m.group(1))] = " ".join(str(int(c)) for c in listed) + others
            continue
        if line.startswith("#") or not line.strip():
            continue
        if in_hist and not summary:
            # inside the table: a row that is not one is damage, never skipped silently
            problems.add(number, f"not a histogram row: {shown(line.encode())}")
            continue
        foreign += 1
    if nthreads is None:
        raise problems.fatal(None, "no histogram rows: is this cyclictest -h output?")
    if "Max Latencies" not in summary and "Total" not in summary:
        problems.add(
            None,
            "no '# Total' or '# Max Latencies' footer after the histogram: the output is cut "
            "short (rows and samples lost?)",
        )
    buckets = np.array(sorted(rows), dtype=np.int64)
    matrix = np.array([rows[b] for b in sorted(rows)], dtype=np.int64).reshape(-1, nthreads)
    histofall = _histofall(summary, nthreads)
    if histofall:
        nthreads -= 1
        _check_all_threads_column(buckets, matrix, summary, nthreads, problems)
        matrix = matrix[:, :nthreads]

    def per_thread(key: str) -> list[str] | None:
        values = summary.get(key)
        if values is not None and histofall and key in _WITH_ALL_COLUMN:
            values = values[:-1]
        if values is not None and len(values) != nthreads:
            problems.add(None, f"'# {key}' has {len(values)} values for {nthreads} threads")
            return None
        return values

    totals, overflows = per_thread("Total"), per_thread("Histogram Overflows")
    minima, maxima = per_thread("Min Latencies"), per_thread("Max Latencies")
    end = int(buckets[-1]) + 1 if len(buckets) else 0
    series = []
    for i in range(nthreads):
        counts = matrix[:, i]
        keep = counts > 0
        overflow = int(overflows[i]) if overflows else 0
        if totals and int(totals[i]) != int(counts.sum()):
            problems.add(
                None,
                f"thread {i}: '# Total' says {int(totals[i])}, the rows add up to "
                f"{int(counts.sum())} (rows lost?)",
            )
        counters = {"events": int(counts.sum()) + overflow, "overflows": overflow}
        if minima:
            counters["min"] = int(minima[i]) * unit_ns
        if maxima:
            counters["max"] = int(maxima[i]) * unit_ns
        meta = {"thread": str(i)}
        if i in overflow_cycles:
            meta["overflow_cycles"] = overflow_cycles[i]
        series.append(
            SeriesSpec(
                name=f"thread{i}",
                unit="ns",
                resolution=unit_ns,
                histogram=HistogramSpec(
                    lo=buckets[keep] * unit_ns,
                    hi=(buckets[keep] + 1) * unit_ns,
                    count=counts[keep],
                    overflow=overflow,
                    overflow_lo=end * unit_ns if overflow else None,
                ),
                counters=counters,
                meta=meta,
            )
        )
    meta = {
        "source": "cyclictest",
        "format": NAME,
        "input_unit": "ns" if unit_ns == 1 else "us",
        "rt_tests_style": "<=2.6 (all rows, Total)" if "Total" in summary else ">=2.7",
    }
    if histofall:
        meta["histofall"] = "the all-threads column (-H) checked and left out"
    if foreign:
        meta["foreign_lines"] = str(foreign)
    return [RunSpec(meta=meta, series=series, path=str(path), problems=problems.items)]


# The lines that -H extends with the all-threads column; # Min and # Avg Latencies it does not.
_WITH_ALL_COLUMN = ("Total", "Max Latencies", "Histogram Overflows")


def _histofall(summary: dict[str, list[str]], columns: int) -> bool:
    """Whether the rows' last column is -H's all-threads column: the per-thread-only lines
    (# Min, # Avg Latencies) have one value fewer than the rows have counts."""
    if columns < 3:
        return False  # -H adds no column for a single thread
    lengths = {len(summary[k]) for k in ("Min Latencies", "Avg Latencies") if k in summary}
    return lengths == {columns - 1}


def _check_all_threads_column(
    buckets: np.ndarray,
    matrix: np.ndarray,
    summary: dict[str, list[str]],
    nthreads: int,
    problems: Problems,
) -> None:
    """-H's column must be the threads' sum in every row, # Total and # Histogram Overflows,
    and their maximum in # Max Latencies: anything else is a damaged file."""
    wrong = np.flatnonzero(matrix[:, nthreads] != matrix[:, :nthreads].sum(axis=1))
    if len(wrong):
        problems.add(
            None,
            f"bucket {int(buckets[wrong[0]])}: the all-threads column (-H) is not the sum of "
            f"the threads' counts ({len(wrong)} rows differ)",
        )
    for key, combine, what in (
        ("Total", sum, "sum"),
        ("Histogram Overflows", sum, "sum"),
        ("Max Latencies", max, "maximum"),
    ):
        values = [int(v) for v in summary.get(key, [])]
        if len(values) == nthreads + 1 and values[-1] != combine(values[:-1]):
            problems.add(
                None,
                f"'# {key}': the all-threads value {values[-1]} is not the threads' {what} "
                f"{combine(values[:-1])}",
            )
