"""Exceptions for user errors. The CLI prints them as one line and exits with status 2."""

from __future__ import annotations


def printable(name: str) -> str:
    """A file name as text that every UTF-8 writer (Parquet, HTML, JSON) accepts: the bytes of
    a name that is not UTF-8, which Python carries as lone surrogates, shown as ``\\xNN``
    (``lat\\xff.txt``)."""
    if name.isascii():
        return name
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to
        return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


class LatmonError(Exception):
    """A problem the user can fix: bad input, a bad argument, a missing tool.

    The message says what is wrong and, where it helps, what to do.
    """


class InputError(LatmonError):
    """A problem in an input file, located by path and (when known) line number."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        path = printable(path)
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {problem}")
