"""cocotb tests of hw/rtl/latmon_stamp.v against model/latmon_stamp_model.py: start and end
events matched by ID under reordering, dropped requests and responses, a full table, duplicate
IDs and timeouts — every sample to the cycle, every event accounted for."""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge, Timer, ValueChange
from model.latmon_stamp_model import INPUT_DELAY, StampResult, stamp_model
from simulate import build_id, rtl, run_sim, tb_hdl

ENTRIES = int(os.environ.get("ENTRIES", "16"))
ID_WIDTH = int(os.environ.get("ID_WIDTH", "16"))
CNT_WIDTH = int(os.environ.get("CNT_WIDTH", "32"))
# the table's start times: TIME_WIDTH bits and a flag "more than 2^(TIME_WIDTH-2) cycles old";
# narrower than the 34 in use, to cross the flag and the times' wrap in a simulation
TIME_WIDTH = int(os.environ.get("TIME_WIDTH", "34"))
CLOCK_NS = 10


class StampTB:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.samples: list[tuple[int, int]] = []
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        while True:
            await ValueChange(self.dut.event_reg)
            value = int(self.dut.event_reg.value)
            self.samples.append((value & (2**64 - 1), (value >> 64) & 0xFFFFFFFF))

    async def reset(self, timeout: int) -> tuple[int, int]:
        """Reset; return (cycle, scan pointer) at the first falling edge after it."""
        dut = self.dut
        dut.rst.value = 1
        dut.clear.value = 0
        dut.enable.value = 1
        dut.timeout.value = timeout
        dut.start_valid.value = 0
        dut.end_valid.value = 0
        dut.start_id.value = 0
        dut.end_id.value = 0
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        await FallingEdge(dut.clk)
        self.samples.clear()
        return int(dut.cycle.value), int(dut.dut.scan.value)

    async def drive(self, now: int, starts: dict[int, int], ends: dict[int, int]) -> int:
        """Put each event on the inputs in its cycle (from the falling edge of cycle `now`);
        return the last cycle driven."""
        dut = self.dut
        cycles = sorted(set(starts) | set(ends) | {c + 1 for c in (*starts, *ends)})
        for c in cycles:
            if c > now:
                await Timer((c - now) * CLOCK_NS, unit="ns")
                now = c
            dut.start_valid.value = int(c in starts)
            dut.start_id.value = starts.get(c, 0)
            dut.end_valid.value = int(c in ends)
            dut.end_id.value = ends.get(c, 0)
        return now

    def counters(self) -> StampResult:
        d = self.dut
        return StampResult(
            samples=list(self.samples),
            matched=int(d.matched.value),
            unmatched=int(d.unmatched.value),
            timeouts=int(d.timeouts.value),
            full=int(d.full.value),
            duplicates=int(d.duplicates.value),
            outstanding=int(d.outstanding.value),
        )


async def run_traffic(
    dut, starts: dict[int, int], ends: dict[int, int], timeout: int, timebase: int | None = None
) -> None:
    """Play the events, compare with the model. `timebase`: start the RTL's 64-bit timebase
    there (and its copies: its low bits, and 5 ahead) instead of at 0 after the reset."""
    tb = StampTB(dut)
    now, scan = await tb.reset(timeout)
    if timebase is not None:
        dut.dut.timebase.value = timebase
        dut.dut.now.value = timebase % (1 << TIME_WIDTH)
        dut.dut.timebase_5.value = (timebase + 5) % (1 << TIME_WIDTH)
    starts = {now + 1 + c: i for c, i in starts.items()}
    ends = {now + 1 + c: i for c, i in ends.items()}
    last = await tb.drive(now, starts, ends)
    await Timer((timeout + ENTRIES + 20) * CLOCK_NS, unit="ns")
    end_cycle = int(dut.cycle.value)
    # the RTL decides an input INPUT_DELAY cycles after it is on the pins
    want = stamp_model(
        {c + INPUT_DELAY: i for c, i in starts.items()},
        {c + INPUT_DELAY: i for c, i in ends.items()},
        ENTRIES,
        timeout,
        now,
        end_cycle - 1,
        scan,
        CNT_WIDTH,
    )
    got = tb.counters()
    assert got.samples == want.samples, (got.samples[:5], want.samples[:5])
    assert got == want, (got, want)
    # every event accounted for
    assert len(starts) == got.matched + got.timeouts + got.full + got.duplicates + got.outstanding
    assert len(ends) == got.matched + got.unmatched
    dut._log.info(
        "%d starts, %d ends: matched %d, unmatched %d, timeouts %d, full %d, duplicates %d, "
        "outstanding %d (last input cycle %d)",
        len(starts),
        len(ends),
        got.matched,
        got.unmatched,
        got.timeouts,
        got.full,
        got.duplicates,
        got.outstanding,
        last,
    )


