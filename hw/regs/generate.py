"""Generate every register-map artefact from the SystemRDL source.

Usage:
    python hw/regs/generate.py --rdl hw/regs/latmon.rdl --header H --map-header M \
        --verilog V --doc MD --ipxact XML --regblocks DIR

Outputs (all checked in; `make regs-check` regenerates them into a scratch folder and fails when
the checked-in copies differ, so there is never a second hand-typed copy of an address):
- --header:     C header by PeakRDL c-header (struct layout, field masks and reset values);
- --map-header: C header of plain offsets (register and memory-window byte offsets, sizes);
- --verilog:    Verilog localparams the RTL decoder includes (offsets, resets, field positions);
- --doc:        Markdown register documentation (PeakRDL markdown);
- --ipxact:     IP-XACT (PeakRDL ip-xact) for Vivado and other IP tools;
- --regblocks:  the register blocks of the IP, one Verilog module per part of the map
                (DIR/latmon_regs_<part>.v, hw/regs/regblock.py).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from peakrdl_cheader.c_standards import CStandard
from peakrdl_cheader.exporter import CHeaderExporter
from peakrdl_ipxact import IPXACTExporter
from peakrdl_markdown import MarkdownExporter
from systemrdl import RDLCompileError, RDLCompiler
from systemrdl.node import AddrmapNode, FieldNode, MemNode, RegNode
from systemrdl.rdltypes import OnWriteType

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regblock import verilog_modules

BANNER = "Generated from {rdl} by hw/regs/generate.py (make regs). Do not edit."


@dataclass
class FieldInfo:
    name: str
    lsb: int
    width: int
    reset: int
    access: str  # "r", "rw", "rw1c", "w1pulse"


@dataclass
class RegInfo:
    name: str
    offset: int
    reset: int
    access: str  # "r" or "rw" (any writable field)
    fields: list[FieldInfo]
    part: str  # the block of the IP that holds it (latmon_part): "core" or an option


@dataclass
class MemInfo:
    name: str
    offset: int
    entries: int
    width: int


def field_access(f: FieldNode) -> str:
    if not f.is_sw_writable:
        return "r"
    if f.get_property("onwrite") == OnWriteType.woclr:
        return "rw1c"
    if f.get_property("singlepulse"):
        return "w1pulse"
    return "rw"


def collect(top: AddrmapNode) -> tuple[list[RegInfo], list[MemInfo]]:
    """Every register and memory window of the map, by absolute address (register names are
    unique across the map's address blocks, so they are used without the block name)."""
    regs: list[RegInfo] = []
    mems: list[MemInfo] = []
    for node in top.descendants():
        if isinstance(node, RegNode):
            fields = []
            reset = 0
            for f in node.fields():
                value = f.get_property("reset") or 0
                assert isinstance(value, int), (
                    f"{node.inst_name}.{f.inst_name}: reset must be a constant"
                )
                fields.append(FieldInfo(f.inst_name, f.lsb, f.width, value, field_access(f)))
                reset |= value << f.lsb
            access = "rw" if any(f.access != "r" for f in fields) else "r"
            part = str(node.get_property("latmon_part", default="core"))
            regs.append(RegInfo(node.inst_name, node.absolute_address, reset, access, fields, part))
        elif isinstance(node, MemNode):
            mems.append(
                MemInfo(
                    node.inst_name,
                    node.absolute_address,
                    int(node.get_property("mementries")),
                    int(node.get_property("memwidth")),
                )
            )
    names = [r.name for r in regs] + [m.name for m in mems]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise SystemExit(
            f"generate: register names must be unique in the map: {sorted(duplicates)}"
        )
    return regs, mems


def freestanding_c_header(text: str) -> str:
    """PeakRDL-cheader checks the struct layout with static_assert from <assert.h>, a header a
    freestanding C implementation does not have (bare-metal images are built with -nostdinc);
    C11's own _Static_assert keyword says the same without it."""
    if "#include <assert.h>\n" not in text:
        raise SystemExit("generate: PeakRDL-cheader output changed: no '#include <assert.h>' line")
    return text.replace("#include <assert.h>\n", "").replace("static_assert(", "_Static_assert(")


def verilog_header(top: AddrmapNode, rdl: str) -> str:
    regs, mems = collect(top)
    p = top.inst_name.upper()
    lines = [
        f"// {BANNER.format(rdl=rdl)}",
        f"// Included inside the {top.inst_name} RTL modules.",
        "",
    ]
    lines.append(f"localparam integer {p}_MAP_SIZE = 32'h{top.size:X};")
    for r in regs:
        lines.append("")
        lines.append(f"localparam [15:0] {p}_{r.name}_OFFSET = 16'h{r.offset:04X};")
        lines.append(f"localparam [31:0] {p}_{r.name}_RESET = 32'h{r.reset:08X};")
        for f in r.fields:
            lines.append(f"localparam integer {p}_{r.name}_{f.name}_LSB = {f.lsb};")
            lines.append(f"localparam integer {p}_{r.name}_{f.name}_WIDTH = {f.width};")
    for m in mems:
        lines.append("")
        lines.append(f"localparam [15:0] {p}_{m.name}_OFFSET = 16'h{m.offset:04X};")
        lines.append(f"localparam integer {p}_{m.name}_ENTRIES = {m.entries};")
    return "\n".join(lines) + "\n"


def map_header(top: AddrmapNode, rdl: str) -> str:
    regs, mems = collect(top)
    p = top.inst_name.upper()
    guard = f"{p}_MAP_H"
    lines = [
        f"/* {BANNER.format(rdl=rdl)} */",
        "/* Byte offsets of the registers and memory windows, for drivers that access the map",
        " * through read32/write32 at base + offset. Field masks and shifts are in",
        f" * {top.inst_name}_regs.h (PeakRDL). */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        f"#define {p}_MAP_SIZE 0x{top.size:X}u",
    ]
    for r in regs:
        lines.append(f"#define {p}_{r.name}_OFFSET 0x{r.offset:03X}u")
    for m in mems:
        lines.append(f"#define {p}_{m.name}_OFFSET 0x{m.offset:04X}u")
        lines.append(f"#define {p}_{m.name}_ENTRIES {m.entries}u")
    lines += ["", f"#endif /* {guard} */"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rdl", required=True, type=Path)
    parser.add_argument("--header", required=True, type=Path)
    parser.add_argument("--map-header", required=True, type=Path)
    parser.add_argument("--verilog", required=True, type=Path)
    parser.add_argument("--doc", required=True, type=Path)
    parser.add_argument("--ipxact", required=True, type=Path)
    parser.add_argument("--regblocks", required=True, type=Path)
    args = parser.parse_args(argv)

    compiler = RDLCompiler()
    try:
        compiler.compile_file(str(args.rdl))
        root = compiler.elaborate()
    except RDLCompileError:
        print(f"generate: {args.rdl} does not compile (see the messages above)", file=sys.stderr)
        return 1
    top = root.top

    for path in (args.header, args.map_header, args.verilog, args.doc, args.ipxact):
        path.parent.mkdir(parents=True, exist_ok=True)
    # The input is named relative to the repository so that outputs do not depend on where the
    # checkout lives.
    rdl_name = args.rdl.as_posix()
    CHeaderExporter().export(top, str(args.header), std=CStandard.gnu11)
    args.header.write_text(freestanding_c_header(args.header.read_text()))
    args.map_header.write_text(map_header(top, rdl_name))
    args.verilog.write_text(verilog_header(top, rdl_name))
    MarkdownExporter().export(top, str(args.doc), input_files=[rdl_name])
    IPXACTExporter(vendor="latmon.dev", library="latmon", version="1.0").export(
        top, str(args.ipxact)
    )
    args.regblocks.mkdir(parents=True, exist_ok=True)
    for name, text in verilog_modules(top, BANNER.format(rdl=rdl_name)).items():
        (args.regblocks / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
