"""The user's browser and headless Chromium for the report: ``latmon report --open`` and
``--pdf``.

``--open`` hands the file to the browser Python's :mod:`webbrowser` finds (``$BROWSER`` first);
without a graphical session and without ``$BROWSER`` it says where the file is instead of
starting a text browser in the terminal. ``--pdf`` prints the report with headless Chromium
(Debian's ``chromium``, which ``make setup`` installs) after its figures are drawn: A4
landscape, the same page a browser shows, for a test record.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import webbrowser
from pathlib import Path

from latmon.errors import LatmonError
from latmon.output import write_bytes

#: Chromium names on Debian, Ubuntu and elsewhere, tried in order; $LATMON_CHROMIUM first.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Headless Chromium offline: nothing that reaches the network, a profile of its own.
CHROMIUM_FLAGS = (
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
#: The page width of A4 landscape with 10 mm margins, in CSS pixels (the figures are drawn for
#: it before printing).
PRINT_WIDTH_PX = 1046
#: How long the page may take to draw its figures before it is printed (virtual time, ms).
PRINT_BUDGET_MS = 120_000
PRINT_TIMEOUT_S = 600


def has_display() -> bool:
    """A graphical session a browser window can open in."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_in_browser(path: Path) -> str | None:
    """Open ``path`` in the user's browser; None when it was handed to one, else why not."""
    if not os.environ.get("BROWSER") and not has_display():
        return f"no graphical session (DISPLAY) and no $BROWSER: open {path} in a browser"
    try:
        opened = webbrowser.open(path.resolve().as_uri())
    except webbrowser.Error as error:
        return f"no browser found ({error}): open {path} in a browser"
    return None if opened else f"no browser could open it: open {path} in a browser"


def find_chromium() -> str:
    """The Chromium executable, or a LatmonError that says how to get one."""
    wanted = os.environ.get("LATMON_CHROMIUM")
    for name in (wanted,) if wanted else CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise LatmonError(
        "--pdf needs Chromium: install Debian's chromium (make setup does) or name one with "
        "LATMON_CHROMIUM=/path/to/chrome"
    )


def print_pdf(html_path: Path, pdf_path: str) -> None:
    """Print the report to PDF with headless Chromium, its figures drawn first, and write it
    to ``pdf_path`` (a safe output: atomic for a file)."""
    chromium = find_chromium()
    flags = list(CHROMIUM_FLAGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    with tempfile.TemporaryDirectory(prefix="latmon-chromium-") as profile:
        target = Path(profile) / "report.pdf"
        command = [
            chromium,
            *flags,
            f"--user-data-dir={profile}",
            f"--window-size={PRINT_WIDTH_PX},1400",
            f"--virtual-time-budget={PRINT_BUDGET_MS}",
            "--run-all-compositor-stages-before-draw",
            "--no-pdf-header-footer",
            f"--print-to-pdf={target}",
            html_path.resolve().as_uri(),
        ]
        try:
            proc = subprocess.run(
                command, capture_output=True, text=True, timeout=PRINT_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired:
            raise LatmonError(
                f"--pdf: {chromium} did not finish printing within {PRINT_TIMEOUT_S} s"
            ) from None
        if proc.returncode != 0 or not target.exists() or target.stat().st_size == 0:
            last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            raise LatmonError(f"--pdf: {chromium} could not print the report: {last}")
        write_bytes(pdf_path, target.read_bytes())
