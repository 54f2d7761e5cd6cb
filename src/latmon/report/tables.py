"""The report's tables, one definition for the HTML page and the Markdown summary: verdicts,
summary, stages, settings, spikes."""

from __future__ import annotations

import html
from fractions import Fraction

from latmon.analysis.spikes import Spike
from latmon.analysis.stats import PERCENTILES, Summary, number, stat_cell
from latmon.model import Run, Series
from latmon.report.data import MeasureData, SeriesResult, stage_stat, tail_key
from latmon.tables import Column, Table, escape_markdown, fmt

VERDICT_COLUMNS = [
    Column("scenario", "configuration", "l"),
    Column(
        "rank",
        "rank",
        title="1 + the configurations clearly better: meeting the deadline, or a tail interval "
        "wholly below; overlapping intervals share a rank",
    ),
    Column("n", "n"),
    Column("verdict", "verdict", "l"),
    Column("max", "worst (max)", unit="ns", title="the largest latency measured"),
    Column("margin", "margin", unit="ns", title="deadline - worst: negative when it is missed"),
    Column("above_deadline", "> deadline", title="samples above the deadline"),
    Column("tail", "tail", "l", title="the highest percentile the samples bound (95 % interval)"),
    Column("tail_value", "value", unit="ns"),
    Column("tail_ci", "95% CI", unit="ns"),
    Column("median", "median", unit="ns"),
]


def verdict_table(data: MeasureData, with_deadline: bool) -> Table:
    """One row per configuration of a measure, best first."""
    columns = [
        c
        for c in VERDICT_COLUMNS
        if with_deadline or c.key not in ("verdict", "margin", "above_deadline")
    ]
    table = Table(columns)
    for row in data.ranked:
        s = row["summary"]
        assert isinstance(s, Summary)
        common = row.get("rank_by")
        key = common if isinstance(common, str) else tail_key(s)
        cells: dict[str, object] = {
            "scenario": row["scenario"],
            "rank": row["rank"],
            "n": row["n"],
            "max": stat_cell(s, "max"),
            "median": stat_cell(s, "median"),
            "tail": key.replace("_", ".") if key else "— (too few samples)",
        }
        if key:
            cells["tail_value"] = stat_cell(s, key)
            cells["tail_ci"] = stat_cell(s, f"{key}_ci")
        if with_deadline and "verdict" in row:
            cells.update(
                verdict=row["verdict"], margin=row["margin"], above_deadline=row["above_deadline"]
            )
        table.add(cells, "fail" if row.get("verdict") == "FAIL" else "")
    return table


# -- the page ----------------------------------------------------------------------------------


def stage_table(s: Series) -> Table:
    """mean, p50, p99 and max of the total and of each stage (ns, nearest-rank)."""
    names = ["total", *(n.removeprefix("stage_") for n in s.stage_names)]
    table = Table([Column("stat", "statistic", "l"), *(Column(n, n, unit="ns") for n in names)])
    columns = [s.latency] + [s.columns[n] for n in s.stage_names]
    scale = s.ns_per_unit
    for stat in ("mean", "p50", "p99", "max"):
        cells: dict[str, object] = {"stat": stat}
        for n, c in zip(names, columns, strict=True):
            v = stage_stat(c, stat)
            cells[n] = v if scale == 1 else number(Fraction(v) * scale)
        table.add(cells)
    return table


CONFIGURATION_COLUMNS = [
    Column("configuration", "configuration", "l"),
    Column("description", "description", "l"),
    Column("hypervisor", "hypervisor", "l"),
    Column("pinning", "vCPU pinning", "l"),
    Column("kernel", "kernel", "l"),
    Column("measured", "measured", "l"),
    Column("n", "n"),
    Column("median", "median", unit="ns"),
    Column("p99", "p99", unit="ns"),
    Column("max", "max", unit="ns"),
]
SETTINGS_COLUMNS = [
    Column("run", "run", "l"),
    Column("tool", "tool", "l"),
    Column("interval", "interval", "l"),
    Column("policy", "policy", "l"),
    Column("mlock", "memory locked", "l"),
    Column("dma_latency", "/dev/cpu_dma_latency", "l"),
    Column("tracing", "tracing", "l"),
]
SPIKE_COLUMNS = [
    Column("cpu", "cpu", "l"),
    Column("t", "t (s)"),
    Column("latency", "latency (µs)"),
    Column("cause", "cause", "l"),
    Column("class", "class", "l"),
    Column("stages", "stages (µs)", "l"),
    Column("contributors", "largest contributors (µs, stage)", "l"),
    Column("why", "why", "l"),
]


def settings_row(run: Run) -> list[str] | None:
    """The measurement settings a run records (latprobe, or cyclictest run by latmon run)."""
    meta = run.meta
    tool = meta.get("tool") or meta.get("source", "")
    if tool not in ("latprobe", "cyclictest") and "dma_latency_us" not in meta:
        return None
    interval = meta.get("interval_ns")
    policy = meta.get("policy", "")
    if policy and policy != "other" and meta.get("priority"):
        policy = f"{policy} {meta['priority']}"
    dma = meta.get("dma_latency_us", "")
    if dma == "none":
        dma = "untouched" + (f" ({meta['dma_latency_note']})" if "dma_latency_note" in meta else "")
    elif dma:
        dma = f"held at {dma} µs while measuring"
    tracing = ""
    if "stages" in meta:
        tracing = "stages and spikes (tracefs)"
        if meta.get("trace_missing"):
            tracing += f"; this kernel lacks {meta['trace_missing']}"
    return [
        run.label,
        tool,
        f"{fmt(int(interval) / 1000)} µs" if interval and interval.isdigit() else "",
        policy,
        {"1": "yes", "0": "no"}.get(meta.get("mlock", ""), ""),
        dma,
        tracing,
    ]


