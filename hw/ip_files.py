"""The RTL files of the latmon IP, read from their one home: the FuseSoC core hw/latmon.core.

Synthesis (hw/syn/synth.py), the RTL lint (hw/lint.py) and the testbenches take the file list
from here, so a new module is added in one place.
"""

from __future__ import annotations

from pathlib import Path

import yaml

HW = Path(__file__).resolve().parent
CORE = HW / "latmon.core"
RTL = HW / "rtl"
# The files `make regs` generates from hw/regs/latmon.rdl (register blocks and their include
# file): apart from the hand-written RTL, and the include directory of the IP.
GENERATED = RTL / "generated"


def rtl_files() -> list[Path]:
    """The Verilog sources of the IP (fileset `rtl`, include files left out), in core order."""
    text = CORE.read_text()
    if not text.startswith("CAPI=2:"):
        raise SystemExit(f"{CORE}: not a CAPI 2 core file")
    core = yaml.safe_load(text)
    files: list[Path] = []
    for entry in core["filesets"]["rtl"]["files"]:
        name, attrs = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        if not (attrs or {}).get("is_include_file"):
            files.append(HW / name)
    return files


def rtl_paths() -> dict[str, Path]:
    """The Verilog sources of the IP by module name."""
    return {p.stem: p for p in rtl_files()}


def rtl_modules() -> list[str]:
    """The module names of the IP (each file holds the module of its name)."""
    return [p.stem for p in rtl_files()]
