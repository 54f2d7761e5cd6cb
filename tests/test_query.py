"""latmon query, the installed command: SQL over a folder of run files, checked against numpy."""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.runfile import write_run
from latmon.model import Histogram, Run, Series


def nearest_rank(values: np.ndarray, q: float) -> int:
    s = np.sort(values)
    return int(s[max(1, math.ceil(q * len(s))) - 1])


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> tuple[Path, dict[tuple[str, str], np.ndarray]]:
    """Two scenarios, two CPUs each, lognormal latencies; a fleet-style histogram run."""
    root = tmp_path_factory.mktemp("campaign")
    rng = np.random.default_rng(19)
    truth: dict[tuple[str, str], np.ndarray] = {}
    for scenario in ("idle", "stress"):
        series = []
        for cpu in ("0", "1"):
            lat = rng.lognormal(10 if scenario == "idle" else 11, 0.6, 20_000).astype(np.int64)
            truth[(scenario, cpu)] = lat
            series.append(
                Series(name=f"cpu{cpu}", unit="ns", columns={"latency": lat}, meta={"cpu": cpu})
            )
        (root / "lab").mkdir(exist_ok=True)
        write_run(
            Run(meta={"scenario": scenario, "host": "rig"}, series=series),
            root / "lab" / f"{scenario}.parquet",
        )
    hist = Histogram(
        lo=[0, 1001, 5001], hi=[1001, 5001, 10001], count=[3, 0, 7], overflow=2, overflow_lo=10001
    )
    write_run(
        Run(
            meta={"scenario": "board-a", "host": "board-a", "source": "prometheus"},
            series=[
                Series(
                    name="cpu0",
                    unit="ns",
                    histogram=hist,
                    counters={"samples": 12},
                    meta={"cpu": "0"},
                )
            ],
        ),
        root / "board-a.parquet",
    )
    return root, truth


def query(
    latmon_cli: Path, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(latmon_cli), "query", *args], capture_output=True, text=True, check=False, cwd=cwd
    )


def test_quantiles_per_scenario_and_cpu(latmon_cli: Path, campaign) -> None:
    root, truth = campaign
    sql = (
        "SELECT scenario, cpu, count(*) AS n, quantile_disc(latency, 0.999) AS p999, "
        "max(latency) AS top FROM samples GROUP BY ALL ORDER BY ALL"
    )
    done = query(latmon_cli, sql, str(root), "--output-format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [(r["scenario"], r["cpu"]) for r in rows] == sorted(truth)
    for r in rows:
        lat = truth[(r["scenario"], r["cpu"])]
        assert r["n"] == len(lat)
        assert r["p999"] == nearest_rank(lat, 0.999)
        assert r["top"] == lat.max()


def test_bins_and_runs_views(latmon_cli: Path, campaign) -> None:
    root, _ = campaign
    done = query(
        latmon_cli,
        "SELECT host, series, lo, hi, count FROM bins ORDER BY lo",
        "--output-format",
        "json",
        cwd=root,  # default: the current folder
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        {"host": "board-a", "series": "cpu0", "lo": 0, "hi": 1001, "count": 3},
        {"host": "board-a", "series": "cpu0", "lo": 5001, "hi": 10001, "count": 7},
        {"host": "board-a", "series": "cpu0", "lo": 10001, "hi": None, "count": 2},
    ]
    done = query(
        latmon_cli,
        "SELECT count(*) AS runs, count(*) AS runs, min(host) FROM runs",
        str(root),
        "--output-format",
        "csv",
    )
    # the header holds the query's column names (repeated ones too), not c0, c1, ...
    assert done.returncode == 0 and done.stdout.splitlines() == [
        "runs,runs,min(host)",
        "3,3,board-a",
    ]
    counters = query(
        latmon_cli,
        "SELECT counters->>'samples' AS n FROM series WHERE file LIKE '%board-a%'",
        str(root),
        "--output-format",
        "json",
    )
    assert json.loads(counters.stdout) == [{"n": "12"}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["SELEC 1", "CAMPAIGN"],
            r"query: Parser Error: .*SELEC.* \(views: runs, series, samples, bins\)",
        ),
        (["SELECT nope FROM samples", "CAMPAIGN"], r"query: Binder Error"),
        (["SELECT 1", "missing-folder"], r"missing-folder: no such file or folder"),
        (["SELECT 1", "bad/notes.parquet"], r"notes.parquet: not a latmon run file"),
        (["SELECT 1", "empty"], r"no run files \(\*\.parquet\) in empty"),
    ],
)
def test_errors_are_one_line(
    latmon_cli: Path, campaign, tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "notes.parquet").write_text("not parquet\n")
    args = [str(campaign[0]) if a == "CAMPAIGN" else a for a in args]
    (tmp_path / "empty").mkdir()
    done = query(latmon_cli, *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert re.search(message, lines[0]), lines[0]
