"""Truth for the virtual SoC: every latency a latmon core measured, checked against the
simulator's own record of the signals it measured (docs/hw/soc.md, "Truth").

The firmware reads the cores' traces through liblatmon and prints them as latmon-log on the
UART; the testbench writes, independently, the cycle of every irq and ack event of each core
(hw/tb/hdl/tb_soc.v). Put through the event model of the core (hw/tb/model), the recorded
events give the samples the core must have measured; they must equal, sample by sample and in
order, what the firmware printed. The same record splits every T2 interrupt into the CPU's
entry (data ready -> the first instruction of the trap vector retires) and the handler
(that instruction -> the read of DATA), the decomposition the report shows.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from model.latmon_core_model import Kind, core_model

# monitor -> (irq event, ack event) in the trace
MONITORS = {
    "T1": ("T", "R"),  # timer pulse -> data ready (pl_ps_irq rises)
    "T2": ("R", "D"),  # data ready -> the ISR reads DATA
    "LINE0": ("L0", "A0"),  # a raise of irqgen line 0 -> its ACK write
    "LINE1": ("L1", "A1"),
}
TIMEOUT = 1_000_000  # the suite's core timeout (suite/fabric_cases.c TIMEOUT)


def monitor_of(series_name: str) -> str:
    """Which core measured a series of the suite's logs."""
    if series_name in ("T1", "T2"):
        return series_name
    if series_name == "high" or series_name.startswith("p"):
        return "LINE0"
    if series_name == "low":
        return "LINE1"
    raise ValueError(f"series {series_name!r} is not one of the suite's")


def read_trace(path: Path) -> dict[str, list[int]]:
    """Cycles of each event kind, in order."""
    events: dict[str, list[int]] = defaultdict(list)
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                events[parts[1]].append(int(parts[0]))
    return events


@dataclass
class CaseCheck:
    case: str
    series: dict[str, int] = field(default_factory=dict)  # series -> samples checked
    mismatches: int = 0
    # T2 only: per interrupt, cycles from data ready to the first trap-vector instruction
    # retiring (entry) and from there to the read of DATA (handler)
    entry: list[int] = field(default_factory=list)
    handler: list[int] = field(default_factory=list)
    irefills: list[int] = field(default_factory=list)  # I$ refills between R and D


@dataclass
class CheckReport:
    cases: list[CaseCheck]
    checked: int  # samples compared
    mismatches: int  # samples that differ, plus any missing or extra
    first_mismatch: str = ""

    def summary(self) -> str:
        text = (
            f"soc_check: {self.checked} samples of {len(self.cases)} cases compared with the "
            f"simulator's trace: {self.mismatches} mismatches"
        )
        return text + (f" (first: {self.first_mismatch})" if self.first_mismatch else "")


def _between(cycles: list[int], lo: int, hi: int) -> list[int]:
    """Elements of the sorted list ``cycles`` in (lo, hi]."""
    import bisect

    return cycles[bisect.bisect_right(cycles, lo) : bisect.bisect_right(cycles, hi)]


def check(uart_log: Path, trace: Path) -> CheckReport:
    from latmon.inputs.ingest import load

    runs = load(uart_log)
    events = read_trace(trace)
    expected: dict[str, list[tuple[int, int, int]]] = {}
    for mon, (irq, ack) in MONITORS.items():
        outputs = core_model(events.get(irq, []), events.get(ack, []), timeout=TIMEOUT)
        # (latency, irq cycle, ack cycle) of each sample
        expected[mon] = [
            (o.latency, o.cycle - o.latency, o.cycle) for o in outputs if o.kind == Kind.SAMPLE
        ]
    used = dict.fromkeys(MONITORS, 0)
    cases: list[CaseCheck] = []
    checked = mismatches = 0
    first = ""
    for run in runs:
        case = CaseCheck(run.meta.get("scenario", "?"))
        for s in run.series:
            mon = monitor_of(s.name)
            got = s.latency.tolist()
            want = expected[mon][used[mon] : used[mon] + len(got)]
            used[mon] += len(got)
            case.series[s.name] = len(got)
            checked += len(got)
            bad = sum(1 for g, w in zip(got, want, strict=False) if g != w[0])
            bad += abs(len(got) - len(want))
            if bad and not first:
                k = next(
                    (i for i, (g, w) in enumerate(zip(got, want, strict=False)) if g != w[0]),
                    min(len(got), len(want)),
                )
                first = (
                    f"{case.case}/{s.name} sample {k}: measured "
                    f"{got[k] if k < len(got) else 'none'}, trace "
                    f"{want[k][0] if k < len(want) else 'none'}"
                )
            case.mismatches += bad
            mismatches += bad
            if mon == "T2":
                for _, ready, read in want:
                    firsts = _between(events.get("I0", []), ready, read)
                    if firsts:
                        case.entry.append(firsts[0] - ready)
                        case.handler.append(read - firsts[0])
                    case.irefills.append(len(_between(events.get("F0", []), ready, read)))
        cases.append(case)
    # samples the cores measured that no log printed
    for mon in MONITORS:
        extra = len(expected[mon]) - used[mon]
        if extra > 0:
            mismatches += extra
            first = first or f"{mon}: {extra} samples in the trace that no log printed"
    return CheckReport(cases, checked, mismatches, first)


def median(values: list[int]) -> float | None:
    return float(statistics.median(values)) if values else None
