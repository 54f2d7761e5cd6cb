"""The virtual SoC's figures, computed once from a run of the suite and its cross-check: the
notes `make demo` prints and the generated page docs/hw/soc_figures.md.

    python hw/tb/soc_figures.py [--rounds N] [--out docs/hw/soc_figures.md]   (make soc-figures)

runs the suite on the SoC (hw/tb/soc_sim.py), cross-checks it against the simulator's trace and
writes the page. hw/tb/test_soc.py renders the page from its own run (the same image and rounds)
and fails when the checked-in page differs: the page is regenerated, never edited.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from soc_check import CheckReport, median

HW = Path(__file__).resolve().parents[1]
PAGE = HW.parent / "docs" / "hw" / "soc_figures.md"
ROUNDS = 120  # interrupts per case of the page's run: hw/tb/test_soc.py's run
CLOCK_HZ = 100e6


@dataclass(frozen=True)
class CaseRow:
    """A case measured on the T1/T2 path: medians of the cores and of the trace's split."""

    case: str
    t1: float
    t2: float
    t2_max: int
    entry: float
    handler: float
    irefills: float


@dataclass(frozen=True)
class Figures:
    checked: int
    mismatches: int
    cases: int
    summary: str
    rows: list[CaseRow]
    base: float | None  # baseline's T2 median
    loop_t2: float | None
    loop_cycles: str | None  # the ISR loop by mcycle (H isr_loop_cycles)
    cold_t2: float | None
    cold_refills: float | None
    dcache_off_t2: float | None
    high: dict[str, float | None]  # case -> the high line's median
    low: dict[str, float | None]  # case -> the low line's median
    many_t2: list[int]  # many-sources' T2 samples
    sustained: int  # the shortest period with nothing lost (0: no throughput case)
    first_loss: tuple[int, int, int] | None  # (period, lost, sent) of the first lossy rate


def figures(uart_log: Path, report: CheckReport) -> Figures:
    """Every figure the notes and the page show, from the UART's logs and the cross-check."""
    from latmon.ingest import load

    runs = {r.meta.get("scenario", "?"): r for r in load(uart_log)}
    cases = {c.case: c for c in report.cases}

    def series(case: str, name: str) -> list[int]:
        run = runs.get(case)
        for s in run.series if run else []:
            if s.name == name and len(s.latency):
                return [int(v) for v in s.latency.tolist()]
        return []

    def med(case: str, name: str) -> float | None:
        values = series(case, name)
        return float(statistics.median(values)) if values else None

    rows = [
        CaseRow(
            name,
            med(name, "T1") or 0,
            med(name, "T2") or 0,
            max(series(name, "T2")),
            median(c.entry) or 0,
            median(c.handler) or 0,
            median(c.irefills) or 0,
        )
        for name, c in cases.items()
        if "T2" in c.series
    ]
    cold = cases.get("cache-invalidate")
    loop = runs["isr-loop100"].meta.get("isr_loop_cycles", "?") if "isr-loop100" in runs else None
    tp = runs.get("throughput")
    rates = [s for s in tp.series if "period" in s.counters] if tp is not None else []
    lossy = next((s for s in rates if s.counters.get("lost", 0) > 0), None)
    return Figures(
        checked=report.checked,
        mismatches=report.mismatches,
        cases=len(report.cases),
        summary=report.summary(),
        rows=rows,
        base=med("baseline", "T2"),
        loop_t2=med("isr-loop100", "T2"),
        loop_cycles=loop,
        cold_t2=med("cache-invalidate", "T2"),
        cold_refills=(median(cold.irefills) or 0) if cold is not None and cold.irefills else None,
        dcache_off_t2=med("dcache-off", "T2"),
        high={c: med(c, "high") for c in ("priority", "nested-off", "nested-on")},
        low={c: med(c, "low") for c in ("priority", "parallel")},
        many_t2=series("many-sources", "T2"),
        sustained=int(rates[0].counters.get("sustained_period", 0)) if rates else 0,
        first_loss=(
            (
                int(lossy.counters["period"]),
                int(lossy.counters["lost"]),
                int(lossy.counters["sent"]),
            )
            if lossy is not None
            else None
        ),
    )


