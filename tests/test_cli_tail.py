"""`latmon tail`, the installed command: a valid series gets its pWCETs, a dependent one its
reasons, a histogram its reason, bad arguments one line and exit status 2."""

from __future__ import annotations

import io
import json
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from synthetic_tails import MODELS, ar1

from latmon.inputs.logformat import LogWriter


def write_log(path: Path, latency: np.ndarray, unit: str = "ns", **meta: str) -> None:
    f = io.StringIO()
    extra = {"clock_hz": "100000000"} if unit == "cycles" else {}
    w = LogWriter(f, source="latprobe", unit=unit, **extra, **meta)
    sid = w.series("cpu0", fields=("t", "latency"), cpu=0)
    for k, v in enumerate(latency):
        w.sample(sid, k * 1000, int(v))
    w.close()
    path.write_text(f.getvalue())


def run(cli: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(cli), "tail", *args], capture_output=True, text=True, check=False, timeout=300
    )


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tail")
    write_log(d / "iid.log", MODELS["exponential"].draw(np.random.default_rng(2), 5000))
    write_log(d / "ar1.log", ar1(np.random.default_rng(3), 5000, 0.3), scenario="streaky")
    return d


def test_valid_series_gets_pwcets_with_intervals(latmon_cli: Path, logs: Path) -> None:
    proc = run(latmon_cli, str(logs / "iid.log"), "--json", "--deadline", "60us")
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row["valid"] and row["reasons"] == [] and row["n"] == 5000
    assert all(c["passed"] for c in row["checks"]) and len(row["checks"]) == 4
    for key in ("pot", "block_maxima"):
        method = row[key]
        assert [q["probability"] for q in method["pwcet"]] == [1e-6, 1e-9, 1e-12]
        for q in method["pwcet"]:
            low, high = q["ci"]
            assert low <= q["estimate"] <= high
            # 5 µs + Exp(2 µs): x_p = 5000 + 2000 ln(1/p); 60 µs is beyond every upper bound
            assert low < 5000 + 2000 * math.log(1 / q["probability"]) * 1.5
            assert q["verdict"] == ("pass" if high <= 60000 else "FAIL")
        assert method["pwcet"][0]["verdict"] == "pass"
    text = run(latmon_cli, str(logs / "iid.log"), "--probability", "1e-9")
    assert text.returncode == 0 and "POT/GPD" in text.stdout and "1e-09" in text.stdout


def test_dependent_series_says_why(latmon_cli: Path, logs: Path) -> None:
    proc = run(latmon_cli, str(logs / "ar1.log"))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"independence: Ljung-Box +FAIL", proc.stdout)
    assert "no pWCET: the samples are not i.i.d." in proc.stdout
    (row,) = json.loads(run(latmon_cli, str(logs / "ar1.log"), "--json").stdout)
    assert not row["valid"] and row["pot"] is None
    assert any(r.startswith("independence") for r in row["reasons"])


def test_histogram_only_input_says_why(latmon_cli: Path, data_dir: Path) -> None:
    proc = run(latmon_cli, str(data_dir / "third-party" / "cyclictest-hist.txt"), "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert rows and all(not r["valid"] and "histogram" in r["reasons"][0] for r in rows)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--probability", "often"], "--probability"),
        (["--probability", "0.7"], "--probability"),
        (["--threshold", "soon"], "--threshold"),
        (["--block-size", "1"], "--block-size"),
    ],
)
def test_bad_arguments(latmon_cli: Path, logs: Path, args: list[str], needle: str) -> None:
    proc = run(latmon_cli, str(logs / "iid.log"), *args)
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr
