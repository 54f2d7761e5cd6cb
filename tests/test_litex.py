"""latmon as a LiteX core (hw/litex/latmon_litex.py) in the example SoC (hw/litex/soc.py):
the SoC elaborates with litex-boards' Colorlight i5 target, the core sits on the bus at its
region with its interrupt allocated, and the generated Verilog instantiates the IP with
hw/latmon.core's parameters and files. (The bitstream itself is `make bitstream`, minutes of
place and route: not part of make test. The SoC's firmware and LiteX simulation do not exist yet:
docs/boards.md.)"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hw" / "litex"))


def test_soc_elaborates_with_latmon_on_the_bus_and_its_interrupt(tmp_path: Path) -> None:
    import soc as example
    from litex.soc.integration.builder import Builder

    soc = example.build_soc("colorlight_i5", 60e6)
    builder = Builder(soc, output_dir=str(tmp_path), compile_software=False, compile_gateware=False)
    builder.build(run=False)
    region = soc.bus.regions["latmon"]
    assert (region.origin, region.size, region.cached) == (example.ORIGIN, 0x10000, False)
    assert "latmon" in soc.irq.locs
    verilog = (tmp_path / "gateware" / "colorlight_i5.v").read_text()
    inst = re.search(r"latmon #\((.*?)\) latmon\s*\((.*?)\);", verilog, re.S)
    assert inst, "no latmon instance in the generated Verilog"
    params = dict(re.findall(r"\.(\w+)\s*\(\d+'d(\d+)\)", inst.group(1)))
    core = yaml.safe_load((ROOT / "hw" / "latmon.core").read_text())
    for name, spec in core["parameters"].items():
        assert int(params[name]) == int(spec["default"]), name
    assert re.search(r"\.irq_out\s*\(\s*\w+", inst.group(2))
    for port in ("s_axil_awaddr", "s_axil_rdata", "irq", "ack", "clk", "rst"):
        assert re.search(rf"\.{port}\s*\(", inst.group(2)), port
    # the IP's files are the platform's sources, as hw/latmon.core lists them
    sources = {Path(s[0]).name for s in soc.platform.sources}
    assert {"latmon.v", "latmon_core.v", "latmon_stamp.v"} <= sources


def test_core_refuses_a_parameter_the_ip_does_not_have() -> None:
    from latmon_litex import Latmon
    from litex.build.sim import SimPlatform
    from migen import Signal

    platform = SimPlatform("sim", [])
    with pytest.raises(ValueError, match="NO_SUCH"):
        Latmon(platform, irq=Signal(), ack=Signal(), NO_SUCH=1)


def test_registers_come_from_the_rdl() -> None:
    from latmon_litex import registers

    regs = {name: offset for name, offset, _ in registers()}
    header = (ROOT / "sw" / "include" / "latmon" / "latmon_map.h").read_text()
    defined = {
        m.group(1): int(m.group(2), 16)
        for m in re.finditer(r"#define LATMON_(\w+)_OFFSET 0x([0-9A-Fa-f]+)u", header)
    }
    common = set(regs) & set(defined)
    assert len(common) > 20, sorted(defined)[:5]
    assert all(regs[n] == defined[n] for n in common)
