"""The installed `latmon` command: dispatcher behaviour common to every subcommand."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from latmon import __version__


def run(cli: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cli), *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("args", "code", "stdout", "stderr"),
    [
        (["--version"], 0, f"latmon, version {__version__}", ""),
        (["--help"], 0, "Usage: latmon", ""),
        (["no-such-command"], 2, "", "No such command 'no-such-command'"),
    ],
)
def test_dispatcher(latmon_cli: Path, args: list[str], code: int, stdout: str, stderr: str) -> None:
    proc = run(latmon_cli, *args)
    assert proc.returncode == code, proc.stderr
    assert stdout in proc.stdout
    assert stderr in proc.stderr
    assert "Traceback" not in proc.stderr
