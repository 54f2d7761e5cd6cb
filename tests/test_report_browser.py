"""The HTML report in a real browser: Debian's Chromium, headless, driven by Playwright (the
system browser; Playwright never downloads one).

The report of a mix like the demo's — an FPGA channel in 10 ns cycles, two paths of a SoC, and
this machine's wake-up latency with 10^6 samples per CPU — and, when ``make demo`` has written
it, the demo's own report, are loaded as a user would open them: no console error, no request
of anything (the file is self-contained), no page wider than the window at 1280 px, every figure
drawn with all its traces, and the interactions work: zoom into a spike, hover a value, hide a
series from the legend, switch an axis to linear. Screenshots for a person to look at are saved
in ``build/report-browser/``.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from latmon.inputs.logformat import LogWriter
from latmon.inputs.runfile import write_run
from latmon.model import Run, Series

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "report-browser"
DEMO_REPORT = ROOT / "out" / "demo" / "report.html"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: Chromium as root, offline: no sandbox (root), no GPU, nothing that reaches the network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api", reason="make setup installs it")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed; run 'make setup'")
    with playwright_api.sync_playwright() as p:
        # a fresh profile (Playwright's own temporary user-data-dir) on every launch
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _spiky(n: int, seed: int, spikes: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = np.arange(n, dtype=np.int64) * 1_000_000  # a 1 ms period
    lat = (rng.lognormal(np.log(25_000), 0.25, n)).astype(np.int64)
    where = rng.choice(n, spikes, replace=False)
    lat[where] = rng.integers(200_000, 4_500_000, spikes)
    return t, lat


def make_inputs(folder: Path, samples: int = 1_000_000) -> list[Path]:
    """A run file per wake-up scenario (latprobe-like, ``samples`` per CPU), a fabric channel
    and a SoC with two paths (latmon-log, cycles of 100 MHz)."""
    paths = []
    for scenario, seed in (("idle", 1), ("stress", 2)):
        series = []
        for cpu in range(2):
            t, lat = _spiky(samples, seed * 10 + cpu, 30)
            series.append(
                Series(f"cpu{cpu}", "ns", columns={"t": t, "latency": lat}, meta={"cpu": str(cpu)})
            )
        run = Run({"source": "latprobe", "scenario": scenario}, series)
        path = folder / f"{scenario}.parquet"
        write_run(run, path)
        paths.append(path)
    f = io.StringIO()
    w = LogWriter(f, source="latmon_core-sim", unit="cycles", clock_hz=100_000_000, scenario="fpga")
    core = w.series("core0", channel=0)
    rng = np.random.default_rng(3)
    for v in rng.integers(52, 3200, 5000):
        w.sample(core, int(v))
    w.close()
    (folder / "fabric.log").write_text(f.getvalue())
    paths.append(folder / "fabric.log")
    for case, extra in (("baseline", 0), ("isr-loop", 310)):
        f = io.StringIO()
        w = LogWriter(
            f, source="latmon-soc-suite", unit="cycles", clock_hz=100_000_000, scenario=case
        )
        t1 = w.series("T1", channel="timer-to-data-ready")
        t2 = w.series("T2", channel="data-ready-to-isr-read")
        for k in range(50):
            w.sample(t1, 52)
            w.sample(t2, 130 + extra + (k % 7) * 3)
        w.close()
        (folder / f"{case}.log").write_text(f.getvalue())
        paths.append(folder / f"{case}.log")
    return paths


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory, latmon_cli: Path) -> Path:
    folder = tmp_path_factory.mktemp("browser")
    inputs = make_inputs(folder)
    out = folder / "report.html"
    proc = subprocess.run(
        [latmon_cli, "report", *map(str, inputs), "-o", str(out), "--deadline", "3ms"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return out


class Page:
    """A page opened as a user would, recording console messages and every request."""

    def __init__(self, browser: Any, path: Path, width: int, height: int = 800) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.console: list[str] = []
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)
        self.page.wait_for_function(
            "document.documentElement.getAttribute('data-figures') === 'done'", timeout=180_000
        )

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.console.append(f"{message.type}: {message.text}")

    def fits(self) -> bool:
        """Nothing wider than the window: the page never scrolls sideways."""
        return bool(self.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))

    def close(self) -> None:
        self.page.close()


FIGURES_DRAWN = """() => Array.from(document.querySelectorAll('div.plot')).map(div => ({
    name: div.dataset.name,
    spec: JSON.parse(document.getElementById(div.dataset.spec).textContent).data.length,
    traces: div.data ? div.data.length : -1,
    shown: div._fullData ? div._fullData.filter(t => t.visible === true).length : -1,
    drawn: div.querySelectorAll('.scatterlayer .trace').length,
    svg: div.querySelectorAll('svg.main-svg').length,
    height: div.getBoundingClientRect().height,
    grid: div._fullLayout ? div._fullLayout.xaxis.gridcolor : '',
}))"""

#: The grid colour of the template the page carries once for every figure (plotly_white's, not
#: plotly.js's default #eee): each figure was drawn with it.
TEMPLATE_GRID = "#EBF0F8"


def check_page(p: Page) -> list[dict[str, Any]]:
    """The checks every report passes; returns what each figure drew."""
    assert p.console == [], p.console
    assert p.failed == [], p.failed
    assert set(p.requests) == {p.url}, "the report must need nothing but itself"
    state = p.page.evaluate("window.latmonFigures")
    figures = p.page.evaluate(FIGURES_DRAWN)
    assert state["errors"] == [] and state["rendered"] == state["total"] == len(figures) > 0
    for f in figures:
        assert f["traces"] == f["spec"] and f["svg"] >= 1 and f["height"] > 200, f
        assert f["drawn"] == f["shown"] > 0, f  # every shown trace has its SVG group
        assert f["grid"].upper() == TEMPLATE_GRID, f
    return figures


def test_report_loads_fits_and_draws_every_figure(browser: Any, report: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 1920):
        p = Page(browser, report, width)
        figures = check_page(p)
        assert p.fits(), f"the page is wider than {width} px"
        names = {f["name"] for f in figures}
        assert {"percentiles", "exceedance", "histogram", "timeline"} <= names
        if width == 1280:
            p.page.screenshot(path=str(SHOTS / "generated-first-screen-1280.png"))
        p.close()


def test_width_check_catches_a_table_wider_than_the_page(browser: Any, report: Path) -> None:
    """The check above can fail: a table outside its scroll box makes the page too wide."""
    p = Page(browser, report, 1280)
    assert p.fits()
    p.page.evaluate(
        """() => { const t = document.querySelector('.table-scroll table').cloneNode(true);
                   t.style.minWidth = '2000px'; document.body.appendChild(t); }"""
    )
    assert not p.fits()
    p.close()


def test_first_screen_answers_the_question(browser: Any, report: Path) -> None:
    """Verdict, the configurations that miss the deadline, and units scaled per column."""
    p = Page(browser, report, 1280)
    top = p.page.evaluate(
        """() => Array.from(document.querySelectorAll('#verdict > *'))
              .filter(e => e.getBoundingClientRect().top < window.innerHeight)
              .map(e => e.innerText).join('\\n')"""
    )
    assert "Deadline 3 ms" in top and "miss it" in top
    assert "wake-up latency, timer expiry → user thread" in top
    heads = p.page.evaluate(
        "Array.from(document.querySelectorAll('#verdict thead th')).map(th => th.innerText)"
    )
    assert "worst (max) (µs)" in heads and "worst (max) (ns)" in heads
    # the exact value stays in the tooltip of a scaled cell
    title = p.page.evaluate("document.querySelector('#verdict tbody td[title]').title")
    assert title.endswith(" ns") and "," in title
    p.close()


def _timeline(p: Page) -> str:
    index = p.page.evaluate(
        """() => Array.from(document.querySelectorAll('div.plot'))
               .findIndex(d => d.dataset.name === 'timeline' && d.data.length >= 8)"""
    )
    assert index >= 0
    return f"div.plot >> nth={index}"


def test_zoom_into_a_spike_hover_it_and_switch_axes(browser: Any, report: Path) -> None:
    """A user drags a box around the largest spike of a 10^6-sample series: the plot zooms in,
    the spike is still drawn with its exact value, hovering it shows that value."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    p = Page(browser, report, 1280, 900)
    selector = _timeline(p)
    plot = p.page.locator(selector)
    plot.scroll_into_view_if_needed()
    spike = p.page.evaluate(
        """(sel) => { const div = document.querySelectorAll('div.plot')[sel];
             let best = null;
             div._fullData.forEach((tr, i) => { if (tr.mode !== 'markers') return;
               const xs = Array.from(tr.x), ys = Array.from(tr.y);
               ys.forEach((y, k) => { if (!best || y > best.y) best = {i, k, x: xs[k], y}; }); });
             const xa = div._fullLayout.xaxis, ya = div._fullLayout.yaxis;
             const r = div.getBoundingClientRect();
             best.px = r.left + xa._offset + xa.l2p(best.x);
             best.py = r.top + ya._offset + ya.l2p(best.y);
             best.x0 = r.left + xa._offset; best.x1 = best.x0 + xa._length;
             return best; }""",
        int(selector.rsplit("=", 1)[1]),
    )
    # drag a narrow box around the spike (plotly's default drag mode: zoom)
    mouse = p.page.mouse
    mouse.move(max(spike["px"] - 12, spike["x0"] + 1), spike["py"] - 15)
    mouse.down()
    mouse.move(spike["px"] + 6, spike["py"] + 40, steps=8)
    mouse.move(min(spike["px"] + 12, spike["x1"] - 1), spike["py"] + 60, steps=4)
    mouse.up()
    p.page.wait_for_timeout(600)
    layout = p.page.evaluate(
        """(sel) => { const l = document.querySelectorAll('div.plot')[sel]._fullLayout;
             return {x: l.xaxis.range, y: l.yaxis.range}; }""",
        int(selector.rsplit("=", 1)[1]),
    )
    full_span = p.page.evaluate(
        """(sel) => { const div = document.querySelectorAll('div.plot')[sel];
             const xs = Array.from(div._fullData[0].x); return xs[xs.length - 1] - xs[0]; }""",
        int(selector.rsplit("=", 1)[1]),
    )
    lo, hi = layout["x"]
    assert lo <= spike["x"] <= hi and (hi - lo) < full_span / 20, (layout, spike)
    # the spike, where it is now drawn, answers a hover with its value
    spike_now = p.page.evaluate(
        """([sel, x, y]) => { const div = document.querySelectorAll('div.plot')[sel];
             const xa = div._fullLayout.xaxis, ya = div._fullLayout.yaxis;
             const r = div.getBoundingClientRect();
             return [r.left + xa._offset + xa.l2p(x), r.top + ya._offset + ya.l2p(y)]; }""",
        [int(selector.rsplit("=", 1)[1]), spike["x"], spike["y"]],
    )
    mouse.move(spike_now[0], spike_now[1], steps=3)
    p.page.wait_for_timeout(400)
    hover = plot.locator(".hovertext").evaluate_all("els => els.map(e => e.textContent)")
    assert hover, "no hover label on the spike"
    value = f"{spike['y']:,.6g}".rstrip("0").rstrip(".")
    assert any(value.split(".")[0] in h for h in hover), (hover, spike)
    plot.screenshot(path=str(SHOTS / "timeline-zoomed-spike.png"))
    # log/linear: the y axis switch
    plot.get_by_text("y: log").click()
    p.page.wait_for_timeout(300)
    axis = p.page.evaluate(
        "(sel) => document.querySelectorAll('div.plot')[sel]._fullLayout.yaxis.type",
        int(selector.rsplit("=", 1)[1]),
    )
    assert axis == "log"
    assert p.console == []
    p.close()


