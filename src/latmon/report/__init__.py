"""Reports: one renderer per output format over one set of data.

``data`` analyses the runs (every series' statistics, grouped by measure, the configurations
ranked); ``tables`` defines the tables both formats print; ``html`` writes the self-contained
HTML page (its style and script in ``assets``, its figures from :mod:`latmon.figures` and
:mod:`latmon.tail`); ``markdown`` writes the summary table as GitHub-flavoured Markdown (exact
ns), for CI logs and job summaries; ``browser`` opens the page or prints it to PDF.
"""

from __future__ import annotations

from latmon.report.data import ReportData, analyse, report_data
from latmon.report.html import HtmlReport
from latmon.report.markdown import MarkdownReport

__all__ = ["HtmlReport", "MarkdownReport", "ReportData", "analyse", "report_data"]
