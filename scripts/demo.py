"""make demo: the main job, end to end, on this machine.

1. simulates the latmon_core RTL under an interrupt-like workload (cocotb + Icarus) and writes
   the latencies the RTL measured as latmon-log; simulates the published T1/T2 reference design
   driven by its processor side in C (liblatmon) with a fast and a slow, jittery ISR;
2. measures this machine's timer wake-up latency with `latmon run` and the scenarios
   scenarios/demo-idle.yaml and demo-stress.yaml (latprobe idle and under stress-ng --cpu 2,
   with the stages of the interrupt path and the worst wake-ups explained when run as root);
3. compares the two scenarios and writes one HTML report of everything.

Output: out/demo/ (logs, runs/, report.html, summary.md). Runs in about a minute and a half.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LATPROBE = ROOT / "build" / "sw" / "latprobe"
VENV_BIN = Path(sys.executable).parent
# The reference design's scenarios in the demo (hw/tb/test_refdesign.py: SCENARIOS).
REF_SCENARIOS = ("fast-isr", "slow-jittery-isr")


def step(text: str) -> None:
    print(f"demo: {text}", flush=True)


def run(cmd: list[str], **kw) -> None:
    subprocess.run(cmd, check=True, **kw)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "demo")
    parser.add_argument("--seconds", type=int, default=5, help="per scenario")
    parser.add_argument("--events", type=int, default=5000, help="simulated interrupts")
    args = parser.parse_args()
    if not LATPROBE.exists():
        raise SystemExit(f"demo: {LATPROBE} is not built; run 'make sw-all'")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    sim_log = out / "fabric-sim.log"
    latmon = str(VENV_BIN / "latmon")

    t0 = time.monotonic()
    step(f"simulating latmon_core with {args.events} interrupts (cocotb + Icarus) ...")
    run(
        [
            sys.executable,
            str(ROOT / "hw" / "tb" / "demo_sim.py"),
            "--out",
            str(sim_log),
            "--events",
            str(args.events),
        ],
        stdout=subprocess.DEVNULL,
    )
    runs = out / "runs"
    run([latmon, "ingest", "--force", str(sim_log), "-o", str(runs)], stdout=subprocess.DEVNULL)

    # The published T1/T2 reference design, its processor side in C on liblatmon, two ISRs;
    # both simulations at once (before the measurement of this machine, which they would disturb)
    step("simulating the T1/T2 reference design driven by the C driver: fast and slow ISR ...")
    ref_logs = [out / f"refdesign-{name}.log" for name in REF_SCENARIOS]
    sims = [
        subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "hw" / "tb" / "refdesign_sim.py"),
                "--scenario",
                name,
                "--out",
                str(log),
                "--rounds",
                "150",
            ],
            stdout=subprocess.DEVNULL,
        )
        for name, log in zip(REF_SCENARIOS, ref_logs, strict=True)
    ]
    for sim in sims:
        if sim.wait() != 0:
            raise SystemExit(f"demo: the reference design simulation failed: {sim.args}")

    campaign = out / "campaign"
    shutil.rmtree(campaign, ignore_errors=True)
    extra = ["--stages"] if os.geteuid() == 0 else ["--policy", "other"]
    if os.geteuid() != 0:
        step("not root: SCHED_OTHER without mlockall and without stages (those need root)")
    step(f"measuring this machine idle, then under stress-ng --cpu 2, {args.seconds} s each ...")
    run(
        [
            latmon,
            "run",
            str(ROOT / "scenarios" / "demo-idle.yaml"),
            str(ROOT / "scenarios" / "demo-stress.yaml"),
            "-o",
            str(campaign),
            "--duration",
            f"{args.seconds}s",
            "--latprobe",
            str(LATPROBE),
            *extra,
        ],
        stdout=subprocess.DEVNULL,
    )
    measured = sorted(campaign.glob("*.parquet"))
    inputs = [str(runs / "fabric-sim.parquet"), *map(str, ref_logs), *map(str, measured)]
    run([latmon, "stats", "--unit", "ns", *inputs])
    run([latmon, "compare", *map(str, measured), "--deadline", "3ms"])
    report = out / "report.html"
    run(
        [
            latmon,
            "report",
            *inputs,
            "-o",
            str(report),
            "--deadline",
            "3ms",
            "--markdown",
            str(out / "summary.md"),
            "--title",
            "latmon demo: FPGA monitor (simulated) and this machine's wake-up latency",
        ],
        stdout=subprocess.DEVNULL,
    )
    step(f"done in {time.monotonic() - t0:.0f} s")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
