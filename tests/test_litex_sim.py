"""The LiteX SoC with latmon's test fabric in LiteX's own simulator (hw/litex/sim.py) runs the
fabric suite's image, and its figures agree with the virtual SoC's (hw/soc) where the parts are
the same (docs/boards.md, "LiteX simulation").

Both SoCs run the same image with the same configuration, one VexRiscv_Full hart each. T1 comes
from the fabric alone (timer -> data ready), so it must be equal sample for sample. T2 goes
through the bus, which differs: LiteX's interconnect and AXI4-Lite bridge take fewer cycles per
access (make litex-sim measures each path), so LiteX's T2 median may be lower, by a few cycles
on a warm path and by about one cycle per instruction-cache refill when the caches were
invalidated, never higher.

Takes about 2 min of CPU time the first time (Verilator builds of both simulators, cached in
build/litex/sim and hw/tb/sim_build), seconds after that.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "hw" / "litex"))
sys.path.insert(0, str(ROOT / "hw" / "tb"))

ROUNDS = 20
CASES = ["baseline", "cache-invalidate", "priority"]


def _stats(uart: Path) -> dict[tuple[str, str], dict]:
    latmon = Path(sys.executable).parent / "latmon"
    out = subprocess.run(
        [str(latmon), "stats", "--json", str(uart)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {(r["run"], r["series"]): r for r in json.loads(out.stdout)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    import sim
    import soc_sim

    if not soc_sim.SUITE_ELF.exists():
        pytest.fail(f"{soc_sim.SUITE_ELF} is not built; run 'make sw-all'")
    out = tmp_path_factory.mktemp("litex-sim")
    lx = sim.run(soc_sim.SUITE_ELF, out / "litex", rounds=ROUNDS, cases=CASES, timeout_s=600)
    soc = soc_sim.run(
        soc_sim.SUITE_ELF, out / "hw-soc", harts=1, rounds=ROUNDS, cases=CASES, timeout_s=600
    )
    assert (lx.exit_code, soc.exit_code) == (0, 0)
    return lx.uart, soc.uart


def test_the_suite_runs_on_the_litex_soc(runs: tuple[Path, Path]) -> None:
    litex, _ = runs
    stats = _stats(litex)
    assert {run for run, _ in stats} == set(CASES)
    for (run, series), r in stats.items():
        assert r["count"] == ROUNDS, (run, series)
        assert not r["damaged"], (run, series)
    assert "H cpu=vexriscv-full" in litex.read_text()
    assert "H harts=1" in litex.read_text()


def test_t1_is_the_fabrics_own_and_equal_on_both(runs: tuple[Path, Path]) -> None:
    litex, soc = runs
    a, b = _stats(soc), _stats(litex)
    t1 = [run for run, series in b if series == "T1"]
    assert sorted(t1) == ["baseline", "cache-invalidate"]
    for run in t1:
        # every sample the same (the reference design's GEN_DELAY + 2), on both SoCs
        assert b[run, "T1"]["min"] == b[run, "T1"]["max"] == a[run, "T1"]["min"]
        assert a[run, "T1"]["max"] == a[run, "T1"]["min"]


def test_t2_differs_from_hw_soc_only_by_the_bus(runs: tuple[Path, Path]) -> None:
    litex, soc = runs
    a, b = _stats(soc), _stats(litex)
    warm = a["baseline", "T2"]["median"] - b["baseline", "T2"]["median"]
    cold = a["cache-invalidate", "T2"]["median"] - b["cache-invalidate", "T2"]["median"]
    high = a["priority", "high"]["median"] - b["priority", "high"]["median"]
    # warm path: the ISR's few bus accesses, each at most ~2 cycles shorter on LiteX's bus
    assert 0 <= warm <= 6, warm
    assert 0 <= high <= 6, high
    # 13 instruction-cache refills on the cold path (docs/hw/soc_figures.md), ~1 cycle shorter each
    assert 6 <= cold <= 20, cold


def test_the_tables_in_boards_md_are_the_recorded_figures() -> None:
    """docs/boards.md's LiteX-against-hw/soc tables are what `make litex-sim` writes from its
    recorded figures, hw/litex/compare.json (no simulation here: the tables are rendered from the
    file and compared), and the recorded run is of the image as it is now (the same loaded bytes)
    and covers every one of its cases."""
    import compare
    import soc_sim

    proc = subprocess.run(
        [sys.executable, str(ROOT / "hw" / "litex" / "compare.py"), "--check-page"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    recorded = json.loads((ROOT / "hw" / "litex" / "compare.json").read_text())
    assert recorded["image"] == soc_sim.SUITE_ELF.name
    assert recorded["image_sha256"] == compare.image_digest(soc_sim.SUITE_ELF), (
        "the suite's image changed since make litex-sim recorded its figures; run make litex-sim"
    )
    cases = [*dict.fromkeys(r["case"] for r in recorded["series"]), *recorded["skipped"]]
    assert sorted(cases) == sorted(soc_sim.suite_cases()), "run make litex-sim"
