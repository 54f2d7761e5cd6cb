"""Timing and resources of a LiteX bitstream build, from nextpnr's own report (--report, written
by hw/litex/bin/nextpnr-ecp5): every clock's achieved against required frequency, and the
device's resources used; and what the build took (hw/litex/soc.py's build.json and each tool's
run, gateware/tool-times.jsonl). Writes <build>/bitstream.md; exits 1 when a clock misses its
constraint or the bitstream is missing.

    python hw/litex/report.py build/litex/colorlight_i5
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# nextpnr-ecp5's resource names, as a board user reads them
RESOURCES = {
    "TRELLIS_COMB": "LUT4 (logic cells)",
    "TRELLIS_FF": "flip-flops",
    "DP16KD": "block RAM (18 Kbit)",
    "MULT18X18D": "multipliers 18x18",
    "TRELLIS_IO": "I/O pins",
}


def build_time(build: Path) -> list[str]:
    """The build's command, options and time, the whole and each tool's (wall-clock and CPU)."""
    meta = build / "build.json"
    runs = build / "gateware" / "tool-times.jsonl"
    if not meta.is_file():
        return []
    b = json.loads(meta.read_text())
    lines = [
        "",
        f"Built by `{b['command']}`: system clock {b['sys_clk_hz'] / 1e6:g} MHz, "
        f"{b['ram_bytes'] // 1024} KiB of RAM, nextpnr `{b['pnr_opts']} --seed {b['seed']}`.",
        "",
        "| step | wall-clock min | CPU min |",
        "|---|---:|---:|",
    ]
    if runs.is_file():
        for line in runs.read_text().splitlines():
            r = json.loads(line)
            lines.append(f"| {r['tool']} | {r['wall_s'] / 60:.1f} | {r['cpu_s'] / 60:.1f} |")
    lines.append(f"| the whole build | {b['wall_s'] / 60:.1f} | {b['cpu_s'] / 60:.1f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: report.py BUILD_DIR", file=sys.stderr)
        return 2
    build = Path(args[0])
    gateware = build / "gateware"
    report = gateware / "nextpnr-report.json"
    bits = sorted(gateware.glob("*.bit"))
    if not report.is_file() or not bits:
        print(f"report: no nextpnr report or bitstream in {gateware}", file=sys.stderr)
        return 1
    data = json.loads(report.read_text())
    lines = [
        f"# {bits[0].name}",
        "",
        "| clock | achieved MHz | required MHz | met |",
        "|---|---|---|---|",
    ]
    met = True
    for clock, f in sorted(data["fmax"].items()):
        ok = f["achieved"] >= f["constraint"]
        met &= ok
        lines.append(
            f"| {clock} | {f['achieved']:.1f} | {f['constraint']:.1f} | {'yes' if ok else 'NO'} |"
        )
    lines += ["", "| resource | used | available | % |", "|---|---|---|---|"]
    for key, label in RESOURCES.items():
        u = data["utilization"].get(key)
        if u:
            pct = 100.0 * u["used"] / u["available"] if u["available"] else 0.0
            lines.append(f"| {label} | {u['used']} | {u['available']} | {pct:.1f} |")
    lines += build_time(build)
    text = "\n".join(lines) + "\n"
    (build / "bitstream.md").write_text(text)
    print(text, end="")
    if not met:
        print("report: a clock misses its constraint (see above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
