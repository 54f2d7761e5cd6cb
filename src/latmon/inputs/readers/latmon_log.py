"""latmon-log: the text log latmon's own tools write (docs/latmon-log.md), read into the run
model. The format itself (writer and parser, with its CRC and damage rules) is
:mod:`latmon.inputs.logformat`; this reader is its link to the model, like the other readers."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.logformat import LogRun, LogSeries, read_file
from latmon.inputs.readers import Problems, ReadOptions
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "latmon-log"
#: header keys that describe a series (a run's value is the default of its series)
_SERIES_KEYS = ("unit", "clock_hz", "resolution")


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    """Every run of the log; with ``options.keep_going`` the valid part of a damaged one. The
    format module checks the records (CRC, damage rules) and lists each log's problems."""
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
