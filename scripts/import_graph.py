#!/usr/bin/env python3
"""The host package's shape: lines per area, the import graph's arrows, cycles and floors.

Reads src/latmon's source (nothing is imported or run). An arrow is one module importing
another latmon module, at any place in the file (deferred imports inside functions included;
imports under ``if TYPE_CHECKING`` included). A cycle is a set of modules that import each
other, directly or around a ring (a strongly connected component of more than one module).
Floors: the length of the longest chain of arrows plus one (modules that import no latmon
module stand on floor 1). An area is a folder of src/latmon; the loose modules of the top
folder are the area "(top)". A C extension (a ``.c`` source in src/latmon) is a module that
imports nothing; its lines are counted apart, as "(C)".

    python3 scripts/import_graph.py [--arrows]
"""

from __future__ import annotations

import argparse
import ast
import collections
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SRC / "latmon").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in known else base)
    found = set()
    for target in targets:
        while target and target not in known:  # `import latmon.x.y` -> nearest known module
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def floors(graph: dict[str, set[str]], components: list[list[str]]) -> int:
    of = {m: i for i, c in enumerate(components) for m in c}
    memo: dict[int, int] = {}

    def height(c: int) -> int:
        if c not in memo:
            below = {of[w] for m in components[c] for w in graph[m]} - {c}
            memo[c] = 1 + max((height(b) for b in below), default=0)
        return memo[c]

    return max(height(c) for c in range(len(components)))


def area(name: str, path: Path) -> str:
    rel = path.relative_to(SRC / "latmon")
    return str(rel.parent) if len(rel.parts) > 1 else "(top)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arrows", action="store_true", help="list every arrow")
    args = parser.parse_args()
    found = modules()
    # a C extension (src/latmon/pkg/_x.c built into pkg/_x.so) is a module of its own that
    # imports no latmon module; without it, `from latmon.pkg._x import f` would count as an
    # import of the package pkg itself (a false cycle through the package's __init__)
    extensions = {
        ".".join(c.relative_to(SRC).with_suffix("").parts) for c in (SRC / "latmon").rglob("*.c")
    }
    known = set(found) | extensions
    graph = {name: imports(name, path, known) for name, path in found.items()}
    graph.update({name: set() for name in extensions})
    components = strongly_connected(graph)
    cycles = [c for c in components if len(c) > 1]

    lines: collections.Counter[str] = collections.Counter()
    counts: collections.Counter[str] = collections.Counter()
    biggest: list[tuple[int, str]] = []
    for name, path in found.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        lines[area(name, path)] += n
        counts[area(name, path)] += 1
        biggest.append((n, str(path.relative_to(SRC))))
    for c_file in sorted((SRC / "latmon").rglob("*.c")):
        lines[area("", c_file) + " (C)"] += len(c_file.read_text(encoding="utf-8").splitlines())
    print("area                 modules   lines")
    for name in sorted(lines):
        print(f"{name:20} {counts[name] or '':>7} {lines[name]:>7}")
    print(f"{'total':20} {len(found):>7} {sum(lines.values()):>7}")
    over = sorted((b for b in biggest if b[0] > 500), reverse=True)
    print("modules over 500 lines:", ", ".join(f"{p} {n}" for n, p in over) or "none")
    arrows = sum(len(v) for v in graph.values())
    print(f"arrows {arrows}, floors {floors(graph, components)}, cycles {len(cycles)}")
    for cycle in cycles:
        print("  cycle:", " <-> ".join(cycle))
    if args.arrows:
        for name in sorted(graph):
            for target in sorted(graph[name]):
                print(f"  {name} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
