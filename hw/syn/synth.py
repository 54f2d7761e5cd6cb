"""Synthesize the latmon cores with Yosys for an UltraScale+ device and report their cost.

usage: python hw/syn/synth.py --out build/synth [--config NAME ...]

For every configuration it synthesizes (synth_xilinx -family xcup -abc9, flattened) the
measurement path alone (latmon_core) and the whole IP with its AXI4-Lite slave (latmon), counts
LUTs, flip-flops, block RAM (in RAMB18 units), carry and wide-mux cells, and finds the deepest
combinational path in the netlist — the number of LUT levels and carry cells between two
registers (or a port), an Fmax proxy without a timing model. Writes resources.json and
resources.md into --out and prints the table.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from functools import cache
from pathlib import Path

HW = Path(__file__).resolve().parents[1]
RTL = HW / "rtl"
CORE_FILES = ["latmon_core", "latmon_sync", "latmon_trigger"]
NO_OPTIONS = {"HAS_HIST": 0, "HAS_STAMP": 0, "HAS_STIM": 0}

# name -> (description, parameters of the IP)
CONFIGS: dict[str, tuple[str, dict[str, int]]] = {
    "paper": (
        "the published design's configuration: 1 channel, 16-bit samples, 512 deep, no options",
        {"CNT_WIDTH": 16, "TRACE_WIDTH": 16, "TRACE_DEPTH": 512, **NO_OPTIONS},
    ),
    "core": ("32-bit counter and samples, 512 deep, no options", NO_OPTIONS),
    "core+hist": (
        "core + histogram (256 bins x 2 banks)",
        {**NO_OPTIONS, "HAS_HIST": 1},
    ),
    "core+stamp": (
        "core + timestamp mode (16 outstanding, 16-bit IDs)",
        {**NO_OPTIONS, "HAS_STAMP": 1},
    ),
    "core+stim": ("core + stimulus generator", {**NO_OPTIONS, "HAS_STIM": 1}),
    "default": ("the default: everything (histogram, timestamp mode, stimulus)", {}),
}
# What the published Latencies IP costs on a XCZU9EG (its paper): the goal's reference.
PAPER_FIGURES = {"ff": 94, "lut": 36, "bram18": 1}

LUT = re.compile(r"^LUT[1-6]$")
FF = re.compile(r"^FD[CPRSE]+$")
COMB = re.compile(r"^(LUT[1-6]|MUXF[789]|CARRY[48]|INV)$")


def yosys(script: str, log: Path) -> None:
    proc = subprocess.run(
        ["yosys", "-q", "-l", str(log), "-p", script], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        tail = "\n".join(log.read_text().splitlines()[-20:]) if log.exists() else proc.stderr
        raise SystemExit(f"synth: yosys failed:\n{tail}")


def count_cells(netlist: dict, top: str) -> dict[str, int]:
    cells: dict[str, int] = defaultdict(int)
    for cell in netlist["modules"][top]["cells"].values():
        cells[cell["type"]] += 1
    return dict(cells)


def summarize(cells: dict[str, int]) -> dict[str, int]:
    return {
        "lut": sum(n for t, n in cells.items() if LUT.match(t)),
        "ff": sum(n for t, n in cells.items() if FF.match(t)),
        "bram18": cells.get("RAMB18E2", 0) + 2 * cells.get("RAMB36E2", 0),
        "carry": sum(n for t, n in cells.items() if t.startswith("CARRY")),
        "muxf": sum(n for t, n in cells.items() if t.startswith("MUXF")),
    }


def deepest_path(netlist: dict, top: str) -> dict[str, object]:
    """The combinational path with the most LUT levels, and its carry cells.

    Paths start at flip-flop, RAM and port outputs and end at their inputs; only LUT, MUXF,
    CARRY and INV cells are on a path. Each LUT or MUXF counts as a level; carry cells are counted
    separately (a CARRY4 adds a few hundred picoseconds, a LUT level about twice that).
    """
    cells = netlist["modules"][top]["cells"]
    driver: dict[int, str] = {}
    for name, cell in cells.items():
        if not COMB.match(cell["type"]):
            continue
        for port, bits in cell["connections"].items():
            if cell["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = name
    preds: dict[str, set[str]] = {}
    for name, cell in cells.items():
        if not COMB.match(cell["type"]):
            continue
        inputs = {
            driver[b]
            for port, bits in cell["connections"].items()
            if cell["port_directions"].get(port) == "input"
            for b in bits
            if isinstance(b, int) and b in driver
        }
        preds[name] = inputs

    @cache
    def depth(name: str) -> tuple[int, int, tuple[str, ...]]:
        kind = cells[name]["type"]
        own = (0, 1) if kind.startswith("CARRY") else (1, 0)
        best: tuple[int, int, tuple[str, ...]] = (0, 0, ())
        for p in preds[name]:
            d = depth(p)
            if (d[0], d[1]) > (best[0], best[1]):
                best = d
        return best[0] + own[0], best[1] + own[1], (*best[2], name)

    sys.setrecursionlimit(100000)
    worst = max((depth(n) for n in preds), default=(0, 0, ()))
    # Name the path by the registers and nets it starts from and passes: the readable (not
    # $-generated) net names on each cell's inputs and outputs.
    names: dict[int, str] = {}
    for net, info in netlist["modules"][top]["netnames"].items():
        for b in info["bits"]:
            if isinstance(b, int) and (b not in names or names[b].startswith("$")):
                names[b] = net
    steps = []
    for name in worst[2]:
        cell = cells[name]
        nets = []
        for port, bits in cell["connections"].items():
            arrow = "out" if cell["port_directions"].get(port) == "output" else "in"
            for b in bits:
                n = names.get(b, "") if isinstance(b, int) else ""
                if n and not n.startswith("$") and (arrow, n) not in nets:
                    nets.append((arrow, n))
        steps.append(f"{cell['type']}(" + ", ".join(f"{a}:{n}" for a, n in nets) + ")")
    return {"lut_levels": worst[0], "carry": worst[1], "path": steps}


def synthesize(top: str, files: list[str], params: dict[str, int], work: Path) -> dict:
    sources = " ".join(str(RTL / f"{f}.v") for f in files)
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    netlist = work / f"{top}.json"
    script = (
        f"read_verilog -I{RTL} {sources}; "
        + (f"chparam {chparam} {top}; " if chparam else "")
        + f"synth_xilinx -family xcup -top {top} -flatten -abc9; "
        + f"write_json {netlist}"
    )
    yosys(script, work / f"{top}.log")
    data = json.loads(netlist.read_text())
    cells = count_cells(data, top)
    # I/O buffers are not logic: the core would sit inside a larger design
    return {**summarize(cells), "depth": deepest_path(data, top), "cells": cells}


def run(configs: list[str], out: Path) -> dict[str, dict]:
    out.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in configs:
            description, params = CONFIGS[name]
            work = Path(tmp) / name
            work.mkdir()
            core_params = {k: v for k, v in params.items() if k in ("CNT_WIDTH", "SYNC_STAGES")}
            core = synthesize("latmon_core", CORE_FILES, core_params, work)
            ip = synthesize("latmon", IP_FILES, params, work)
            results[name] = {
                "description": description,
                "parameters": params,
                "lut": ip["lut"],
                "ff": ip["ff"],
                "bram18": ip["bram18"],
                "carry": ip["carry"],
                "muxf": ip["muxf"],
                "measurement_lut": core["lut"],
                "measurement_ff": core["ff"],
                "measurement_carry": core["carry"],
                "depth": {k: v for k, v in ip["depth"].items() if k != "path"},
                "depth_path": ip["depth"]["path"],
                "measurement_depth": {k: v for k, v in core["depth"].items() if k != "path"},
                "measurement_depth_path": core["depth"]["path"],
                "cells": ip["cells"],
            }
    return results


def markdown(results: dict[str, dict]) -> str:
    p = PAPER_FIGURES
    lines = [
        "# latmon resources (Yosys synth_xilinx -family xcup -abc9)",
        "",
        "| configuration | part | LUT | FF | RAMB18 | carry | MUXF | deepest path |",
        "|---|---|---|---|---|---|---|---|",
        f"| published Latencies IP (XCZU9EG, Vivado) | whole IP | {p['lut']} | {p['ff']} | "
        f"0.5 RAMB36 = {p['bram18']} | — | — | — |",
    ]
    for name, r in results.items():
        md, d = r["measurement_depth"], r["depth"]
        lines.append(
            f"| {name} | measurement path (latmon_core) | {r['measurement_lut']} | "
            f"{r['measurement_ff']} | 0 | {r['measurement_carry']} | — | "
            f"{md['lut_levels']} LUT + {md['carry']} carry |"
        )
        lines.append(
            f"| {name} | whole IP with AXI4-Lite (latmon) | {r['lut']} | {r['ff']} | "
            f"{r['bram18']} | {r['carry']} | {r['muxf']} | "
            f"{d['lut_levels']} LUT + {d['carry']} carry |"
        )
    lines += [
        "",
        "Goal (issue): measurement path within 94 FF / 36 LUT / 1 RAMB18 in the paper's "
        "configuration; whole IP within twice that.",
        "",
    ]
    for name, r in results.items():
        lines.append(f"- **{name}**: {r['description']}; parameters {r['parameters'] or 'default'}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/synth"))
    parser.add_argument("--config", action="append", choices=list(CONFIGS))
    args = parser.parse_args()
    results = run(args.config or list(CONFIGS), args.out)
    (args.out / "resources.json").write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(results)
    (args.out / "resources.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
