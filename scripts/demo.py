"""make demo: the main job, end to end, on this machine.

1. simulates the latmon_core RTL under an interrupt-like workload (cocotb + Icarus) and writes
   the latencies the RTL measured as latmon-log;
2. measures this machine's timer wake-up latency with latprobe, idle and under
   `stress-ng --cpu 2`;
3. ingests the three logs into run files and writes one HTML report.

Output: out/demo/ (logs, runs/, report.html). Runs in about a minute.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
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


def latprobe_args(scenario: str, out: Path, seconds: int) -> list[str]:
    args = [
        str(LATPROBE),
        "-D",
        f"{seconds}s",
        "-i",
        "1ms",
        "--scenario",
        scenario,
        "-o",
        str(out),
        "-q",
    ]
    if os.geteuid() != 0:
        # SCHED_FIFO and mlockall need root; measure at normal priority rather than not at all.
        step("not root: latprobe runs with --policy other --no-mlock (real-time needs root)")
        args += ["--policy", "other", "--no-mlock"]
    return args


def measure_under_stress(out: Path, seconds: int) -> None:
    stress = shutil.which("stress-ng")
    if stress is None:
        raise SystemExit("demo: stress-ng is not installed; run 'make setup'")
    load = subprocess.Popen(
        [stress, "--cpu", "2", "--timeout", f"{seconds + 30}s", "--quiet"],
        start_new_session=True,  # its own process group: stopped as a whole below
    )
    try:
        time.sleep(1.0)  # let the load start
        if load.poll() is not None:
            raise SystemExit(f"demo: stress-ng exited early with status {load.returncode}")
        run(latprobe_args("stress-ng --cpu 2", out, seconds))
    finally:
        if load.poll() is None:
            os.killpg(load.pid, signal.SIGTERM)
            try:
                load.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(load.pid, signal.SIGKILL)
                load.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "demo")
    parser.add_argument("--seconds", type=int, default=5, help="per latprobe measurement")
    parser.add_argument("--events", type=int, default=5000, help="simulated interrupts")
    args = parser.parse_args()
    if not LATPROBE.exists():
        raise SystemExit(f"demo: {LATPROBE} is not built; run 'make sw-all'")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    logs = [out / "fabric-sim.log", out / "linux-idle.log", out / "linux-stress.log"]

    t0 = time.monotonic()
    step(f"simulating latmon_core with {args.events} interrupts (cocotb + Icarus) ...")
    run(
        [
            sys.executable,
            str(ROOT / "hw" / "tb" / "demo_sim.py"),
            "--out",
            str(logs[0]),
            "--events",
            str(args.events),
        ],
        stdout=subprocess.DEVNULL,
    )
    step(f"measuring this machine idle for {args.seconds} s (latprobe) ...")
    run(latprobe_args("idle", logs[1], args.seconds))
    step(f"measuring this machine under stress-ng --cpu 2 for {args.seconds} s ...")
    measure_under_stress(logs[2], args.seconds)

    latmon = str(VENV_BIN / "latmon")
    runs = out / "runs"
    step("ingesting ...")
    run([latmon, "ingest", "--force", *map(str, logs), "-o", str(runs)])
    run([latmon, "stats", "--unit", "ns", *(str(runs / f"{p.stem}.parquet") for p in logs)])
    report = out / "report.html"
    run(
        [
            latmon,
            "report",
            *(str(runs / f"{p.stem}.parquet") for p in logs),
            "-o",
            str(report),
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
