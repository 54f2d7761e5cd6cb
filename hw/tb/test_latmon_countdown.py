"""cocotb tests of hw/rtl/latmon_countdown.v against a countdown of the whole width: random loads
(near the low half's wrap and anywhere), count downs, deferred borrows into the high half
(BORROW = 1) and resets — value, sign and sign_next compared in every cycle, in both forms of the
high half, for halves of one bit up to the stimulus generator's 16 + 17. (The module's own
simulation check runs beside it.)"""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer
from simulate import build_id, rtl, run_sim

CLOCK_NS = 10


@cocotb.test()
async def counts_as_one_countdown(dut) -> None:
    lo_w, hi_w = int(os.environ["LO_WIDTH"]), int(os.environ["HI_WIDTH"])
    with_borrow = os.environ["BORROW"] == "1"
    width = lo_w + hi_w
    mask, lo_mask = (1 << width) - 1, (1 << lo_w) - 1
    rng = random.Random(int(os.environ.get("SEED", "1")))
    cocotb.start_soon(Clock(dut.clk, CLOCK_NS, unit="ns").start())
    for name in ("rst", "load", "load_hi", "load_lo", "load_lo_0", "dec", "hi_borrow"):
        getattr(dut, name).value = 0
    value = 0
    wraps = borrows = 0
    for _ in range(20000):
        await FallingEdge(dut.clk)
        assert int(dut.value.value) == value, (hex(value), hex(int(dut.value.value)))
        assert int(dut.sign.value) == value >> (width - 1), hex(value)
        lo = value & lo_mask
        rst = rng.random() < 0.002
        load = rng.random() < 0.02
        dec = rng.random() < 0.8
        # a deferred borrow comes without a count down where the low half is 0 (the contract)
        borrow = with_borrow and rng.random() < 0.05 and not (dec and lo == 0)
        new_lo = rng.choice([0, 1, 2, lo_mask, lo_mask - 1, rng.randrange(lo_mask + 1)]) & lo_mask
        new_hi = rng.randrange(1 << hi_w)
        dut.rst.value = int(rst)
        dut.load.value = int(load)
        dut.load_hi.value = new_hi
        dut.load_lo.value = new_lo
        dut.load_lo_0.value = int(new_lo == 0)
        dut.dec.value = int(dec)
        dut.hi_borrow.value = int(borrow)
        await Timer(1, unit="ns")
        hi_next = ((value >> lo_w) - int(lo == 0 or borrow)) & ((1 << hi_w) - 1)
        assert int(dut.sign_next.value) == hi_next >> (hi_w - 1), (hex(value), borrow)
        if rst:
            value = 0
        elif load:
            value = (new_hi << lo_w) | new_lo
        else:
            wraps += dec and lo == 0
            borrows += borrow
            value = (value - int(dec) - (int(borrow) << lo_w)) & mask
        await RisingEdge(dut.clk)
    assert wraps > 0 and (borrows > 0 or not with_borrow)  # the high half moved each way


@pytest.mark.sim
@pytest.mark.parametrize("borrow", [0, 1])
@pytest.mark.parametrize("lo_width,hi_width", [(1, 2), (2, 2), (3, 5), (16, 17)])
def test_latmon_countdown(lo_width: int, hi_width: int, borrow: int) -> None:
    run_sim(
        toplevel="latmon_countdown",
        sources=rtl("latmon_countdown"),
        module="test_latmon_countdown",
        build=build_id("latmon_countdown", lo_width, hi_width, borrow),
        parameters={"LO_WIDTH": lo_width, "HI_WIDTH": hi_width, "BORROW": borrow},
        env={"LO_WIDTH": lo_width, "HI_WIDTH": hi_width, "BORROW": borrow, "SEED": lo_width},
    )
