"""The bare-metal example is cross-built by `make sw-all` for both published CPU targets; it
cannot run here (no board), so this checks what the linker produced: the architecture, the
floating-point ABI, the entry and the ISR."""

from __future__ import annotations

import shutil
import subprocess

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
