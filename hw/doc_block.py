"""A generated block of a docs page: the text between two markers, written from a results file.

`make litex-sim` (hw/litex/compare.py) and `make bitstream` (hw/litex/report.py) each own one
block of docs/boards.md, `make linux-soc` (hw/tb/linux_soc_figures.py) the figures of
docs/hw/linux-soc.md; each writes its block, or checks it against its committed results, the
same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class BlockError(Exception):
    """The page does not hold exactly one block between the markers."""


@dataclass(frozen=True)
class DocBlock:
    tool: str  # the message prefix, e.g. "litex-compare"
    what: str  # what the block holds, e.g. "the tables"
    page: Path
    results: Path
    begin: str
    end: str
    hint: str  # the command that regenerates the block
    root: Path

    def replaced(self, doc: str, text: str) -> str:
        """The doc with the text between the block's markers replaced."""
        begin, end = self.begin, self.end
        if doc.count(begin) != 1 or doc.count(end) != 1 or doc.index(begin) > doc.index(end):
            raise BlockError(
                f"{self.page.relative_to(self.root)}: expected one generated block, "
                f"{begin!r} ... {end!r}"
            )
        head, rest = doc.split(begin)
        _, tail = rest.split(end)
        return f"{head}{begin}\n\n{text}\n{end}{tail}"

    def add_arguments(self, parser: argparse.ArgumentParser, source: str) -> None:
        """--publish, --page and --check-page; source names what --check-page does without."""
        results, page = self.results.relative_to(self.root), self.page.relative_to(self.root)
        parser.add_argument(
            "--publish",
            action="store_true",
            help=f"record the figures in {results} and write the tables in {page} from them",
        )
        parser.add_argument(
            "--page",
            action="store_true",
            help="only write the doc's tables from the recorded results",
        )
        parser.add_argument(
            "--check-page",
            action="store_true",
            help=f"fail when the doc's tables differ from the recorded results (no {source})",
        )

    def publish(self, results: object, render: Callable[[Any], str], sort_keys: bool) -> int:
        """Record the results (replacing the file whole) and write the block from them."""
        tmp = self.results.with_suffix(".tmp")
        tmp.write_text(json.dumps(results, indent=2, sort_keys=sort_keys) + "\n")
        tmp.replace(self.results)
        return self.write(render, check=False)

    def write(self, render: Callable[[Any], str], check: bool) -> int:
        """Write the block from the results file, or (check) compare: 0, 1 (stale) or 2."""
        name, results_name = self.page.relative_to(self.root), self.results.relative_to(self.root)
        try:
            results = json.loads(self.results.read_text())
            doc = self.page.read_text()
            text = self.replaced(doc, render(results))
        except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            print(f"{self.tool}: error: {results_name}: {e}", file=sys.stderr)
            return 2
        except BlockError as e:
            print(f"{self.tool}: error: {e}", file=sys.stderr)
            return 2
        if check:
            if text != doc:
                print(
                    f"{self.tool}: {self.what} in {name} differ from {results_name}; run "
                    f"{self.hint} and commit the result",
                    file=sys.stderr,
                )
                return 1
            print(f"{self.tool}: {self.what} in {name} are up to date")
            return 0
        tmp = self.page.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(self.page)
        print(f"{self.tool}: wrote {self.what} in {name} from {results_name}")
        return 0
