"""Readers of third-party formats, one module per format, all producing the run model.

Each module has ``NAME`` and ``read(path, options, problems)``; which reader a file goes to is
decided once, from its content, by :func:`latmon.inputs.ingest.detect_format`, which also hands
the reader the file's :class:`Problems`. Errors name the file, the line and the problem; with
``options.keep_going`` a reader keeps what is valid and records each problem in the run. A reader
that reads the whole file at once returns what it found as plain data
(:class:`latmon.model.RunSpec`), and the loader has :func:`latmon.model.build_run` make the
model objects, in one place; the streamed readers (plain numbers, cyclictest -v) make their run
first and fill it as they stream. How a reader turns the numbers of its text into integers of a
unit is :mod:`.units`.
"""

from __future__ import annotations

from dataclasses import dataclass

from latmon.errors import InputError


@dataclass
class ReadOptions:
    keep_going: bool = False
    #: unit of inputs that do not say it (plain numbers, cyclictest text: default us)
    input_unit: str | None = None
    #: ILA CSV: the irq and ack signal columns and the sample clock
    irq: str | None = None
    ack: str | None = None
    clock_hz: int | None = None
    #: plain numbers: the column of a CSV that holds the latency (a name or 1-based number)
    column: str | None = None


class Problems:
    """Collects the problems of one input: raises at the first unless keep_going."""

    def __init__(self, path: str, keep_going: bool) -> None:
        self.path = path
        self.keep_going = keep_going
        self.items: list[str] = []

    def add(self, line: int | None, problem: str) -> None:
        if not self.keep_going:
            raise InputError(self.path, line, problem)
        where = f"line {line}: " if line is not None else ""
        self.items.append(where + problem)

    def fatal(self, line: int | None, problem: str) -> InputError:
        """A problem nothing can be kept after, even with keep_going: raise what this returns."""
        return InputError(self.path, line, problem)
