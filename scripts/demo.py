"""make demo: the main job, end to end, on this machine.

1. simulates the latmon_core RTL under an interrupt-like workload (cocotb + Icarus) and writes
   the latencies the RTL measured as latmon-log; simulates the virtual SoC (Verilator): VexRiscv
   RISC-V harts execute the interrupt test-case suite firmware against the latmon IP and the
   published T1/T2 reference design, every sample cross-checked with the simulator's own trace;
2. measures this machine's timer wake-up latency with `latmon run` and the scenarios
   scenarios/demo-idle.yaml and demo-stress.yaml (latprobe idle and under stress-ng --cpu 2,
   with the stages of the interrupt path and the worst wake-ups explained when run as root);
3. compares the two scenarios and writes one HTML report of everything.

Output: out/demo/ (logs, runs/, soc/, soc-notes.txt, report.html, summary.md). Runs in about two
minutes (plus about a minute the first time, to build the SoC's simulator).
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


def step(text: str) -> None:
    print(f"demo: {text}", flush=True)


def run(cmd: list[str], **kw) -> None:
    subprocess.run(cmd, check=True, **kw)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "demo")
    parser.add_argument("--seconds", type=int, default=5, help="per scenario")
    parser.add_argument("--events", type=int, default=5000, help="simulated interrupts")
    parser.add_argument(
        "--soc-rounds", type=int, default=50, help="interrupts per case of the SoC's suite"
    )
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

    # The virtual SoC: the suite's firmware on VexRiscv harts against the IP and the T1/T2
    # reference design (before the measurement of this machine, which it would disturb)
    step(
        "simulating the virtual SoC: two VexRiscv harts run the interrupt test-case suite "
        f"({args.soc_rounds} interrupts per case; Verilator, built once) ..."
    )
    soc_dir = out / "soc"
    soc_notes = out / "soc-notes.txt"
    sim = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "hw" / "tb" / "soc_sim.py"),
            "--out",
            str(soc_dir),
            "--rounds",
            str(args.soc_rounds),
            "--check",
            "--notes",
            str(soc_notes),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert sim.stdout is not None
    for line in sim.stdout:
        step("  " + line.strip().removeprefix("soc_sim: "))
    if sim.wait() != 0:
        raise SystemExit(f"demo: the SoC simulation failed; see {soc_dir / 'sim.log'}")
    soc_log = out / "soc-suite.log"
    shutil.copyfile(soc_dir / "uart.log", soc_log)
    print(soc_notes.read_text(), end="", flush=True)

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
    inputs = [str(runs / "fabric-sim.parquet"), str(soc_log), *map(str, measured)]
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
            "--notes",
            str(soc_notes),
            "--title",
            "latmon demo: FPGA monitor and virtual SoC (simulated), this machine's wake-up latency",
        ],
        stdout=subprocess.DEVNULL,
    )
    step(f"done in {time.monotonic() - t0:.0f} s")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
