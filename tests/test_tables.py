"""The one table writer: every format, its escaping rule, machine and human cells."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from latmon.tables import Cell, Column, Table, fmt, in_unit, plain, render, say_ns, unit_for


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


def latency_table() -> Table:
    t = Table(
        [
            Column("name", "series", "l"),
            Column("max", "max", unit="ns"),
            Column("ci", "p99 CI", unit="ns"),
            Column("n", "n"),
        ]
    )
    t.add({"name": "fast", "max": 520, "ci": Cell.made_of("[{0}, {1}]", 500, None), "n": 50})
    t.add({"name": "slow", "max": 40_271_770, "ci": Cell.made_of("≥{0}", 2_500_133), "n": 9})
    return t


def test_html_shows_each_latency_column_in_the_unit_that_fits_it() -> None:
    html = render(latency_table(), "html")
    assert html.startswith('<div class="table-scroll"><table><thead>')
    assert '<th scope="col" class="key l">series</th>' in html
    assert ">max (ms)</th>" in html and ">p99 CI (µs)</th>" in html and ">n</th>" in html
    # four significant digits, the exact ns in the tooltip
    assert '<td title="520 ns">0.000520</td>' in html
    assert '<td title="40,271,770 ns">40.27</td>' in html
    assert '<td title="[500, —] ns">[0.500, —]</td>' in html
    assert '<td title="≥2,500,133 ns">≥2,500</td>' in html
    assert "<td>50</td>" in html  # not a latency: unchanged
    # every other format keeps exact ns
    assert "40,271,770" in render(latency_table(), "markdown")
    assert "40271770" in render(latency_table(), "csv")
    assert "40,271,770" in render(latency_table(), "terminal")


def test_units_and_spoken_values() -> None:
    assert unit_for(9_999) == ("ns", 1) and unit_for(10_000) == ("µs", 1000)
    assert unit_for(9_999_999) == ("µs", 1000) and unit_for(10_000_000) == ("ms", 1_000_000)
    assert in_unit(31_370, 1000) == "31.37" and in_unit(1_282.8, 1000) == "1.283"
    assert in_unit(2_999_480, 1000) == "2,999" and in_unit(17, 1) == "17"
    assert say_ns(3_000_000) == "3 ms" and say_ns(2_969_000) == "2.969 ms"
    assert say_ns(520) == "520 ns" and say_ns(31_370) == "31.37 µs" and say_ns(None) == "—"
