"""Configurations side by side: one row per scenario of a campaign that ran on different system
configurations (bare metal, Linux, Xen Dom0 and DomU, AMP; docs/target/xen.md), with where it
ran — hypervisor, vCPU pinning, kernel, as recorded in the run files — and the statistics of
its headline measurement.

The headline of a scenario is what best stands for "the interrupt path" there:
- where Linux measures, latprobe's wake-up latency of a SCHED_FIFO thread, all CPUs pooled;
- where the A53 suite measures (no OS), its ``caches-on`` case: timer interrupt to the first
  instruction of the handler on a busy core.
Both are in ns; they are different quantities (the Linux one includes the scheduler and the
return to user space), which the table says in its "measured" column. Everything else a
scenario measured (cyclictest, rtla, the suite's other cases) is in the report's other tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from latmon.analysis.compare import distribution_of
from latmon.model import Run, Series

SUITE_SOURCE = "latmon-irq-suite"
SUITE_HEADLINE = "caches-on"


@dataclass
class ConfigurationRow:
    scenario: str
    description: str
    target: str
    hypervisor: str
    pinning: str
    kernel: str
    measured: str
    runs: int
    n: int = 0
    median: int | None = None
    p99: int | None = None
    max: int | None = None
    emulated: bool = False


def _headline(runs: list[Run]) -> tuple[str, list[Series], list[Run]]:
    """What stands for the scenario: (description, series pooled, runs they come from)."""
    suite = [r for r in runs if r.source == SUITE_SOURCE]
    if suite:
        chosen = [s for r in suite for s in r.series if s.name == SUITE_HEADLINE]
        if chosen:
            return (
                "A53 suite: timer IRQ to handler entry, busy core (caches-on)",
                chosen,
                suite,
            )
        first = suite[0].series[0].name if suite[0].series else "?"
        return (
            f"A53 suite: {first}",
            [s for r in suite for s in r.series if s.name == first],
            suite,
        )
    probe = [r for r in runs if r.source == "latprobe" and "tool" not in r.meta]
    if probe:
        return (
            "latprobe: timer wake-up of a SCHED_FIFO thread, all CPUs",
            [s for r in probe for s in r.series if not s.is_stages],
            probe,
        )
    other = runs[0]
    tool = other.meta.get("tool", other.source)
    return f"{tool}", [s for s in other.series if not s.is_stages], [other]


def _kernel(run: Run) -> str:
    kernel = run.meta.get("env.kernel_version", "unknown")
    linux = run.meta.get("env.linux_kernel")
    if linux:  # AMP: the suite has none, Linux beside it has one
        return f"{kernel}; Linux beside it: {linux}"
    preemption = run.meta.get("env.preemption")
    return f"{kernel} ({preemption})" if preemption and not kernel.startswith("none") else kernel


def configuration_rows(runs: list[Run]) -> list[ConfigurationRow]:
    """One row per scenario of runs that say where they ran (target), in campaign order."""
    order: list[str] = []
    by_scenario: dict[str, list[Run]] = {}
    for run in runs:
        if "target" not in run.meta:
            continue
        name = run.meta.get("scenario", run.path)
        if name not in by_scenario:
            order.append(name)
            by_scenario[name] = []
        by_scenario[name].append(run)
    # the campaign's own order when the runs carry it (latmon run), else first seen
    first_seen = {name: i for i, name in enumerate(order)}

    def campaign_order(name: str) -> tuple[int, int]:
        orders = [r.meta.get("campaign_order", "") for r in by_scenario[name]]
        known = [int(o) for o in orders if o.isdigit()]
        return (min(known) if known else 1 << 30, first_seen[name])

    order.sort(key=campaign_order)
    rows = []
    for name in order:
        members = by_scenario[name]
        measured, series, used = _headline(members)
        first = used[0]
        row = ConfigurationRow(
            scenario=name,
            description=first.meta.get("scenario_description", ""),
            target=first.meta.get("target", "unknown"),
            hypervisor=first.meta.get("env.hypervisor", "unknown"),
            pinning=first.meta.get("env.vcpu_pinning", "unknown"),
            kernel=_kernel(first),
            measured=measured,
            runs=len(used),
            emulated=any(r.emulated for r in used),
        )
        dist = distribution_of(series)
        if dist.n:
            row.n = dist.n
            row.median = dist.percentile(0.5).value
            row.p99 = dist.percentile(0.99).value
            row.max = dist.maximum().value
        rows.append(row)
    return rows


_MEANING_LEAD = (
    "Emulated (QEMU TCG on a shared host): absolute values are QEMU's and this machine's, not a "
    "Cortex-A53's. What is meaningful is relative, between rows that measure the same quantity "
    "the same way: "
)
_MEANING_XEN = (
    "the DomU with Dom0 idle against the DomU with Dom0 stressed (the same "
    "image, pinning and tools: the difference is the stress), likewise Dom0 alone against Dom0 "
    "beside a stressed DomU, the suite alone against the same "
    "suite image as a Xen guest (the difference is Xen's path for the timer interrupt: trap, "
    "vGIC injection, guest entry), Linux alone against Dom0 and DomU. The Linux rows and the "
    "suite rows measure different things (a thread's wake-up through the scheduler against the "
    "first instruction of an interrupt handler) and are not to be compared with each other. "
)
_MEANING_KERNELS = (
    "one kernel against the other under the same load (the same guest, tools and settings: the "
    "difference is the kernel's preemption model), and each kernel idle against the same kernel "
    "under stress (the difference is the load). "
)
_MEANING_OTHER = "configurations that differ in one setting only. "
_MEANING_TAIL = (
    "What emulation cannot show: cache and memory interference between cores, the GIC's and the "
    "interconnect's timing; under QEMU a load reaches the measurement through QEMU's vCPU "
    "threads competing for this machine's cores."
)


def meaning(rows: list[ConfigurationRow]) -> str:
    """The note under the configurations of an emulated campaign: which rows compare, written
    for the configurations that ran (a hypervisor campaign, a comparison of kernels, other)."""
    xen = any(r.hypervisor.startswith("Xen") for r in rows)
    kernels = {r.kernel for r in rows if not r.kernel.startswith("none")}
    if xen:
        middle = _MEANING_XEN
    elif len(kernels) > 1:
        middle = _MEANING_KERNELS
    else:
        middle = _MEANING_OTHER
    return _MEANING_LEAD + middle + _MEANING_TAIL
