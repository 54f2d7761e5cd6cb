"""Run one scenario of the reference design (T1/T2, driven by its C processor side) and write
what the driver read as latmon-log.

usage: python hw/tb/refdesign_sim.py --scenario fast-isr --out FILE.log [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_refdesign import SCENARIOS, run_scenario


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    os.environ.setdefault("COCOTB_LOG_LEVEL", "WARNING")
    run_scenario(args.scenario, args.rounds, args.out, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
