"""The host package as a user gets it: an sdist and a wheel built by `python -m build` (the PEP 517
front end, in its own isolated build environment), installed into a clean virtual environment
(no --system-site-packages, nothing of the development venv), where `latmon --version` and a
stats run must work.

Both ways a user can end up with the package are run in one environment (one dependency install):
first the sdist with no C compiler (CC=false: the optional C text parser fails to build and the
pure-Python twin reads), then the wheel over it (the C parser). The statistics of each must equal
the ones computed here by numpy from the same numbers, so a broken fallback or a wheel without
its data files fails. Dependencies come from PyPI under requirements.lock (pip's cache makes
reruns quick); the dependency ranges themselves are checked in docs/boards.md's lowest-versions
run, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 900  # seconds for each pip or build step


def run(args: list[str | Path], what: str, **kw: object) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(
            [str(a) for a in args],
            capture_output=True,
            text=True,
            timeout=LIMIT,
            check=False,
            **kw,  # type: ignore[call-overload]
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what}: no result after {LIMIT} s")
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.slow
def test_sdist_and_wheel_install_into_a_clean_venv(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--outdir", dist, ROOT], "python -m build")
    (sdist,) = dist.glob("latmon-*.tar.gz")
    (wheel,) = dist.glob("latmon-*.whl")

    # What each holds: the sdist the C source and its fallback, the wheel the built parser,
    # the fallback, the typing marker and plotly-free data it needs at run time.
    with tarfile.open(sdist) as tar:
        names = {Path(n).relative_to(Path(n).parts[0]).as_posix() for n in tar.getnames()}
    for want in (
        "src/latmon/inputs/_textparse.c",
        "src/latmon/inputs/_textparse_py.py",
        "pyproject.toml",
    ):
        assert want in names, f"{want} missing from {sdist.name}"
    wheel_names = set(zipfile.ZipFile(wheel).namelist())
    assert "latmon/inputs/_textparse_py.py" in wheel_names and "latmon/py.typed" in wheel_names
    assert any(n.startswith("latmon/inputs/_textparse.") and n.endswith(".so") for n in wheel_names)
    assert any(n.startswith("latmon/tail/_serial.") and n.endswith(".so") for n in wheel_names)
    assert any(n.startswith("latmon/report/_digest.") and n.endswith(".so") for n in wheel_names)
    # A wheel with a compiled module says so in its tag (cpXY-cpXY-<platform>), never py3-none-any.
    assert f"-cp{sys.version_info.major}{sys.version_info.minor}-" in wheel.name, wheel.name
    assert "none-any" not in wheel.name

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], "python -m venv")
    py, latmon = venv / "bin" / "python", venv / "bin" / "latmon"
    pip = [py, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}:{env['PATH']}"

    values = np.random.default_rng(44).integers(800, 250_000, 5_001)
    numbers = tmp_path / "latencies.txt"
    numbers.write_text("".join(f"{v}\n" for v in values))

    def stats() -> dict[str, object]:
        done = run([latmon, "stats", "--json", numbers], "latmon stats", env=env, cwd=tmp_path)
        (series,) = json.loads(done.stdout)
        assert isinstance(series, dict)
        return series

    def check(series: dict[str, object]) -> None:
        assert series["count"] == values.size
        assert series["min"] == int(values.min()) and series["max"] == int(values.max())
        assert series["median"] == int(np.median(values))  # odd count: the middle value
        assert series["mean"] == pytest.approx(float(values.mean()), abs=1)  # in whole ns

    # 1. The sdist, with no C compiler: the optional extension is skipped, the fallback reads.
    run(
        [*pip, "-c", ROOT / "requirements.lock", sdist],
        "pip install sdist",
        env={**env, "CC": "false"},
        cwd=tmp_path,
    )
    version = run([latmon, "--version"], "latmon --version", env=env, cwd=tmp_path).stdout
    assert version.strip() == "latmon, version 0.1.0"
    probe = "import importlib.util as u; print(u.find_spec('latmon.inputs._textparse') is not None)"
    assert run([py, "-c", probe], "probe", env=env, cwd=tmp_path).stdout.strip() == "False"
    check(stats())

    # 2. The wheel over it: the compiled parser is there and gives the same statistics.
    run([*pip, "--no-deps", "--force-reinstall", wheel], "pip install wheel", env=env, cwd=tmp_path)
    assert run([py, "-c", probe], "probe", env=env, cwd=tmp_path).stdout.strip() == "True"
    check(stats())
