"""Generate the C header, the register documentation and IP-XACT from the SystemRDL register map.

Usage: python hw/regs/generate.py --rdl hw/regs/latmon.rdl --header H --doc MD --ipxact XML

The outputs are checked in; `make regs-check` regenerates them into a scratch folder and fails
when the checked-in copies differ, so there is never a second hand-typed copy of an address.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from peakrdl_cheader.c_standards import CStandard
from peakrdl_cheader.exporter import CHeaderExporter
from peakrdl_ipxact import IPXACTExporter
from peakrdl_markdown import MarkdownExporter
from systemrdl import RDLCompileError, RDLCompiler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rdl", required=True, type=Path)
    parser.add_argument("--header", required=True, type=Path)
    parser.add_argument("--doc", required=True, type=Path)
    parser.add_argument("--ipxact", required=True, type=Path)
    args = parser.parse_args(argv)

    compiler = RDLCompiler()
    try:
        compiler.compile_file(str(args.rdl))
        root = compiler.elaborate()
    except RDLCompileError:
        print(f"generate: {args.rdl} does not compile (see the messages above)", file=sys.stderr)
        return 1

    for path in (args.header, args.doc, args.ipxact):
        path.parent.mkdir(parents=True, exist_ok=True)
    # The input path is named relative to the repository so the outputs do not depend on
    # where the checkout lives.
    rdl_name = args.rdl.as_posix()
    CHeaderExporter().export(root.top, str(args.header), std=CStandard.gnu11)
    doc_tmp = args.doc.with_suffix(".md") if args.doc.suffix != ".md" else args.doc
    MarkdownExporter().export(root.top, str(doc_tmp), input_files=[rdl_name])
    if doc_tmp != args.doc:
        doc_tmp.replace(args.doc)
    IPXACTExporter(vendor="latmon.dev", library="latmon", version="1.0").export(
        root.top, str(args.ipxact)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
