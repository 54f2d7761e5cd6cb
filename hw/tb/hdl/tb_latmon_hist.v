// Testbench wrapper of latmon_hist: a clock, and an event source in HDL — a xorshift32
// generator that offers one latency per clock for `gen_cycles` cycles (`valid` when the top bits
// allow it, `duty_mask` = 0: every cycle), so that a million events take seconds, not the hours
// a per-cycle Python driver would. The cocotb test regenerates the same sequence in Python
// (model/latmon_hist_model.py) and compares every bin.
`timescale 1ns / 1ps
`default_nettype none

module tb_latmon_hist #(
    parameter CNT_WIDTH = 32,
    parameter BINS_LOG2 = 8,
    parameter BIN_WIDTH = 32,
    parameter HALF_PERIOD_NS = 5
) (
`ifdef TB_EXTERNAL_CLOCK
    input  wire                 clk,      // from cocotb's clock driver (the Verilator build)
`endif
    input  wire                 rst,
    input  wire                 clear,
    input  wire [CNT_WIDTH-1:0] offset,
    input  wire [4:0]           shift,
    input  wire                 snapshot,
    input  wire [BINS_LOG2-1:0] rd_addr,

    // the event source
    input  wire                 gen_start,     // strobe: load the seed, run gen_cycles cycles
    input  wire [31:0]          gen_seed,
    input  wire [31:0]          gen_cycles,
    input  wire [31:0]          lat_mask,
    input  wire [3:0]           duty_mask,
    output reg                  gen_run = 1'b0,
    output reg  [31:0]          gen_sent = 32'd0,

    output wire                 busy,
    output wire [31:0]          snapshots,
    output wire [31:0]          dropped,
    output wire [31:0]          rd_data,
    output wire [31:0]          underflow,
    output wire [31:0]          overflow,
    output wire [47:0]          count,
    output wire [63:0]          sum,
    output wire [CNT_WIDTH-1:0] min,
    output wire [CNT_WIDTH-1:0] max,
    output wire                 saturated
);

`ifndef TB_EXTERNAL_CLOCK
    // Icarus toggles this natively, many times faster than a clock driven from Python.
    reg clk = 1'b0;
    always #(HALF_PERIOD_NS) clk = ~clk;
`endif

    reg [31:0] x = 32'd1;
    reg [31:0] left = 32'd0;

    function [31:0] xorshift;
        input [31:0] v;
        reg [31:0] a;
        begin
            a = v ^ (v << 13);
            a = a ^ (a >> 17);
            xorshift = a ^ (a << 5);
        end
    endfunction

    wire sample_valid = gen_run && (x[31:28] & duty_mask) == 4'd0;
    wire [31:0] latency = x & lat_mask;

    always @(posedge clk) begin
        if (gen_start) begin
            x <= gen_seed;
            left <= gen_cycles;
            gen_run <= gen_cycles != 32'd0;
            gen_sent <= 32'd0;
        end else if (gen_run) begin
            x <= xorshift(x);
            left <= left - 32'd1;
            if (left == 32'd1)
                gen_run <= 1'b0;
            if (sample_valid)
                gen_sent <= gen_sent + 32'd1;
        end
    end

    latmon_hist #(.CNT_WIDTH(CNT_WIDTH), .BINS_LOG2(BINS_LOG2), .BIN_WIDTH(BIN_WIDTH)) dut (
        .clk(clk), .rst(rst), .clear(clear), .offset(offset), .shift(shift),
        .sample_valid(sample_valid), .sample_latency(latency[CNT_WIDTH-1:0]),
        .snapshot(snapshot), .busy(busy), .snapshots(snapshots), .dropped(dropped),
        .rd_en(1'b1), .rd_addr(rd_addr), .rd_data(rd_data), .underflow(underflow),
        .overflow(overflow),
        .count(count), .sum(sum), .min(min), .max(max), .saturated(saturated)
    );

endmodule

`default_nettype wire