@cocotb.test()
async def out_of_order_by_hand(dut) -> None:
    """Responses out of order, one unknown, one in the same cycle as its own request."""
    starts = {10: 5, 11: 6, 30: 8}
    ends = {15: 6, 20: 5, 21: 7, 30: 8}
    tb = StampTB(dut)
    now, _ = await tb.reset(0)
    await tb.drive(
        now, {now + c: i for c, i in starts.items()}, {now + c: i for c, i in ends.items()}
    )
    await Timer(20 * CLOCK_NS, unit="ns")
    got = tb.counters()
    assert [lat for _, lat in got.samples] == [4, 10]  # ID 6 after 4 cycles, then ID 5 after 10
    # ID 7 was never requested; the end of ID 8 came with its start: both unmatched
    assert (got.matched, got.unmatched, got.outstanding) == (2, 2, 1)


@cocotb.test()
async def match_wins_over_timeout(dut) -> None:
    """The end arrives in exactly the cycle the scan would expire its entry: it is a match."""
    timeout = 50
    tb = StampTB(dut)
    now, scan = await tb.reset(timeout)
    start_in = now + 3  # decided INPUT_DELAY cycles later, stored in entry 0 (table empty)
    stored = start_in + INPUT_DELAY
    due = next(
        p
        for p in range(stored + timeout, stored + timeout + ENTRIES)
        if (scan + p - now) % ENTRIES == 0
    )
    await tb.drive(now, {start_in: 42}, {due - INPUT_DELAY: 42})  # decided in `due`
    await Timer(20 * CLOCK_NS, unit="ns")
    got = tb.counters()
    assert (got.matched, got.timeouts) == (1, 0), got
    assert [lat for _, lat in got.samples] == [due - stored]


