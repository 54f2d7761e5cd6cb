"""`latmon ingest | stats | report`, the installed command, table-driven."""

from __future__ import annotations

import html as html_module
import io
import json
import math
import os
import pty
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.logformat import LogWriter
from latmon.inputs.runfile import read_run, write_run
from latmon.model import Run, Series
from latmon.tables import fmt

REQUIRED_KEYS = [
    "source",
    "series",
    "unit",
    "count",
    "min",
    "max",
    "mean",
    "median",
    "stdev",
    "jitter",
    "rsd_pct",
    "p50",
    "p90",
    "p99",
    "p99_9",
]


def make_log(path: Path, n: int = 500, seed: int = 1, **meta: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lat = rng.integers(2000, 80000, n)
    f = io.StringIO()
    w = LogWriter(f, source="latprobe", unit="ns", **meta)
    sid = w.series("cpu0", fields=("t", "latency"), cpu=0)
    for k, v in enumerate(lat):
        w.sample(sid, k * 1000, int(v))
    w.counters(sid, events=n, missed=0)
    w.close()
    path.write_text(f.getvalue())
    return lat


def damage(path: Path, line: int) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(" 1", " 7", 1)
    path.write_text("".join(lines))


def run(cli: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(cli), *args], capture_output=True, text=True, cwd=cwd, check=False, timeout=120
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    make_log(tmp_path / "good.log", scenario="idle")
    make_log(tmp_path / "bad.log")
    damage(tmp_path / "bad.log", 20)
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "hostile.log").write_text("")
    make_log(tmp_path / "hostile.log", scenario="<script>alert(1)</script>", host='x" onload="y')
    return tmp_path


CASES = [
    # name, args, exit code, stdout pattern, stderr pattern
    ("stats table", ["stats", "good.log"], 0, r"idle\s+cpu0\s+500(?s:.*)values in ns", r"^$"),
    ("stats json", ["stats", "--json", "good.log"], 0, r'"p99_9"', r"^$"),
    ("stats damaged", ["stats", "bad.log"], 2, r"^$", r"bad\.log:20: CRC mismatch"),
    (
        "stats keep-going",
        ["stats", "--keep-going", "bad.log"],
        3,
        r"cpu0 \[DAMAGED\]\s+499",
        r"bad\.log: line 20: CRC mismatch.*cover only its valid records",
    ),
    ("stats missing", ["stats", "nope.log"], 2, r"^$", r"nope\.log: no such file"),
    ("stats not a log", ["stats", "notes.txt"], 2, r"^$", r"notes\.txt:1: unrecognised format"),
    ("stats no args", ["stats"], 2, r"^$", r"Missing argument 'FILES"),
    ("stats bad format", ["stats", "--format", "csv", "good.log"], 2, r"^$", r"Invalid value"),
    (
        "ingest",
        ["ingest", "good.log", "-o", "runs"],
        0,
        r"wrote runs/good\.parquet \(1 series, 500",
        r"^$",
    ),
    ("ingest needs -o", ["ingest", "good.log"], 2, r"^$", r"Missing option '-o'"),
    (
        "ingest bad meta",
        ["ingest", "good.log", "-o", "runs", "--meta", "env.hypervisor"],
        2,
        r"^$",
        r"--meta.*'env\.hypervisor': write KEY=VALUE",
    ),
    ("report", ["report", "good.log", "-o", "r.html"], 0, r"r\.html", r"^$"),
    ("report damaged", ["report", "bad.log", "-o", "r.html"], 2, r"^$", r"bad\.log:20"),
    ("report no output", ["report", "good.log"], 2, r"^$", r"nothing to write: give -o"),
    (
        "report missing notes",
        ["report", "good.log", "-o", "r.html", "--notes", "none.txt"],
        2,
        r"^$",
        r"--notes.*none\.txt",
    ),
    (
        "report bad deadline",
        ["report", "good.log", "-o", "r.html", "--deadline", "x"],
        2,
        r"^$",
        r"--deadline",
    ),
]


@pytest.mark.parametrize(("name", "args", "code", "out", "err"), CASES, ids=[c[0] for c in CASES])
def test_cli(latmon_cli: Path, work: Path, name: str, args, code, out, err) -> None:
    proc = run(latmon_cli, *args, cwd=work)
    assert proc.returncode == code, proc.stderr
    assert re.search(out, proc.stdout, re.S), proc.stdout
    assert re.search(err, proc.stderr, re.S | re.M), proc.stderr
    assert "Traceback" not in proc.stderr


def test_stats_json_matches_numpy(latmon_cli: Path, tmp_path: Path) -> None:
    lat = make_log(tmp_path / "a.log", n=2000, seed=4)
    proc = run(latmon_cli, "stats", "--json", "a.log", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert list(row)[: len(REQUIRED_KEYS)] == REQUIRED_KEYS
    assert (row["source"], row["series"], row["unit"]) == ("latprobe", "cpu0", "ns")
    f = lat.astype(float)
    assert row["count"] == 2000 and row["min"] == lat.min() and row["max"] == lat.max()
    assert row["mean"] == pytest.approx(f.mean(), rel=1e-12)
    assert row["median"] == np.median(f)
    assert row["stdev"] == pytest.approx(f.std(ddof=1), rel=1e-12)
    assert row["jitter"] == pytest.approx(max(f.max() - f.mean(), f.mean() - f.min()), rel=1e-12)
    assert row["rsd_pct"] == pytest.approx(100 * f.std(ddof=1) / f.mean(), rel=1e-12)
    for key, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99_9", 0.999)):
        assert row[key] == np.quantile(lat, q, method="inverted_cdf")


def test_keep_going_json_marks_damage(latmon_cli: Path, work: Path) -> None:
    proc = run(latmon_cli, "stats", "--json", "--keep-going", "bad.log", cwd=work)
    assert proc.returncode == 3
    (row,) = json.loads(proc.stdout)
    assert row["damaged"] is True and row["count"] == 499
    assert any("CRC mismatch" in p for p in row["problems"])


def test_ingest_adds_what_the_log_cannot_know(latmon_cli: Path, work: Path) -> None:
    """A board's log does not know the hypervisor or the pinning: --meta records them."""
    proc = run(
        latmon_cli, "ingest", "good.log", "-o", "runs", "--meta", "env.hypervisor=Xen 4.17.3",
        "--meta", "env.vcpu_pinning=domu v0->p2 (hard 2)", cwd=work,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    meta = read_run(work / "runs" / "good.parquet").meta
    assert meta["env.hypervisor"] == "Xen 4.17.3"
    assert meta["env.vcpu_pinning"] == "domu v0->p2 (hard 2)"
    assert meta["source"] == "latprobe"  # the log's own metadata is kept


def test_ingest_then_stats_agree(latmon_cli: Path, work: Path) -> None:
    assert run(latmon_cli, "ingest", "good.log", "-o", "runs", cwd=work).returncode == 0
    again = run(latmon_cli, "ingest", "good.log", "-o", "runs", cwd=work)
    assert again.returncode == 2 and "exists; give --force" in again.stderr
    assert run(latmon_cli, "ingest", "--force", "good.log", "-o", "runs", cwd=work).returncode == 0
    a = json.loads(run(latmon_cli, "stats", "--json", "good.log", cwd=work).stdout)
    b = json.loads(run(latmon_cli, "stats", "--json", "runs/good.parquet", cwd=work).stdout)
    for x, y in zip(a, b, strict=True):
        assert {k: x[k] for k in REQUIRED_KEYS} == {k: y[k] for k in REQUIRED_KEYS}
        # the run file is streamed, the log read whole: every other key agrees too
        assert {k: v for k, v in x.items() if k != "file"} == {
            k: v for k, v in y.items() if k != "file"
        }


def test_stats_json_adds_intervals_tail_percentiles_and_deadline(
    latmon_cli: Path, tmp_path: Path
) -> None:
    lat = make_log(tmp_path / "a.log", n=5000, seed=9)
    proc = run(latmon_cli, "stats", "--json", "--deadline", "40us", "a.log", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    ordered = np.sort(lat)
    assert row["p99_99"] == ordered[math.ceil(0.9999 * 5000) - 1]
    assert row["p99_999"] == ordered[-1]
    assert row["confidence"] == 0.95
    # 95 % interval of the median of 5000: ranks 2431 and 2570 (B(5000, 0.5) quantiles, which
    # the normal approximation 2500 -+ 1.96 * sqrt(1250) = 2430.7 .. 2569.3 confirms)
    assert row["p50_ci"] == [ordered[2430], ordered[2569]]
    assert row["p99_999_ci"][1] is None  # 5000 samples cannot bound the 1e-5 tail from above
    above = int(np.count_nonzero(lat > 40_000))
    assert row["above_deadline"] == above and row["deadline"] == 40_000
    assert row["margin"] == 40_000 - int(lat.max())
    assert row["verdict"] == ("pass" if above == 0 else "FAIL")
    table = run(latmon_cli, "stats", "--deadline", "40us", "a.log", cwd=tmp_path)
    assert "p99 CI" in table.stdout and "verdict" in table.stdout
    bad = run(latmon_cli, "stats", "--deadline", "soon", "a.log", cwd=tmp_path)
    assert bad.returncode == 2 and "--deadline" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize(("step", "width"), [(10_007, 100), (1_000_003, 120)])
def test_stats_table_fits_a_terminal_and_wide_has_every_column(
    latmon_cli: Path, tmp_path: Path, step: int, width: int
) -> None:
    """The default terminal table: run, series, n, min, p50, p99 with its interval, max (the
    verdict with a deadline), legend included, within 100 columns for latencies in the tens of
    µs, 120 in ms (exact ns: 3,089,027); --wide: every column, the same figures."""
    f = io.StringIO()
    w = LogWriter(f, source="t", unit="ns", scenario="stress-hackbench-rt")
    lat = np.random.default_rng(5).integers(2_000, 90_000, 20_000)
    for cpu in range(4):
        w.samples(w.series(f"cpu{cpu}", cpu=cpu), (lat + step * cpu).tolist())
    w.close()
    (tmp_path / "a-rather-long-run-file-name-from-a-campaign.log").write_text(f.getvalue())
    name = "a-rather-long-run-file-name-from-a-campaign.log"
    for extra in ([], ["--deadline", "1ms"]):
        compact = run(latmon_cli, "stats", *extra, name, cwd=tmp_path)
        assert compact.returncode == 0, compact.stderr
        lines = compact.stdout.splitlines()
        assert max(len(x) for x in lines) <= width, compact.stdout
        heading = lines[0].split()
        want = ["run", "series", "n", "min", "p50", "p99", "p99", "CI", "max"]
        assert heading == want + (["verdict"] if extra else [])
        assert "values in ns" in compact.stdout and "--wide" in compact.stdout
    wide = run(latmon_cli, "stats", "--wide", "--deadline", "1ms", name, cwd=tmp_path)
    heading = wide.stdout.splitlines()[0].split()
    for key in ("unit", "res", "mean", "median", "stdev", "jitter", "rsd%", "p99_999", "margin"):
        assert key in heading, key
    # the same figures in both: p99 of cpu3
    row = next(x for x in compact.stdout.splitlines() if "cpu3" in x).split("  ")
    wide_row = next(x for x in wide.stdout.splitlines() if "cpu3" in x)
    p99 = fmt(int(np.sort(lat + 3 * step)[math.ceil(0.99 * len(lat)) - 1]))
    assert p99 in [c.strip() for c in row] and f"  {p99}  " in wide_row
    md = run(latmon_cli, "stats", "--output-format", "markdown", name, cwd=tmp_path)
    assert "| stdev |" in md.stdout  # other formats: every column


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.external: list[str] = []
        self.scripts = 0
        self.images = 0
        self.alts: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "script":
            self.scripts += 1
        for key, value in attrs:
            if key in ("src", "href") and value and not value.startswith(("data:", "#")):
                self.external.append(value)
            if key.startswith("on"):
                self.external.append(f"{key}=")
        if tag == "img":
            self.images += 1
            self.alts.append(dict(attrs).get("alt") or "")

    def handle_data(self, data) -> None:
        self.text.append(data)


def exact_rows(section: str) -> list[list[str]]:
    """The cells of the HTML tables in ``section`` with their exact values: a latency cell shown
    in µs or ms keeps its exact ns in its tooltip ("12,345 ns")."""
    rows = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", section, re.S):
        row = []
        for attrs, text in re.findall(r"<t[hd]([^>]*)>(.*?)</t[hd]>", tr, re.S):
            exact = re.search(r'title="([^"]*) ns"', attrs)
            row.append(html_module.unescape(exact.group(1) if exact else text))
        rows.append(row)
    return rows


def test_report_is_self_contained_and_escaped(latmon_cli: Path, work: Path) -> None:
    proc = run(latmon_cli, "report", "good.log", "hostile.log", "-o", "out/r.html", cwd=work)
    assert proc.returncode == 0, proc.stderr
    html = (work / "out" / "r.html").read_text()
    scan = _Scan()
    scan.feed(html)
    assert scan.external == [] and scan.images == 0
    # plotly.js, the figures' template, one JSON spec per figure, the script that draws them:
    # all inline
    figures = re.findall(r'<div class="plot" id="figure-(\d+)" data-spec="spec-(\d+)"', html)
    # one measure: percentiles, exceedance, histogram, timeline; and per series the tail
    # extrapolated (500 uniform samples: i.i.d., bounded, enough for POT, not GEV)
    names = re.findall(r'data-name="([^"]+)"', html)
    tails = [n for n in names if n.startswith("tail-")]
    assert len(figures) == 4 + len(tails) and len(tails) == 2
    assert html.count("pWCET per activation") == 2
    assert scan.scripts == 1 + 1 + len(figures) + 1
    assert "plotly.js v" in html
    text = "".join(scan.text)
    assert "<script>alert(1)</script>" in text  # shown as text, not markup
    assert html.count("<script>alert(1)") == 0 and "&lt;script&gt;" in html


def test_report_shows_notes_verbatim_and_escaped(latmon_cli: Path, work: Path) -> None:
    (work / "notes.txt").write_text("T2 +314 cycles <b>not bold</b>\n  indented line\n")
    proc = run(latmon_cli, "report", "good.log", "-o", "r.html", "--notes", "notes.txt", cwd=work)
    assert proc.returncode == 0, proc.stderr
    html = (work / "r.html").read_text()
    assert (
        "<h2>Notes</h2><pre>T2 +314 cycles &lt;b&gt;not bold&lt;/b&gt;\n  indented line\n</pre>"
        in html
    )
    assert html.index("<h2>Verdict</h2>") < html.index("<h2>Notes</h2>")


def test_stage_series_get_their_own_report_section(latmon_cli: Path, tmp_path: Path) -> None:
    """latprobe --stages writes cpuN.stages beside cpuN: stats leave it out (it is a subset of
    cpuN), the report draws it as a stage table whose numbers are the columns' own."""
    stages = np.array([[3000, 1000, 500, 6000, 1500], [-200, 500, 100, 1600, 500]] * 50)
    f = io.StringIO()
    w = LogWriter(f, source="latprobe", unit="ns", stages="irq,handler,wakeup,sched,user")
    cpu = w.series("cpu0", fields=("t", "latency"), cpu=0)
    names = ("stage_irq", "stage_handler", "stage_wakeup", "stage_sched", "stage_user")
    st = w.series("cpu0.stages", fields=("t", "latency", *names), kind="stages", of="cpu0")
    for k, row in enumerate(stages):
        w.sample(cpu, k * 1000, int(row.sum()))
    w.sample(cpu, 100 * 1000, 99999)  # a wake-up without stages
    for k, row in enumerate(stages):
        w.sample(st, k * 1000, int(row.sum()), *map(int, row))
    w.counters(cpu, events=101, missed=0)
    w.counters(st, matched=100, no_start=0, no_expire=0, no_irq=0, no_waking=0, no_switch=1)
    w.close()
    (tmp_path / "stages.log").write_text(f.getvalue())

    stats = run(latmon_cli, "stats", "--json", "stages.log", cwd=tmp_path)
    assert stats.returncode == 0, stats.stderr
    assert [row["series"] for row in json.loads(stats.stdout)] == ["cpu0"]

    proc = run(latmon_cli, "report", "stages.log", "-o", "r.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "r.html").read_text()
    assert "Stages of the interrupt path" in html
    assert "decomposed 100 of 101 kept wake-ups (99.01 %); not decomposed: no_switch: 1" in html
    section = html[html.index("Stages of the interrupt path") :]
    rows = {row[0]: row[1:] for row in exact_rows(section[: section.index("</table>")])}
    # mean row: total, then each stage's mean, as computed here (exact ns in the tooltips)
    means = [stages.sum(axis=1).mean(), *stages.mean(axis=0)]
    assert rows["mean"] == [fmt(float(m)) for m in means]
    maxima = [stages.sum(axis=1).max(), *stages.max(axis=0)]
    assert rows["max"] == [fmt(int(m)) for m in maxima]
    # one measure of one series (no percentile figure), and the stage figure
    names = re.findall(r'data-name="([a-z]+)"', html)
    assert names == ["exceedance", "histogram", "timeline", "stages"]


def spike_log(path: Path) -> None:
    """A latprobe log with one explained spike on cpu1 (as latprobe --stages writes it) and the
    settings latprobe records."""
    f = io.StringIO()
    w = LogWriter(
        f,
        source="latprobe",
        unit="ns",
        scenario="busy <b>",
        interval_ns=1_000_000,
        policy="fifo",
        priority=95,
        mlock=1,
        dma_latency_us="none",
        dma_latency_note="--dma-latency none",
        stages="irq,handler,wakeup,sched,user",
        trace_missing="irq:softirq_entry",
    )
    cpu = w.series("cpu1", fields=("t", "latency"), cpu=1)
    spike = w.series(
        "cpu1.spike.1",
        fields=("latency", "stage", "holder", "id", "prio", "first"),
        kind="spike",
        of="cpu1",
        cpu=1,
        rank=1,
        t=2_000_000,
        latency=802_000,
        cause="preempted",
        **{"class": "scheduler"},
        why="802.0 us late: busy (pid 900, rt 99) held the CPU for 796.0 us (sched stage): <x>",
        stage_result="ok",
        stage_irq=2000,
        stage_handler=1000,
        stage_wakeup=500,
        stage_sched=796500,
        stage_user=2000,
        switch_traced=1,
        who0="busy",
        who1="local_timer",
        who2="latprobe",
    )
    w.sample(cpu, 1_000_000, 20_000)
    w.sample(cpu, 2_000_000, 802_000)
    w.sample(spike, 796_000, 3, 2, 900, 0, 4000)
    w.sample(spike, 4_000, 1, 4, 8, -32768, 2000)
    w.sample(spike, 2_000, 4, 0, 700, -32768, 800_000)
    w.counters(spike, other_ns=0, events=9, silence_ns=796_000)
    w.close()
    path.write_text(f.getvalue())


def test_report_says_why_the_spikes_were_slow(latmon_cli: Path, tmp_path: Path) -> None:
    """The spike series are left out of stats and shown in the report: the settings of the run,
    and a row per spike with its stages, contributors and the why (escaped)."""
    spike_log(tmp_path / "spike.log")
    stats = run(latmon_cli, "stats", "--json", "spike.log", cwd=tmp_path)
    assert stats.returncode == 0, stats.stderr
    assert [row["series"] for row in json.loads(stats.stdout)] == ["cpu1"]
    proc = run(
        latmon_cli, "report", "spike.log", "-o", "r.html", "--markdown", "r.md", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "r.html").read_text()
    settings = html[html.index("How each run measured") :]
    # the first column is the row's header (kept in view when the table scrolls)
    row = (
        '<th scope="row" class="key l">busy &lt;b&gt;</th><td class="l">latprobe</td>'
        '<td class="l">1,000 µs</td><td class="l">fifo 95</td><td class="l">yes</td>'
        '<td class="l">untouched (--dma-latency none)</td>'
        '<td class="l">stages and spikes (tracefs); this kernel lacks irq:softirq_entry</td>'
    )
    assert row in settings
    why = html[html.index("Why were the spikes slow") :]
    cells = [
        "cpu1",
        "0.002000",
        "802",
        "preempted",
        "scheduler",
        "irq 2 / handler 1 / wakeup 0.5 / sched 796.5 / user 2",
        "busy (pid 900, rt 99) 796 (sched); interrupt local_timer 4 (handler); latprobe 2 (user)",
        "802.0 us late: busy (pid 900, rt 99) held the CPU for 796.0 us (sched stage): &lt;x&gt;",
    ]
    expected = f'<th scope="row" class="key l">{cells[0]}</th>' + "".join(
        ("<td>" if i in (1, 2) else '<td class="l">') + f"{c}</td>"
        for i, c in enumerate(cells)
        if i
    )
    assert expected in why
    assert "<x>" not in html
    md = (tmp_path / "r.md").read_text()
    assert "### Why were the spikes slow (the worst of each CPU)" in md
    assert "| busy \\<b\\> | cpu1 | 0.002000 | 802 | preempted | scheduler | 802.0 us late" in md


def test_report_figures_and_markdown(latmon_cli: Path, work: Path) -> None:
    proc = run(
        latmon_cli,
        "report",
        "good.log",
        "hostile.log",
        "--figures",
        "figs",
        "--figure-format",
        "svg",
        "--markdown",
        "-",
        "--deadline",
        "40us",
        cwd=work,
    )
    assert proc.returncode == 0, proc.stderr
    figures = sorted((work / "figs").iterdir())
    # violins and exceedance of the configurations, a histogram and a timeline per series,
    # and the two tail figures
    assert [f.suffix for f in figures] == [".svg"] * (6 + 2)
    assert sum(f.stem.endswith("-tail") for f in figures) == 2
    assert all(f.read_bytes().lstrip().startswith(b"<?xml") for f in figures)
    assert not (work / "r.html").exists()  # no -o: no HTML written
    lines = [line for line in proc.stdout.splitlines() if line.startswith("| ")]
    assert lines[0].startswith("| run | series | n |") and lines[0].endswith("| verdict |")
    good = json.loads(run(latmon_cli, "stats", "--json", "good.log", cwd=work).stdout)[0]
    heads = lines[0].split(" | ")
    row = next(line for line in lines[1:] if "idle" in line).split(" | ")
    assert row[heads.index("n")] == f"{good['count']:,}"
    assert row[heads.index("min")] == f"{good['min']:,}"
    assert row[heads.index("p99")] == f"{good['p99']:,}"  # the same figures as latmon stats
    verdict = "pass" if good["max"] <= 40_000 else "FAIL"
    assert row[-1].rstrip(" |") == verdict
    # the hostile label cannot break the table or inject markup
    hostile = next(line for line in lines[1:] if "script" in line)
    assert "\\<script\\>" in hostile and hostile.count(" | ") == lines[0].count(" | ")
    md = run(latmon_cli, "report", "good.log", "--markdown", "out/s.md", cwd=work)
    assert md.returncode == 0 and (work / "out" / "s.md").read_text().startswith("## latmon")


def test_progress_bar_only_on_a_terminal(latmon_cli: Path, tmp_path: Path) -> None:
    n = 20_000_000  # commands.stats.PROGRESS_ROWS
    lat = np.full(n, 1000, dtype=np.int64)
    lat[-1] = 5000
    write_run(
        Run({"source": "t"}, [Series("c", "ns", columns={"latency": lat})]), tmp_path / "b.parquet"
    )
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [str(latmon_cli), "stats", "--json", "b.parquet"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=slave,
            check=False,
            timeout=120,
        )
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert b"b.parquet" in seen and b"100%" in seen  # the bar, on the terminal
    (row,) = json.loads(proc.stdout)
    assert row["count"] == n and row["max"] == 5000  # stdout is clean JSON
    piped = run(latmon_cli, "stats", "--json", "b.parquet", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""  # no bar when stderr is not a terminal


def test_ingest_json_and_read_options(latmon_cli: Path, tmp_path: Path) -> None:
    (tmp_path / "us.txt").write_text("12\n15\n11\n")
    proc = run(
        latmon_cli, "ingest", "--json", "--input-unit", "us", "us.txt", "-o", "runs", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)
    assert entry["file"] == "runs/us.parquet" and entry["samples"] == 3
    (row,) = json.loads(run(latmon_cli, "stats", "--json", "runs/us.parquet", cwd=tmp_path).stdout)
    assert (row["min"], row["max"]) == (11_000, 15_000)  # --input-unit us reached the reader


def test_report_compares_scenarios_like_latmon_compare(latmon_cli: Path, work: Path) -> None:
    proc = run(latmon_cli, "report", "good.log", "hostile.log", "-o", "r.html", cwd=work)
    assert proc.returncode == 0, proc.stderr
    html = (work / "r.html").read_text()
    section = html[html.index("<h3>Configurations compared</h3>") :]
    table = exact_rows(section[: section.index("</table>")])
    heads = [h.split(" (")[0] for h in table[0]]
    rows = json.loads(
        run(
            latmon_cli, "compare", "good.log", "hostile.log", "--output-format", "json", cwd=work
        ).stdout
    )
    assert len(rows) == 2 == len(table) - 1
    for row, cells in zip(rows, table[1:], strict=True):
        got = dict(zip(heads, cells, strict=True))
        assert got["n"] == fmt(row["n"]) and got["min"] == fmt(row["min"])
        assert got["p99"] == fmt(row["p99"]) and got["max"] == fmt(row["max"])
    assert dict(zip(heads, table[2], strict=True))["A12"] == f"{rows[1]['a12']:.3f}"
    single = run(latmon_cli, "report", "good.log", "-o", "one.html", cwd=work)
    assert single.returncode == 0
    assert "Configurations compared" not in (work / "one.html").read_text()  # one: no table
