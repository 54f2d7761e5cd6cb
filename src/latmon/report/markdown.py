"""The report as Markdown: the summary table, e.g. for a CI log or $GITHUB_STEP_SUMMARY."""

from __future__ import annotations

from dataclasses import dataclass

from latmon.analysis.spikes import spikes_of
from latmon.model import Run
from latmon.report.data import analyse
from latmon.report.stream import StreamedSeries
from latmon.report.tables import SPIKE_COLUMNS, emulated_note, spike_cells, summary_table
from latmon.tables import Column, Table, escape_markdown, fmt, render


@dataclass
class MarkdownReport:
    """The summary table as GitHub-flavoured Markdown (CI logs, job summaries)."""

    title: str = "latmon report"
    deadline_ns: int | None = None

    def render(self, runs: list[Run], streamed: dict[int, StreamedSeries] | None = None) -> str:
        results = analyse(runs, self.deadline_ns, streamed)
        table = summary_table(results, self.deadline_ns is not None, html_notes=False)
        note = emulated_note(runs, html_form=False)
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
