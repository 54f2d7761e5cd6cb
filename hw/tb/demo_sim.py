"""Run the latmon_core simulation of the demo and write what the RTL measured as latmon-log.

usage: python hw/tb/demo_sim.py --out FILE.log [--events N] [--seed S] [--scenario NAME]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulate import rtl, run_sim, tb_hdl


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--scenario", default="fabric-sim")
    args = parser.parse_args()
    if args.events < 1:
        parser.error("--events must be at least 1")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    run_sim(
        toplevel="tb_latmon_core",
        sources=rtl("latmon_sync", "latmon_trigger", "latmon_countdown", "latmon_core")
        + tb_hdl("tb_latmon_core"),
        module="demo_latmon_core",
        build="demo-latmon_core",
        parameters={"CNT_WIDTH": 32, "SYNC_STAGES": 2},
        env={
            "CNT_WIDTH": 32,
            "SYNC_STAGES": 2,
            "EVENTS": args.events,
            "SEED": args.seed,
            "SCENARIO": args.scenario,
            "LOG_PATH": args.out.resolve(),
            "COCOTB_LOG_LEVEL": "WARNING",
        },
    )
    print(f"demo_sim: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
