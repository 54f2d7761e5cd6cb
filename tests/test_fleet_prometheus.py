"""latprobe's exporter scraped by a real Prometheus (Debian's), two simulated hosts under load.

One fleet run (module fixture, ~25 s): board-a measures 8 s; board-b measures 3 s, exits and is
started again on the same port (an exporter restart: its counters begin at 0 again) for 3 s
more; stress-ng loads the CPUs meanwhile. Each latprobe keeps serving its final counts after the
run (--metrics-linger) so that the last scrape holds every sample. Two Prometheus servers scrape
the same exporters every second: one stores classic histograms, one native (sparse) histograms
(--enable-feature=native-histograms; Prometheus 2.42 stores only the native one when a target
offers it).

Checked through the Prometheus HTTP API against latprobe's own log (latmon reads it):
- every classic bucket count equals the count of logged samples <= its bound (exact);
- histogram_quantile(0.99) on the classic buckets lies within one bucket of latmon's p99, and
  on the native histogram within one native bucket (~9 %);
- board-b's restart is one counter reset: resets() counts it and increase() spans both runs.
The PromQL-vs-latmon p99 table is written to build/notes/fleet-prometheus.md.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from prometheus_support import Prometheus, free_port

from latmon.inputs.readers.latmon_log import read_file
from latmon.inputs.runfile import read_run

PROBE = ["--policy", "other", "--no-mlock", "-i", "1ms", "--deadline", "200us"]
LINGER = "120s"  # ended by SIGTERM once the checks are done


@dataclass
class Probe:
    name: str
    proc: subprocess.Popen[str]
    log: Path
    stderr: Path

    def wait_measured(self, timeout: float = 60.0) -> None:
        """Until the run is over and its output written (latprobe then lingers)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if "serving the final metrics" in self.stderr.read_text():
                return
            if self.proc.poll() is not None:
                return
            time.sleep(0.1)
        raise AssertionError(f"{self.name}: the run did not end: {self.stderr.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)


def start_probe(
    latprobe: Path, tmp: Path, name: str, host: str, port: int, duration: str, linger: str
) -> Probe:
    log, err = tmp / f"{name}.log", tmp / f"{name}.err"
    args = [
        str(latprobe),
        *PROBE,
        "-D",
        duration,
        "-o",
        str(log),
        "--scenario",
        "fleet-test",
        "--metrics",
        f"127.0.0.1:{port}",
        "--metrics-label",
        f"host={host}",
        "--metrics-linger",
        linger,
    ]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err.open("w"), text=True)
    return Probe(name, proc, log, err)


def samples(log: Path) -> dict[str, np.ndarray]:
    """Latencies (ns) per CPU label of a latprobe log."""
    (run,) = read_file(log)
    return {
        s.meta["cpu"]: s.latency
        for s in run.series
        if s.name.startswith("cpu") and "." not in s.name
    }


