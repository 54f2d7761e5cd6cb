"""The one table writer of latmon: every text table (``stats``, ``compare``, the report's HTML
and Markdown summaries) is a :class:`Table` rendered by :func:`render` in one of FORMATS.

Each format supplies its row, its divider and its one escaping rule (after hyperfine's
markup exporter): terminal text is aligned and unescaped, Markdown escapes ``\\ | ` * _ [ ] < >
#`` in every cell, LaTeX its ten special characters, HTML ``& < > "``, CSV quotes per RFC 4180.
Cells carry two texts: one for people (``12,345``, ``≥100,000``, ``—``) and one for machines
(``12345``, ``>=100000``, empty), used by CSV.
"""

from __future__ import annotations

import csv
import html
import io
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

FORMATS = ("terminal", "markdown", "csv", "latex", "html")


@dataclass(frozen=True)
class Cell:
    """One table cell: ``text`` for people, ``plain`` for machines (CSV)."""

    text: str
    plain: str = ""

    @staticmethod
    def of(value: object, digits: int = 1) -> Cell:
        """A number (int, float, Fraction; None/NaN: an em dash) or text."""
        if isinstance(value, Cell):
            return value
        return Cell(fmt(value, digits), plain(value))


def fmt(value: object, digits: int = 1) -> str:
    """A number for people: integers with thousands separators, others with ``digits``
    decimals, None and NaN as an em dash."""
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if not isinstance(value, int | float):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return "—"
    if float(value).is_integer() and abs(value) < 2**63:
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def plain(value: object) -> str:
    """A value for machines: full precision, no separators, empty for None/NaN."""
    if value is None:
        return ""
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return str(int(value)) if value.is_integer() and abs(value) < 2**63 else repr(value)
    return str(value)


@dataclass(frozen=True)
class Column:
    key: str
    heading: str
    #: "l" or "r"
    align: str = "r"


@dataclass
class Table:
    columns: list[Column]
    rows: list[dict[str, Cell]] = field(default_factory=list)
    #: per row, an optional CSS class (HTML only), e.g. "damaged"
    row_classes: list[str] = field(default_factory=list)

    def add(self, cells: dict[str, object], css: str = "") -> None:
        self.rows.append({k: Cell.of(v) for k, v in cells.items()})
        self.row_classes.append(css)


def _md(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("\n", " ")
    return re.sub(r"([|`*_\[\]<>#])", r"\\\1", text)


_TEX = {
    "\\": "\\textbackslash{}",
    "&": "\\&",
    "%": "\\%",
    "$": "\\$",
    "#": "\\#",
    "_": "\\_",
    "{": "\\{",
    "}": "\\}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
    "Δ": "$\\Delta$",
    "≥": "$\\geq$",
    "≤": "$\\leq$",
    "—": "---",
    "±": "$\\pm$",
}


def _tex(text: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in text)


def render(table: Table, fmt_name: str) -> str:
    """The table as text in one of FORMATS."""
    cols = table.columns
    empty = Cell("", "")
    grid = [[row.get(c.key, empty) for c in cols] for row in table.rows]
    if fmt_name == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([c.key for c in cols])
        for cells in grid:
            writer.writerow([cell.plain for cell in cells])
        return out.getvalue()
    if fmt_name == "terminal":
        texts = [[c.heading for c in cols]] + [[cell.text for cell in cells] for cells in grid]
        widths = [max(len(r[i]) for r in texts) for i in range(len(cols))]

        def line(items: list[str]) -> str:
            parts = [
                t.ljust(w) if c.align == "l" else t.rjust(w)
                for t, w, c in zip(items, widths, cols, strict=True)
            ]
            return "  ".join(parts).rstrip()

        lines = [line(texts[0]), "  ".join("-" * w for w in widths)]
        lines += [line(r) for r in texts[1:]]
        return "\n".join(lines) + "\n"
    if fmt_name == "markdown":
        lines = ["| " + " | ".join(_md(c.heading) for c in cols) + " |"]
        lines.append("|" + "|".join("---" if c.align == "l" else "---:" for c in cols) + "|")
        for cells in grid:
            lines.append("| " + " | ".join(_md(cell.text) for cell in cells) + " |")
        return "\n".join(lines) + "\n"
    if fmt_name == "latex":
        spec = "".join(c.align for c in cols)
        lines = [f"\\begin{{tabular}}{{{spec}}}"]
        lines.append(" & ".join(_tex(c.heading) for c in cols) + " \\\\ \\hline")
        for cells in grid:
            lines.append(" & ".join(_tex(cell.text) for cell in cells) + " \\\\")
        lines.append("\\end{tabular}")
        return "\n".join(lines) + "\n"
    if fmt_name == "html":

        def attr(c: Column) -> str:
            return " class=l" if c.align == "l" else ""

        head = "".join(f"<th{attr(c)}>{html.escape(c.heading)}</th>" for c in cols)
        body = []
        for cells, css in zip(grid, table.row_classes, strict=True):
            tds = "".join(
                f"<td{attr(c)}>{html.escape(cell.text)}</td>"
                for c, cell in zip(cols, cells, strict=True)
            )
            cls = f' class="{html.escape(css)}"' if css else ""
            body.append(f"<tr{cls}>{tds}</tr>")
        return f"<table><tr>{head}</tr>" + "".join(body) + "</table>"
    raise ValueError(f"unknown table format {fmt_name!r}; choose one of {', '.join(FORMATS)}")


def escape_markdown(text: str) -> str:
    """Text for Markdown outside a table (the same rule as in cells)."""
    return _md(text)
