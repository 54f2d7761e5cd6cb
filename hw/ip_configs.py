"""The named configurations of the latmon IP, in one place.

Synthesis (hw/syn/synth.py), the cocotb tests (hw/tb/test_latmon.py, test_latmon_min.py), the
RTL lint (hw/lint.py) and the netlist simulation (hw/tb/netlist.py) read them from here. The
parameters' defaults are those of the FuseSoC core, hw/latmon.core (which the Vivado component
reads too); a configuration lists only the parameters it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml
from ip_files import CORE


def _core_defaults() -> dict[str, int]:
    """The vlog parameters of hw/latmon.core with their defaults, in the core's order."""
    core = yaml.safe_load(CORE.read_text())
    return {
        name: int(spec["default"])
        for name, spec in core["parameters"].items()
        if spec.get("paramtype") == "vlogparam"
    }


# The parameters of the top `latmon` and their defaults (hw/latmon.core).
DEFAULTS: dict[str, int] = _core_defaults()
PARAMS: tuple[str, ...] = tuple(DEFAULTS)
# The top's address width: not a core parameter (the component sets it from the register map).
ADDR_WIDTH = 16

# The optional engines, all left out.
OPTIONS_OFF = {"HAS_HIST": 0, "HAS_STAMP": 0, "HAS_STIM": 0}
# The published design's sizes: 16-bit latencies and samples, 512 deep, one channel.
PAPER_SIZES = {"CNT_WIDTH": 16, "TRACE_WIDTH": 16, "TRACE_DEPTH": 512, "COUNTER_WIDTH": 16}
# The timing structure that large builds need for Fmax, all left out (REG_DECODE, PIPE_COMPARE).
SMALL_TIMING = {"REG_DECODE": 0, "PIPE_COMPARE": 0}
# The published configuration: those sizes, the published register set (core part only), and
# irq and ack from the fabric's clock domain (no synchronizers), as in the published set-up.
PUBLISHED = {
    **PAPER_SIZES,
    "SYNC_STAGES": 0,
    **OPTIONS_OFF,
    "HAS_IRQ": 0,
    "HAS_TIMEOUT": 0,
    "HAS_COUNTERS": 0,
    "HAS_SUM": 0,
    # the small timing structure: the read decode in the AR cycle (REG_DECODE = 0), the
    # statistics' comparisons straight into their registers (PIPE_COMPARE = 0)
    **SMALL_TIMING,
}
# published with the statistics' comparisons pipelined (PIPE_COMPARE = 1): the base of the options
# whose added logic puts the direct comparators under 250 MHz on ECP5 (docs/hw/resources.md).
PUBLISHED_PIPE = {**PUBLISHED, "PIPE_COMPARE": 1}
PAPER = {**PAPER_SIZES, **OPTIONS_OFF}
# The minimal top (latmon_min): its parameters and their defaults.
MIN_DEFAULTS = {"CNT_WIDTH": 16, "SYNC_STAGES": 0, "TRACE_DEPTH": 512}


@dataclass(frozen=True)
class Config:
    """A named configuration: what it offers, the parameters it changes, its top module, and the
    configuration an option is added to (for the cost of that option), if any."""

    description: str
    params: dict[str, int] = field(default_factory=dict)
    top: str = "latmon"
    base: str | None = None

    def full(self) -> dict[str, int]:
        """Every parameter of the top, the defaults with this configuration's changes."""
        return {**(MIN_DEFAULTS if self.top == "latmon_min" else DEFAULTS), **self.params}


CONFIGS: dict[str, Config] = {
    "published": Config(
        "the published configuration: 16-bit, 512 deep, inputs in the fabric's clock domain, the "
        "published register set (ID, VERSION, CAPS, CTRL, STATUS, THRESHOLD, LAST, MIN, MAX, "
        "COUNT, TRACE_COUNT, CAPS2)",
        PUBLISHED,
    ),
    "published+irq": Config(
        "published + irq_out, IRQ_ENABLE, IRQ_STATUS", {**PUBLISHED, "HAS_IRQ": 1}, base="published"
    ),
    "published+pipe_compare": Config(
        "published with the statistics' comparisons in a pipeline stage of their own "
        "(PIPE_COMPARE = 1): larger, the base of the options below",
        PUBLISHED_PIPE,
        base="published",
    ),
    **{
        f"published+pipe_compare+{option}": Config(
            f"published+pipe_compare + {offers}",
            {**PUBLISHED_PIPE, **params},
            base="published+pipe_compare",
        )
        for option, offers, params in (
            ("timeout", "TIMEOUT, TIMEOUTS", {"HAS_TIMEOUT": 1}),
            ("counters", "VIOLATIONS, OVERRUNS, IGNORED, TRACE_LOST", {"HAS_COUNTERS": 1}),
            ("sum", "SUM_LO, SUM_HI, SUM_COUNT", {"HAS_SUM": 1}),
            ("reg_decode", "the read decode in flip-flops (REG_DECODE = 1)", {"REG_DECODE": 1}),
        )
    },
    "paper": Config(
        "the published sizes with the whole core register map (interrupts, timeout, counters, "
        "sum), no histogram, timestamp or stimulus",
        PAPER,
    ),
    "core": Config("32-bit counter and samples, 512 deep, whole core map, no options", OPTIONS_OFF),
    "core+hist": Config(
        "core + histogram (256 bins x 2 banks)", {**OPTIONS_OFF, "HAS_HIST": 1}, base="core"
    ),
    "core+stamp": Config(
        "core + timestamp mode (16 outstanding, 16-bit IDs)",
        {**OPTIONS_OFF, "HAS_STAMP": 1},
        base="core",
    ),
    "core+stim": Config("core + stimulus generator", {**OPTIONS_OFF, "HAS_STIM": 1}, base="core"),
    "default": Config("the default: everything on (histogram, timestamp mode, stimulus)"),
    "minimal": Config(
        "the minimal configuration (latmon_min): 16-bit, 512 deep, inputs in the fabric's clock "
        "domain, ID, VERSION, CAPS, CTRL (ENABLE, CLEAR), STATUS (BUSY, TRACE_FULL), TRACE_COUNT "
        "and the trace window; stop mode, rising edges, no statistics",
        {"CNT_WIDTH": 16, "SYNC_STAGES": 0, "TRACE_DEPTH": 512},
        top="latmon_min",
    ),
}
