"""Safe outputs: every file latmon writes (reports, figures, Markdown, run files) goes through
:func:`output_file`.

- ``-`` is standard output;
- a regular file (or a new one) is written under a temporary name in the same folder and renamed
  over the target at the end, so it is never half-written; an existing file keeps its mode;
- a symbolic link is followed: its target is replaced that way, the link stays a link;
- a FIFO, a device (``/dev/null``, a serial port) or a socket is opened and written as a stream,
  never replaced by a regular file;
- a folder, or a folder that cannot be written, is a user error with one line that says so.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from latmon.errors import LatmonError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fail(path: Path | str, error: OSError) -> LatmonError:
    reason = error.strerror or str(error)
    return LatmonError(f"cannot write {path}: {reason}; choose another file or a writable folder")


@contextlib.contextmanager
def output_file(path: str | Path) -> Iterator[BinaryIO]:
    """A binary stream to write ``path`` safely (see the module docstring)."""
    if str(path) == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    target = Path(path)
    try:
        if target.is_symlink():
            target = Path(os.path.realpath(target))
        info = target.stat() if target.exists() else None
    except OSError as error:
        raise _fail(path, error) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise LatmonError(f"cannot write {path}: it is a folder; give a file name")
    if info is not None and not stat.S_ISREG(info.st_mode):
        # a FIFO, a device or a socket: written as a stream, never replaced
        try:
            stream = target.open("wb")
        except OSError as error:
            raise _fail(path, error) from None
        with stream:
            yield stream
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as error:
        raise _fail(path, error) from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
        mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise _fail(path, error) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text safely."""
    with output_file(path) as stream:
        stream.write(text.encode("utf-8"))


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write bytes safely."""
    with output_file(path) as stream:
        stream.write(data)
