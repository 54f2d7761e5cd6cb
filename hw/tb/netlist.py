"""The latmon IP as Yosys synthesizes it, for simulation beside the RTL (no sim/synth mismatch).

`synthesize` runs Yosys's generic synthesis (`synth`, hierarchy kept so that the testbench
finds the measurement core by its instance name) on the IP with a configuration's parameters
and writes the netlist with `write_verilog`: every process, adder, compare and multiplexer is
then gates (Yosys's internal cell library, written as Verilog expressions) and flip-flops with
their power-up values. The block memories stay memories (`memory -nomap`: what a technology
maps to its block RAM), with their read ports as `memory_dff` merged them — the netlist
holds what synthesis decided, not what the RTL's always blocks say. The bits synthesis left
undefined (x constants: values it may choose) are set to 0 (`setundef -zero`), as the device
has some value there; simulated as X, a 4-state simulator would spread them pessimistically
through gates whose result does not depend on them.

A wrapper module `latmon` with the RTL's parameters (checked against those the netlist was
built with) and the netlist's ports lets the testbenches instantiate the netlist as they
instantiate the RTL; the measurement core's outputs the testbench taps are then at
`dut.syn.core_inst` (tb_latmon.v's LATMON_CORE).

usage: python hw/tb/netlist.py --out DIR [-G NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

HW = Path(__file__).resolve().parents[1]
if HW.as_posix() not in sys.path:
    sys.path.insert(0, HW.as_posix())
from ip_configs import ADDR_WIDTH, DEFAULTS  # noqa: E402 (after the path insert)
from ip_files import GENERATED, RTL, rtl_files  # noqa: E402

# Yosys's `synth` from its start up to the memory mapping, then its fine steps without
# `memory_map` (the memories stay memories), as `help synth` lists them.
SCRIPT = (
    "hierarchy -check -top latmon; synth -top latmon -run begin:fine; "
    "opt -fast -full; opt -full; techmap; opt -fast; abc; opt -fast; "
    "hierarchy -check; check -assert; setundef -undriven -zero; setundef -zero; "
    "rename latmon latmon_netlist; "
)
# The parameters of the RTL's top (hw/rtl/latmon.v) and their defaults.
RTL_PARAMS = {**DEFAULTS, "ADDR_WIDTH": ADDR_WIDTH}
# Where the testbench finds the measurement core in the netlist (tb_latmon.v's LATMON_CORE).
CORE_PATH = "dut.syn.core_inst"
# A synthesis of `default` takes about a minute on an idle core.
SYNTH_TIMEOUT_S = 1800


def synthesize(params: Mapping[str, int], out: Path) -> list[Path]:
    """Synthesize the IP with `params` into `out`; return the netlist and its wrapper.

    Skipped when `out` holds a netlist of the same parameters and RTL (its script as written
    records both, with a hash of the RTL: a change of any RTL file rebuilds).
    """
    unknown = set(params) - set(RTL_PARAMS)
    if unknown:
        raise ValueError(f"netlist: unknown parameters {sorted(unknown)}")
    full = {**RTL_PARAMS, **params}
    out.mkdir(parents=True, exist_ok=True)
    netlist, wrapper, log = out / "latmon_netlist.v", out / "latmon_wrapper.v", out / "yosys.log"
    chparam = " ".join(f"-set {k} {v}" for k, v in full.items())
    files = rtl_files()
    script = (
        f"read_verilog -I{GENERATED} {' '.join(str(p) for p in files)}; chparam {chparam} latmon; "
        + SCRIPT
        + f"write_verilog -noattr {netlist}"
    )
    stamp = out / "script.ys"
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in [*files, *RTL.glob("*.vh")]))
    fingerprint = f"{script}\n// RTL sha256 {digest.hexdigest()}\n"
    if (
        netlist.exists()
        and wrapper.exists()
        and stamp.exists()
        and stamp.read_text() == fingerprint
    ):
        return [netlist, wrapper]
    stamp.unlink(missing_ok=True)
    try:
        proc = subprocess.run(
            ["yosys", "-q", "-l", str(log), "-p", script],
            capture_output=True,
            text=True,
            check=False,
            timeout=SYNTH_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"netlist: yosys did not finish in {SYNTH_TIMEOUT_S} s") from exc
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
        raise RuntimeError(f"netlist: yosys failed (log {log}):\n{tail}")
    wrapper.write_text(wrapper_text(netlist.read_text(), full))
    stamp.write_text(fingerprint)
    return [netlist, wrapper]


def top_ports(netlist: str, module: str = "latmon_netlist") -> list[tuple[str, str, int]]:
    """(direction, name, width) of each port of `module` in a write_verilog netlist."""
    body = re.search(rf"^module {module}\((.*?)\);(.*?)^endmodule", netlist, re.M | re.S)
    if not body:
        raise RuntimeError(f"netlist: no module {module} in the netlist")
    order = [p.strip() for p in body.group(1).split(",")]
    found: dict[str, tuple[str, int]] = {}
    for m in re.finditer(
        r"^\s*(input|output)\s+(?:\[(\d+):(\d+)\]\s+)?(\S+);", body.group(2), re.M
    ):
        width = int(m.group(2)) - int(m.group(3)) + 1 if m.group(2) else 1
        found[m.group(4)] = (m.group(1), width)
    return [(found[p][0], p, found[p][1]) for p in order]


def wrapper_text(netlist: str, params: Mapping[str, int]) -> str:
    """A module `latmon` with the RTL's parameters around the netlist (latmon_netlist)."""
    ports = top_ports(netlist)
    lines = [
        "// The synthesized netlist of latmon behind the RTL's module name and parameters",
        "// (written by hw/tb/netlist.py). The parameters must be those it was built with.",
        "`timescale 1ns / 1ps",
        "module latmon #(",
        ",\n".join(f"    parameter {k} = {v}" for k, v in params.items()),
        ") (",
        ",\n".join(
            f"    {d} wire {'[' + str(w - 1) + ':0] ' if w > 1 else ''}{name}"
            for d, name, w in ports
        ),
        ");",
        "    initial begin",
    ]
    for k, v in params.items():
        lines.append(
            f"        if ({k} != {v})\n"
            f'            $fatal(1, "latmon netlist: built with {k} = {v}, not %0d", {k});'
        )
    lines += [
        "    end",
        "    latmon_netlist syn (" + ", ".join(f".{n}({n})" for _, n, _ in ports) + ");",
        "endmodule",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("-G", dest="params", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    params: dict[str, int] = {}
    for item in args.params:
        name, _, value = item.partition("=")
        if name not in RTL_PARAMS or not value.isdigit():
            parser.error(f"-G {item}: expected NAME=VALUE with NAME one of {', '.join(RTL_PARAMS)}")
        params[name] = int(value)
    for path in synthesize(params, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
