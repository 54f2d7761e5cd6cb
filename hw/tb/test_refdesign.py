"""Every scenario of the reference design (hw/tb/refdesign_sim.py: the published T1/T2 design
driven by its C processor side) in simulation: what the real driver read from the real RTL equals,
sample by sample and to the cycle, the event model's T1 and T2 from the edges the HDL recorded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from refdesign_sim import SCENARIOS, run_scenario


@pytest.mark.sim
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_refdesign(name: str, tmp_path: Path) -> None:
    run_scenario(name, 150, tmp_path / f"{name}.log", seed=7)
