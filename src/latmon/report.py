"""Reports: one renderer class per output format.

``HtmlReport`` writes one self-contained HTML file whose first screen answers the question "does
each configuration meet its deadline, and which is best?": per measure (what the series measure:
quantity and path, :mod:`latmon.measure`) a verdict table ranked best first — verdict, worst case,
margin, the highest percentile that the samples bound with its 95 % interval, configurations
whose intervals overlap tied (:func:`rank_rows`). Then, per measure,
the configurations compared (only series of one measure are compared), interactive figures
(percentiles per configuration, exceedance, histogram, latency over time with its spikes:
:mod:`latmon.interactive`, plotly.js inlined once) and the statistics of every series; then the
stages of the interrupt path, the probabilistic worst case of every series
(:mod:`latmon.tail_report`) and every run's metadata. Tables come from the one table writer
(:mod:`latmon.tables`): latency columns in the unit that fits them, exact ns in each cell's
tooltip; wide tables scroll inside their box with the first column kept in view, never the page.
Every text that comes from an input file is escaped; nothing refers to anything outside the file.
With ``figure_dir`` every figure is also written there as a static PNG or SVG (matplotlib).

Each section is one method taking the :class:`ReportData`; :attr:`HtmlReport.sections` lists them
in order, so that a new section slots in without touching the others.

``MarkdownReport`` writes the summary table as GitHub-flavoured Markdown (exact ns), for CI logs
and job summaries.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure as StaticFigure

from latmon import __version__, interactive
from latmon.analysis import series_stats
from latmon.compare import Group, compare, comparison_table, group_runs, measures
from latmon.configurations import configuration_rows, meaning
from latmon.distribution import nearest_rank
from latmon.errors import LatmonError
from latmon.measure import Measure, measure_of
from latmon.model import Run, Series
from latmon.output import write_bytes
from latmon.plots import (
    Labelled,
    exceedance_figure,
    histogram_figure,
    save,
    stage_figure,
    timeline_figure,
    violin_figure,
)
from latmon.spikes import Spike, spikes_of
from latmon.stats import CONFIDENCE, PERCENTILES, Summary, number, stat_cell
from latmon.tables import Column, Table, escape_markdown, fmt, render, say_ns
from latmon.tail import quantisation_of
from latmon.tail_report import TailSection


@dataclass
class SeriesResult:
    """A series with its statistics (native unit) and the same in ns (the report's unit)."""

    run: Run
    series: Series
    native: Summary
    ns: Summary

    @property
    def label(self) -> str:
        return f"{self.run.label} / {self.series.name}"

    @property
    def measure(self) -> Measure:
        return measure_of(self.run, self.series)


def analyse(runs: list[Run], deadline_ns: int | None = None) -> list[SeriesResult]:
    """The statistics of every series, by the same path as ``latmon stats``."""
    out = []
    for r in series_stats(runs, CONFIDENCE, deadline_ns):
        ns = r.summary.in_unit("ns", r.series.ns_per_unit) if r.series.unit != "ns" else r.summary
        out.append(SeriesResult(r.run, r.series, r.summary, ns))
    return out


STAGE_COUNTERS = (
    "matched",
    "no_start",
    "no_expire",
    "no_irq",
    "no_waking",
    "no_switch",
    "disorder",
    "sum",
    "armed_late",
)


def _stage_stat(values: np.ndarray, stat: str) -> float | int:
    """Mean, or a nearest-rank percentile (p50, p99) or the max of one stage column."""
    if stat == "mean":
        return float(values.mean())
    if stat == "max":
        return int(values.max())
    ordered = np.sort(values)
    return int(ordered[nearest_rank(float(stat[1:]) / 100, len(ordered)) - 1])


# -- what the report is made of ----------------------------------------------------------------


@dataclass
class MeasureData:
    """The comparable groups of one measure, their comparison rows (best first in ``ranked``)
    and the series behind them."""

    measure: Measure
    groups: list[Group]
    rows: list[dict[str, object]]
    results: list[SeriesResult]
    ranked: list[dict[str, object]] = field(default_factory=list)

    @property
    def failed(self) -> list[dict[str, object]]:
        return [r for r in self.rows if r.get("verdict") == "FAIL"]

    @property
    def anchor(self) -> str:
        return "m-" + re.sub(r"[^a-z0-9]+", "-", self.measure.label.lower()).strip("-")


@dataclass
class ReportData:
    """Everything the sections draw from, computed once."""

    runs: list[Run]
    results: list[SeriesResult]
    measures: list[MeasureData]
    deadline_ns: int | None


def _worst(row: dict[str, object]) -> Fraction:
    """The highest possible maximum of a comparison row (ns)."""
    s = row["summary"]
    assert isinstance(s, Summary)
    lo, hi = s.bounds("max")
    return Fraction(hi if hi is not None else lo if lo is not None else 0)


def rank_key(row: dict[str, object]) -> tuple[int, int, Fraction, float]:
    """The order of the verdict table: by rank (:func:`rank_rows`), then the configurations
    that meet the deadline before those that miss it, the lowest worst case, the lowest p99."""
    p99 = row.get("p99")
    rank = row.get("rank")
    return (
        rank if isinstance(rank, int) else 0,
        1 if row.get("verdict") == "FAIL" else 0,
        _worst(row),
        float(p99) if isinstance(p99, int | float) else float("inf"),
    )


def common_tail(rows: list[dict[str, object]]) -> str | None:
    """The highest percentile whose 95 % interval every row's samples bound on both sides (the
    one the configurations are compared on); None when some row bounds none."""
    order = list(PERCENTILES)
    keys = []
    for row in rows:
        s = row["summary"]
        assert isinstance(s, Summary)
        key = tail_key(s)
        if key is None:
            return None
        keys.append(key)
    return min(keys, key=order.index) if keys else None


def clearly_below(a: dict[str, object], b: dict[str, object], key: str) -> bool:
    """``a``'s interval of percentile ``key`` lies wholly below ``b``'s: the samples say that
    ``a`` is better, not chance."""
    sa, sb = a["summary"], b["summary"]
    assert isinstance(sa, Summary) and isinstance(sb, Summary)
    a_hi, b_lo = sa.ci(key)[1], sb.ci(key)[0]
    return a_hi is not None and b_lo is not None and a_hi < b_lo


def rank_rows(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows with samples, each with its ``rank`` = 1 + the configurations clearly better:
    one that meets the deadline is better than one that misses it; between two on the same
    side, one is better only when its interval of the common tail percentile
    (:func:`common_tail`, stored as ``rank_by``) lies wholly below the other's. Overlapping
    intervals share a rank — a tie, not a "best" named on one extreme sample. Best first."""
    with_samples = [r for r in rows if r.get("n")]
    key = common_tail(with_samples)
    for row in with_samples:
        fails = row.get("verdict") == "FAIL"
        better = 0
        for other in with_samples:
            if other is row:
                continue
            other_fails = other.get("verdict") == "FAIL"
            if other_fails != fails:
                better += fails
            elif key is not None and clearly_below(other, row, key):
                better += 1
        row["rank"] = 1 + better
        row["rank_by"] = key
    return sorted(with_samples, key=rank_key)


def report_data(runs: list[Run], deadline_ns: int | None) -> ReportData:
    results = analyse(runs, deadline_ns)
    groups = group_runs(runs)
    rows = compare(groups, None, deadline_ns)
    out = []
    for m in measures(groups):
        mine = [(g, r) for g, r in zip(groups, rows, strict=True) if g.measure == m]
        data = MeasureData(
            m,
            [g for g, _ in mine],
            [r for _, r in mine],
            [r for r in results if r.measure == m],
        )
        data.ranked = rank_rows(data.rows)
        out.append(data)
    # with a deadline, the measures closest to it first (a missed one before all others: the
    # highest worst case); without, in the order of the inputs
    if deadline_ns is not None:
        out.sort(key=lambda d: -max((_worst(r) for r in d.ranked), default=Fraction(0)))
    return ReportData(runs, results, out, deadline_ns)


def tail_key(summary: Summary) -> str | None:
    """The highest percentile whose 95 % interval the samples bound on both sides."""
    best = None
    for key in PERCENTILES:
        lo, hi = summary.ci(key)
        if lo is not None and hi is not None and summary.value(key) is not None:
            best = key
    return best


def _ns(value: object) -> str:
    """A latency in ns as people say it (:func:`latmon.tables.say_ns`)."""
    return say_ns(None if value is None else float(value))  # type: ignore[arg-type]


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

_CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, sans-serif; margin: 1.2em auto; padding: 0 1.5em;
       max-width: 96em; color: #222; line-height: 1.35; }
h1 { font-size: 1.45em; margin: 0 0 .2em; } h2 { font-size: 1.2em; margin-top: 1.8em; }
h3 { font-size: 1.02em; margin: 1.2em 0 .4em; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: .4em 0 1em; }
table { border-collapse: separate; border-spacing: 0; font-size: .86em; }
th, td { border-bottom: 1px solid #d5d9e0; padding: .22em .6em; text-align: right;
         white-space: nowrap; font-variant-numeric: tabular-nums; }
thead th { background: #eef2f7; border-bottom: 2px solid #b8c2d0; vertical-align: bottom; }
th.l, td.l { text-align: left; }
.key { position: sticky; left: 0; z-index: 1; background: #fff; text-align: left;
       white-space: normal; min-width: 9em; max-width: 22em; overflow-wrap: anywhere;
       box-shadow: 1px 0 0 #d5d9e0; }
thead th.key { background: #eef2f7; z-index: 2; }
tbody th { font-weight: normal; }
tr.damaged > * { background: #fff1e6; }
tr.fail > * { background: #fdecec; }
.meta td, .meta th { white-space: normal; overflow-wrap: anywhere; }
.meta td.l { max-width: 60em; }
.note { color: #555; font-size: .86em; max-width: 75em; }
.bad { color: #a50f15; font-weight: bold; }
.good { color: #1a7f37; font-weight: bold; }
.answer { font-size: 1.08em; margin: .6em 0; }
ul.glance { list-style: none; padding-left: 0; margin: .3em 0 .8em; }
ul.glance li { margin: .2em 0; }
.emulated { background: #fff3cd; border: 1px solid #d39e00; padding: .5em; }
nav { font-size: .88em; margin: .4em 0; } nav a { margin-right: 1em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: .6em;
      font-size: .85em; }
.plot { width: 100%; min-height: 420px; margin: .2em 0; }
.figure h4 { margin: .5em 0 0; font-size: .95em; font-weight: 600; }
.figure { border: 1px solid #e3e7ee; border-radius: 4px; padding: .3em .6em .5em; margin: 1em 0; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(34em, 1fr)); gap: 0 1em; }
details { margin: .4em 0; } summary { cursor: pointer; }
@page { size: A4 landscape; margin: 10mm; }
@media print { .plot { break-inside: avoid; } .figure { break-inside: avoid; }
               body { max-width: none; } .table-scroll { overflow: visible; }
               table { font-size: .72em; } th, td { white-space: normal; } }
"""

#: Renders the figures one after the other once the page is parsed (the first screen's first),
#: yielding between them so the page stays responsive; counts them in ``window.latmonFigures``.
_BOOT_JS = """
(function () {
  var figures = Array.prototype.slice.call(document.querySelectorAll("div.plot[data-spec]"));
  var state = { total: figures.length, rendered: 0, errors: [] };
  window.latmonFigures = state;
  function next(i) {
    if (i >= figures.length) {
      document.documentElement.setAttribute("data-figures", "done");
      return;
    }
    var div = figures[i];
    try {
      var spec = JSON.parse(document.getElementById(div.getAttribute("data-spec")).textContent);
      Plotly.newPlot(div, spec.data, spec.layout, spec.config).then(function () {
        state.rendered += 1; setTimeout(function () { next(i + 1); }, 0);
      }, function (error) {
        state.errors.push(String(error)); console.error(error); next(i + 1);
      });
    } catch (error) {
      state.errors.push(String(error)); console.error(error);
      setTimeout(function () { next(i + 1); }, 0);
    }
  }
  if (typeof Plotly === "undefined") { state.errors.push("plotly.js missing"); return; }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { next(0); });
  } else { next(0); }
})();
"""

StaticMaker = Callable[[], list[tuple[str, StaticFigure]]]


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

    def render(self, runs: list[Run]) -> str:
        # no deadline verdict on emulated time (every run from QEMU): the reason instead
        requested = self.deadline_ns
        self._withheld_deadline = requested if runs and all(r.emulated for r in runs) else None
        if self._withheld_deadline is not None:
            self.deadline_ns = None
        try:
            return self._render(runs)
        finally:
            self.deadline_ns = requested

    def _render(self, runs: list[Run]) -> str:
        self._specs = []
        data = report_data(runs, self.deadline_ns)
        body = [section(data) for section in self.sections]
        head = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(self.title)}</title>",
            f"<style>{_CSS}</style></head><body>",
            f"<h1>{html.escape(self.title)}</h1>",
            f'<p class="note">Generated by latmon {html.escape(__version__)} on '
            f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} from {len(runs)} run(s), "
            f"{len(data.results)} series.</p>",
            _emulated_note(runs, html_form=True),
        ]
        scripts = []
        if self._specs:
            scripts = [
                "<script>/* plotly.js, MIT licence (see its banner) */\n",
                interactive.plotly_js(),
                "</script>",
                "\n".join(self._specs),
                f"<script>{_BOOT_JS}</script>",
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
        write_bytes(path, save(fig, self.figure_format))
        self.written.append(path)

    # -- sections ------------------------------------------------------------------------------

    def _answer(self, data: ReportData) -> str:
        """The first screen: the answer in one line, one line per measure, the verdict tables."""
        parts = ['<section id="verdict"><h2>Verdict</h2>']
        rows = [r for m in data.measures for r in m.rows if r.get("n")]
        if self.deadline_ns is not None:
            failed = [r for r in rows if r.get("verdict") == "FAIL"]
            deadline = _ns(self.deadline_ns)
            if failed:
                worst = ", ".join(
                    f"{html.escape(str(r['scenario']))} (worst {_ns(_worst(r))})" for r in failed
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
                f'<p class="answer">Deadline {_ns(self._withheld_deadline)}: no verdict on '
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
        worst = max(m.ranked, key=_worst)
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
        text = f"{mark} — {name}: worst {_ns(_worst(worst))}"
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
            text += f"; smallest margin {_ns(self.deadline_ns - _worst(worst))}"
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
        labelled_dists = [d for g in m.groups if (d := _labelled(g)) is not None]
        figures = [
            self._figure(
                interactive.percentile_figure(ladder, f"Percentiles — {title}", self.deadline_ns),
                lambda: _static("violin", violin_figure(labelled_dists, self.deadline_ns)),
            ),
            self._figure(
                interactive.exceedance_figure(dists, f"Exceedance — {title}", self.deadline_ns),
                lambda: _static("exceedance", exceedance_figure(labelled_dists, self.deadline_ns)),
            ),
            self._figure(
                interactive.histogram_figure(dists, f"Histogram — {title}", self.deadline_ns),
                lambda: [
                    (f"{r.label}-histogram", f)
                    for r in m.results
                    if (f := histogram_figure(r.series, r.label)) is not None
                ],
            ),
        ]
        return '<div class="grid2">' + "".join(f for f in figures if f) + "</div>"

    def _timeline(self, m: MeasureData) -> str:
        series = [(r.label, r.series) for r in m.results if r.series.has_samples]
        fig = interactive.timeline_figure(
            series, f"Latency over time — {m.measure.label}", self.deadline_ns
        )
        return self._figure(
            fig,
            lambda: [
                (f"{r.label}-timeline", f)
                for r in m.results
                if (f := timeline_figure(r.series, r.label, self.deadline_ns)) is not None
            ],
        )

    def _series_table(self, m: MeasureData) -> str:
        table = summary_table(m.results, self.deadline_ns is not None, html_notes=True)
        deadline_note = (
            f" Deadline: {_ns(self.deadline_ns)}; &gt; deadline counts the samples above it, "
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
        """The probabilistic worst case of every series (latmon.tail_report)."""
        series = [(r.label, r.series, quantisation_of(r.run.meta)) for r in data.results]
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
    return Labelled(g.label, g.dist) if g.dist.n else None


def _stage_statics(s: Series, label: str) -> StaticMaker:
    return lambda: _static(f"{label}-stages", stage_figure(s, label))


def _static(name: str, fig: StaticFigure | None) -> list[tuple[str, StaticFigure]]:
    return [] if fig is None else [(name, fig)]


def stage_table(s: Series) -> Table:
    """mean, p50, p99 and max of the total and of each stage (ns, nearest-rank)."""
    names = ["total", *(n.removeprefix("stage_") for n in s.stage_names)]
    table = Table([Column("stat", "statistic", "l"), *(Column(n, n, unit="ns") for n in names)])
    columns = [s.latency] + [s.columns[n] for n in s.stage_names]
    scale = s.ns_per_unit
    for stat in ("mean", "p50", "p99", "max"):
        cells: dict[str, object] = {"stat": stat}
        for n, c in zip(names, columns, strict=True):
            v = _stage_stat(c, stat)
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


@dataclass
class MarkdownReport:
    """The summary table as GitHub-flavoured Markdown (CI logs, job summaries)."""

    title: str = "latmon report"
    deadline_ns: int | None = None

    def render(self, runs: list[Run]) -> str:
        results = analyse(runs, self.deadline_ns)
        table = summary_table(results, self.deadline_ns is not None, html_notes=False)
        note = _emulated_note(runs, html_form=False)
        lines = [
            f"## {escape_markdown(self.title)}",
            "",
            *([note, ""] if note else []),
            render(table, "markdown").rstrip("\n"),
        ]
        lines += [
            "",
            "Values in ns; percentiles nearest-rank; jitter = max(max - mean, mean - min).",
        ]
        lines += self._spikes(runs)
        if self.deadline_ns is not None:
            failed = sum(
                1 for r in results if r.ns.deadline is not None and r.ns.deadline.verdict != "pass"
            )
            lines.append(
                f"Deadline {fmt(self.deadline_ns)} ns: "
                + (f"**{failed} series above it.**" if failed else "every series meets it.")
            )
        return "\n".join(lines) + "\n"

    def _spikes(self, runs: list[Run]) -> list[str]:
        """The worst explained wake-up of each CPU: why it was slow."""
        worst = []
        for run in runs:
            seen: set[str] = set()
            for spike in spikes_of(run):  # largest first
                if spike.cpu not in seen:
                    seen.add(spike.cpu)
                    worst.append((run, spike))
        if not worst:
            return []
        table = Table([Column("run", "run", "l"), *SPIKE_COLUMNS[:5], SPIKE_COLUMNS[7]])
        for run, spike in worst:
            cells = dict(zip((c.key for c in SPIKE_COLUMNS), spike_cells(spike), strict=True))
            table.add({"run": run.label, **cells})
        lines = ["", "### Why were the spikes slow (the worst of each CPU)", ""]
        lines += render(table, "markdown").rstrip("\n").split("\n")
        return lines


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


def _emulated_note(runs: list[Run], html_form: bool) -> str:
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