def test_legend_hides_a_series(browser: Any, report: Path) -> None:
    p = Page(browser, report, 1280)
    index = p.page.evaluate(
        """() => Array.from(document.querySelectorAll('div.plot'))
               .findIndex(d => d.dataset.name === 'exceedance' && d.data.length === 2)"""
    )
    plot = p.page.locator(f"div.plot >> nth={index}")
    plot.scroll_into_view_if_needed()
    box = plot.locator(".legend .traces").first.bounding_box()
    assert box is not None
    # a click (plotly waits its double-click delay before it acts on a single one)
    p.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # wait for the restyle rather than a fixed time (a loaded machine can take longer)
    p.page.wait_for_function(
        "(i) => document.querySelectorAll('div.plot')[i].data[0].visible !== undefined",
        arg=index,
        timeout=15_000,
    )
    visible = p.page.evaluate(
        "(i) => document.querySelectorAll('div.plot')[i].data.map(t => t.visible)", index
    )
    assert visible[0] == "legendonly" and visible[1] in (True, None)
    p.close()


@pytest.mark.skipif(not DEMO_REPORT.exists(), reason="make demo writes out/demo/report.html")
def test_demo_report_in_the_browser(browser: Any) -> None:
    """The demo's report (make demo runs before make test in CI): the same checks, and its
    first screen at 1280 and 1920 px saved for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 1920):
        p = Page(browser, DEMO_REPORT, width)
        check_page(p)
        assert p.fits(), f"the demo report is wider than {width} px"
        p.page.screenshot(path=str(SHOTS / f"demo-first-screen-{width}.png"))
        p.close()
    summary = {"report": str(DEMO_REPORT), "bytes": DEMO_REPORT.stat().st_size}
    (SHOTS / "demo-report.json").write_text(json.dumps(summary) + "\n")


def test_pdf_for_a_test_record(latmon_cli: Path, tmp_path: Path) -> None:
    """--pdf prints through the same headless Chromium once the figures are drawn."""
    inputs = make_inputs(tmp_path, samples=20_000)
    pdf = tmp_path / "record.pdf"
    proc = subprocess.run(
        [latmon_cli, "report", *map(str, inputs), "--pdf", str(pdf), "--deadline", "3ms"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert b"/Type /Page" in data or b"/Type/Page" in data
    assert len(data) > 50_000  # text and drawn figures, not an empty page
    missing = subprocess.run(
        [latmon_cli, "report", str(inputs[0]), "--pdf", str(tmp_path / "x.pdf")],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/nonexistent", "LATMON_CHROMIUM": "no-such-browser"},
    )
    assert missing.returncode == 2 and "--pdf needs Chromium" in missing.stderr
    assert len(missing.stderr.splitlines()) == 1


def test_open_hands_the_file_to_the_browser(latmon_cli: Path, tmp_path: Path) -> None:
    inputs = make_inputs(tmp_path, samples=2_000)
    seen = tmp_path / "opened.txt"
    fake = tmp_path / "browser.sh"
    fake.write_text(f'#!/bin/sh\necho "$1" > {seen}\n')
    fake.chmod(0o755)
    out = tmp_path / "r.html"
    env = {"PATH": "/usr/bin:/bin", "BROWSER": f"{fake} %s"}
    proc = subprocess.run(
        [latmon_cli, "report", str(inputs[0]), "-o", str(out), "--open"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert seen.read_text().strip() == out.resolve().as_uri()
    headless = subprocess.run(
        [latmon_cli, "report", str(inputs[0]), "-o", str(out), "--open"],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert headless.returncode == 0 and "no graphical session" in headless.stderr
    usage = subprocess.run(
        [latmon_cli, "report", str(inputs[0]), "--markdown", "-", "--open"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert usage.returncode == 2 and "--open needs the HTML report in a file" in usage.stderr
