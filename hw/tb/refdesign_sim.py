"""The published T1/T2 reference design (hw/rtl/refdesign/refdesign.v) driven by its processor
side written in C (sw/sim/refdesign_app.c, on liblatmon), in simulation: the testbench (the
scenarios, the cocotb test the simulator runs, run_scenario) and a command line that runs one
scenario and writes what the driver read as latmon-log. hw/tb/test_refdesign.py runs every
scenario.

The C code configures and arms both latmon cores, starts the timer, and its interrupt service
routine reads the data word; the "CPU" is this testbench: when pl_ps_irq is high it waits an
interrupt service delay drawn from a distribution (fixed, uniform, heavy-tailed: standing in
for bare metal, a hypervisor, a stressed Linux) and then runs the C ISR, whose HAL performs the
AXI4-Lite read on the simulated design. At the end the C code writes both traces as latmon-log.
Scoreboard: the edges the HDL recorded (timer interrupts, data-ready rises, data reads) put
through the independent event model of the core give T1 and T2 — they must equal what the real
driver read from the real RTL, sample by sample, to the cycle.

usage: python hw/tb/refdesign_sim.py --scenario fast-isr --out FILE.log [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import sys
from pathlib import Path

import cocotb
import numpy as np
from cocotb.triggers import RisingEdge, Timer, ValueChange
from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from latmon_driver import SW, SimDriver, build_driver
from model.latmon_core_model import Kind, core_model
from model.xorshift import xorshift
from simulate import RTL, SIM_BUILD, build_id, ip_modules, rtl, run_sim, tb_hdl

CLOCK_NS = 10
CLOCK_HZ = 100_000_000
TIMER_PERIOD = 1000  # cycles: a 100 kHz "sensor"
GEN_DELAY = 50  # cycles the fabric takes to produce a word

# Interrupt service delays, in cycles: name -> (description, draw(rng) -> cycles)
SCENARIOS = {
    "fast-isr": ("bare metal: a fixed 30-cycle ISR entry", lambda rng: 30),
    "uniform-isr": ("an RTOS: uniform 40..160 cycles", lambda rng: rng.randint(40, 160)),
    "slow-jittery-isr": (
        "a stressed or virtualised OS: 150 cycles plus a Pareto(1.5) tail of scale 100, up to 3000",
        lambda rng: min(150 + int(100 * rng.paretovariate(1.5)), 3000),
    ),
}


class Recorder:
    def __init__(self, signal) -> None:
        self.cycles: list[int] = []
        cocotb.start_soon(self._watch(signal))

    async def _watch(self, signal) -> None:
        while True:
            await ValueChange(signal)
            self.cycles.append(int(signal.value) & (2**64 - 1))


@cocotb.test()
async def refdesign_scenario(dut) -> None:
    name = os.environ.get("SCENARIO", "fast-isr")
    rounds = int(os.environ.get("ROUNDS", "150"))
    rng = random.Random(int(os.environ.get("SEED", "1")))
    draw = SCENARIOS[name][1]
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    timers, readies, reads = Recorder(dut.timer_ev), Recorder(dut.ready_ev), Recorder(dut.read_ev)

    async def read(offset: int) -> int:
        r = await axil.read(offset, 4)
        return int.from_bytes(r.data, "little")

    async def write(offset: int, value: int) -> None:
        await axil.write(offset, value.to_bytes(4, "little"))

    drv = SimDriver(
        build_driver(SIM_BUILD / "liblatmon-refdesign", [SW / "sim" / "refdesign_app.c"]),
        read,
        write,
    )
    drv.lib.refdesign_app_size.restype = ctypes.c_size_t
    state = ctypes.create_string_buffer(drv.lib.refdesign_app_size())
    err = await drv.call(
        "refdesign_app_start",
        state,
        ctypes.byref(drv.hal),
        ctypes.c_uint64(CLOCK_HZ),
        TIMER_PERIOD,
        GEN_DELAY,
    )
    drv.check(err, "refdesign_app_start")

    delays, words = [], []
    data = ctypes.c_uint32()
    while len(words) < rounds:
        if not int(dut.pl_ps_irq.value):
            await RisingEdge(dut.pl_ps_irq)
        d = draw(rng)
        delays.append(d)
        await Timer(d * CLOCK_NS, unit="ns")
        drv.check(await drv.call("refdesign_app_isr", state, ctypes.byref(data)), "isr")
        words.append(data.value)
    drv.check(await drv.call("refdesign_app_stop", state), "stop")
    await Timer(50 * CLOCK_NS, unit="ns")
    log = Path(os.environ.get("LOG_PATH", SIM_BUILD / f"refdesign-{name}.log"))
    log.parent.mkdir(parents=True, exist_ok=True)
    drv.check(
        await drv.call("refdesign_app_write_log", state, str(log).encode(), name.encode()),
        "write_log",
    )

    # the data words are the design's xorshift sequence, in order, none lost
    x, want_words = 0x2545F491, []
    for _ in range(len(words)):
        x = xorshift(x)
        want_words.append(x)
    assert words == want_words

    # scoreboard: T1 and T2 from the recorded edges through the event model of the core
    from latmon.ingest import load

    (run,) = load(log)
    got = {s.name: s.latency.tolist() for s in run.series}
    t1 = [o.latency for o in core_model(timers.cycles, readies.cycles) if o.kind == Kind.SAMPLE]
    t2_outputs = core_model(readies.cycles, reads.cycles)
    t2 = [o.latency for o in t2_outputs if o.kind == Kind.SAMPLE]
    assert got["T1"] == t1[: len(got["T1"])] and len(got["T1"]) == min(len(t1), 1024)
    assert got["T2"] == t2[: len(got["T2"])] and len(got["T2"]) == min(len(t2), 1024)
    assert len(t2) > rounds // 3
    # T1 is the fabric's fixed processing time; T2 is the modelled ISR delay plus the bus: for
    # every read that ended a measurement started by a data-ready edge, T2 - delay is constant
    # timer pulse in cycle c: the generator counts GEN_DELAY cycles from c + 1, pushes in
    # c + GEN_DELAY + 1, the FIFO holds the word (pl_ps_irq high) from c + GEN_DELAY + 2
    # c + GEN_DELAY + 2. When a slow ISR left words in the FIFO, pl_ps_irq stays high and the
    # next data-ready edge (T1's end) comes a whole number of timer periods later.
    assert min(t1) == GEN_DELAY + 2 and all((t - GEN_DELAY - 2) % TIMER_PERIOD == 0 for t in t1)
    if name != "slow-jittery-isr":
        assert set(t1) == {GEN_DELAY + 2}, set(t1)
    # T2 is the modelled service delay plus the bus access of this testbench's CPU (a constant
    # few cycles: the AXI4-Lite master presents the read on the next clock edge)
    low, high = {"fast-isr": (30, 30), "uniform-isr": (40, 160)}.get(name, (150, 3000))
    assert all(low <= t <= high + 4 for t in t2), (min(t2), max(t2))
    bus = min(t2) - low  # the constant itself shows where the delay is fixed
    if name == "fast-isr":
        assert set(t2) == {30 + bus} and 0 <= bus <= 4, set(t2)
    dut._log.info(
        "%s: %d reads, T1 %s, T2 n=%d mean %.1f max %d cycles (T2 min - delay min: %d)",
        name,
        len(words),
        sorted(set(t1))[:4],
        len(t2),
        float(np.mean(t2)),
        max(t2),
        bus,
    )


def run_scenario(name: str, rounds: int, log: Path, seed: int = 1) -> None:
    """Run one scenario (also used by the demo); the latmon-log goes to ``log``."""
    run_sim(
        toplevel="tb_refdesign",
        sources=[
            *rtl(*ip_modules()),
            RTL / "refdesign" / "refdesign.v",
            *tb_hdl("tb_refdesign"),
        ],
        module="refdesign_sim",
        # one folder per scenario: two scenarios run at once (xdist workers) and must not build
        # into the same folder (vvp aborted on a half-written sim.vvp)
        build=build_id("refdesign", name),
        env={
            "SCENARIO": name,
            "ROUNDS": rounds,
            "SEED": seed,
            "LOG_PATH": log.resolve(),
            "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "INFO"),
        },
        includes=[RTL],
        testcase="refdesign_scenario",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    os.environ.setdefault("COCOTB_LOG_LEVEL", "WARNING")
    run_scenario(args.scenario, args.rounds, args.out, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
