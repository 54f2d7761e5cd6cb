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
TIMEOUT = 1_000_000  # the suite's core timeout (fabric_suite_cases.c TIMEOUT)


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


def notes(uart_log: Path, report: CheckReport) -> str:
    """What the suite's run shows, in words and figures from this run: the cross-check, the
    interrupt entry split by the trace, the ISR-loop and cache effects explained."""
    from latmon.inputs.ingest import load

    runs = {r.meta.get("scenario", "?"): r for r in load(uart_log)}
    cases = {c.case: c for c in report.cases}

    def med(case: str, series: str) -> float | None:
        run = runs.get(case)
        for s in run.series if run else []:
            if s.name == series and len(s.latency):
                return float(statistics.median(s.latency.tolist()))
        return None

    lines = [
        "Virtual SoC (VexRiscv_Full harts, latmon IP, reference design) running the interrupt "
        "test-case suite; latencies in cycles of the 100 MHz clock.",
        report.summary().removeprefix("soc_check: ").capitalize() + ".",
        "",
        f"{'case':<17} {'T1 med':>7} {'T2 med':>7} {'T2 max':>7} {'entry':>6} {'handler':>8} "
        f"{'I$ refills':>10}",
    ]
    for name, c in cases.items():
        if "T2" not in c.series:
            continue
        t2 = next(s for s in runs[name].series if s.name == "T2").latency.tolist()
        lines.append(
            f"{name:<17} {med(name, 'T1') or 0:>7.0f} {med(name, 'T2') or 0:>7.0f} "
            f"{max(t2):>7} {median(c.entry) or 0:>6.0f} {median(c.handler) or 0:>8.0f} "
            f"{median(c.irefills) or 0:>10.0f}"
        )
    lines += [
        "entry = data ready -> the first instruction of the trap vector retires; handler = from "
        "there to the ISR's read of DATA (both from the simulator's trace, medians).",
        "",
    ]
    base, loop_t2 = med("baseline", "T2"), med("isr-loop100", "T2")
    if base is not None and loop_t2 is not None and "isr-loop100" in runs:
        loop = runs["isr-loop100"].meta.get("isr_loop_cycles", "?")
        lines.append(
            f"ISR with a 100-iteration loop before its read: T2 median {base:.0f} -> "
            f"{loop_t2:.0f} cycles, +{loop_t2 - base:.0f}; the loop alone takes {loop} cycles by "
            "the CPU's own cycle counter (mcycle), the rest is one more call and return."
        )
    cold = cases.get("cache-invalidate")
    cold_t2 = med("cache-invalidate", "T2")
    if base is not None and cold is not None and cold_t2 is not None and cold.irefills:
        refills = median(cold.irefills) or 0
        extra = cold_t2 - base
        per = extra / refills if refills else 0
        lines.append(
            f"Caches invalidated before each interrupt: T2 +{extra:.0f} cycles with "
            f"{refills:.0f} instruction-cache line refills between data ready and the read "
            f"({per:.1f} cycles each). VexRiscv_Full's I$ is 4 KiB, direct mapped, 32-byte "
            "lines: a refill is 8 words, and on this SoC's bus a word takes 2 cycles (block RAM "
            "read, registered ack) after 1 cycle of arbitration, so >= 17 cycles a line, plus "
            "the pipeline refetching behind it; the data cache adds its own line fills for the "
            "ISR's first loads."
        )
    off_t2 = med("dcache-off", "T2")
    if base is not None and off_t2 is not None:
        lines.append(
            f"Data cache bypassed (stack and ISR data through the uncached alias): T2 "
            f"{base:.0f} -> {off_t2:.0f} cycles. Before its read of DATA the ISR mostly stores "
            "(register saves: the D$ writes through anyway), so bypassing it costs little here. "
            "This core's I$ cannot be switched off (no CSR; it ignores the I/O range), so the "
            "'caches disabled' case is the data cache only."
        )
    hi = {c: med(c, "high") for c in ("priority", "nested-off", "nested-on")}
    lo = {c: med(c, "low") for c in ("priority", "parallel")}
    if all(v is not None for v in (*hi.values(), *lo.values())):
        lines.append(
            f"Two simultaneous interrupts on one hart: high {hi['priority']:.0f}, low "
            f"{lo['priority']:.0f} cycles (the low one waits for the high one's ISR); on two "
            f"harts the low one takes {lo['parallel']:.0f}. High raised during the low ISR's "
            f"work: {hi['nested-off']:.0f} cycles without nesting, {hi['nested-on']:.0f} with."
        )
    tp = runs.get("throughput")
    if tp is not None:
        rates = [s for s in tp.series if "period" in s.counters]
        sustained = rates[0].counters.get("sustained_period", 0) if rates else 0
        first_loss = next((s for s in rates if s.counters.get("lost", 0) > 0), None)
        if sustained:
            lines.append(
                f"Throughput: no interrupt lost down to a period of {sustained} cycles "
                f"({100e6 / sustained / 1e3:,.0f} kHz)"
                + (
                    f"; at {first_loss.counters['period']} cycles {first_loss.counters['lost']} "
                    f"of {first_loss.counters['sent']} are lost, each one counted by the core "
                    "as an overrun"
                    if first_loss is not None
                    else ""
                )
                + "."
            )
    return "\n".join(lines) + "\n"
