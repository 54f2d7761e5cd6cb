"""The HTML report's detail sections: the stages of the interrupt path, why the spikes were
slow, the probabilistic worst case, every run's metadata. One method per section, mixed into
:class:`latmon.report.html.HtmlReport`."""

from __future__ import annotations

import html

from latmon.analysis.spikes import spikes_of
from latmon.figures import interactive
from latmon.model import Series
from latmon.report.assets import StaticMaker
from latmon.report.data import (
    STAGE_COUNTERS,
    ReportData,
)
from latmon.report.html_page import PageParts, plots, static_figure
from latmon.report.tables import (
    SPIKE_COLUMNS,
    coverage_text,
    spike_cells,
    stage_table,
)
from latmon.tables import Column, Table, render
from latmon.tail.analysis import quantisation_of
from latmon.tail.report import TailSection


class DetailSections(PageParts):
    """The detail sections after the measures."""

    def _stages(self, data: ReportData) -> str:
        """Stage decomposition (latprobe --stages): a table and a stage plot per series."""
        found = [(run, s) for run in data.runs for s in run.series if s.is_stages and s.stage_names]
        if not found:
            return ""
        parts = [
            '<section id="stages"><h2>Stages of the interrupt path</h2>',
            '<p class="note">Each matched wake-up split into: expiry &rarr; timer interrupt '
            "entry (irq), &rarr; the probe's hrtimer handler (handler), &rarr; wake-up of the "
            "thread (wakeup), &rarr; switch to it (sched: scheduling latency), &rarr; its clock "
            "read in user space (user). The stages of each wake-up add up to its latency. "
            "Matched: wake-ups whose five trace events were all found.</p>",
        ]
        for run, s in found:
            label = f"{run.label} / {s.meta.get('of', s.name)}"
            kept = sum(s.counters.get(k, 0) for k in STAGE_COUNTERS)
            parts.append(f"<h3>{html.escape(label)}</h3>")
            unmatched = ", ".join(
                f"{k}: {s.counters[k]}" for k in STAGE_COUNTERS[1:] if s.counters.get(k)
            )
            parts.append(f'<p class="note">{html.escape(coverage_text(s, kept, unmatched))}</p>')
            if not s.has_samples:
                continue
            parts.append(render(stage_table(s), "html"))
            parts.append(
                self._figure(
                    interactive.stage_figure(s, f"Stages — {label}"),
                    stage_statics(s, label),
                )
            )
        return "\n".join(parts) + "</section>"

    def _spikes(self, data: ReportData) -> str:
        """Why were the spikes slow: every explained wake-up, largest first, per run."""
        found = [(run, spikes) for run in data.runs if (spikes := spikes_of(run))]
        if not found:
            return ""
        parts = [
            '<section id="spikes"><h2>Why were the spikes slow</h2>',
            '<p class="note">The worst wake-ups of each CPU (latprobe --stages; every one above '
            "--explain), each explained from the kernel trace: the time from the timer's "
            "expiry to the probe's clock read, attributed to what held the CPU — the idle "
            "state, an interrupt, a softirq, another timer's callback, another task (with its "
            "priority), or the probe's own path — per stage. Cause: the largest; class: "
            "hardware (idle exit, a late interrupt), interrupts, scheduler, or probe. Every "
            "spike's contributions add up to its latency (docs/latprobe.md).</p>",
        ]
        for run, spikes in found:
            parts.append(f"<h3>{html.escape(run.label)}</h3>")
            table = Table(SPIKE_COLUMNS)
            for spike in spikes:
                table.add(
                    dict(zip((c.key for c in SPIKE_COLUMNS), spike_cells(spike), strict=True))
                )
            parts.append(render(table, "html"))
        return "\n".join(parts) + "</section>"

    def _tail(self, data: ReportData) -> str:
        """The probabilistic worst case of every series (latmon.tail.report)."""
        series = [
            (
                r.label,
                r.series,
                quantisation_of(r.run.meta),
                None if r.streamed is None else r.streamed.digest,
            )
            for r in data.results
        ]
        return TailSection(self.deadline_ns).render(series, self._figure)

    def _metadata(self, data: ReportData) -> str:
        parts = ['<section id="runs"><h2>Runs</h2>']
        for run in data.runs:
            problems = ""
            if run.problems:
                items = "".join(f"<li>{html.escape(p)}</li>" for p in run.problems)
                problems = (
                    '<p class="bad">This run was read from a damaged file; the statistics '
                    f"cover only the valid records.</p><ul>{items}</ul>"
                )
            table = Table([Column("key", "metadata", "l"), Column("value", "value", "l")])
            for k, v in run.meta.items():
                table.add({"key": k, "value": v})
            series = []
            for s in run.series:
                counters = ", ".join(f"{k}={v}" for k, v in s.counters.items())
                meta = ", ".join(f"{k}={v}" for k, v in s.meta.items())
                unit = s.unit + (f" at {s.clock_hz:,} Hz" if s.clock_hz else "")
                series.append(
                    f'<p class="note">{html.escape(s.name)}: {html.escape(unit)}; '
                    f"{html.escape(meta)}; counters: {html.escape(counters)}</p>"
                )
            parts.append(
                f"<h3>{html.escape(run.label)}</h3>{problems}"
                f'<details><summary class="note">file: {html.escape(run.path)} — metadata and '
                f'series</summary><div class="meta">{render(table, "html")}</div>'
                + "".join(series)
                + "</details>"
            )
        return "\n".join(parts) + "</section>"


def stage_statics(s: Series, label: str) -> StaticMaker:
    return lambda: static_figure(f"{label}-stages", plots().stage_figure(s, label))
