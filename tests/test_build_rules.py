"""The build rules (Makefile, */*.mk) read the same on a fresh machine as on one that has run setup.

`make demo` and `make test` install their tools (cross compilers, simulators, QEMU) as a
prerequisite, after make has read its files. A value computed while the files are read (a
parse-time `$(shell ...)` calling such a tool) is therefore empty on a fresh machine; this broke
the RV32 link once (`-L` with no directory swallowed `-nostdlib`), and only the clean room saw it.
The test reads the rules twice, with and without those tools on PATH, and compares make's whole
database (variables and rules).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What scripts/setup.sh installs and a rule could be tempted to ask while make reads its files.
SETUP_INSTALLED_PREFIXES = (
    "riscv64-unknown-elf-",
    "aarch64-linux-gnu-",
    "arm-none-eabi-",
    "iverilog",
    "vvp",
    "yosys",
    "verilator",
    "qemu-",
    "dtc",
    "chromium",
    "cyclictest",
    "stress-ng",
    "hackbench",
    "prometheus",
)

# Variables whose value legitimately names the environment rather than the rules.
ENVIRONMENT_VARIABLES = ("PATH", "_", "MAKEFLAGS", "MFLAGS")


def _path_without_setup_tools(bin_dir: Path) -> str:
    """A PATH with every program of the system's bin directories but the setup-installed ones."""
    bin_dir.mkdir()
    for directory in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        if not os.path.isdir(directory):
            continue
        for entry in os.scandir(directory):
            name = entry.name
            if name.startswith(SETUP_INSTALLED_PREFIXES) or os.path.lexists(bin_dir / name):
                continue
            (bin_dir / name).symlink_to(entry.path)
    return str(bin_dir)


def _make_database(path: str) -> list[str]:
    """make's database after reading the rules (-p), running nothing (-n -q), minus comments."""
    env = {**os.environ, "PATH": path}
    result = subprocess.run(
        ["make", "--no-print-directory", "-p", "-n", "-q", "help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines: list[str] = []
    origin = ""
    for line in result.stdout.splitlines():
        if line.startswith("#"):
            origin = line
            continue
        from_environment = origin.startswith(("# environment", "# automatic", "# default"))
        origin = ""
        if from_environment:
            continue
        name = line.split(" ", 1)[0]
        if name in ENVIRONMENT_VARIABLES and (" := " in line or " = " in line):
            continue
        lines.append(line)
    assert len(lines) > 100, f"make -p printed almost nothing:\n{result.stderr}"
    return lines


def test_rules_read_the_same_without_the_tools_setup_installs(tmp_path: Path) -> None:
    make = shutil.which("make")
    assert make is not None
    bare = _make_database(_path_without_setup_tools(tmp_path / "bin"))
    full = _make_database(os.environ["PATH"])
    difference = "\n".join(
        difflib.unified_diff(bare, full, "without setup's tools", "with them", lineterm="", n=0)
    )
    assert bare == full, (
        "what make reads depends on tools that setup installs later (use the shell's $$(...) in "
        f"the recipe instead of a parse-time $(shell ...)):\n{difference[:4000]}"
    )


def test_the_check_sees_a_parse_time_tool_call(tmp_path: Path) -> None:
    """The comparison above can fail: a parse-time call of a missing tool changes the database."""
    probe = tmp_path / "probe.mk"
    probe.write_text(
        "LIBGCC := $(shell riscv64-unknown-elf-gcc -print-libgcc-file-name 2>/dev/null)\n"
        "help:\n\t@true\n"
    )
    env_bare = {**os.environ, "PATH": _path_without_setup_tools(tmp_path / "bin")}

    def database(env: dict[str, str]) -> list[str]:
        out = subprocess.run(
            ["make", "-p", "-n", "-q", "-f", str(probe), "help"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        return [line for line in out.splitlines() if line.startswith("LIBGCC")]

    assert shutil.which("riscv64-unknown-elf-gcc"), "setup installs riscv64-unknown-elf-gcc"
    assert database(env_bare) != database(dict(os.environ))
