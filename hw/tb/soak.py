"""The soak of the latmon IP: a million random events, bus reads with back-pressure meanwhile.

The events do not come from Python: hdl/tb_latmon.v replays the rising-edge cycles of irq and
ack from files, and writes every output event of the core to a file. During the run Python only
drives the AXI4-Lite master — reads of the counters and of the trace window, with random idle
gaps and random ready back-pressure — and logs what it read. After the simulator has exited the
scoreboard (check_soak, run by pytest) checks:

1. every core event, in order, to the cycle, against the event-level model;
2. every concurrent read against the model's state in the window the read happened in: counters
   between their values at the request and at the response; trace words read with the
   documented consistent-window protocol equal to the model's sample of that number;
3. every register and the whole trace window at the end against the register model;
4. accounting: measured + timed out + overruns = irq events; measured + ignored = ack events.
"""

from __future__ import annotations

import bisect
import json
import os
import random
from pathlib import Path

from cocotb.triggers import RisingEdge, Timer
from latmon_tb import CLOCK_NS, PIPELINE_EXTRA, Stimulus, random_stimulus
from model.latmon_core_model import Kind, Output, core_model
from model.latmon_model import RESULT_REGISTERS, expected_registers

# The player turns stimulus cycle c into a pulse the core's input sees from cycle c + 1.
PLAYER_DELAY = 1
START = 2000  # first stimulus cycle: after reset and configuration
TIMEOUT = 40
THRESHOLD = 12
COUNTERS = ("COUNT", "TIMEOUTS", "OVERRUNS", "IGNORED", "TRACE_COUNT")
FINAL = (
    "LAST",
    "MIN",
    "MAX",
    "COUNT",
    "SUM_LO",
    "SUM_HI",
    "SUM_COUNT",
    "VIOLATIONS",
    "TIMEOUTS",
    "OVERRUNS",
    "IGNORED",
    "TRACE_COUNT",
    "TRACE_LOST",
    "STATUS",
)


def soak_stimulus(events: int, seed: int) -> Stimulus:
    """Dense events (about 8 cycles each), so a million fit in a few million cycles."""
    return random_stimulus(
        random.Random(seed),
        events,
        long_gap=TIMEOUT + 10,
        start=START,
        max_gap=14,
        max_latency=12,
    )


def write_stimulus(stim: Stimulus, folder: Path) -> list[str]:
    """Write the player's files; return the plusargs that point to them."""
    folder.mkdir(parents=True, exist_ok=True)
    irq, ack = folder / "stim_irq.hex", folder / "stim_ack.hex"
    irq.write_text("".join(f"{c:x}\n" for c in stim.irq))
    ack.write_text("".join(f"{c:x}\n" for c in stim.ack))
    (folder / "events.txt").unlink(missing_ok=True)
    args = {
        "stim_irq": irq,
        "stim_ack": ack,
        "stim_n_irq": len(stim.irq),
        "stim_n_ack": len(stim.ack),
        "events": folder / "events.txt",
    }
    return [f"+{k}={v}" for k, v in args.items()]


async def soak_body(tb) -> None:  # tb: test_latmon.IPTB
    """The simulation side: configure, read while the player runs, dump what was read."""
    dut = tb.dut
    folder = Path(os.environ["SOAK_DIR"])
    rng = random.Random(int(os.environ["SOAK_SEED"]) + 1)
    # no Python event monitor: the HDL writes the events to a file
    await tb.bring_up(ring=1, timeout=TIMEOUT, threshold=THRESHOLD, monitor=False)
    assert int(dut.cycle.value) < START - 50, "configuration must finish before the stimulus"
    depth = tb.p["TRACE_DEPTH"]
    trace_base = tb.map.mems["TRACE"].offset
    counter_reads: list[tuple[str, int, int, int]] = []  # register, cycle before, after, value
    window_reads: list[tuple[int, int, int, int]] = []  # count before, k, value, count after

    def now() -> int:
        return int(dut.cycle.value)

    async def read(addr: int) -> int:
        # Random ready back-pressure for this read only: a finite pause pattern ending in False,
        # so that no Python coroutine runs per clock between reads.
        pattern = [rng.random() < 0.5 for _ in range(rng.randint(0, 6))] + [False]
        tb.axil.read_if.r_channel.set_pause_generator(iter(pattern))
        value, resp = await tb.read_addr(addr)
        assert resp == 0, f"read {addr:#x}: {resp}"
        return value

    while not int(dut.stim_done.value):
        await Timer(rng.randint(50, 1500) * CLOCK_NS, unit="ns")
        if rng.random() < 0.5:
            name = rng.choice(COUNTERS)
            c0 = now()
            value = await read(tb.map.offset(name))
            counter_reads.append((name, c0, now(), value))
        else:
            before = await read(tb.map.offset("TRACE_COUNT"))
            if before == 0:
                continue
            k = rng.randint(max(0, before - depth), before - 1)
            value = await read(trace_base + 4 * (k % depth))
            after = await read(tb.map.offset("TRACE_COUNT"))
            window_reads.append((before, k, value, after))
    await tb.settle(TIMEOUT + 50)
    final = {name: await tb.read(name) for name in FINAL}
    trace = [await tb.read_trace(i) for i in range(depth)]
    dut.flush.value = 1  # close the event file
    await RisingEdge(dut.clk)
    (folder / "reads.json").write_text(
        json.dumps(
            {
                "counter_reads": counter_reads,
                "window_reads": window_reads,
                "final": final,
                "trace": trace,
                "alarm": int(dut.alarm.value),
            }
        )
    )


