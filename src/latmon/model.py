"""The run model every reader produces and every analysis consumes.

A *run* is one measurement (one latmon-log, one cyclictest invocation, one ILA capture) with its
metadata; a *series* is one channel, CPU or thread of a run. Latencies are integers: in
nanoseconds, or in clock cycles with the clock frequency recorded (ARCHITECTURE decision 7).
Conversion to nanoseconds happens only where statistics are presented.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NotRequired, TypedDict

import numpy as np

from latmon.errors import LatmonError, printable

UNITS = ("ns", "cycles")
INT64 = np.int64


@dataclass
class Histogram:
    """Counts of values in bins [lo[i], hi[i]), sorted by lo, not overlapping.

    Empty bins may be absent (sparse). ``underflow`` counts values below ``lo[0]`` (or below
    ``underflow_hi``), ``overflow`` counts values at or above ``overflow_lo``.
    """

    lo: np.ndarray
    hi: np.ndarray
    count: np.ndarray
    underflow: int = 0
    underflow_hi: int | None = None
    overflow: int = 0
    overflow_lo: int | None = None

    def __post_init__(self) -> None:
        self.lo = np.asarray(self.lo, dtype=INT64)
        self.hi = np.asarray(self.hi, dtype=INT64)
        self.count = np.asarray(self.count, dtype=INT64)
        if not (len(self.lo) == len(self.hi) == len(self.count)):
            raise ValueError("histogram lo, hi and count must have the same length")
        if len(self.lo):
            if np.any(self.hi <= self.lo):
                raise ValueError("histogram bins must have hi > lo")
            if np.any(self.lo[1:] < self.hi[:-1]):
                raise ValueError("histogram bins must be sorted and must not overlap")
            if np.any(self.count < 0):
                raise ValueError("histogram counts must not be negative")

    @property
    def total(self) -> int:
        return int(self.count.sum()) + self.underflow + self.overflow

    @property
    def max_bin_width(self) -> int:
        return int((self.hi - self.lo).max()) if len(self.lo) else 0


@dataclass
class Series:
    """One channel, CPU or thread of a run."""

    name: str
    unit: str
    clock_hz: int | None = None
    resolution: int = 1
    columns: dict[str, np.ndarray] = field(default_factory=dict)
    histogram: Histogram | None = None
    counters: dict[str, int] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = printable(self.name)  # a name from a file name that is not UTF-8
        if self.unit not in UNITS:
            raise LatmonError(f"series {self.name!r}: unit must be ns or cycles, not {self.unit!r}")
        if self.unit == "cycles" and not self.clock_hz:
            raise LatmonError(f"series {self.name!r}: unit cycles needs the clock frequency")
        if self.resolution < 1:
            raise LatmonError(f"series {self.name!r}: resolution must be at least 1")
        self.columns = {k: np.asarray(v, dtype=INT64) for k, v in self.columns.items()}
        lengths = {len(v) for v in self.columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"series {self.name!r}: columns of different lengths")
        if self.columns and "latency" not in self.columns:
            raise ValueError(f"series {self.name!r}: samples need a 'latency' column")

    @property
    def latency(self) -> np.ndarray:
        """Latency samples (int64, in ``unit``); empty when the series is a histogram only."""
        return self.columns.get("latency", np.empty(0, dtype=INT64))

    @property
    def has_samples(self) -> bool:
        return len(self.latency) > 0

    @property
    def is_stages(self) -> bool:
        """A stage decomposition (latprobe --stages): the matched subset of another series,
        named by ``meta["of"]``, with one ``stage_*`` column per stage."""
        return self.meta.get("kind") == "stages"

    @property
    def is_spike(self) -> bool:
        """The explanation of one late sample (latprobe --stages): its contributors, one row
        each (``latency`` is the time the contributor held the CPU), the sample it explains and
        the text in ``meta``; see docs/latprobe.md."""
        return self.meta.get("kind") == "spike"

    @property
    def is_component(self) -> bool:
        """A part of another series' latency (latprobe --stages: ``kind`` irq, from the expiry
        to the timer's handler, or thread, to the switch to the probe), named by
        ``meta["of"]``; see docs/latprobe.md. The same series measured by the kernel's timerlat
        tracer (latprobe --timerlat, ``from=timerlat``) are measurements of their own."""
        return self.meta.get("kind") in ("irq", "thread") and self.meta.get("from") != "timerlat"

    @property
    def is_derived(self) -> bool:
        """Derived from another series (stages, spike explanations, IRQ/thread components): not
        a latency series of its own, so left out of pooled statistics and comparisons."""
        return self.is_stages or self.is_spike or self.is_component

    @property
    def stage_names(self) -> list[str]:
        """Stage columns (``stage_*``) in path order."""
        return [k for k in self.columns if k.startswith("stage_")]

    @property
    def ns_per_unit(self) -> Fraction:
        """Exact nanoseconds per unit: 1 for ns, 1e9 / clock_hz for cycles."""
        if self.unit == "ns":
            return Fraction(1)
        assert self.clock_hz
        return Fraction(1_000_000_000, self.clock_hz)


@dataclass
class Run:
    """One measurement with its metadata."""

    meta: dict[str, str]
    series: list[Series]
    path: str = ""
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # the path is shown and stored as text, never used to open the file again
        self.path = printable(self.path)

    @property
    def damaged(self) -> bool:
        return bool(self.problems)

    @property
    def source(self) -> str:
        return self.meta.get("source", "unknown")

    @property
    def label(self) -> str:
        """A short name for tables: the scenario, else the file name."""
        base = self.meta.get("scenario") or self.meta.get("name") or self.path or self.source
        tool = self.meta.get("tool")
        label = f"{base} ({tool})" if tool else base
        return f"{label} [emulated]" if self.emulated else label

    @property
    def emulated(self) -> bool:
        """Measured in an emulator (QEMU): the numbers are not a real CPU's timing."""
        return self.meta.get("emulated", "no") == "yes"


class HistogramSpec(TypedDict):
    """A :class:`Histogram` described as plain data, as a reader finds it."""

    lo: np.ndarray
    hi: np.ndarray
    count: np.ndarray
    overflow: NotRequired[int]
    overflow_lo: NotRequired[int | None]
    underflow: NotRequired[int]
    underflow_hi: NotRequired[int | None]


class SeriesSpec(TypedDict):
    """A :class:`Series` described as plain data, as a reader finds it."""

    name: str
    unit: str
    clock_hz: NotRequired[int | None]
    resolution: NotRequired[int]
    columns: NotRequired[dict[str, np.ndarray]]
    histogram: NotRequired[HistogramSpec | None]
    counters: NotRequired[dict[str, int]]
    meta: NotRequired[dict[str, str]]


def build_run(
    meta: dict[str, str], series: list[SeriesSpec], path: str, problems: list[str]
) -> Run:
    """The run a reader describes, its series and histograms checked and made here, in one
    place: a reader collects plain data and hands it over once, at its end."""
    built = []
    for spec in series:
        fields = dict(spec)
        histogram = spec.get("histogram")
        fields["histogram"] = Histogram(**histogram) if histogram is not None else None
        built.append(Series(**fields))  # type: ignore[arg-type]
    return Run(meta=meta, series=built, path=path, problems=problems)
