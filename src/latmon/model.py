"""The run model every reader produces and every analysis consumes.

A *run* is one measurement (one latmon-log, one cyclictest invocation, one ILA capture) with its
metadata; a *series* is one channel, CPU or thread of a run. Latencies are integers: in
nanoseconds, or in clock cycles with the clock frequency recorded (ARCHITECTURE decision 7).
Conversion to nanoseconds happens only where statistics are presented.

What a series measures is part of the model: a *quantity* (interrupt latency, wake-up latency,
I/O latency) along a *path* (from which event to which), recorded in the series' metadata as
``quantity`` and ``path``. Only series that measure the same thing are compared: an FPGA core's
irq→ack latency and a Linux thread's wake-up latency are different quantities, and T1 (timer →
data ready) and T2 (data ready → ISR read) of one core are different paths.
:func:`build_run` records both keys for every series a reader describes, and the loader
(``latmon.inputs.ingest``) has :func:`record_measures` record them in the runs it did not build
(run files, streamed readers), so run files written by ``latmon ingest`` and ``latmon run`` carry
them; a producer states them itself with ``quantity=`` and ``path=`` in the ``H`` or ``C``
records of a latmon-log (docs/latmon-log.md), which always wins. Inputs that do not say what
they measured (plain numbers, HdrHistogram logs) are ``latency`` along an ``unspecified`` path:
comparable with each other only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NotRequired, TypedDict

import numpy as np

from latmon.errors import LatmonError, printable

UNITS = ("ns", "cycles")
INT64 = np.int64


def ns_per_unit(unit: str, clock_hz: int | None) -> Fraction:
    """Exact nanoseconds per unit: 1 for ns, 1e9 / clock_hz for cycles; the one conversion of
    a unit to ns (a series and a distribution both say theirs through it)."""
    if unit == "ns":
        return Fraction(1)
    assert clock_hz
    return Fraction(1_000_000_000, clock_hz)


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
        """Exact nanoseconds per unit (:func:`ns_per_unit`)."""
        return ns_per_unit(self.unit, self.clock_hz)


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


INTERRUPT = "interrupt latency"
WAKEUP = "wake-up latency"
IO = "I/O latency"
UNSPECIFIED_QUANTITY = "latency"
UNSPECIFIED_PATH = "unspecified"

#: The path of a timer wake-up measured in a user-space thread (latprobe, cyclictest,
#: jitterdebugger, rtla timerlat's user context): the same path whatever the tool, so that the
#: tools can be compared side by side.
TIMER_TO_USER = "timer expiry → user thread"
#: rtla timerlat's contexts (its IRQ, thread and user columns).
_TIMERLAT_PATHS = {
    "irq": "timer expiry → timer IRQ handler",
    "thr": "timer expiry → kernel thread",
    "usr": TIMER_TO_USER,
}
#: Producers whose series are timer wake-ups of a user thread.
_WAKEUP_SOURCES = ("latprobe", "cyclictest", "jitterdebugger")
#: Producers that are a latmon core (the IP, its simulation, its driver): irq → ack edges.
_CORE_SOURCES = (
    "latmon_core-sim",
    "liblatmon",
    "latmon-soc-suite",
    "latctl",
    "refdesign-sim",
    "baremetal-example",
)
#: The A53 interrupt test-case suite counts from the timer's programmed expiry to the handler's
#: entry, except in two cases (sw/examples/baremetal/suite/timer_cases.c).
_IRQ_SUITE_PATHS = {
    "priority": "unmask → handler entry",
    "cross-core": "software interrupt sent → handler entry",
}


@dataclass(frozen=True, order=True)
class Measure:
    """A quantity along a path; series of equal measures are comparable."""

    quantity: str
    path: str

    @property
    def label(self) -> str:
        return f"{self.quantity}, {self.path}"


def _channel_path(series: Series) -> str:
    """The path of a latmon core's channel: its description (``what``), else its ``channel``
    name made readable (``timer-to-data-ready`` -> ``timer → data ready``), else the series
    name."""
    if series.meta.get("what"):
        return series.meta["what"]
    channel = series.meta.get("channel") or series.name
    if "-to-" in channel:
        start, end = channel.split("-to-", 1)
        return f"{start.replace('-', ' ')} → {end.replace('-', ' ')}"
    return f"irq → ack, channel {channel}"


def infer(run: Run, series: Series) -> Measure:
    """The measure of a series from what its producer is known to measure."""
    source = run.source
    if source in _WAKEUP_SOURCES:
        return Measure(WAKEUP, TIMER_TO_USER)
    if source == "rtla":
        context = series.meta.get("context", "")
        return Measure(WAKEUP, _TIMERLAT_PATHS.get(context, f"timer expiry → {context}"))
    if source == "ila":
        irq, ack = run.meta.get("irq", "irq"), run.meta.get("ack", "ack")
        return Measure(INTERRUPT, f"{irq} → {ack}")
    if source == "latmon-irq-suite":
        return Measure(INTERRUPT, _IRQ_SUITE_PATHS.get(series.name, "timer → handler entry"))
    if source in _CORE_SOURCES or source.startswith("latmon"):
        return Measure(INTERRUPT, _channel_path(series))
    return Measure(UNSPECIFIED_QUANTITY, UNSPECIFIED_PATH)


def measure_of(run: Run, series: Series) -> Measure:
    """The recorded measure of a series (its own keys, then the run's), else the inferred one."""
    known = infer(run, series)
    quantity = series.meta.get("quantity") or run.meta.get("quantity") or known.quantity
    path = series.meta.get("path") or run.meta.get("path") or known.path
    return Measure(quantity, path)


def record_measures(run: Run) -> Run:
    """Write ``quantity`` and ``path`` into the metadata of every series of ``run`` (keeping
    what the producer stated)."""
    for series in run.series:
        m = measure_of(run, series)
        series.meta.setdefault("quantity", m.quantity)
        series.meta.setdefault("path", m.path)
    return run


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


class RunSpec(TypedDict):
    """A :class:`Run` described as plain data, as a reader finds it: what a reader of a whole
    file returns, for :func:`build_run` to make the objects."""

    meta: dict[str, str]
    series: list[SeriesSpec]
    path: str
    problems: list[str]


def build_run(spec: RunSpec) -> Run:
    """The run a reader describes, its series and histograms checked and made here, in one
    place, with what each series measures (:func:`record_measures`): the reader collects plain
    data and returns it; the loader hands it over once."""
    built = []
    for series in spec["series"]:
        fields = dict(series)
        histogram = series.get("histogram")
        fields["histogram"] = Histogram(**histogram) if histogram is not None else None
        built.append(Series(**fields))  # type: ignore[arg-type]
    run = Run(meta=spec["meta"], series=built, path=spec["path"], problems=spec["problems"])
    return record_measures(run)
