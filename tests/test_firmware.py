"""latmon.firmware reads the suites' case names from the built images (their one home):
both tables, both word sizes (RV32 and AArch64), and a clear message for an image that is not
built, not an ELF, or not a suite. That the names are the ones the firmware runs is checked where
it runs: hw/tb/test_soc.py (every case's log, in the table's order) and tests/test_qemu_a53.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from latmon import firmware
from latmon.errors import LatmonError


def test_fabric_suite_table(c_binary) -> None:
    names = firmware.fabric_suite_cases(c_binary("examples/fabric-suite-rv32.elf"))
    assert len(names) == len(set(names)) >= 11
    assert names[0] == "baseline"  # bit 0 of fsuite_config.cases: the host's default mask
    assert all(n and n.isascii() and " " not in n for n in names)


@pytest.mark.parametrize("image", ["suite-a53", "suite-a53-qemu", "suite-a53-virt"])
def test_timer_suite_table_is_the_same_in_every_build(c_binary, image: str) -> None:
    names = firmware.timer_suite_cases(c_binary(f"examples/{image}.elf"))
    assert names == firmware.timer_suite_cases()
    assert len(names) == len(set(names)) >= 9 and names[0] == "caches-on"


def test_not_built(tmp_path: Path) -> None:
    with pytest.raises(LatmonError, match="is not built; run 'make sw-all'"):
        firmware.timer_suite_cases(tmp_path / "missing.elf")


def test_not_an_elf(tmp_path: Path) -> None:
    junk = tmp_path / "junk.elf"
    junk.write_bytes(b"not an image at all")
    with pytest.raises(LatmonError, match="not a readable ELF image"):
        firmware.timer_suite_cases(junk)


def test_not_a_suite(c_binary) -> None:
    with pytest.raises(LatmonError, match="no symbol fsuite_cases; is it a suite image"):
        firmware.fabric_suite_cases(c_binary("examples/example-rv32.elf"))
