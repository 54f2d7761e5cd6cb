"""The one table writer of latmon: every text table (``stats``, ``compare``, the report's HTML
and Markdown summaries) is a :class:`Table` rendered by :func:`render` in one of FORMATS.

Each format supplies its row, its divider and its one escaping rule (after hyperfine's
markup exporter): terminal text is aligned and unescaped, Markdown escapes ``\\ | ` * _ [ ] < >
#`` in every cell, LaTeX its ten special characters, HTML ``& < > "``, CSV quotes per RFC 4180.
Cells carry two texts: one for people (``12,345``, ``≥100,000``, ``—``) and one for machines
(``12345``, ``>=100000``, empty), used by CSV.

**Units per column (HTML).** A column whose values are latencies in ns says so
(``Column(unit="ns")``) and its cells keep their numbers (``Cell.numbers``, with the
``Cell.pattern`` they fill: ``≥{0}``, ``[{0}, {1}]``). The HTML format then shows the column in the
unit that fits its largest value — ns below 10 µs, µs below 10 ms, else ms — named in the heading
(``max (µs)``), with four significant digits, and keeps the exact ns in each cell's tooltip. Every
other format (terminal, Markdown, CSV, LaTeX) writes exact ns. HTML tables come inside a
``<div class="table-scroll">`` (a table wider than the page scrolls inside it, never the page),
the first column marked ``class="key"`` for a sticky first column.
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


Number = int | float | Fraction


@dataclass(frozen=True)
class Cell:
    """One table cell: ``text`` for people, ``plain`` for machines (CSV); for a number, or a
    text made of numbers, also the ``numbers`` and the ``pattern`` (``str.format`` fields) they
    fill, so that a renderer can show them in another unit."""

    text: str
    plain: str = ""
    numbers: tuple[Number | None, ...] = ()
    pattern: str = ""

    @staticmethod
    def of(value: object, digits: int = 1) -> Cell:
        """A number (int, float, Fraction; None/NaN: an em dash) or text."""
        if isinstance(value, Cell):
            return value
        if isinstance(value, int | float | Fraction) and not isinstance(value, bool):
            return Cell(fmt(value, digits), plain(value), (value,), "{0}")
        return Cell(fmt(value, digits), plain(value))

    @staticmethod
    def made_of(
        pattern: str, *numbers: Number | None, plain_text: str = "", digits: int = 1
    ) -> Cell:
        """A text of numbers, e.g. ``Cell.made_of("[{0}, {1}]", lo, hi)`` or ``("≥{0}", b)``;
        ``digits`` decimals for those that are not whole."""
        text = pattern.format(*(fmt(n, digits) for n in numbers))
        return Cell(text, plain_text, numbers, pattern)


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
    #: "ns" when the values are latencies in ns (HTML shows them in a unit that fits)
    unit: str = ""
    #: what the column means (HTML: the heading's tooltip)
    title: str = ""
    #: the CSV header, when not the key (keys must be unique; a query's column names need not)
    csv_name: str = ""


#: Display units of latencies in ns: name, ns per unit, the largest value shown in it.
UNITS_NS = (("ns", 1, 10_000), ("µs", 1_000, 10_000_000), ("ms", 1_000_000, None))


def unit_for(largest_ns: float) -> tuple[str, int]:
    """The unit (name, ns per unit) that shows ``largest_ns`` with at most four integer digits
    (ms above that)."""
    for name, factor, below in UNITS_NS:
        if below is None or abs(largest_ns) < below:
            return name, factor
    raise AssertionError("unreachable")


def in_unit(value: Number, factor: int) -> str:
    """A latency in ns shown in a unit of ``factor`` ns: four significant digits, no more
    decimals than the ns it came from (ns: as :func:`fmt`)."""
    if factor == 1:
        return fmt(value)
    x = float(value) / factor
    if x == 0 or not math.isfinite(x):
        return fmt(x)
    decimals = max(0, 3 - math.floor(math.log10(abs(x))))
    decimals = min(decimals, round(math.log10(factor)))
    return f"{x:,.{decimals}f}"


def say_ns(value: Number | None) -> str:
    """A latency in ns as people say it: in the largest unit it is at least one of, trailing
    zeros dropped (3 ms, 2.969 ms, 31.37 µs, 520 ns)."""
    if value is None:
        return "—"
    v = float(value)
    unit, factor = next(
        ((name, f) for name, f, _ in reversed(UNITS_NS) if abs(v) >= f), UNITS_NS[0][:2]
    )
    text = in_unit(v, factor)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text} {unit}"


def _column_unit(column: Column, cells: list[Cell]) -> tuple[str, int]:
    values = [
        float(n)
        for cell in cells
        for n in cell.numbers
        if n is not None and math.isfinite(float(n))
    ]
    return unit_for(max((abs(v) for v in values), default=0.0))


def _scaled(cell: Cell, factor: int) -> str:
    if not cell.numbers or factor == 1:
        return cell.text
    texts = ["—" if n is None else in_unit(n, factor) for n in cell.numbers]
    return cell.pattern.format(*texts)


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
        writer.writerow([c.csv_name or c.key for c in cols])
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
        return _html(table, grid)
    raise ValueError(f"unknown table format {fmt_name!r}; choose one of {', '.join(FORMATS)}")


def _html(table: Table, grid: list[list[Cell]]) -> str:
    """The table in a scrolling container; latency columns in the unit that fits them."""
    cols = table.columns
    units = [
        _column_unit(c, [cells[i] for cells in grid]) if c.unit == "ns" else ("", 1)
        for i, c in enumerate(cols)
    ]

    def attr(i: int, c: Column) -> str:
        classes = [x for x in ("key" if i == 0 else "", "l" if c.align == "l" else "") if x]
        return f' class="{" ".join(classes)}"' if classes else ""

    head = []
    for i, (c, (unit, _)) in enumerate(zip(cols, units, strict=True)):
        title = f' title="{html.escape(c.title, quote=True)}"' if c.title else ""
        shown = f"{c.heading} ({unit})" if unit else c.heading
        head.append(f'<th scope="col"{attr(i, c)}{title}>{html.escape(shown)}</th>')
    body = []
    for cells, css in zip(grid, table.row_classes, strict=True):
        tds = []
        for i, (c, cell, (unit, factor)) in enumerate(zip(cols, cells, units, strict=True)):
            tag = 'th scope="row"' if i == 0 else "td"
            exact = ""
            if unit and factor != 1 and cell.numbers:
                exact = f' title="{html.escape(cell.text, quote=True)} ns"'
            text = html.escape(_scaled(cell, factor))
            tds.append(f"<{tag}{attr(i, c)}{exact}>{text}</{tag.split()[0]}>")
        cls = f' class="{html.escape(css)}"' if css else ""
        body.append(f"<tr{cls}>{''.join(tds)}</tr>")
    return (
        '<div class="table-scroll"><table>'
        f"<thead><tr>{''.join(head)}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def escape_markdown(text: str) -> str:
    """Text for Markdown outside a table (the same rule as in cells)."""
    return _md(text)