def read_events(path: Path, offset: int) -> list[Output]:
    out = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        fields = line.split()
        assert len(fields) == 4, f"{path}:{number}: bad event line {line!r}"
        cycle, kind, value, sat = (int(x) for x in fields)
        assert kind in (1, 2, 3, 4), f"{path}:{number}: two kinds of event in one cycle"
        out.append(Output(cycle - offset, Kind(kind), value, bool(sat)))
    return out


def check_soak(folder: Path, stim: Stimulus, p: dict[str, int]) -> dict[str, int]:
    """The scoreboard; returns counts for the report."""
    sync, depth = p["SYNC_STAGES"], p["TRACE_DEPTH"]
    model = core_model(stim.irq, stim.ack, p["CNT_WIDTH"], TIMEOUT)
    delay = PLAYER_DELAY + sync + PIPELINE_EXTRA  # stimulus cycle -> event stamp
    got = read_events(folder / "events.txt", delay)
    # 1. every event to the cycle
    for i, (g, e) in enumerate(zip(got, model, strict=False)):
        assert g == e, f"event {i}: RTL {g}, model {e}"
    assert len(got) == len(model), f"RTL reported {len(got)} events, model {len(model)}"

    reads = json.loads((folder / "reads.json").read_text())
    # 2. concurrent reads, against the model state in their window
    stamps = {k: [o.cycle + delay for o in model if o.kind == k] for k in Kind}
    samples = [o.latency for o in model if o.kind == Kind.SAMPLE]
    of = {
        "COUNT": Kind.SAMPLE,
        "TRACE_COUNT": Kind.SAMPLE,
        "TIMEOUTS": Kind.TIMEOUT,
        "OVERRUNS": Kind.OVERRUN,
        "IGNORED": Kind.IGNORED,
    }
    for name, c0, c1, value in reads["counter_reads"]:
        times = stamps[of[name]]
        low = bisect.bisect_left(times, c0 - 2)  # counted before the request, certainly
        high = bisect.bisect_right(times, c1)  # counted by the response, at most
        assert low <= value <= high, f"{name} = {value} read in cycles {c0}..{c1}: {low}..{high}"
    verified = 0
    width_max = (1 << p["TRACE_WIDTH"]) - 1
    for before, k, value, after in reads["window_reads"]:
        assert before <= after, "TRACE_COUNT went backwards"
        if after - k <= depth:  # the documented rule: sample k was not overwritten
            assert value == min(samples[k], width_max), f"trace sample {k} read as {value}"
            verified += 1
    assert verified > len(reads["window_reads"]) // 2, "too few trace reads could be verified"

    # 3. final registers and the trace window
    e = expected_registers(
        model,
        cnt_width=p["CNT_WIDTH"],
        counter_width=p["COUNTER_WIDTH"],
        sum_width=p["SUM_WIDTH"],
        threshold=THRESHOLD,
        trace_depth=depth,
        trace_width=p["TRACE_WIDTH"],
        ring=True,
    )
    f = reads["final"]
    assert {k: f[k] for k in RESULT_REGISTERS} == e.result_registers()
    assert (f["SUM_HI"] << 32) | f["SUM_LO"] == e.sum and f["SUM_COUNT"] == e.count
    assert bool(reads["alarm"]) == e.alarm
    assert reads["trace"] == [e.trace.get(i, 0) for i in range(depth)]

    # 4. accounting
    n = {k.name: len(v) for k, v in stamps.items()}
    assert n["SAMPLE"] + n["TIMEOUT"] + n["OVERRUN"] == len(stim.irq)
    assert n["SAMPLE"] + n["IGNORED"] == len(stim.ack)
    assert f["COUNT"] + f["TIMEOUTS"] + f["OVERRUNS"] == len(stim.irq)
    assert f["COUNT"] + f["IGNORED"] == len(stim.ack)
    return {
        **n,
        "irq": len(stim.irq),
        "ack": len(stim.ack),
        "counter_reads": len(reads["counter_reads"]),
        "trace_reads": len(reads["window_reads"]),
        "trace_reads_verified": verified,
        "cycles": got[-1].cycle if got else 0,
    }
