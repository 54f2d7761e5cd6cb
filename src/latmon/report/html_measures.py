"""The HTML report's sections per measure: the configurations compared, the distribution and
timeline figures (interactive, and static in figure_dir), the statistics of every series. One
method per section, mixed into :class:`latmon.report.html.HtmlReport`."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from latmon.analysis.compare import Group, comparison_table
from latmon.analysis.stats import PERCENTILES, Summary
from latmon.figures import interactive
from latmon.figures.data import Timeline
from latmon.model import Series
from latmon.report.data import (
    MeasureData,
    ReportData,
    ns_cell,
)
from latmon.report.html_page import PageParts, plots, static_figure
from latmon.report.tables import (
    summary_table,
)
from latmon.tables import render

if TYPE_CHECKING:
    from latmon.figures.plots import Labelled


class MeasureSections(PageParts):
    """The sections of one measure."""

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
                    low = s.bounds(key)[0] if v is None and key in PERCENTILES else None
                    if low is not None:  # in a histogram's overflow: a lower bound alone
                        stats[key + interactive.AT_LEAST] = float(low)
                ladder.append((str(row["scenario"]), stats))

        def labelled() -> list[Labelled]:
            return [d for g in m.groups if (d := labelled_group(g)) is not None]

        figures = [
            self._figure(
                interactive.percentile_figure(ladder, f"Percentiles — {title}", self.deadline_ns),
                lambda: static_figure(
                    "violin", plots().violin_figure(labelled(), self.deadline_ns)
                ),
            ),
            self._figure(
                interactive.exceedance_figure(dists, f"Exceedance — {title}", self.deadline_ns),
                lambda: static_figure(
                    "exceedance", plots().exceedance_figure(labelled(), self.deadline_ns)
                ),
            ),
            self._figure(
                interactive.histogram_figure(dists, f"Histogram — {title}", self.deadline_ns),
                lambda: [
                    (f"{r.label}-histogram", f)
                    for r in m.results
                    if (f := plots().histogram_figure(r.series, r.label)) is not None
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
                if (f := plots().timeline_figure(r.series, r.label, self.deadline_ns)) is not None
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


def labelled_group(g: Group) -> Labelled | None:
    """A group's pooled distribution (ns) for the static figures."""
    return plots().Labelled(g.label, g.dist) if g.dist.n else None
