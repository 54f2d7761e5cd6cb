"""The one table writer: every format, its escaping rule, machine and human cells."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from latmon.tables import Cell, Column, Table, fmt, plain, render


def table() -> Table:
    t = Table([Column("name", "name", "l"), Column("value", "p99_9 %"), Column("ci", "CI")])
    t.add({"name": "a|b_c <x> & #1", "value": 12345, "ci": Cell("[1, —]", "1;")})
    t.add({"name": "plain", "value": Fraction(5, 2), "ci": None}, "damaged")
    return t


def test_terminal_aligns_and_escapes_nothing() -> None:
    lines = render(table(), "terminal").splitlines()
    assert lines[0].startswith("name") and lines[1].startswith("----")
    assert "a|b_c <x> & #1" in lines[2] and lines[2].rstrip().endswith("[1, —]")
    assert lines[2].index("12,345") + len("12,345") == lines[3].index("2.5") + len("2.5")


def test_markdown_escapes_every_cell_and_heading() -> None:
    text = render(table(), "markdown")
    assert "a\\|b\\_c \\<x\\> & \\#1" in text and "p99\\_9 %" in text
    assert text.splitlines()[1] == "|---|---:|---:|"
    assert all(line.count(" | ") == 2 for line in text.splitlines() if line.startswith("| "))


def test_latex_html_and_csv() -> None:
    tex = render(table(), "latex")
    assert "a|b\\_c <x> \\& \\#1" in tex and "p99\\_9 \\%" in tex and "---" in tex
    html = render(table(), "html")
    assert "a|b_c &lt;x&gt; &amp; #1" in html and '<tr class="damaged">' in html
    rows = list(csv.reader(io.StringIO(render(table(), "csv"))))
    assert rows == [
        ["name", "value", "ci"],
        ["a|b_c <x> & #1", "12345", "1;"],
        ["plain", "2.5", ""],
    ]


def test_numbers() -> None:
    assert fmt(None) == "—" and fmt(float("nan")) == "—" and fmt(1234567) == "1,234,567"
    assert fmt(Fraction(1, 3)) == "0.3" and fmt(2.0) == "2" and plain(Fraction(7, 2)) == "3.5"