def notes(uart_log: Path, report: CheckReport) -> str:
    """What the suite's run shows, in words and figures from this run: the cross-check, the
    interrupt entry split by the trace, the ISR-loop and cache effects explained."""
    f = figures(uart_log, report)
    lines = [
        "Virtual SoC (VexRiscv_Full harts, latmon IP, reference design) running the interrupt "
        "test-case suite; latencies in cycles of the 100 MHz clock.",
        f.summary.removeprefix("soc_check: ").capitalize() + ".",
        "",
        f"{'case':<17} {'T1 med':>7} {'T2 med':>7} {'T2 max':>7} {'entry':>6} {'handler':>8} "
        f"{'I$ refills':>10}",
    ]
    for r in f.rows:
        lines.append(
            f"{r.case:<17} {r.t1:>7.0f} {r.t2:>7.0f} {r.t2_max:>7} {r.entry:>6.0f} "
            f"{r.handler:>8.0f} {r.irefills:>10.0f}"
        )
    lines += [
        "entry = data ready -> the first instruction of the trap vector retires; handler = from "
        "there to the ISR's read of DATA (both from the simulator's trace, medians).",
        "",
    ]
    if f.base is not None and f.loop_t2 is not None and f.loop_cycles is not None:
        lines.append(
            f"ISR with a 100-iteration loop before its read: T2 median {f.base:.0f} -> "
            f"{f.loop_t2:.0f} cycles, +{f.loop_t2 - f.base:.0f}; the loop alone takes "
            f"{f.loop_cycles} cycles by the CPU's own cycle counter (mcycle), the rest is one "
            "more call and return."
        )
    if f.base is not None and f.cold_t2 is not None and f.cold_refills is not None:
        extra = f.cold_t2 - f.base
        per = extra / f.cold_refills if f.cold_refills else 0
        lines.append(
            f"Caches invalidated before each interrupt: T2 +{extra:.0f} cycles with "
            f"{f.cold_refills:.0f} instruction-cache line refills between data ready and the "
            f"read ({per:.1f} cycles each). VexRiscv_Full's I$ is 4 KiB, direct mapped, 32-byte "
            "lines: a refill is 8 words, and on this SoC's bus a word takes 2 cycles (block RAM "
            "read, registered ack) after 1 cycle of arbitration, so >= 17 cycles a line, plus "
            "the pipeline refetching behind it; the data cache adds its own line fills for the "
            "ISR's first loads."
        )
    if f.base is not None and f.dcache_off_t2 is not None:
        lines.append(
            f"Data cache bypassed (stack and ISR data through the uncached alias): T2 "
            f"{f.base:.0f} -> {f.dcache_off_t2:.0f} cycles. Before its read of DATA the ISR "
            "mostly stores (register saves: the D$ writes through anyway), so bypassing it costs "
            "little here. This core's I$ cannot be switched off (no CSR; it ignores the I/O "
            "range), so the 'caches disabled' case is the data cache only."
        )
    hi, lo = f.high, f.low
    if all(v is not None for v in (*hi.values(), *lo.values())):
        lines.append(
            f"Two simultaneous interrupts on one hart: high {hi['priority']:.0f}, low "
            f"{lo['priority']:.0f} cycles (the low one waits for the high one's ISR); on two "
            f"harts the low one takes {lo['parallel']:.0f}. High raised during the low ISR's "
            f"work: {hi['nested-off']:.0f} cycles without nesting, {hi['nested-on']:.0f} with."
        )
    if f.sustained:
        lines.append(
            f"Throughput: no interrupt lost down to a period of {f.sustained} cycles "
            f"({CLOCK_HZ / f.sustained / 1e3:,.0f} kHz)"
            + (
                f"; at {f.first_loss[0]} cycles {f.first_loss[1]} of {f.first_loss[2]} are "
                "lost, each one counted by the core as an overrun"
                if f.first_loss is not None
                else ""
            )
            + "."
        )
    return "\n".join(lines) + "\n"


