"""The HTML report's first screen: the configurations side by side, the verdict (the answer in
one line, one line per measure, the verdict tables), the notes, the table of contents and the
settings each configuration ran with. One method per section, mixed into
:class:`latmon.report.html.HtmlReport`."""

from __future__ import annotations

import html

from latmon.analysis.configurations import configuration_rows, meaning
from latmon.analysis.spikes import spikes_of
from latmon.report.data import (
    MeasureData,
    ReportData,
    ns_cell,
    worst_case,
)
from latmon.report.html_page import PageParts
from latmon.report.tables import (
    CONFIGURATION_COLUMNS,
    SETTINGS_COLUMNS,
    settings_row,
    verdict_table,
)
from latmon.tables import Table, render


class VerdictSections(PageParts):
    """The sections of the first screen."""

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
