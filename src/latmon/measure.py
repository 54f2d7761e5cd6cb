"""What a series measures: a *quantity* (interrupt latency, wake-up latency, I/O latency) along a
*path* (from which event to which), recorded in the series' metadata as ``quantity`` and
``path``.

Only series that measure the same thing are compared: an FPGA core's irq→ack latency and a Linux
thread's wake-up latency are different quantities, and T1 (timer → data ready) and T2 (data ready
→ ISR read) of one core are different paths. :func:`record_measures` fills both keys for every
series a reader produces (``latmon.ingest.load``), so run files written by ``latmon ingest`` and
``latmon run`` carry them; a producer states them itself with ``quantity=`` and ``path=`` in the
``H`` or ``C`` records of a latmon-log (docs/latmon-log.md), which always wins. Inputs that do not
say what they measured (plain numbers, HdrHistogram logs) are ``latency`` along an
``unspecified`` path: comparable with each other only.
"""

from __future__ import annotations

from dataclasses import dataclass

from latmon.model import Run, Series

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