def _n(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def page(uart_log: Path, report: CheckReport, rounds: int) -> str:
    """docs/hw/soc_figures.md: the figures of one run, as tables."""
    f = figures(uart_log, report)
    t1 = sorted({round(r.t1) for r in f.rows})
    out = [
        "<!-- Generated by `make soc-figures` (hw/tb/soc_figures.py) from a run of the virtual "
        "SoC; hw/tb/test_soc.py fails when it is stale. Do not edit. -->",
        "",
        "# The virtual SoC's figures",
        "",
        f"The interrupt test-case suite ([soc.md](soc.md)) on the virtual SoC, {rounds} "
        "interrupts per case; cycles of the 100 MHz clock. The simulation is deterministic: the "
        "same image gives the same cycles (a change of the firmware's layout moves code between "
        "I$ lines and can shift the cache-sensitive figures). "
        f"{f.checked:,} samples of {f.cases} cases compared with the simulator's trace: "
        f"**{f.mismatches} mismatches**.",
        "",
        "## The T1/T2 path",
        "",
        "Medians, and T2's maximum; entry = data ready → the first instruction of the trap "
        "vector retires, handler = from there to the ISR's read of DATA, I$ refills between "
        "the two (all three from the simulator's trace).",
        "",
        "| case | T1 median | T2 median | T2 max | entry | handler | I$ refills |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in f.rows:
        out.append(
            f"| {r.case} | {r.t1:.0f} | {r.t2:.0f} | {r.t2_max} | {r.entry:.0f} | "
            f"{r.handler:.0f} | {r.irefills:.0f} |"
        )
    base = f.base
    delta = lambda x: None if x is None or base is None else x - base  # noqa: E731
    cold = delta(f.cold_t2)
    out += [
        "",
        "## Effects",
        "",
        "| what | cycles |",
        "|---|---:|",
        f"| T1 in every case (the fabric's GEN_DELAY + 2) | {', '.join(map(str, t1))} |",
        f"| ISR with a 100-iteration loop: T2 median above baseline's | +{_n(delta(f.loop_t2))} |",
        f"| the loop alone, by `mcycle` (`H isr_loop_cycles`) | {f.loop_cycles or '–'} |",
        f"| caches invalidated: T2 median above baseline's | +{_n(cold)} |",
        f"| caches invalidated: I$ line refills (median) | {_n(f.cold_refills)} |",
        "| caches invalidated: cycles per refill | "
        + (_n(cold / f.cold_refills, 1) if cold is not None and f.cold_refills else "–")
        + " |",
        f"| data cache bypassed: T2 median above baseline's | +{_n(delta(f.dcache_off_t2))} |",
        f"| priority, one hart: the high line | {_n(f.high['priority'])} |",
        f"| priority, one hart: the low line | {_n(f.low['priority'])} |",
        f"| parallel, two harts: the low line | {_n(f.low['parallel'])} |",
        f"| nested: the high line, nesting off | {_n(f.high['nested-off'])} |",
        f"| nested: the high line, nesting on | {_n(f.high['nested-on'])} |",
        "| many-sources: T2 min … max | "
        + (f"{min(f.many_t2)} … {max(f.many_t2)}" if f.many_t2 else "–")
        + " |",
        "| throughput: the shortest period with nothing lost | "
        + (f"{f.sustained} ({CLOCK_HZ / f.sustained / 1e3:,.0f} kHz)" if f.sustained else "–")
        + " |",
        "| throughput: the first period with a loss | "
        + (
            f"{f.first_loss[0]} ({f.first_loss[1]} of {f.first_loss[2]} lost)"
            if f.first_loss
            else "none"
        )
        + " |",
        "",
    ]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    from soc_check import check
    from soc_sim import SUITE_ELF, SocSimError, run, suite_cases

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="interrupts per case")
    parser.add_argument("--out", type=Path, default=PAGE, help="the page to write")
    parser.add_argument("--work", type=Path, default=HW / "tb" / "sim_build" / "soc-figures")
    args = parser.parse_args(argv)
    try:
        result = run(SUITE_ELF, args.work, rounds=args.rounds, cases=list(suite_cases()))
    except SocSimError as e:
        print(f"soc_figures: error: {e}", file=sys.stderr)
        return 2
    report = check(result.uart, result.trace)
    if result.exit_code != 0 or report.mismatches:
        print(f"soc_figures: the run failed; {report.summary()}", file=sys.stderr)
        return 1
    text = page(result.uart, report, args.rounds)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(args.out)
    print(f"soc_figures: wrote {args.out} ({report.summary().removeprefix('soc_check: ')})")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
