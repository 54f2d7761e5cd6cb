"""What every section of the HTML report uses: the deadline, the notes, and the figures — each
interactive figure's spec collected for the page, its static versions written to figure_dir."""

from __future__ import annotations

import html
import re
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from latmon.errors import LatmonError
from latmon.figures import plotly_style
from latmon.output import write_bytes
from latmon.report.assets import StaticMaker

if TYPE_CHECKING:
    from matplotlib.figure import Figure as StaticFigure


class PageParts:
    """The state the sections share and the figure plumbing; :class:`latmon.report.html.HtmlReport`
    holds the fields (a dataclass), the section mixins read them."""

    deadline_ns: int | None
    notes: str
    figure_dir: Path | None
    figure_format: str
    written: list[Path]
    _specs: list[str]
    _withheld_deadline: int | None

    def _figure(self, fig: plotly_style.Figure | None, statics: StaticMaker | None = None) -> str:
        """An interactive figure (its spec in a JSON script element), and its static versions
        in figure_dir."""
        if fig is None:
            return ""
        if self.figure_dir is not None and statics is not None:
            for name, static in statics():
                self._write_static(static, name)
        n = len(self._specs) + 1
        self._specs.append(
            f'<script type="application/json" id="spec-{n}">{plotly_style.spec_json(fig)}</script>'
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
        write_bytes(path, plots().save(fig, self.figure_format))
        self.written.append(path)


def static_figure(name: str, fig: StaticFigure | None) -> list[tuple[str, StaticFigure]]:
    return [] if fig is None else [(name, fig)]


def plots() -> ModuleType:
    """The static figures (matplotlib), imported only when a report writes them (--figures):
    matplotlib's import is a good part of a report's start-up."""
    from latmon.figures import plots

    return plots