@dataclass
class Fleet:
    classic: Prometheus
    native: Prometheus
    a: Probe
    b1: Probe
    b2: Probe
    b_port: int
    t_start: float
    notes: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def fleet(c_binary, tmp_path_factory) -> Iterator[Fleet]:
    latprobe = c_binary("latprobe")
    tmp = tmp_path_factory.mktemp("fleet")
    a_port, b_port = free_port(), free_port()
    targets = {"latprobe": [f"127.0.0.1:{a_port}", f"127.0.0.1:{b_port}"]}
    classic = Prometheus(tmp / "prom-classic", targets)
    native = Prometheus(tmp / "prom-native", targets, native_histograms=True)
    classic.wait_scraping(2)
    native.wait_scraping(2)
    t_start = time.time()
    load = None
    if shutil.which("stress-ng"):
        # In a session of its own, stopped as a group below: killing only stress-ng's parent
        # left its worker running at full load after the tests (seen: 13 minutes, orphaned).
        load = subprocess.Popen(
            ["stress-ng", "--cpu", "1", "--cpu-load", "60", "--timeout", "12s", "--quiet"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    a = start_probe(latprobe, tmp, "a", "board-a", a_port, "8s", LINGER)
    b1 = start_probe(latprobe, tmp, "b1", "board-b", b_port, "3s", "5s")
    b1.proc.wait(timeout=60)
    b2 = start_probe(latprobe, tmp, "b2", "board-b", b_port, "3s", LINGER)
    fl = Fleet(classic, native, a, b1, b2, b_port, t_start)
    try:
        a.wait_measured()
        b2.wait_measured()
        assert b1.proc.returncode == 0, b1.stderr.read_text()
        # the last scrape of every server sees the final counts
        for prom in (classic, native):
            for probe, host in ((a, "board-a"), (b2, "board-b")):
                want = {cpu: float(len(v)) for cpu, v in samples(probe.log).items()}
                prom.wait_until(
                    f'latmon_samples_total{{host="{host}"}}',
                    lambda r, want=want: (
                        {e["metric"]["cpu"]: float(e["value"][1]) for e in r} == want
                    ),
                )
        yield fl
    finally:
        for p in (a, b1, b2):
            p.stop()
        if load is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(load.pid, signal.SIGKILL)
            load.wait()
        classic.close()
        native.close()
        if fl.notes:
            out = Path(__file__).resolve().parent.parent / "build" / "notes"
            out.mkdir(parents=True, exist_ok=True)
            (out / "fleet-prometheus.md").write_text("\n".join(fl.notes) + "\n")


def latmon_p99(latmon_cli: Path, log: Path) -> dict[str, int]:
    """latmon's own nearest-rank p99 (ns) per CPU of a log."""
    out = subprocess.run(
        [str(latmon_cli), "stats", "--json", str(log)], capture_output=True, text=True, check=True
    )
    return {
        row["series"].removeprefix("cpu"): int(row["p99"])
        for row in json.loads(out.stdout)
        if "." not in row["series"]
    }


def le_ns(le: str) -> int:
    return round(float(le) * 1e9)


def check_counts_exact(fleet: Fleet) -> None:
    """Every classic bucket in Prometheus equals the logged samples at or below its bound."""
    for probe, host in ((fleet.a, "board-a"), (fleet.b2, "board-b")):
        logged = samples(probe.log)
        result = fleet.classic.query(f'latmon_latency_seconds_bucket{{host="{host}"}}')
        assert result, f"no buckets for {host}"
        for e in result:
            lat = logged[e["metric"]["cpu"]]
            le = e["metric"]["le"]
            want = len(lat) if le == "+Inf" else int(np.count_nonzero(lat <= le_ns(le)))
            assert int(e["value"][1]) == want, (host, e["metric"], want)
        over = fleet.classic.scalar_by(f'latmon_deadline_violations_total{{host="{host}"}}', "cpu")
        assert over == {cpu: float(np.count_nonzero(v > 200_000)) for cpu, v in logged.items()}
        native_count = fleet.native.scalar_by(
            f'histogram_count(latmon_latency_seconds{{host="{host}"}})', "cpu"
        )
        assert native_count == {cpu: float(len(v)) for cpu, v in logged.items()}


def check_p99_within_one_bucket(fleet: Fleet, latmon_cli: Path) -> None:
    """PromQL's histogram_quantile(0.99) against latmon's own p99 of the same samples."""
    fleet.notes += [
        "# PromQL p99 against latmon's p99, same run (tests/test_fleet_prometheus.py)",
        "",
        "| host | cpu | samples | latmon p99 (us) | classic bucket (us) | PromQL classic p99 (us) "
        "| PromQL native p99 (us) |",
        "|---|---|---|---|---|---|---|",
    ]
    for probe, host in ((fleet.a, "board-a"), (fleet.b2, "board-b")):
        own = latmon_p99(latmon_cli, probe.log)
        sel = f'{{host="{host}"}}'
        classic = fleet.classic.scalar_by(
            f"histogram_quantile(0.99, latmon_latency_seconds_bucket{sel})", "cpu"
        )
        native = fleet.native.scalar_by(
            f"histogram_quantile(0.99, latmon_latency_seconds{sel})", "cpu"
        )
        bounds = sorted(
            {
                le_ns(e["metric"]["le"])
                for e in fleet.classic.query(f"latmon_latency_seconds_bucket{sel}")
                if e["metric"]["le"] != "+Inf"
            }
        )
        n = {cpu: len(v) for cpu, v in samples(probe.log).items()}
        assert set(own) == set(classic) == set(native), (own, classic, native)
        for cpu, p99 in own.items():
            # classic: the bucket of latmon's p99 and the one PromQL interpolated in are at most
            # one apart (q*n and the nearest rank ceil(q*n) can straddle a bound)
            promql_ns = classic[cpu] * 1e9
            k_own = bisect.bisect_left(bounds, p99)
            k_promql = bisect.bisect_left(bounds, math.ceil(promql_ns - 0.5))
            assert abs(k_own - k_promql) <= 1, (host, cpu, p99, promql_ns, bounds)
            # native: schema 3 buckets, 2^(1/8) wide; at most one bucket apart
            ratio = math.log2(native[cpu] * 1e9 / p99) * 8
            assert abs(ratio) <= 2, (host, cpu, p99, native[cpu])
            lo = bounds[k_own - 1] if k_own > 0 else 0
            hi = bounds[k_own] if k_own < len(bounds) else math.inf
            fleet.notes.append(
                f"| {host} | {cpu} | {n[cpu]} | {p99 / 1e3:.1f} | ({lo / 1e3:g}, {hi / 1e3:g}] "
                f"| {promql_ns / 1e3:.1f} | {native[cpu] * 1e6:.1f} |"
            )


def check_restart_is_a_counter_reset(fleet: Fleet) -> None:
    """board-b restarted: its raw counter drops once; Prometheus counts one reset and increase()
    covers both runs (never a negative rate)."""
    b1 = {cpu: len(v) for cpu, v in samples(fleet.b1.log).items()}
    b2 = {cpu: len(v) for cpu, v in samples(fleet.b2.log).items()}
    sel = 'latmon_samples_total{host="board-b"}'
    raw = fleet.classic.api("query", query=f"{sel}[5m]")["result"]
    assert raw
    for series in raw:
        cpu = series["metric"]["cpu"]
        values = [int(float(v)) for _, v in series["values"]]
        drops = [i for i in range(1, len(values)) if values[i] < values[i - 1]]
        assert len(drops) == 1, values
        assert values[drops[0] - 1] == b1[cpu], (values, b1[cpu])  # b1's final count was scraped
        assert values[-1] == b2[cpu]
        fleet.notes.append(
            f"\nboard-b cpu{cpu}: raw counter {values[0]} .. {b1[cpu]} "
            f"then {values[drops[0]]} .. {b2[cpu]}"
        )
        first = values[0]
        assert first < b1[cpu], "board-b's first run was scraped while it measured"
        resets = fleet.classic.scalar_by(f"resets({sel}[5m])", "cpu")
        assert resets[cpu] == 1
        increase = fleet.classic.scalar_by(f"increase({sel}[5m])", "cpu")[cpu]
        # reset-corrected growth between the first and last scrape; extrapolation only adds,
        # and at most 1.1 average scrape intervals at each end (Prometheus's extrapolatedRate),
        # so the growth scaled by that is the upper bound
        growth = (b1[cpu] - first) + b2[cpu]
        times = [float(t) for t, _ in series["values"]]
        sampled = times[-1] - times[0]
        average = sampled / (len(times) - 1)
        assert increase >= growth - 1e-6
        assert increase <= growth * (sampled + 2 * 1.1 * average) / sampled + 1e-6, (
            increase,
            growth,
            sampled,
            average,
        )
        fleet.notes.append(
            f"resets() = 1, increase() = {increase:.0f} (runs: {b1[cpu]} + {b2[cpu]})"
        )
    lowest = fleet.classic.query(f"min_over_time(rate({sel}[5s])[2m:1s])")
    assert lowest and all(float(e["value"][1]) >= 0 for e in lowest)
    # the restarted exporter is one target (same instance label) throughout
    up = fleet.classic.query(f'up{{instance="127.0.0.1:{fleet.b_port}"}}')
    assert len(up) == 1


def check_native_histogram_offered(fleet: Fleet) -> None:
    """The native server stored native histograms (no _bucket series), the classic one none."""
    assert fleet.native.query('latmon_latency_seconds{host="board-a"}')
    assert not fleet.native.query('latmon_latency_seconds_bucket{host="board-a"}')
    assert not fleet.classic.query('latmon_latency_seconds{host="board-a"}')
    assert re.fullmatch(
        r"\d+", fleet.native.query('count(latmon_latency_seconds{host="board-a"})')[0]["value"][1]
    )


def check_fleet_pull_gives_exact_run_files(fleet: Fleet, latmon_cli: Path, tmp_path: Path) -> None:
    """latmon fleet: the histograms over the whole run, one run file per host, counts exact
    (board-b: both runs of the restarted exporter added up), usable by latmon stats."""
    out = tmp_path / "fleet"
    done = subprocess.run(
        [
            str(latmon_cli),
            "fleet",
            fleet.classic.url,
            "--match",
            'scenario="fleet-test"',
            "--start",
            f"{fleet.t_start - 1:.3f}",
            "--end",
            "now",
            "-o",
            str(out),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = {Path(w["file"]).stem: w for w in json.loads(done.stdout)}
    assert set(written) == {"board-a", "board-b"}
    want = {
        "board-a": samples(fleet.a.log),
        "board-b": {
            cpu: np.concatenate([v, samples(fleet.b2.log)[cpu]])
            for cpu, v in samples(fleet.b1.log).items()
        },
    }
    for host, logged in want.items():
        stats = subprocess.run(
            [str(latmon_cli), "stats", "--json", str(out / f"{host}.parquet")],
            capture_output=True,
            text=True,
            check=True,
        )
        rows = {r["series"].removeprefix("cpu"): r for r in json.loads(stats.stdout)}
        assert {cpu: r["count"] for cpu, r in rows.items()} == {
            cpu: len(v) for cpu, v in logged.items()
        }
        run = read_run(out / f"{host}.parquet")
        for series in run.series:
            lat = logged[series.meta["cpu"]]
            h = series.histogram
            assert h is not None
            for lo, hi, n in zip(h.lo, h.hi, h.count, strict=True):
                assert n == np.count_nonzero((lat >= lo) & (lat < hi)), (host, lo, hi)
            assert h.overflow == np.count_nonzero(lat >= h.overflow_lo)
            assert series.counters["deadline_violations"] == np.count_nonzero(lat > 200_000)
            assert series.counters["samples"] == len(lat)
    # the fleet's run files answer SQL like lab runs (latmon query, the bins view)
    done = subprocess.run(
        [
            str(latmon_cli),
            "query",
            "SELECT host, sum(count) AS n FROM bins GROUP BY host ORDER BY host",
            str(out),
            "--output-format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        {"host": h, "n": sum(len(v) for v in want[h].values())} for h in sorted(want)
    ]


def check_dashboard_queries_return_data(fleet: Fleet, repo_root: Path) -> None:
    """Every PromQL of the Grafana dashboard (docs/grafana) parses and returns data from this
    Prometheus, with Grafana's variables set as Grafana would."""
    dashboard = json.loads((repo_root / "docs" / "grafana" / "latmon-fleet.json").read_text())
    grafana = {
        "$__rate_interval": "4s",  # Grafana: max(4 x scrape interval, step + scrape interval)
        "$__interval": "1s",
        "$__range": "60s",
        "$host": ".*",
        "$scenario": "fleet-test",
    }
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    for var in dashboard["templating"]["list"]:
        if var["type"] == "query":
            values = re.fullmatch(r"label_values\((\w+), (\w+)\)", var["query"]["query"])
            assert values, var
            found = fleet.classic.api("label/" + values.group(2) + "/values")
            assert "board-a" in found or "fleet-test" in found, (var["name"], found)
    end = time.time()
    for expr in exprs:
        for name, value in grafana.items():
            expr = expr.replace(name, value)
        data = fleet.classic.api(
            "query_range", query=expr, start=f"{fleet.t_start:.3f}", end=f"{end:.3f}", step="1"
        )
        assert data["result"], f"no data: {expr}"


def test_fleet_against_prometheus(
    fleet: Fleet, latmon_cli: Path, repo_root: Path, tmp_path: Path
) -> None:
    """One test for the one fleet run (pytest-xdist would otherwise set the module's fixture up
    on each worker: two fleets, twice the time); each check is its own function."""
    check_counts_exact(fleet)
    check_p99_within_one_bucket(fleet, latmon_cli)
    check_restart_is_a_counter_reset(fleet)
    check_native_histogram_offered(fleet)
    check_fleet_pull_gives_exact_run_files(fleet, latmon_cli, tmp_path)
    check_dashboard_queries_return_data(fleet, repo_root)