def random_traffic(rng: random.Random, requests: int) -> tuple[dict[int, int], dict[int, int]]:
    """Requests with sequence numbers; responses after random delays (so out of order), some
    requests lost before the monitor (their responses arrive unmatched), some responses lost
    (their requests time out), some very late, bursts that fill the table."""
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    t = 0
    for seq in range(requests):
        t += 1 if rng.random() < 0.3 else rng.randint(2, 40)
        rid = seq % (1 << ID_WIDTH)
        fate = rng.random()
        if fate > 0.05:  # 5 %: the request is lost before the monitor (response unmatched)
            starts[t] = rid
        if fate < 0.95 and rng.random() > 0.05:  # 5 %: no response
            delay = rng.randint(1, 300) if rng.random() < 0.9 else rng.randint(1000, 3000)
            c = t + delay
            while c in ends:
                c += 1
            ends[c] = rid
    for _ in range(requests // 50):  # responses to nothing
        c = rng.randint(0, t)
        while c in ends:
            c += 1
        ends[c] = rng.randrange(1 << ID_WIDTH)
    return starts, ends


@cocotb.test()
async def random_reordering_drops_and_timeouts(dut) -> None:
    rng = random.Random(int(os.environ.get("SEED", "1")))
    starts, ends = random_traffic(rng, int(os.environ.get("REQUESTS", "3000")))
    await run_traffic(dut, starts, ends, timeout=800)


@cocotb.test()
async def no_timeout(dut) -> None:
    rng = random.Random(int(os.environ.get("SEED", "1")) + 1)
    starts, ends = random_traffic(rng, 500)
    await run_traffic(dut, starts, ends, timeout=0)


def dense_traffic(rng: random.Random, requests: int) -> tuple[dict[int, int], dict[int, int]]:
    """Starts in consecutive cycles or one apart, each answered after 1 to 12 cycles (or not at
    all), IDs from a small set (so the same ID comes back to back and as a duplicate)."""
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    t = 0
    for _ in range(requests):
        t += rng.choice((1, 1, 2, 3))
        rid = rng.randrange(12)
        starts[t] = rid
        if rng.random() < 0.8:
            c = t + rng.randint(1, 12)
            while c in ends:
                c += 1
            ends[c] = rid
    return starts, ends


@cocotb.test()
async def short_timeouts_at_full_rate(dut) -> None:
    """Timeouts of 1 to 8 cycles, shorter than the scan's read-ahead: entries written a few
    cycles before the scan reaches them are judged by their own age, not by a stale time."""
    rng = random.Random(int(os.environ.get("SEED", "1")) + 2)
    for timeout in range(1, 9):
        starts, ends = dense_traffic(rng, 300)
        await run_traffic(dut, starts, ends, timeout=timeout)


@cocotb.test()
async def across_the_timebase_halves(dut) -> None:
    """The timebase counts its high 32 bits from a registered wrap of the low 32, and the
    timeout's limit and the latency subtract the low 32 bits apart from the bits above (of 34
    kept): requests and responses (and timeouts) on both sides of the low 32 bits' wrap, exact
    to the cycle."""
    rng = random.Random(int(os.environ.get("SEED", "1")) + 3)
    starts, ends = random_traffic(rng, 200)
    await run_traffic(dut, starts, ends, timeout=150, timebase=(1 << 32) - 2000)
    starts, ends = dense_traffic(rng, 300)
    await run_traffic(dut, starts, ends, timeout=5, timebase=(1 << 33) - 300)


@cocotb.test(skip=TIME_WIDTH > 16)
async def older_than_the_kept_times(dut) -> None:
    """No timeout, and ends at ages around the flag's 2^(TIME_WIDTH-2) cycles and past several
    wraps of the table's times: every latency exact or saturated to the cycle, as the model
    with full times says (by the times' difference alone, an age past the wrap looks short)."""
    span = 1 << TIME_WIDTH
    flag = 1 << (TIME_WIDTH - 2)
    # (the flag is set some time after 2^(TIME_WIDTH-2): never before, or the first would
    # saturate)
    ages = [flag - 40, flag - 25, flag - 5, flag - 1, flag, flag + 1, flag + 40]
    ages += [span - 1, span, span + 7]
    ages += [2 * span + flag // 2, 3 * span - 2]
    starts = {i: 100 + i for i in range(len(ages) + 1)}  # the last one is never answered
    ends = {i + age: 100 + i for i, age in enumerate(ages)}
    assert len(ends) == len(ages) <= ENTRIES - 1
    await run_traffic(dut, starts, ends, timeout=0)


@cocotb.test(skip=TIME_WIDTH > 16)
async def timeout_set_after_the_times_wrapped(dut) -> None:
    """A timeout switched on for entries outstanding for 2.75 wraps of the table's times: they
    expire within a scan round (by the times' difference alone, they would look 1/4 wrap
    short of the timeout: not due)."""
    tb = StampTB(dut)
    now, _ = await tb.reset(0)
    span = 1 << TIME_WIDTH
    await tb.drive(now, {now + 1 + i: 7 + i for i in range(4)}, {})
    await Timer((2 * span + 3 * span // 4) * CLOCK_NS, unit="ns")
    got = tb.counters()
    assert (got.outstanding, got.timeouts) == (4, 0), got
    dut.timeout.value = 100
    await Timer((ENTRIES + 20) * CLOCK_NS, unit="ns")
    got = tb.counters()
    assert (got.outstanding, got.timeouts, got.matched) == (0, 4, 0), got


@pytest.mark.sim
@pytest.mark.parametrize(
    ("entries", "id_width", "cnt_width", "time_width"),
    [(16, 16, 32, 34), (4, 8, 32, 34), (64, 16, 8, 34), (10, 12, 16, 34), (16, 16, 10, 12)],
)
def test_latmon_stamp(entries: int, id_width: int, cnt_width: int, time_width: int) -> None:
    params = {
        "ENTRIES": entries,
        "ID_WIDTH": id_width,
        "CNT_WIDTH": cnt_width,
        "TIME_WIDTH": time_width,
    }
    run_sim(
        toplevel="tb_latmon_stamp",
        sources=rtl("latmon_counter", "latmon_stamp") + tb_hdl("tb_latmon_stamp"),
        module="test_latmon_stamp",
        build=build_id("latmon_stamp", entries, id_width, cnt_width, time_width),
        parameters=params,
        env={**params, "SEED": entries + id_width, "REQUESTS": 3000},
    )
