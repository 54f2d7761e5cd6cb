"""Packaging of the latmon IP: the VHDL component and the FuseSoC core agree with the RTL."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

HW = Path(__file__).resolve().parents[1]
RTL = HW / "rtl"


def verilog_interface(path: Path, module: str) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """Parameters (name -> default) and ports (name -> (direction, width)) of a module."""
    text = re.sub(r"//.*", "", path.read_text())
    header = re.search(rf"module\s+{module}\s*#\((.*?)\)\s*\((.*?)\);", text, re.S)
    assert header, f"module {module} not found in {path}"
    params = dict(re.findall(r"parameter\s+(\w+)\s*=\s*(\w+)", header.group(1)))
    ports = {}
    for direction, width, name in re.findall(
        r"(input|output)\s+(?:wire|reg)?\s*(\[[^\]]+\])?\s*(\w+)", header.group(2)
    ):
        ports[name] = (direction, width.replace(" ", "") or "[0:0]")
    return params, ports


def vhdl_interface(path: Path) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    text = re.sub(r"--.*", "", path.read_text())
    generics = dict(re.findall(r"(\w+)\s*:\s*integer\s*:=\s*(\w+)", text))
    ports = {}
    for name, direction, kind, hi, lo in re.findall(
        r"(\w+)\s*:\s*(in|out)\s+(std_logic_vector|std_logic)\s*(?:\(([^)]*?)\s+downto\s+(\w+)\))?",
        text,
    ):
        width = f"[{hi.replace(' ', '')}:{lo}]" if kind == "std_logic_vector" else "[0:0]"
        ports[name] = ("input" if direction == "in" else "output", width)
    return generics, ports


def test_vhdl_component_matches_the_verilog_module() -> None:
    v_params, v_ports = verilog_interface(RTL / "latmon.v", "latmon")
    h_generics, h_ports = vhdl_interface(RTL / "latmon_pkg.vhd")
    assert h_generics == v_params
    assert list(h_ports) == list(v_ports)  # same names, same order
    assert h_ports == v_ports  # same directions and widths
    # clk, rst, irq, ack, alarm, irq_out, 4 timestamp inputs, 2 stimulus outputs, 19 AXI4-Lite
    assert len(v_ports) == 31


@pytest.mark.skipif(shutil.which("ghdl") is None, reason="ghdl is installed by make setup")
def test_vhdl_component_analyses(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            "ghdl",
            "-a",
            "--std=08",
            "--work=latmon",
            f"--workdir={tmp_path}",
            str(RTL / "latmon_pkg.vhd"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def core_file() -> dict:
    text = (HW / "latmon.core").read_text()
    assert text.startswith("CAPI=2:")
    return yaml.safe_load(text)


def test_fusesoc_core_lists_every_rtl_file() -> None:
    """hw/latmon.core is the one home of the IP's file list: it names every module file of
    hw/rtl and every generated register block of hw/rtl/generated, with their include file; the
    generated files, and only they, are in hw/rtl/generated and say so in their first line."""
    core = core_file()
    files = [next(iter(f)) if isinstance(f, dict) else f for f in core["filesets"]["rtl"]["files"]]
    written = sorted(f"rtl/{p.name}" for p in RTL.glob("latmon*.v"))
    generated = sorted(f"rtl/generated/{p.name}" for p in (RTL / "generated").glob("latmon*.v"))
    assert sorted(files) == sorted([*written, *generated, "rtl/generated/latmon_regs.vh"])
    for path in (RTL / "generated").iterdir():
        assert path.read_text().startswith("// Generated from hw/regs/latmon.rdl"), path
    for path in RTL.glob("latmon*.v"):
        assert "Generated from" not in path.read_text().splitlines()[0], path
    for name in files:
        assert (HW / name).exists(), name
    assert set(core["targets"]) >= {"sim", "synth"}
    for target in ("default", "sim", "synth"):
        assert set(core["targets"][target]["parameters"]) == set(core["parameters"])
    v_params, _ = verilog_interface(RTL / "latmon.v", "latmon")
    for name, spec in core["parameters"].items():
        assert str(spec["default"]) == v_params[name], name


@pytest.mark.sim
def test_fusesoc_builds_the_sim_target(tmp_path: Path) -> None:
    fusesoc = Path(sys.executable).parent / "fusesoc"
    proc = subprocess.run(
        [
            str(fusesoc),
            "--cores-root",
            str(HW),
            "run",
            "--build-root",
            str(tmp_path),
            "--target",
            "sim",
            "--setup",
            "--build",
            "latmon:ip:latmon",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    compiled = tmp_path / "latmon_ip_latmon_0.1.0" / "sim-icarus" / "latmon_ip_latmon_0.1.0"
    assert compiled.exists() and compiled.read_bytes().startswith(b"#! "), "no Icarus output"


def test_resources_page_is_not_stale() -> None:
    """docs/hw/resources.md is what `make synth` generates from the committed results file
    hw/syn/resources.json (no synthesis here: the page is rendered from the file and compared),
    and each configuration in the results has the parameters it has now."""
    sys.path.insert(0, str(HW))
    from ip_configs import CONFIGS

    proc = subprocess.run(
        [sys.executable, str(HW / "syn" / "synth.py"), "--check-page"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    measured = json.loads((HW / "syn" / "resources.json").read_text())["configurations"]
    assert set(measured) <= {*CONFIGS, "reference"}
    for name in set(measured) - {"reference"}:
        assert measured[name]["parameters"] == CONFIGS[name].params, f"{name}: run make synth"
