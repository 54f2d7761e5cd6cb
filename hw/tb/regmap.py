"""The register map as the testbenches see it: compiled from hw/regs/latmon.rdl at test time.

Nothing here repeats an address: every offset, reset value and access type comes from the RDL
through hw/regs/generate.py's collector, the same code that writes the C header and the Verilog
localparams.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from systemrdl import RDLCompiler

REGS_DIR = Path(__file__).resolve().parents[1] / "regs"
sys.path.insert(0, str(REGS_DIR))

from generate import FieldInfo, MemInfo, RegInfo, collect  # noqa: E402

__all__ = ["FieldInfo", "MemInfo", "RegInfo", "RegMap", "regmap"]


class RegMap:
    def __init__(self, regs: list[RegInfo], mems: list[MemInfo]) -> None:
        self.regs = {r.name: r for r in regs}
        self.mems = {m.name: m for m in mems}

    def offset(self, name: str) -> int:
        return self.regs[name].offset

    def field(self, reg: str, name: str) -> FieldInfo:
        return next(f for f in self.regs[reg].fields if f.name == name)

    def bit(self, reg: str, name: str) -> int:
        """The mask of a field."""
        f = self.field(reg, name)
        return ((1 << f.width) - 1) << f.lsb

    def get(self, reg: str, name: str, value: int) -> int:
        f = self.field(reg, name)
        return (value >> f.lsb) & ((1 << f.width) - 1)


@cache
def regmap() -> RegMap:
    compiler = RDLCompiler()
    compiler.compile_file(str(REGS_DIR / "latmon.rdl"))
    return RegMap(*collect(compiler.elaborate().top))
