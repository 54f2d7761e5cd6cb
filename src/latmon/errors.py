"""Exceptions for user errors. The CLI prints them as one line and exits with status 2."""

from __future__ import annotations


class LatmonError(Exception):
    """A problem the user can fix: bad input, a bad argument, a missing tool.

    The message says what is wrong and, where it helps, what to do.
    """


class InputError(LatmonError):
    """A problem in an input file, located by path and (when known) line number."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {problem}")
