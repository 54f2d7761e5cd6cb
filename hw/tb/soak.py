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
4. accounting: measured + timed out + overruns = irq events; measured + ignored = ack events;
5. the histogram (a snapshot at the end, HIST_START and HIST_SHIFT left at their reset values)
   against the model's histogram of the samples.

`compare_soaks` compares two runs of the same soak (the RTL and its synthesized netlist,
hw/tb/netlist.py) event by event and read by read: a mismatch is any difference.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import random
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from cocotb.triggers import RisingEdge, Timer
from latmon_ip import DEFAULTS, sources
from latmon_tb import CLOCK_NS, PIPELINE_EXTRA, Stimulus, random_stimulus
from model.latmon_core_model import Kind, Output, core_model
from model.latmon_hist_model import histogram
from model.latmon_model import RESULT_REGISTERS, expected_registers
from simulate import GENERATED, SIM_BUILD, build_id, clock_of, rtl, run_sim, tb_hdl

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
    """Dense events (about 8 cycles each), so a million fit in a few million cycles. The last irq
    is never acknowledged: its measurement times out after the stimulus, in the run's last
    cycles, so that every soak checks that the scoreboard's model ends where the RTL does."""
    stim = random_stimulus(
        random.Random(seed),
        events,
        long_gap=TIMEOUT + 10,
        start=START,
        max_gap=14,
        max_latency=12,
    )
    last = stim.irq[-1]
    return Stimulus(stim.irq, [c for c in stim.ack if c <= last])


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


