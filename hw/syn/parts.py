"""Where the published configuration's LUTs and flip-flops go: its parts synthesized one by one.

usage: python hw/syn/parts.py --out build/synth-parts

Each part of `published` (hw/ip_configs.py) is synthesized alone with Yosys
`synth_xilinx -family xcup -abc9` (the flow of hw/syn/synth.py), in a wrapper that ties the inputs
the configuration ties (the CAPS constants, no timeout) and leaves the rest ports; the register
block is also synthesized with its read tied off (rd_req 0), so that its read path (multiplexer
and read data) is the difference. The whole configuration, flattened, is synthesized in the same
run: what it has beyond the sum of the parts is the top's glue (the trace window's decode, the OR
of the read answers) less what flattening shares across the parts' boundaries. Prints a table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synth import CONFIGS, rtl_files, synth_xcup

P = CONFIGS["published"].full()

REGS = f"""
module part_regs #(parameter READ = 1) (
    input wire clk, rst, wr_req, rd_req, input wire [15:0] wr_addr, rd_addr,
    input wire [31:0] wr_data, input wire [3:0] wr_strb, output wire wr_hit, rd_hit,
    output wire [31:0] rd_data, output wire en, cl, clc, ring, output wire [1:0] im, am,
    input wire busy, alarm, tf, tw, sat, output wire [15:0] thr,
    input wire [15:0] last, min, max, count, input wire [31:0] tc);
  latmon_regs_core #(.ADDR_WIDTH(16), .REG_DECODE({P["REG_DECODE"]}), .CNT_WIDTH(16),
                     .COUNTER_WIDTH(16)) r (
    .clk(clk), .rst(rst), .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data),
    .wr_strb(wr_strb), .wr_hit(wr_hit), .rd_req(READ != 0 && rd_req), .rd_addr(rd_addr),
    .rd_data(rd_data), .rd_hit(rd_hit), .caps_trace(1'b1), .caps_hist(1'b0), .caps_stamp(1'b0),
    .caps_stim(1'b0), .caps_irq(1'b0), .caps_timeout(1'b0), .caps_counters(1'b0),
    .caps_sum(1'b0), .caps_minimal(1'b0), .caps_cnt_width(7'd16), .caps_trace_depth_log2(5'd9),
    .caps_sync_stages(3'd0), .caps_trace_width(6'd16), .ctrl_enable(en), .ctrl_clear(cl),
    .ctrl_clear_copy(clc), .ctrl_trace_ring(ring), .ctrl_irq_mode(im), .ctrl_ack_mode(am),
    .status_busy(busy), .status_alarm(alarm), .status_trace_full(tf),
    .status_trace_wrapped(tw), .status_saturated(sat), .threshold_cycles(thr),
    .last_value(last), .min_value(min), .max_value(max), .count_value(count),
    .trace_count_value(tc), .caps2_hist_bins_log2(4'd0), .caps2_stamp_entries(7'd0),
    .caps2_id_width(5'd0));
endmodule
"""

STATS = """
module part_stats #(parameter PIPE = 1) (
    input wire clk, rst, clear, ac, sv, input wire [15:0] thr, lat,
    output wire [15:0] last, min, max, count, output wire alarm, vp, sat);
  wire [47:0] sum;
  wire [15:0] v, t, o, i;
  latmon_stats #(.CNT_WIDTH(16), .COUNTER_WIDTH(16), .SUM_WIDTH(48), .HAS_SUM(0),
                 .HAS_COUNTERS(0), .HAS_TIMEOUT(0), .PIPE_COMPARE(PIPE), .SOURCE_HOLDS(1)) s (
    .clk(clk), .rst(rst), .clear(clear), .threshold(thr), .alarm_clear(ac), .sample_valid(sv),
    .sample_latency(lat), .timeout_pulse(1'b0), .overrun_pulse(1'b0), .ignored_pulse(1'b0),
    .last(last), .min(min), .max(max), .sum(sum), .count(count), .violations(v),
    .timeouts(t), .overruns(o), .ignored(i), .alarm(alarm), .violation_pulse(vp),
    .saturated(sat));
endmodule
"""

CORE = """
module part_core (input wire clk, rst, en, clear, irq, ack, input wire [1:0] im, am,
                  output wire busy, sv, output wire [15:0] lat);
  wire s, t, o, i;
  latmon_core #(.CNT_WIDTH(16), .SYNC_STAGES(0)) c (
    .clk(clk), .rst(rst), .enable(en), .clear(clear), .irq_mode(im), .ack_mode(am),
    .timeout(16'd0), .irq(irq), .ack(ack), .busy(busy), .sample_valid(sv),
    .sample_latency(lat), .sample_saturated(s), .timeout_pulse(t), .overrun_pulse(o),
    .ignored_pulse(i));
endmodule
"""

TRACE = """
module part_trace (input wire clk, rst, clear, ring, sv, rd_en, rd_sel,
                   input wire [15:0] lat, input wire [8:0] ra, output wire [15:0] rd,
                   output wire [31:0] count, output wire filled, wrapped, fp);
  wire [15:0] lost;
  latmon_trace #(.DEPTH(512), .WIDTH(16), .CNT_WIDTH(16), .COUNTER_WIDTH(16)) t (
    .clk(clk), .rst(rst), .clear(clear), .ring(ring), .sample_valid(sv),
    .sample_latency(lat), .rd_en(rd_en), .rd_addr(ra), .rd_sel(rd_sel), .rd_data(rd),
    .count(count), .lost(lost), .filled(filled), .wrapped(wrapped), .fill_pulse(fp));
endmodule
"""

# name, what it is, wrapper source, top, parameters
PARTS: list[tuple[str, str, str, str, dict[str, int]]] = [
    ("regs", "register block (core part), REG_DECODE = 0", REGS, "part_regs", {}),
    ("regs-noread", "  the same, its read tied off", REGS, "part_regs", {"READ": 0}),
    ("stats", "statistics, PIPE_COMPARE = 1", STATS, "part_stats", {}),
    ("stats-direct", "statistics, PIPE_COMPARE = 0", STATS, "part_stats", {"PIPE": 0}),
    ("count", "  COUNT (latmon_counter, 16 bits)", "", "latmon_counter", {"WIDTH": 16}),
    ("core", "measurement path (latmon_core, no timeout)", CORE, "part_core", {}),
    ("trace", "trace RAM, TRACE_COUNT, fill flags", TRACE, "part_trace", {}),
    ("axil_rd", "AXI4-Lite read handshake", "", "latmon_axil_rd", {}),
    ("axil_wr", "AXI4-Lite write handshake", "", "latmon_axil_wr", {}),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/synth-parts"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    files = rtl_files()
    rows = []
    for name, what, wrapper, top, params in PARTS:
        work = args.out / name
        work.mkdir(exist_ok=True)
        sources = list(files)
        if wrapper:
            src = work / f"{top}.v"
            src.write_text("`default_nettype none\n" + wrapper)
            sources.append(src)
        rows.append((what, synth_xcup(sources, top, params, work)))
    work = args.out / "published"
    work.mkdir(exist_ok=True)
    whole = synth_xcup(files, "latmon", P, work)
    print("| part of published | LUT sites | LUT | FF | carry |")
    print("|---|---|---|---|---|")
    for what, r in rows:
        print(f"| {what} | {r['lut_sites']} | {r['lut']} | {r['ff']} | {r['carry']} |")
    print(
        f"| published, whole (flattened) | {whole['lut_sites']} | {whole['lut']} | "
        f"{whole['ff']} | {whole['carry']} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
