#!/usr/bin/env python3
"""Follow `latmon report FILES` call by call and count the modules it passes through.

The measure of docs/architecture.md ("the path of a report"): run the real command in this
process under :func:`sys.setprofile` and record which latmon module is executing, call by call
and return by return. Code outside latmon (the standard library, numpy, click) is transparent:
the module that executes is the innermost latmon frame on the stack. Each call edge (caller
function -> callee function) is followed the first time only, as a reader of the code follows
it: a call along an edge already followed (the next line of the same file, the next series) and
its return are not counted again, though new edges below it are, so the figure does not grow
with the size of the input but every distinct path of the files given is followed.
Consecutive events in the same module collapse into one visit.

Printed: the visits in order; the number of distinct modules; the number of returns (visits to
a module the path had already left), and the modules returned to most often.

--scope inputs (the default) follows the file list only: from loading the FILES to the loaded
runs with their problems reported (latmon.commands.options.load_files and report_problems), the
path the issue names. --scope all follows the whole command, figures and page included.

    .venv/bin/python scripts/report_path.py [--scope inputs|all] [FILES...]
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: one small file of each kind of input: the latmon log and three third-party formats
DEFAULT_FILES = [
    ROOT / "tests/data/latmon-log/vector-basic.log",
    ROOT / "tests/data/third-party/cyclictest.json",
    ROOT / "tests/data/third-party/cyclictest-hist.txt",
    ROOT / "tests/data/third-party/rtla-timerlat-hist.txt",
]
#: the functions of latmon.commands.options that hold the file list's path (--scope inputs)
INPUT_ENTRIES = {"load_files", "report_problems"}


class PathTracer:
    """Records the latmon module executing at each new call and its return, one visit per change."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.visits: list[str] = []
        # one entry per Python frame: (latmon code or None, whether its call edge was new)
        self.stack: list[tuple[types.CodeType | None, bool]] = []
        self.edges: set[tuple[types.CodeType | None, types.CodeType]] = set()
        self.names: dict[types.CodeType, str] = {}
        self.skip_depth = 0  # >0: inside a module body run by a deferred import
        self.inside = 0 if scope == "inputs" else 1  # depth of INPUT_ENTRIES frames open

    @staticmethod
    def module(frame: types.FrameType) -> str | None:
        name = frame.f_globals.get("__name__", "")
        if isinstance(name, str) and (name == "latmon" or name.startswith("latmon.")):
            return name
        return None

    def _visit(self, module: str) -> None:
        if self.inside and (not self.visits or self.visits[-1] != module):
            self.visits.append(module)

    def _current(self) -> str | None:
        """The module of the innermost latmon frame on the stack."""
        for code, _ in reversed(self.stack):
            if code is not None:
                return self.names[code]
        return None

    def _is_entry(self, code: types.CodeType) -> bool:
        return (
            self.scope == "inputs"
            and self.names.get(code) == "latmon.commands.options"
            and code.co_name in INPUT_ENTRIES
        )

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return  # c_call etc.: not Python frames
        if event == "call":
            if self.skip_depth or frame.f_code.co_name == "<module>":
                self.skip_depth += 1  # a deferred import runs a module's body: not the path
                return
            module = self.module(frame)
            if module is None:
                self.stack.append((None, False))
                return
            code = frame.f_code
            self.names[code] = module
            caller = next((c for c, _ in reversed(self.stack) if c is not None), None)
            new = (caller, code) not in self.edges
            self.edges.add((caller, code))
            if self._is_entry(code):
                self.inside += 1
            self.stack.append((code, new))
            if new:
                self._visit(module)
            return
        if self.skip_depth:
            self.skip_depth -= 1
            return
        if not self.stack:
            return
        code, new = self.stack.pop()
        if code is None:
            return
        if self._is_entry(code):
            self.inside -= 1
        current = self._current()
        if new and current is not None:
            self._visit(current)

    def summary(self) -> tuple[int, int, collections.Counter[str]]:
        seen: set[str] = set()
        returns: collections.Counter[str] = collections.Counter()
        for module in self.visits:
            if module in seen:
                returns[module] += 1
            seen.add(module)
        return len(seen), sum(returns.values()), returns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT_FILES)
    parser.add_argument("--scope", choices=("inputs", "all"), default="inputs")
    parser.add_argument("--quiet", action="store_true", help="print the figures only")
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    from latmon.cli import main as latmon_main

    with tempfile.TemporaryDirectory(prefix="latmon-path-") as folder:
        argv = ["report", *map(str, args.files), "-o", str(Path(folder) / "report.html")]
        tracer = PathTracer(args.scope)
        sys.setprofile(tracer)
        try:
            status = latmon_main(argv)
        finally:
            sys.setprofile(None)
    if status not in (0, None):
        print(f"report_path: latmon report exited {status}", file=sys.stderr)
        return 1
    modules, total, returns = tracer.summary()
    if not args.quiet:
        for module in tracer.visits:
            print(module.removeprefix("latmon."))
        print()
    most = ", ".join(f"{m.removeprefix('latmon.')} {n}" for m, n in returns.most_common(5))
    print(f"scope {args.scope}: {modules} modules, {total} returns to a module already left")
    print(f"returned to most: {most}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