async def soak_body(tb) -> None:  # tb: latmon_ip.IPTB
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
    # The histogram at its reset settings (HIST_START 0, HIST_SHIFT 0: never written here).
    hist = None
    if tb.p["HAS_HIST"]:
        bank = await tb.read_bank()
        hist = {
            "bins": [int(b) for b in bank.bins],
            "underflow": bank.underflow,
            "overflow": bank.overflow,
            "count": bank.count,
            "total": bank.total,
            "min": bank.min,
            "max": bank.max,
        }
    dut.flush.value = 1  # close the event file
    await RisingEdge(dut.clk)
    (folder / "reads.json").write_text(
        json.dumps(
            {
                "end_cycle": now(),
                "counter_reads": counter_reads,
                "window_reads": window_reads,
                "final": final,
                "trace": trace,
                "alarm": int(dut.alarm.value),
                "hist": hist,
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
    delay = PLAYER_DELAY + sync + PIPELINE_EXTRA  # stimulus cycle -> event stamp
    reads = json.loads((folder / "reads.json").read_text())
    # The run goes on for TIMEOUT + 50 cycles and the final reads after the last stimulus, so a
    # measurement the stimulus leaves without an ack times out in the RTL: the model times it
    # out too, up to the cycle the event file was closed.
    model = core_model(
        stim.irq, stim.ack, p["CNT_WIDTH"], TIMEOUT, end_cycle=reads["end_cycle"] - delay
    )
    got = read_events(folder / "events.txt", delay)
    # 1. every event to the cycle
    for i, (g, e) in enumerate(zip(got, model, strict=False)):
        assert g == e, f"event {i}: RTL {g}, model {e}"
    assert len(got) == len(model), f"RTL reported {len(got)} events, model {len(model)}"

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
    # the histogram, binned at its reset settings (offset 0, one cycle per bin)
    if p["HAS_HIST"]:
        h = reads["hist"]
        want = histogram(np.array(samples, dtype=np.int64), 0, 0, p["HIST_BINS_LOG2"])
        assert h["bins"] == [int(b) for b in want.bins], "histogram bins at the reset settings"
        assert (h["underflow"], h["overflow"], h["count"], h["total"], h["min"], h["max"]) == (
            want.underflow,
            want.overflow,
            want.count,
            want.total,
            want.min,
            want.max,
        )

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


def _leaves(value: object, path: str = "") -> dict[str, object]:
    """A JSON value as {path: scalar}."""
    if isinstance(value, dict):
        return {
            k: v for key, item in value.items() for k, v in _leaves(item, f"{path}/{key}").items()
        }
    if isinstance(value, list):
        return {
            k: v for i, item in enumerate(value) for k, v in _leaves(item, f"{path}/{i}").items()
        }
    return {path: value}


def compare_soaks(a: Path, b: Path) -> dict[str, object]:
    """Two runs of one soak (folders with events.txt and reads.json), compared: the number of
    events and of values read, and how many of each differ (an event or value present in one
    run only counts as a mismatch), with the first few differences."""
    ea = (a / "events.txt").read_text().splitlines()
    eb = (b / "events.txt").read_text().splitlines()
    event_diffs = [i for i, (x, y) in enumerate(zip(ea, eb, strict=False)) if x != y]
    event_mismatches = len(event_diffs) + abs(len(ea) - len(eb))
    ra = _leaves(json.loads((a / "reads.json").read_text()))
    rb = _leaves(json.loads((b / "reads.json").read_text()))
    read_diffs = sorted(k for k in ra.keys() | rb.keys() if ra.get(k, None) != rb.get(k, None))
    return {
        "events": max(len(ea), len(eb)),
        "event_mismatches": event_mismatches,
        "reads": max(len(ra), len(rb)),
        "read_mismatches": len(read_diffs),
        "first_event_mismatches": [(i, ea[i], eb[i]) for i in event_diffs[:5]],
        "first_read_mismatches": [(k, ra.get(k), rb.get(k)) for k in read_diffs[:5]],
    }


def run_soak(
    events: int,
    sim: str = "verilator",
    seed: int = 2026,
    netlist: bool = False,
    changes: Mapping[str, int] | None = None,
) -> tuple[dict, float]:
    """Build and run the soak, then the scoreboard; return its summary (with the folder of the
    run's data) and the seconds the simulation took (build excluded when the build is up to
    date). With `netlist`, the IP is Yosys's synthesized netlist of it (hw/tb/netlist.py);
    `changes` are parameters that differ from the defaults."""
    params = {**DEFAULTS, **(changes or {})}
    # a short name for a parameter set (the testbench reads its files' paths into a fixed-width
    # string, so the build folder's name stays short)
    text = ",".join(f"{k}={v}" for k, v in sorted((changes or {}).items()))
    variant = [hashlib.sha256(text.encode()).hexdigest()[:8]] if changes else []
    build = build_id("latmon-soak", sim, events, *variant, *(["netlist"] if netlist else []))
    folder = SIM_BUILD / build / "data"
    stim = soak_stimulus(events, seed)
    defines, clock_env = clock_of(sim)
    dut_sources = sources()
    if netlist:
        from netlist import CORE_PATH, synthesize

        # one netlist per parameter set, shared by the simulators and event counts
        key = build_id("latmon-netlist", *(f"{k}{v}" for k, v in sorted(params.items())))
        dut_sources = synthesize(params, SIM_BUILD / key) + tb_hdl("tb_latmon")
        defines["LATMON_CORE"] = CORE_PATH
    t0 = time.monotonic()
    run_sim(
        toplevel="tb_latmon",
        sources=dut_sources,
        module="test_latmon",
        build=build,
        simulator=sim,
        parameters={**params, "STIM_MAX": max(len(stim.irq), len(stim.ack)) + 16},
        env={
            **params,
            "SOAK": "1",
            "SOAK_SEED": seed,
            "SOAK_DIR": folder,
            **clock_env,
            "COCOTB_LOG_LEVEL": "WARNING",
        },
        defines=defines,
        cxx_opt="-O1" if netlist else None,
        testcase="soak",
        includes=[GENERATED],
        plusargs=write_stimulus(stim, folder),
    )
    elapsed = time.monotonic() - t0
    return {**check_soak(folder, stim, params), "folder": str(folder)}, elapsed


def netlist_soak(
    events: int, sim: str = "verilator", changes: Mapping[str, int] | None = None
) -> dict:
    """The soak on the RTL and on its synthesized netlist, each with the scoreboard, then the
    two runs compared event by event and read by read."""
    rtl_summary, rtl_s = run_soak(events, sim, changes=changes)
    net_summary, net_s = run_soak(events, sim, netlist=True, changes=changes)
    diff = compare_soaks(Path(rtl_summary["folder"]), Path(net_summary["folder"]))
    print(f"netlist soak: RTL {rtl_s:.1f} s, netlist {net_s:.1f} s: {diff}")
    return diff


def run_hist_soak(events: int, sim: str = "icarus", seed: int = 2026) -> float:
    """The histogram's million-event soak (test_latmon_hist.py, random_snapshots_under_load):
    random snapshots under full load; returns the seconds it took (build included only when the
    build is not up to date)."""
    defines, clock_env = clock_of(sim)
    t0 = time.monotonic()
    run_sim(
        toplevel="tb_latmon_hist",
        sources=rtl("latmon_counter", "latmon_hist") + tb_hdl("tb_latmon_hist"),
        module="test_latmon_hist",
        build=build_id("latmon_hist-soak", sim),
        simulator=sim,
        parameters={"BINS_LOG2": 8},
        env={
            "BINS_LOG2": 8,
            "EVENTS": events,
            "SEED": seed,
            **clock_env,
        },
        defines=defines,
        testcase="random_snapshots_under_load",
    )
    return time.monotonic() - t0
