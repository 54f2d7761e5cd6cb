"""What a bare-metal image says about itself: the names of its suite's cases.

The case table of each suite (sw/examples/baremetal/suite/) is the one home of its case names and
their order; the host reads them from the built image's symbol table instead of keeping a copy.
A table is an array of structures whose first member is the case name (``const char *``) and a
``size_t`` beside it with the number of entries:

- the timer suite (``suite/timer_cases.c``): ``suite_cases``, ``suite_case_count``;
- the fabric suite (``suite/fabric_cases.c``): ``fsuite_cases``, ``fsuite_case_count``
  (bit i of ``fsuite_config.cases`` runs entry i).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from latmon.errors import LatmonError

EXAMPLES = Path(__file__).resolve().parents[2] / "build" / "sw" / "examples"
#: the timer suite's image whose cases a scenario's ``target.cases`` names
TIMER_SUITE_ELF = EXAMPLES / "suite-a53-virt.elf"


def case_names(elf: Path, table: str, count: str) -> tuple[str, ...]:
    """The names of the cases in ``table`` of ``elf``, in the table's order."""
    return _case_names(elf.resolve(), elf.stat().st_mtime_ns if elf.exists() else 0, table, count)


@cache
def _case_names(elf: Path, _mtime: int, table: str, count: str) -> tuple[str, ...]:
    if not elf.exists():
        raise LatmonError(f"{elf} is not built; run 'make sw-all' (its case table names the cases)")
    try:
        with open(elf, "rb") as f:
            image = ELFFile(f)
            symbols = image.get_section_by_name(".symtab")
            if not isinstance(symbols, SymbolTableSection):
                raise LatmonError(f"{elf}: no symbol table (stripped?); rebuild it: make sw-all")
            found = {}
            for name in (table, count):
                sym = symbols.get_symbol_by_name(name)
                if not sym:
                    raise LatmonError(f"{elf}: no symbol {name}; is it a suite image?")
                found[name] = (sym[0]["st_value"], sym[0]["st_size"])
            word = image.elfclass // 8
            order: Literal["little", "big"] = "little" if image.little_endian else "big"

            loaded = [
                (sec["sh_addr"], sec.data())
                for sec in image.iter_sections()
                if sec["sh_type"] == "SHT_PROGBITS" and sec["sh_addr"]
            ]

            def read(addr: int, size: int) -> bytes:
                for start, data in loaded:
                    if start <= addr < start + len(data):
                        return data[addr - start : addr - start + size]
                raise LatmonError(f"{elf}: address {addr:#x} is in no section with contents")

            n = int.from_bytes(read(found[count][0], word), order)
            at, size = found[table]
            if n == 0 or size % n:
                raise LatmonError(f"{elf}: {table} has {size} bytes, not {n} equal entries")
            names = []
            for i in range(n):
                ptr = int.from_bytes(read(at + i * (size // n), word), order)
                text = read(ptr, 256)
                if b"\0" not in text:
                    raise LatmonError(f"{elf}: case {i} of {table} has no name")
                names.append(text[: text.index(b"\0")].decode("ascii"))
            return tuple(names)
    except (ELFError, OSError) as e:
        raise LatmonError(f"{elf}: not a readable ELF image ({e})") from None


def timer_suite_cases(elf: Path = TIMER_SUITE_ELF) -> tuple[str, ...]:
    """The timer suite's cases (a scenario's ``target.cases`` chooses among them)."""
    return case_names(elf, "suite_cases", "suite_case_count")


def fabric_suite_cases(elf: Path) -> tuple[str, ...]:
    """The fabric suite's cases, bit i of ``fsuite_config.cases`` running entry i."""
    return case_names(elf, "fsuite_cases", "fsuite_case_count")
