"""The HTML report.

``HtmlReport`` writes one self-contained HTML file whose first screen answers the question "does
each configuration meet its deadline, and which is best?": per measure (what the series measure:
quantity and path, :mod:`latmon.model`) a verdict table ranked best first — verdict, worst case,
margin, the highest percentile that the samples bound with its 95 % interval, configurations
whose intervals overlap tied (:func:`rank_rows`). Then, per measure,
the configurations compared (only series of one measure are compared), interactive figures
(percentiles per configuration, exceedance, histogram, latency over time with its spikes:
:mod:`latmon.figures.interactive`, plotly.js inlined once) and the statistics of every series; then
the stages of the interrupt path, the probabilistic worst case of every series
(:mod:`latmon.tail.report`) and every run's metadata. Tables come from the one table writer
(:mod:`latmon.tables`): latency columns in the unit that fits them, exact ns in each cell's
tooltip; wide tables scroll inside their box with the first column kept in view, never the page.
Every text that comes from an input file is escaped; nothing refers to anything outside the file.
With ``figure_dir`` every figure is also written there as a static PNG or SVG (matplotlib).

Each section is one method taking the :class:`ReportData`; :attr:`HtmlReport.sections` lists them
in order, so that a new section slots in without touching the others.

The page is one class, one method per section (about 470 lines): a section reads the shared
:class:`ReportData` and the figures, so splitting the class would only pass them around.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from latmon import __version__
from latmon.analysis.compare import Group, comparison_table
from latmon.analysis.configurations import configuration_rows, meaning
from latmon.analysis.spikes import spikes_of
from latmon.analysis.stats import PERCENTILES, Summary
from latmon.errors import LatmonError
from latmon.figures import interactive
from latmon.figures.data import Timeline
from latmon.model import Run, Series
from latmon.output import write_bytes
from latmon.report.assets import BOOT_JS, CSS, StaticMaker
from latmon.report.data import (
    STAGE_COUNTERS,
    MeasureData,
    ReportData,
    ns_cell,
    report_data,
    worst_case,
)
from latmon.report.stream import StreamedSeries
from latmon.report.tables import (
    CONFIGURATION_COLUMNS,
    SETTINGS_COLUMNS,
    SPIKE_COLUMNS,
    coverage_text,
    emulated_note,
    settings_row,
    spike_cells,
    stage_table,
    summary_table,
    verdict_table,
)
from latmon.tables import Column, Table, render
from latmon.tail.analysis import quantisation_of
from latmon.tail.report import TailSection

if TYPE_CHECKING:
    from matplotlib.figure import Figure as StaticFigure

    from latmon.figures.plots import Labelled


@dataclass
class HtmlReport:
    """Self-contained HTML report of one or more runs."""

    title: str = "latmon report"
    deadline_ns: int | None = None
    #: Also write every figure here (as ``figure_format``, drawn with matplotlib), when set.
    figure_dir: Path | None = None
    figure_format: str = "png"
    written: list[Path] = field(default_factory=list)
    #: Free text shown verbatim under the summary (what the figures mean; --notes).
    notes: str = ""
    _specs: list[str] = field(default_factory=list)
    _withheld_deadline: int | None = None

    @property
    def sections(self) -> list[Callable[[ReportData], str]]:
        """The sections in order; each is a method that takes the report's data."""
        return [
            self._configurations,
            self._answer,
            self._notes,
            self._contents,
            self._settings,
            self._measures,
            self._stages,
            self._spikes,
            self._tail,
            self._metadata,
        ]

    def render(self, runs: list[Run], streamed: dict[int, StreamedSeries] | None = None) -> str:
        """The report of ``runs``; a series in ``streamed`` (by id) was read from its run file
        in a stream (latmon.report.stream) and is drawn from what that gathered."""
        # no deadline verdict on emulated time (every run from QEMU): the reason instead
        requested = self.deadline_ns
        self._withheld_deadline = requested if runs and all(r.emulated for r in runs) else None
        if self._withheld_deadline is not None:
            self.deadline_ns = None
        try:
            return self._render(runs, streamed)
        finally:
            self.deadline_ns = requested

    def _render(self, runs: list[Run], streamed: dict[int, StreamedSeries] | None) -> str:
        self._specs = []
        data = report_data(runs, self.deadline_ns, streamed)
        body = [section(data) for section in self.sections]
        head = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(self.title)}</title>",
            f"<style>{CSS}</style></head><body>",
            f"<h1>{html.escape(self.title)}</h1>",
            f'<p class="note">Generated by latmon {html.escape(__version__)} on '
            f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} from {len(runs)} run(s), "
            f"{len(data.results)} series.</p>",
            emulated_note(runs, html_form=True),
        ]
        scripts = []
        if self._specs:
            scripts = [
                "<script>/* plotly.js, MIT licence (see its banner) */\n",
                interactive.plotly_js(),
                "</script>",
                "\n".join(self._specs),
                f"<script>{BOOT_JS}</script>",
            ]
        return "\n".join([*head, *(b for b in body if b), *scripts, "</body></html>"]) + "\n"

    # -- figures -------------------------------------------------------------------------------

    def _figure(self, fig: interactive.Figure | None, statics: StaticMaker | None = None) -> str:
        """An interactive figure (its spec in a JSON script element), and its static versions
        in figure_dir."""
        if fig is None:
            return ""
        if self.figure_dir is not None and statics is not None:
            for name, static in statics():
                self._write_static(static, name)
        n = len(self._specs) + 1
        self._specs.append(
            f'<script type="application/json" id="spec-{n}">{interactive.spec_json(fig)}</script>'
        )
        alt = html.escape(fig.title, quote=True)
        caption = f'<p class="note">{html.escape(fig.caption)}</p>' if fig.caption else ""
        return (
            f'<div class="figure"><h4>{html.escape(fig.title)}</h4>'
            f'<div class="plot" id="figure-{n}" data-spec="spec-{n}" '
            f'data-name="{html.escape(fig.name, quote=True)}" role="img" aria-label="{alt}">'
            "</div>" + caption + "</div>"
        )

    def _write_static(self, fig: StaticFigure, name: str) -> None:
        assert self.figure_dir is not None
        if self.figure_dir.exists() and not self.figure_dir.is_dir():
            raise LatmonError(f"--figures {self.figure_dir}: not a folder")
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "figure"
        path = self.figure_dir / f"{len(self.written) + 1:02d}-{stem}.{self.figure_format}"
        write_bytes(path, _plots().save(fig, self.figure_format))
        self.written.append(path)

    # -- sections ------------------------------------------------------------------------------

    def _answer(self, data: ReportData) -> str:
        """The first screen: the answer in one line, one line per measure, the verdict tables."""
        parts = ['<section id="verdict"><h2>Verdict</h2>']
        rows = [r for m in data.measures for r in m.rows if r.get("n")]
        if self.deadline_ns is not None:
            failed = [r for r in rows if r.get("verdict") == "FAIL"]
            deadline = ns_cell(self.deadline_ns)
            if failed:
                worst = ", ".join(
                    f"{html.escape(str(r['scenario']))} (worst {ns_cell(worst_case(r))})"
                    for r in failed
                )
                parts.append(
                    f'<p class="answer"><span class="bad">Deadline {deadline}: {len(failed)} of '
                    f"{len(rows)} configurations miss it</span>: {worst}.</p>"
                )
            else:
                parts.append(
                    f'<p class="answer"><span class="good">Deadline {deadline}: all {len(rows)} '
                    "configurations meet it.</span></p>"
                )
        elif self._withheld_deadline is not None:
            parts.append(
                f'<p class="answer">Deadline {ns_cell(self._withheld_deadline)}: no verdict on '
                "emulated time. Every run was measured in QEMU, whose timer and instruction "
                "timing are the emulator's on this host, not the target CPU's: whether a "
                "configuration meets the deadline can only be measured on the hardware. The "
                "configurations are ranked by their worst case inside the emulator.</p>"
            )
        else:
            parts.append(
                '<p class="answer">No deadline given (<code>--deadline</code>): the '
                "configurations are ranked by the 95 % interval of their tail percentile.</p>"
            )
        if len(data.measures) > 1:
            parts.append(
                f'<p class="note">The series measure {len(data.measures)} different things '
                "(quantity and path); configurations are compared only with those that measure "
                "the same.</p>"
            )
        parts.append('<ul class="glance">')
        for m in data.measures:
            parts.append(f"<li>{self._glance(m)}</li>")
        parts.append("</ul>")
        for m in data.measures:
            if not m.ranked:
                continue
            parts.append(
                f'<h3><a href="#{m.anchor}">{html.escape(m.measure.label)}</a></h3>'
                + render(verdict_table(m, self.deadline_ns is not None), "html")
            )
        parts.append(
            '<p class="note">Rank: 1 + the configurations clearly better — one that meets the '
            "deadline is better than one that misses it; otherwise one is better only when its "
            "tail interval lies wholly below the other's. Overlapping intervals share a rank: "
            "the samples cannot tell those configurations apart, whatever their single worst "
            "samples say. Tail: the highest nearest-rank percentile whose 95 % "
            "distribution-free interval the samples of every configuration bound on both sides "
            "(the one compared). Within a rank, the lowest worst case (max) first. Latencies "
            "in the unit named in each heading; the exact ns in each cell's tooltip.</p>"
        )
        return "\n".join(parts) + "</section>"

    def _glance(self, m: MeasureData) -> str:
        """One line per measure: passed or not, the worst case, the best configuration."""
        name = f'<a href="#{m.anchor}">{html.escape(m.measure.label)}</a>'
        if not m.ranked:
            return f"{name}: no samples"
        best = m.ranked[0]
        worst = max(m.ranked, key=worst_case)
        count = len(m.ranked)
        if self.deadline_ns is not None:
            failed = len(m.failed)
            mark = (
                f'<span class="bad">✗ {failed} of {count} miss</span>'
                if failed
                else f'<span class="good">✓ {count} of {count} meet</span>'
            )
        else:
            mark = f"{count} configuration{'s' if count > 1 else ''}"
        text = f"{mark} — {name}: worst {ns_cell(worst_case(worst))}"
        if count > 1:
            text += f" ({html.escape(str(worst['scenario']))})"
            first = [r for r in m.ranked if r["rank"] == 1]
            by = best.get("rank_by")
            what = (
                f"the 95 % intervals of their {str(by).replace('_', '.')} overlap"
                if isinstance(by, str)
                else "too few samples for an interval on both sides"
            )
            if len(first) == count:
                text += f"; no best: a tie ({what})"
            elif len(first) > 1:
                names = ", ".join(html.escape(str(r["scenario"])) for r in first[:3])
                if len(first) > 3:
                    names += f" and {len(first) - 3} more"
                text += f"; best, tied: <strong>{names}</strong> ({what})"
            else:
                text += f"; best: <strong>{html.escape(str(best['scenario']))}</strong>"
                if isinstance(by, str):
                    text += f" (its {by.replace('_', '.')} interval below every other's)"
                else:
                    text += " (the only one that meets the deadline)"
        if self.deadline_ns is not None and not m.failed:
            text += f"; smallest margin {ns_cell(self.deadline_ns - worst_case(worst))}"
        return text

    def _notes(self, data: ReportData) -> str:
        if not self.notes.strip():
            return ""
        return f"<h2>Notes</h2><pre>{html.escape(self.notes)}</pre>"

    def _contents(self, data: ReportData) -> str:
        links = [f'<a href="#{m.anchor}">{html.escape(m.measure.label)}</a>' for m in data.measures]
        if any(s.is_stages and s.stage_names for run in data.runs for s in run.series):
            links.append('<a href="#stages">stages of the interrupt path</a>')
        if any(spikes_of(run) for run in data.runs):
            links.append('<a href="#spikes">why were the spikes slow</a>')
        if data.results:
            links.append('<a href="#tail">probabilistic worst case</a>')
        links.append('<a href="#runs">runs</a>')
        return "<nav>Details: " + " ".join(links) + "</nav>"

    def _measures(self, data: ReportData) -> str:
        return "\n".join(self._measure(m) for m in data.measures)

    def _measure(self, m: MeasureData) -> str:
        """One measure: the configurations compared, the figures, the series' statistics."""
        parts = [f'<section id="{m.anchor}"><h2>{html.escape(m.measure.label)}</h2>']
        parts.append(self._comparison(m))
        parts.append(self._distribution_figures(m))
        parts.append(self._timeline(m))
        parts.append(self._series_table(m))
        return "\n".join(p for p in parts if p) + "</section>"

    def _comparison(self, m: MeasureData) -> str:
        """The configurations side by side (all repetitions and CPUs of a scenario pooled), as
        in the published tables, with the differences to the first: only with two or more."""
        if len(m.groups) < 2:
            return ""
        base = next((str(r["vs"]) for r in m.rows if "vs" in r), m.groups[0].label)
        table = comparison_table(m.rows, self.deadline_ns is not None)
        return (
            "<h3>Configurations compared</h3>"
            '<p class="note">Each configuration pooled over its runs and series. Against the '
            f"first ({html.escape(base)}): differences of p50 and p99 with 95 % intervals and "
            "the Vargha-Delaney A12 effect size (0.5: no difference; see docs/statistics.md). "
            "Also: <code>latmon compare</code>.</p>" + render(table, "html")
        )

    def _distribution_figures(self, m: MeasureData) -> str:
        dists = [interactive.Dist(g.label, g.dist) for g in m.groups if g.dist.n]  # pooled, in ns
        if not dists:
            return ""
        title = m.measure.label
        ladder = []
        for row in m.rows:
            s = row["summary"]
            if isinstance(s, Summary) and s.count:
                stats: dict[str, float | None] = {}
                for key, _, _ in interactive.LADDER:
                    v = s.value(key) if key in (*PERCENTILES, "min", "max") else None
                    stats[key] = None if v is None else float(v)
                ladder.append((str(row["scenario"]), stats))

        def labelled() -> list[Labelled]:
            return [d for g in m.groups if (d := _labelled(g)) is not None]

        figures = [
            self._figure(
                interactive.percentile_figure(ladder, f"Percentiles — {title}", self.deadline_ns),
                lambda: _static("violin", _plots().violin_figure(labelled(), self.deadline_ns)),
            ),
            self._figure(
                interactive.exceedance_figure(dists, f"Exceedance — {title}", self.deadline_ns),
                lambda: _static(
                    "exceedance", _plots().exceedance_figure(labelled(), self.deadline_ns)
                ),
            ),
            self._figure(
                interactive.histogram_figure(dists, f"Histogram — {title}", self.deadline_ns),
                lambda: [
                    (f"{r.label}-histogram", f)
                    for r in m.results
                    if (f := _plots().histogram_figure(r.series, r.label)) is not None
                ],
            ),
        ]
        return '<div class="grid2">' + "".join(f for f in figures if f) + "</div>"

    def _timeline(self, m: MeasureData) -> str:
        series: list[tuple[str, Series | Timeline]] = [
            (r.label, r.streamed.timeline if r.streamed is not None else r.series)
            for r in m.results
            if r.series.has_samples or r.streamed is not None
        ]
        fig = interactive.timeline_figure(
            series, f"Latency over time — {m.measure.label}", self.deadline_ns
        )
        return self._figure(
            fig,
            lambda: [
                (f"{r.label}-timeline", f)
                for r in m.results
                if (f := _plots().timeline_figure(r.series, r.label, self.deadline_ns)) is not None
            ],
        )

    def _series_table(self, m: MeasureData) -> str:
        table = summary_table(m.results, self.deadline_ns is not None, html_notes=True)
        deadline_note = (
            f" Deadline: {ns_cell(self.deadline_ns)}; &gt; deadline counts the samples above it, "
            "margin = deadline - max."
            if self.deadline_ns
            else ""
        )
        return (
            "<details open><summary><strong>Statistics of every series</strong></summary>"
            '<p class="note">Clock cycles converted to ns with the recorded clock. Percentiles are '
            "nearest-rank; jitter is max(max - mean, mean - min); the p99 CI is a 95 % "
            "distribution-free interval (binomial order statistics; — : too few samples to "
            "bound that side). Histograms: each value at its bin's lower edge (the true value up "
            "to the bin width above); ≥x: in the overflow, above the histogram's range."
            f"{deadline_note}</p>" + render(table, "html") + "</details>"
        )

    def _configurations(self, data: ReportData) -> str:
        """The configurations a campaign ran on, side by side (more than one scenario that
        records its target): where each ran and its headline measurement."""
        rows = configuration_rows(data.runs)
        if len(rows) < 2:
            return ""
        table = Table(CONFIGURATION_COLUMNS)
        for r in rows:
            label = r.scenario + (" [emulated]" if r.emulated else "")
            table.add(
                {
                    "configuration": label,
                    "description": r.description,
                    "hypervisor": r.hypervisor,
                    "pinning": r.pinning,
                    "kernel": r.kernel,
                    "measured": r.measured,
                    "n": r.n,
                    "median": r.median,
                    "p99": r.p99,
                    "max": r.max,
                }
            )
        note = f'<p class="note">{html.escape(meaning(rows))}</p>'
        return (
            "<h2>Configurations side by side</h2>"
            '<p class="note">One row per scenario: where it ran, as its run files record it, '
            "and its headline measurement (n, median, p99, max; all runs of the scenario "
            "pooled). Every statistic of every series follows below.</p>"
            + render(table, "html")
            + (note if any(r.emulated for r in rows) else "")
        )

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
                    _stage_statics(s, label),
                )
            )
        return "\n".join(parts) + "</section>"

    def _settings(self, data: ReportData) -> str:
        """The settings that change what a latency tool measures, per run that has them."""
        table = Table(SETTINGS_COLUMNS)
        for run in data.runs:
            row = settings_row(run)
            if row is not None:
                table.add(dict(zip((c.key for c in SETTINGS_COLUMNS), row, strict=True)))
        if not table.rows:
            return ""
        return (
            "<h2>How each run measured</h2>"
            '<p class="note">Settings that change the measurement, so that tools and runs are '
            "compared like with like. /dev/cpu_dma_latency at 0 µs keeps idle CPUs out of idle "
            "states whose exit latency would otherwise land in every wake-up; cyclictest holds "
            "it at 0 by default, latprobe too when it runs as root (docs/latprobe.md).</p>"
            + render(table, "html")
        )

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


def _labelled(g: Group) -> Labelled | None:
    """A group's pooled distribution (ns) for the static figures."""
    return _plots().Labelled(g.label, g.dist) if g.dist.n else None


def _stage_statics(s: Series, label: str) -> StaticMaker:
    return lambda: _static(f"{label}-stages", _plots().stage_figure(s, label))


def _static(name: str, fig: StaticFigure | None) -> list[tuple[str, StaticFigure]]:
    return [] if fig is None else [(name, fig)]


def _plots() -> ModuleType:
    """The static figures (matplotlib), imported only when a report writes them (--figures):
    matplotlib's import is a good part of a report's start-up."""
    from latmon.figures import plots

    return plots
