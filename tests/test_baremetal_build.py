"""The bare-metal images are cross-built by `make sw-all`: the example for both published CPU
targets, the A53 interrupt suite and the QEMU builds of both. This checks what the linker
produced: the architecture, the floating-point ABI, the entry, the ISR, and that every image is
freestanding. The QEMU builds also run: tests/test_qemu_a53.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; 'make setup' installs the cross toolchains")
    return path


def test_cortex_a53_image(c_binary) -> None:
    elf = c_binary("examples/example-a53.elf")
    header = subprocess.run(
        [tool("aarch64-linux-gnu-readelf"), "-h", str(elf)], capture_output=True, text=True
    ).stdout
    assert "AArch64" in header and "0xfffc0000" in header  # entry: the start of OCM
    symbols = subprocess.run(
        [tool("aarch64-linux-gnu-nm"), str(elf)], capture_output=True, text=True
    ).stdout
    for name in ("_start", "main", "example_isr", "platform_irq_handler", "latmon_attach"):
        assert f" {name}\n" in symbols, name
    # the vector table is 2 KiB aligned, as VBAR_ELx requires
    vectors = next(line for line in symbols.splitlines() if line.endswith(" vectors"))
    assert int(vectors.split()[0], 16) % 2048 == 0


def test_cortex_r5_image(c_binary) -> None:
    elf = c_binary("examples/example-r5.elf")
    attrs = subprocess.run(
        [tool("arm-none-eabi-readelf"), "-A", str(elf)], capture_output=True, text=True
    ).stdout
    assert "VFPv3-D16" in attrs and "Tag_ABI_VFP_args: VFP registers" in attrs  # hard float
    symbols = subprocess.run(
        [tool("arm-none-eabi-nm"), str(elf)], capture_output=True, text=True
    ).stdout
    assert "00000000 T _vectors" in symbols  # the exception vectors at address 0
    for name in ("main", "example_isr", "irq_entry", "latmon_read_trace"):
        assert f" {name}\n" in symbols, name


def test_rv32_images(c_binary) -> None:
    """The example and the interrupt test-case suite for the virtual SoC's RV32IM harts (they run
    in hw/tb/test_soc.py): 32-bit RISC-V, soft-float ABI, entry at the reset vector 0."""
    for name in ("examples/example-rv32.elf", "examples/fabric-suite-rv32.elf"):
        elf = c_binary(name)
        header = subprocess.run(
            [tool("riscv64-unknown-elf-readelf"), "-h", str(elf)], capture_output=True, text=True
        ).stdout
        assert "ELF32" in header and "RISC-V" in header, name
        assert "Entry point address:               0x0" in header, name
        # e_flags 0: soft-float ABI (ilp32), no compressed instructions (the core has no RVC)
        assert re.search(r"Flags:\s+0x0\n", header), name
        symbols = subprocess.run(
            [tool("riscv64-unknown-elf-nm"), str(elf)], capture_output=True, text=True
        ).stdout
        for symbol in ("_start", "trap_entry", "platform_trap", "main", "latmon_attach"):
            assert f" {symbol}\n" in symbols, (name, symbol)


A53 = ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-nm")
RV32 = ("riscv64-unknown-elf-gcc", "riscv64-unknown-elf-nm")
IMAGES = {
    "example-a53": A53,
    "example-r5": ("arm-none-eabi-gcc", "arm-none-eabi-nm"),
    "example-a53-qemu": A53,
    "suite-a53": A53,
    "suite-a53-qemu": A53,
    "suite-a53-virt": A53,
    "example-rv32": RV32,
    "fabric-suite-rv32": RV32,
}
# Symbols any hosted C library (glibc, newlib, picolibc) would bring with its start code or stdio.
LIBC_SYMBOLS = (
    "__libc_start_main",
    "_init",
    "_fini",
    "errno",
    "__errno",
    "__errno_location",
    "printf",
    "puts",
    "malloc",
    "free",
    "strlen",
    "strcmp",
    "exit",
    "_exit",
    "__libc_init_array",
)


@pytest.mark.parametrize("image", sorted(IMAGES))
def test_image_sees_only_freestanding_headers(image: str, repo_root) -> None:
    """Every header any object of the image included (the compiler's -MD list, system headers
    too) is either the project's own or the cross compiler's freestanding set — never the build
    machine's /usr/include, so the image does not depend on which libc packages are installed."""
    cc, _ = IMAGES[image]
    own = Path(
        subprocess.run(
            [tool(cc), "-print-file-name=include"], capture_output=True, text=True, check=True
        ).stdout.strip()
    ).resolve()
    deps = sorted((repo_root / "build/sw/examples" / image).rglob("*.d"))
    assert len(deps) >= 7, f"dependency files of the {image} image are missing; run 'make sw-all'"
    seen = set()
    for dep in deps:
        text = dep.read_text().replace("\\\n", " ")
        for word in text.split():
            if word.endswith(":") or word.endswith(".o"):
                continue
            path = (
                (repo_root / word).resolve() if not word.startswith("/") else Path(word).resolve()
            )
            seen.add(path)
            assert not str(path).startswith("/usr/include"), f"{dep.name}: {path}"
            assert path.is_relative_to(repo_root / "sw") or path.is_relative_to(own), (
                f"{dep.name} includes {path}, neither sw/ nor {own}"
            )
    assert own / "stdint.h" in seen  # the freestanding headers are really used


@pytest.mark.parametrize("image", sorted(IMAGES))
def test_image_links_no_c_library(image: str, repo_root) -> None:
    """The link map names every input of the image: the project's objects and libgcc (compiler
    support for 64-bit division), nothing else; no libc start code or function is in it."""
    _, nm = IMAGES[image]
    build = repo_root / "build/sw/examples"
    loads = [
        line.removeprefix("LOAD ")
        for line in (build / f"{image}.map").read_text().splitlines()
        if line.startswith("LOAD ") and line != "LOAD linker stubs"  # the linker's own veneers
    ]
    assert loads, "the link map lists no inputs"
    for path in loads:
        assert path.startswith(str(build / image) + "/") or Path(path).name == "libgcc.a", path
    symbols = {
        line.split()[-1]
        for line in subprocess.run(
            [tool(nm), str(build / f"{image}.elf")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    }
    assert "latmon_log_writer_init" in symbols and "memcpy" in symbols
    assert not symbols & set(LIBC_SYMBOLS), sorted(symbols & set(LIBC_SYMBOLS))
