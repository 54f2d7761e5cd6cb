// latmon: the latency monitor IP — measurement, statistics, deadline alarm and trace RAM behind
// one AXI4-Lite slave.
//
// It measures the time from an event on `irq` to the next event on `ack` in clock cycles, one
// cycle exact, independently of the software under test (docs/hw/latmon.md). Software
// configures it and reads the results over s_axil_* (register map: hw/regs/latmon.rdl);
// `alarm` is high while a latency above the threshold is unacknowledged; `irq_out` is a level
// interrupt (IRQ_STATUS AND IRQ_ENABLE).
//
// One AXI4-Lite slave serves the registers and the trace RAM window, where the published design
// had two: one bus interface, one address range in the device tree and one UIO map, and the
// trace window still reads at full AXI4-Lite speed; the RAM's read latency is hidden in the
// slave's read pipeline.
`timescale 1ns / 1ps
`default_nettype none

module latmon #(
    // Width of the cycle counter and of every latency (2..32).
    parameter CNT_WIDTH = 32,
    // Synchronizer flip-flops per input: 2 (default) .. 4, or 0 when irq and ack are already
    // synchronous to clk.
    parameter SYNC_STAGES = 2,
    // Samples in the trace RAM (a power of two, 2..4096).
    parameter TRACE_DEPTH = 512,
    // Bits per trace sample (1..32); longer latencies are stored as all ones (saturated).
    parameter TRACE_WIDTH = 32,
    // Width of the event counters (COUNT, VIOLATIONS, TIMEOUTS, OVERRUNS, IGNORED, TRACE_LOST).
    parameter COUNTER_WIDTH = 32,
    // Width of the sum of latencies (CNT_WIDTH..48; 48 keeps the mean exact for 2^16 samples
    // of the largest 32-bit latency).
    parameter SUM_WIDTH = 48,
    // Width of the AXI4-Lite address (>= 16).
    parameter ADDR_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  irq,
    input  wire                  ack,
    output wire                  alarm,
    output wire                  irq_out,

    input  wire [ADDR_WIDTH-1:0] s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready
);

    wire enable, clear, trace_ring, alarm_clear;
    wire [1:0] irq_mode, ack_mode;
    wire [CNT_WIDTH-1:0] timeout, threshold;

    wire busy, sample_valid, sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse;
    wire [CNT_WIDTH-1:0] sample_latency;

    latmon_core #(.CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES)) core_inst (
        .clk(clk), .rst(rst), .enable(enable), .clear(clear),
        .irq_mode(irq_mode), .ack_mode(ack_mode), .timeout(timeout),
        .irq(irq), .ack(ack),
        .busy(busy), .sample_valid(sample_valid), .sample_latency(sample_latency),
        .sample_saturated(sample_saturated), .timeout_pulse(timeout_pulse),
        .overrun_pulse(overrun_pulse), .ignored_pulse(ignored_pulse)
    );

    wire [CNT_WIDTH-1:0] last, min, max;
    wire [SUM_WIDTH-1:0] sum;
    wire [COUNTER_WIDTH-1:0] count, violations, timeouts, overruns, ignored;
    wire stats_alarm, violation_pulse, saturated;

    latmon_stats #(
        .CNT_WIDTH(CNT_WIDTH), .COUNTER_WIDTH(COUNTER_WIDTH), .SUM_WIDTH(SUM_WIDTH)
    ) stats_inst (
        .clk(clk), .rst(rst), .clear(clear), .threshold(threshold), .alarm_clear(alarm_clear),
        .sample_valid(sample_valid), .sample_latency(sample_latency),
        .timeout_pulse(timeout_pulse), .overrun_pulse(overrun_pulse),
        .ignored_pulse(ignored_pulse),
        .last(last), .min(min), .max(max), .sum(sum), .count(count), .violations(violations),
        .timeouts(timeouts), .overruns(overruns), .ignored(ignored), .alarm(stats_alarm),
        .violation_pulse(violation_pulse), .saturated(saturated)
    );

    wire [$clog2(TRACE_DEPTH)-1:0] trace_rd_addr;
    wire [TRACE_WIDTH-1:0] trace_rd_data;
    wire [31:0] trace_count;
    wire [COUNTER_WIDTH-1:0] trace_lost;
    wire trace_filled, trace_wrapped, trace_fill_pulse;

    latmon_trace #(
        .DEPTH(TRACE_DEPTH), .WIDTH(TRACE_WIDTH), .CNT_WIDTH(CNT_WIDTH),
        .COUNTER_WIDTH(COUNTER_WIDTH)
    ) trace_inst (
        .clk(clk), .rst(rst), .clear(clear), .ring(trace_ring),
        .sample_valid(sample_valid), .sample_latency(sample_latency),
        .rd_addr(trace_rd_addr), .rd_data(trace_rd_data),
        .count(trace_count), .lost(trace_lost), .filled(trace_filled), .wrapped(trace_wrapped),
        .fill_pulse(trace_fill_pulse)
    );

    latmon_axil #(
        .CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES), .TRACE_DEPTH(TRACE_DEPTH),
        .TRACE_WIDTH(TRACE_WIDTH), .COUNTER_WIDTH(COUNTER_WIDTH), .SUM_WIDTH(SUM_WIDTH),
        .ADDR_WIDTH(ADDR_WIDTH)
    ) axil_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
        .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
        .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
        .s_axil_bready(s_axil_bready),
        .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
        .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
        .enable(enable), .clear(clear), .trace_ring(trace_ring), .irq_mode(irq_mode),
        .ack_mode(ack_mode), .timeout(timeout), .threshold(threshold),
        .alarm_clear(alarm_clear),
        .busy(busy), .alarm(stats_alarm), .saturated(saturated),
        .last(last), .min(min), .max(max), .sum(sum), .count(count),
        .violations(violations), .timeouts(timeouts), .overruns(overruns), .ignored(ignored),
        .trace_count(trace_count), .trace_lost(trace_lost), .trace_filled(trace_filled),
        .trace_wrapped(trace_wrapped),
        .ev_sample(sample_valid), .ev_alarm(violation_pulse), .ev_trace_full(trace_fill_pulse),
        .ev_timeout(timeout_pulse), .ev_overrun(overrun_pulse),
        .trace_rd_addr(trace_rd_addr), .trace_rd_data(trace_rd_data),
        .irq_out(irq_out)
    );

    assign alarm = stats_alarm;

    // The per-sample saturation flag is the all-ones latency itself (LAST, trace words).
    wire unused_saturated = sample_saturated;

endmodule

`default_nettype wire
