"""The report's section "Probabilistic worst case": per series the i.i.d. checks, then — only
where they pass — each method's fit and checks, the pWCETs with their intervals (a verdict
against the deadline), the tail extrapolated with its band and the threshold diagnostics; or
the reasons why there is no number (docs/tail.md).

Self-contained: :class:`TailSection` takes the series with their labels and a function that
embeds a figure, and returns HTML; it knows nothing else of the report's layout. Latencies are
shown as everywhere in the report: each table column in the unit that fits it (exact ns in the
cell's tooltip), the figure interactive (latmon.tail.interactive), its static version for
``--figures`` drawn by latmon.tail.plotting.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from latmon.analysis.stats import deadline_in_unit
from latmon.figures.plotly_style import Figure
from latmon.model import Series
from latmon.tables import Column, Table, fmt, render, say_ns, unit_for
from latmon.tail.analysis import analyse_series, time_ordered
from latmon.tail.interactive import tail_figure
from latmon.tail.result import TailAnalysis
from latmon.tail.source import Digest
from latmon.tail.tables import checks_table, fit_text, pwcet_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure as StaticFigure

#: Static versions of a figure for --figures: a function that draws them, (file stem, figure).
StaticMaker = Callable[[], "list[tuple[str, StaticFigure]]"]
#: Embeds an interactive figure (None: nothing) with its static versions -> HTML.
FigureWriter = Callable[[Figure | None, StaticMaker | None], str]

INTRODUCTION = (
    '<p class="note">The latency exceeded with probability p per activation (pWCET), '
    "extrapolated beyond the samples by extreme-value theory: peaks over a threshold "
    "(generalised Pareto) and block maxima (GEV), with profile-likelihood intervals. Only for "
    "samples that pass the checks: independence (Ljung–Box, runs test) and identical "
    "distribution (KPSS, KS between the halves), the four as one family; enough exceedances; "
    "a tail that is not heavy (ξ &gt; 0 has no bound: no number); and a held-out check (the "
    "fit to the first half must not underestimate the second half's tail). Values recorded "
    "on a grid (whole µs, clock cycles) are fitted as the cells they stand for. Latencies in "
    "the unit "
    "named in each heading, the exact ns in each cell's tooltip. Also: "
    "<code>latmon tail</code>; see docs/tail.md.</p>"
)


@dataclass
class TailSection:
    """The section for a list of (label, series); stage series are left out by the caller."""

    deadline_ns: int | None = None

    def render(
        self,
        series: Sequence[
            tuple[str, Series] | tuple[str, Series, str] | tuple[str, Series, str, Digest | None]
        ],
        figure: FigureWriter,
    ) -> str:
        """The section; each series as (label, series) or (label, series, quantisation: how
        its tool records a value, latmon.tail.QUANTISATION; "round" when not given), and
        with the series' :class:`Digest` when it was streamed from its file (not in memory)."""
        parts = [
            '<section id="tail"><h2>Probabilistic worst case (extreme-value analysis)</h2>',
            INTRODUCTION,
        ]
        unavailable = Table(
            [Column("series", "series", "l"), Column("n", "samples"), Column("why", "why", "l")]
        )
        for label, s, *how in series:
            digest = how[1] if len(how) > 1 else None
            assert digest is None or isinstance(digest, Digest)
            quantisation = how[0] if how else "round"
            assert isinstance(quantisation, str)
            a = analyse_series(s, quantisation=quantisation, digest=digest)
            if a.unavailable is not None:  # too few samples, a histogram: one line each below
                unavailable.add({"series": label, "n": a.n, "why": a.unavailable})
                continue
            parts.append(f"<h3>{html.escape(label)}</h3>")
            parts.append(self._series(label, s, a, figure, digest))
        if unavailable.rows:
            parts.append("<h3>Series without an analysis</h3>")
            parts.append(render(unavailable, "html"))
        return "\n".join(parts) + "</section>"

    def _series(
        self,
        label: str,
        s: Series,
        a: TailAnalysis,
        figure: FigureWriter,
        digest: Digest | None = None,
    ) -> str:
        parts = [
            f'<p class="note">{fmt(a.n)} samples in time order; i.i.d. checks as one family at '
            f"{a.alpha:g} (each test at {a.alpha / 4:g}).</p>",
            render(checks_table(a.checks), "html"),
        ]
        if not a.iid:
            failed = "; ".join(c.name for c in a.checks if not c.passed)
            parts.append(
                '<p class="bad">no pWCET: the samples are not i.i.d. (failed: '
                f"{html.escape(failed)}), so an extreme-value model does not apply to them. "
                "See docs/tail.md for measurements that can pass.</p>"
            )
            return "\n".join(parts)
        to_ns = float(s.ns_per_unit)
        unit, per = unit_for(a.sample_max * to_ns)  # the fits' parameters in the samples' unit
        for m in (a.pot, a.gev):
            if m is None:
                continue
            parts.append(
                f'<p class="note"><b>{html.escape(m.method)}</b>: '
                f"{html.escape(fit_text(m, to_ns / per, unit))}</p>"
            )
            parts.append(render(checks_table(m.checks), "html"))
        if not a.valid:
            parts.append(f'<p class="bad">no pWCET: {html.escape("; ".join(a.reasons()))}</p>')
            return "\n".join(parts)
        deadline = None if self.deadline_ns is None else deadline_in_unit(s, self.deadline_ns)
        note = f"pWCET per activation, with the {a.confidence:.0%} interval."
        if self.deadline_ns is not None:
            note += (
                f" Verdict against the {say_ns(self.deadline_ns)} deadline: pass when the "
                "interval's upper end is within it."
            )
        parts.append(f'<p class="note">{note}</p>')
        parts.append(render(pwcet_table(a, to_ns, deadline, in_ns=True), "html"))
        values = digest if digest is not None else time_ordered(s)
        if values is not None:
            deadline_ns = self.deadline_ns

            def statics() -> list[tuple[str, StaticFigure]]:
                # matplotlib only when the static figures are written (--figures)
                from latmon.tail.plotting import tail_figure as static_tail_figure

                fig = static_tail_figure(values, a, to_ns, label, deadline_ns)
                return [] if fig is None else [(f"{label}-tail", fig)]

            parts.append(figure(tail_figure(values, a, to_ns, label, deadline_ns), statics))
        return "\n".join(parts)
