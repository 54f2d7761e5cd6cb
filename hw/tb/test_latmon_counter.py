"""cocotb tests of hw/rtl/latmon_counter.v against a saturating-counter model: random increments
and clears, runs that reach all ones and stay there, clears right after saturation — value and
`full` compared in every cycle, for widths where the registered all-ones check has no, one, and
several pieces."""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from simulate import build_id, rtl, run_sim

CLOCK_NS = 10


@cocotb.test()
async def saturates_exactly(dut) -> None:
    width = int(os.environ["WIDTH"])
    top = (1 << width) - 1
    rng = random.Random(int(os.environ.get("SEED", "1")))
    cocotb.start_soon(Clock(dut.clk, CLOCK_NS, unit="ns").start())
    dut.clear.value = 1
    dut.inc.value = 0
    await RisingEdge(dut.clk)
    value = 0
    saturated_runs = 0
    cleared_at_top = 0
    # phases: (cycles, probability of inc, probability of clear)
    phases = [(3 * top + 40, 0.9, 0.0), (30, 0.5, 0.3), (2 * top + 40, 1.0, 0.0)] * 3
    phases += [(top + 5, 1.0, 0.0), (1, 0.0, 1.0), (12, 1.0, 0.0)] * 2
    phases += [(4000, 0.7, 0.01)]
    for cycles, p_inc, p_clear in phases:
        for _ in range(cycles):
            await FallingEdge(dut.clk)
            assert int(dut.value.value) == value, (value, int(dut.value.value))
            assert int(dut.full.value) == int(value == top), (value, int(dut.full.value))
            inc = rng.random() < p_inc
            clear = rng.random() < p_clear
            dut.inc.value = int(inc)
            dut.clear.value = int(clear)
            if clear:
                cleared_at_top += value == top
                value = 0
            elif inc:
                saturated_runs += value == top
                value = min(value + 1, top)
            await RisingEdge(dut.clk)
    assert saturated_runs > 0 and cleared_at_top > 0  # the cases at the top were reached


@pytest.mark.sim
@pytest.mark.parametrize("width", [1, 2, 3, 4, 6, 7, 10])
def test_latmon_counter(width: int) -> None:
    run_sim(
        toplevel="latmon_counter",
        sources=rtl("latmon_counter"),
        module="test_latmon_counter",
        build=build_id("latmon_counter", width),
        parameters={"WIDTH": width},
        env={"WIDTH": width, "SEED": width},
    )
