"""Safe outputs (latmon.output): atomic files, links followed, FIFOs and devices streamed."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from latmon.errors import LatmonError
from latmon.output import output_file, write_text


def test_regular_file_is_replaced_atomically_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    target.write_text("old")
    target.chmod(0o640)
    with pytest.raises(RuntimeError), output_file(target) as stream:
        stream.write(b"half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"  # nothing half-written
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]  # no temporary left
    write_text(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_symlink_target_is_written_and_the_link_stays(tmp_path: Path) -> None:
    (tmp_path / "real.md").write_text("old")
    (tmp_path / "link.md").symlink_to("real.md")
    write_text(tmp_path / "link.md", "new")
    assert (tmp_path / "link.md").is_symlink() and (tmp_path / "real.md").read_text() == "new"


def test_fifo_is_streamed_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_text(fifo, "through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"] and fifo.is_fifo()


def test_errors_are_user_errors(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(LatmonError, match="it is a folder"):
        write_text(tmp_path / "dir", "x")
    (tmp_path / "file").write_text("")
    with pytest.raises(LatmonError, match=r"cannot write .*file/x"):
        write_text(tmp_path / "file" / "x", "x")
