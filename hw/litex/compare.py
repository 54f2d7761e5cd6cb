"""The same firmware on the virtual SoC (hw/soc) and on the LiteX SoC in LiteX's simulator.

    make litex-sim      (.venv/bin/python hw/litex/compare.py --out out/litex-sim --rounds 50)

Both SoCs get the same image (build/sw/examples/fabric-suite-rv32.elf, configuration patched
alike) and the same parts where they can be the same: the CPU (VexRiscv_Full, one hart: LiteX's
VexRiscv is single-core, so hw/soc runs with HARTS=1), the fabric's Verilog (reference design,
irqgen, line monitors, traffic) and the memory map. What differs is the bus: hw/soc's own
arbiter, block RAM and Wishbone-to-AXI4-Lite bridge against LiteX's shared interconnect,
Wishbone SRAM and bridge. The bus benchmark (hw/litex/firmware/bus_bench.c) measures each path's
cost per access on both, with the CPU's own cycle counter, to explain the differences.

Writes <out>/compare.md (the tables; printed too), and each SoC's uart.log.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "hw" / "tb"))

import sim  # noqa: E402
import soc_sim  # noqa: E402

BAREMETAL = ROOT / "sw" / "examples" / "baremetal"
BENCH_SRC = HERE / "firmware" / "bus_bench.c"
BENCH_ELF = ROOT / "build" / "litex" / "bus_bench.elf"
CC = "riscv64-unknown-elf-gcc"
# the flags of the suite's image (sw/sw.mk: EX_RV32_FLAGS, EX_CFLAGS, EX_LDFLAGS)
CFLAGS = [
    "-march=rv32im_zicsr_zifencei", "-mabi=ilp32", "-DPLATFORM_FABRIC_IRQ=0u", "-std=c11",
    "-O2", "-g", "-Wall", "-Wextra", "-Wshadow", "-Wpedantic", "-Werror", "-ffreestanding",
    "-nostdinc", "-fno-stack-protector", "-fno-tree-loop-distribute-patterns",
]  # fmt: skip
LDFLAGS = ["-nostdlib", "-static", "-Wl,--build-id=none", "-Wl,--no-warn-rwx-segments"]
# what the suite's image links beside the suite (sw/sw.mk: EX_RV32_SRCS, EX_LIB_SRCS, whose
# sw/lib part build_bench names): the RV32
# CPU part, the virtual SoC's board part (the LiteX SoC has the same fabric), the support
PLATFORM_SOURCES = ("cpu/rv32/start.S", "cpu/rv32/platform.c", "board/soc.c", "support.c")


class CompareError(Exception):
    """A part of the comparison could not be built or run."""


def build_bench() -> Path:
    """The bus benchmark, linked like the suite's image (same start code, platform, linker
    script)."""
    sources = [
        BENCH_SRC,
        *(BAREMETAL / n for n in PLATFORM_SOURCES),
        *(ROOT / "sw" / "lib" / n for n in ("latmon.c", "latmon_log.c", "latmon_crc32.c")),
    ]
    includes = [ROOT / "sw" / "include", ROOT / "sw" / "lib", BAREMETAL]
    libgcc = subprocess.run(
        [CC, "-march=rv32im", "-mabi=ilp32", "-print-libgcc-file-name"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    gcc_include = subprocess.run(
        [CC, "-print-file-name=include"], capture_output=True, text=True, check=True
    ).stdout.strip()
    BENCH_ELF.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        CC, *CFLAGS, *(f"-I{d}" for d in includes), "-isystem", gcc_include, *LDFLAGS,
        f"-L{Path(libgcc).parent}", "-T", str(BAREMETAL / "cpu/rv32/rv32.ld"),
        "-o", str(BENCH_ELF),
        *map(str, sources), "-lgcc",
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise CompareError(f"building {BENCH_SRC.name} failed:\n{proc.stderr}")
    return BENCH_ELF


def medians(uart: Path) -> dict[tuple[str, str], dict[str, float]]:
    """(case, series) -> count, median, max of one SoC's suite log, by latmon's own reader."""
    latmon = Path(sys.executable).parent / "latmon"
    out = subprocess.run(
        [str(latmon), "stats", "--json", str(uart)], capture_output=True, text=True, timeout=300
    )
    if out.returncode != 0:
        raise CompareError(f"latmon stats {uart} failed: {out.stderr.strip()}")
    return {
        (r["run"], r["series"]): {"n": r["count"], "median": r["median"], "max": r["max"]}
        for r in json.loads(out.stdout)
    }


def bench_figures(uart: Path) -> dict[str, float]:
    figures = {}
    for line in uart.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2:
            figures[parts[0]] = float(parts[1])
    if len(figures) != 7:
        raise CompareError(f"{uart}: the bus benchmark printed {len(figures)} of 7 figures")
    return figures


def _fmt(x: float) -> str:
    return f"{x:g}"


def compare(out: Path, rounds: int, cases: list[str]) -> str:
    out.mkdir(parents=True, exist_ok=True)
    elf = soc_sim.SUITE_ELF
    config = {"rounds": rounds, "cases": cases}
    soc = soc_sim.run(elf, out / "hw-soc", harts=1, **config)  # type: ignore[arg-type]
    lx = sim.run(elf, out / "litex", **config)  # type: ignore[arg-type]
    if soc.exit_code != 0 or lx.exit_code != 0:
        raise CompareError(
            f"the suite exited with {soc.exit_code} (hw/soc), {lx.exit_code} (LiteX)"
        )
    a, b = medians(soc.uart), medians(lx.uart)
    rows = [
        f"Same image ({elf.name}, {rounds} interrupts per case), VexRiscv_Full, one hart; "
        "cycles of the one clock.",
        "",
        "| case | series | n (hw/soc, LiteX) | median hw/soc | median LiteX | Δ median | "
        "max hw/soc | max LiteX |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for key in a:
        if key not in b:
            raise CompareError(f"the LiteX run has no series {key[1]} in case {key[0]}")
        x, y = a[key], b[key]
        rows.append(
            f"| {key[0]} | {key[1]} | {x['n']}, {y['n']} | {_fmt(x['median'])} | "
            f"{_fmt(y['median'])} | {_fmt(y['median'] - x['median']):>} | {_fmt(x['max'])} | "
            f"{_fmt(y['max'])} |"
        )
    bench = build_bench()
    ba = bench_figures(soc_sim.run(bench, out / "bench-hw-soc", harts=1).uart)
    bb = bench_figures(sim.run(bench, out / "bench-litex").uart)
    rows += [
        "",
        "Bus paths (hw/litex/firmware/bus_bench.c): CPU cycles per access, beyond the loop.",
        "",
        "| path | hw/soc | LiteX | Δ |",
        "|---|---:|---:|---:|",
    ]
    for path, x in ba.items():
        rows.append(f"| {path} | {x:.2f} | {bb[path]:.2f} | {bb[path] - x:+.2f} |")
    text = "\n".join(rows) + "\n"
    (out / "compare.md").write_text(text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=50, help="interrupts per case")
    parser.add_argument("--cases", help="comma-separated (default: every case of the image)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        cases = args.cases or ",".join(soc_sim.suite_cases())
        text = compare(args.out, args.rounds, [c for c in cases.split(",") if c])
    except (CompareError, sim.LitexSimError, soc_sim.SocSimError) as e:
        print(f"litex-compare: error: {e}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
