"""Shared fixtures: where the repository, the built C programs and the installed CLI are."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SW_BUILD = ROOT / "build" / "sw"
DATA = Path(__file__).resolve().parent / "data"


def _built(name: str) -> Path:
    path = SW_BUILD / name
    if not path.exists():
        pytest.fail(f"{path} is not built; run 'make sw-all' (make test does it first)")
    return path


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def c_binary():
    """Path of a program built by `make sw-all`, e.g. c_binary('tests/test_latmon_log')."""
    return _built


@pytest.fixture(scope="session")
def latmon_cli() -> Path:
    """The installed `latmon` command of the virtual environment running the tests."""
    path = Path(sys.executable).parent / "latmon"
    if not path.exists():
        found = shutil.which("latmon")
        if found is None:
            pytest.fail("the latmon command is not installed; run 'make setup'")
        path = Path(found)
    return path