def coverage_text(stages: Series, kept: int, unmatched: str) -> str:
    """ "decomposed 2,990 of 3,000 kept wake-ups (99.67 %); ..." for a cpuN.stages series."""
    matched = len(stages.latency)
    text = f"decomposed {fmt(matched)} of {fmt(kept)} kept wake-ups"
    if kept:
        text += f" ({100 * matched / kept:.2f} %)"
    if unmatched:
        text += f"; not decomposed: {unmatched}"
    untraced = stages.counters.get("switch_untraced", 0)
    if untraced:
        idle = stages.counters.get("switch_untraced_idle", 0)
        text += (
            f"; the kernel did not trace the switch to the probe in {fmt(untraced)} of them "
            f"({fmt(idle)} from the idle task): their sched stage ends at the probe's return "
            "from clock_nanosleep"
        )
    return text


def spike_cells(spike: Spike, contributors: int = 3) -> list[str]:
    """The cells of a spike's row in the "why were the spikes slow" tables."""
    stages = (
        " / ".join(f"{name} {fmt(ns / 1000)}" for name, ns in spike.stages.items())
        if spike.stages
        else f"({spike.stage_result})"
    )
    top = "; ".join(
        f"{c.label} {fmt(c.ns / 1000)} ({c.stage})" for c in spike.contributors[:contributors]
    )
    return [
        spike.cpu,
        f"{spike.t / 1e9:.6f}",
        fmt(spike.latency / 1000),
        spike.cause,
        spike.cause_class,
        stages,
        top,
        spike.why,
    ]


SUMMARY_COLUMNS = [
    Column("run", "run", "l"),
    Column("series", "series", "l"),
    Column("count", "n"),
    Column("resolution", "resolution", unit="ns"),
    Column("min", "min", unit="ns"),
    Column("mean", "mean", unit="ns"),
    Column("median", "median", unit="ns"),
    Column("max", "max", unit="ns"),
    Column("stdev", "stdev", unit="ns"),
    Column("jitter", "jitter", unit="ns"),
    Column("rsd_pct", "%RSD"),
    *(Column(k, k, unit="ns") for k in PERCENTILES),
    Column("p99_ci", "p99 95% CI", unit="ns"),
]
DEADLINE_COLUMNS = [
    Column("above_deadline", "> deadline"),
    Column("margin", "margin", unit="ns", title="deadline - max: negative when it is missed"),
    Column("verdict", "verdict", "l"),
]


def summary_table(results: list[SeriesResult], with_deadline: bool, html_notes: bool) -> Table:
    """The report's summary: the figures of ``latmon stats`` in ns. Markdown (``html_notes``
    False) keeps the run and the series in two columns; HTML names each row in one (its sticky
    first column)."""
    columns = SUMMARY_COLUMNS + (DEADLINE_COLUMNS if with_deadline else [])
    if html_notes:
        columns = [Column("series", "series", "l"), *columns[2:]]
    table = Table(columns)
    for r in results:
        s = r.ns
        name = r.series.name + (" (damaged)" if r.run.damaged else "")
        if not r.native.exact:
            name += f" (histogram ±{fmt(r.native.bin_error)} {r.series.unit})"
        cells: dict[str, object] = {
            "run": r.run.label,
            "series": f"{r.run.label} / {name}" if html_notes else name,
            "count": s.count,
            "resolution": r.series.resolution * r.series.ns_per_unit,
        }
        for key in ("min", "mean", "median", "max", "stdev", "jitter", "rsd_pct", *PERCENTILES):
            cells[key] = stat_cell(s, key)
        cells["p99_ci"] = stat_cell(s, "p99_ci")
        if with_deadline and s.deadline is not None:
            d = s.deadline_dict()
            verdict = str(d["verdict"])
            cells.update(
                {
                    "above_deadline": d["above_deadline"],
                    "margin": d["margin"],
                    "verdict": verdict,
                }
            )
        table.add(cells, "damaged" if r.run.damaged else "")
    return table


def emulated_note(runs: list[Run], html_form: bool) -> str:
    """A warning above the tables when runs come from an emulator (QEMU), naming them."""
    emulated = [r for r in runs if r.emulated]
    if not emulated:
        return ""
    platforms = sorted({r.meta.get("platform", r.meta.get("env.machine", "?")) for r in emulated})
    text = (
        f"Emulated: {len(emulated)} of {len(runs)} run(s) were measured in QEMU "
        f"({', '.join(platforms)}). "
        "QEMU executes the instructions but does not model a real CPU's timing, caches or "
        "interrupt path: their latencies compare configurations inside the emulator only, and "
        "are no figures of real hardware."
    )
    if html_form:
        return f'<p class="emulated"><strong>{html.escape(text)}</strong></p>'
    return f"**{escape_markdown(text)}**"
