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
    parameter ADDR_WIDTH = 16,
    // Histogram engine (docs/hw/latmon_hist.md): 1 present, 0 left out; 2^HIST_BINS_LOG2 bins
    // (4..4096) per bank, two banks of block RAM.
    parameter HAS_HIST = 1,
    parameter HIST_BINS_LOG2 = 8,
    // Timestamp mode (docs/hw/latmon_stamp.md): starts and ends matched by ID; STAMP_ENTRIES
    // outstanding starts (2..64).
    parameter HAS_STAMP = 1,
    parameter STAMP_ENTRIES = 16,
    // Stimulus generator (docs/hw/latmon_stim.md).
    parameter HAS_STIM = 1,
    // Width of the event IDs of the timestamp mode and of the stimulus pulses (8..16).
    parameter ID_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  irq,
    input  wire                  ack,
    output wire                  alarm,
    output wire                  irq_out,

    // timestamp mode: start and end events with their IDs (tie to 0 when unused)
    input  wire                  start_valid,
    input  wire [ID_WIDTH-1:0]   start_id,
    input  wire                  end_valid,
    input  wire [ID_WIDTH-1:0]   end_id,

    // stimulus generator: one-cycle pulses and their IDs
    output wire                  stim_out,
    output wire [ID_WIDTH-1:0]   stim_id,

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

    // configuration and status of the optional parts
    wire [CNT_WIDTH-1:0] hist_start;
    wire [4:0] hist_shift;
    wire hist_snapshot, stamp_enable, stim_start, stim_stop, stim_loop, stim_stamp;
    wire [31:0] stamp_timeout;
    wire [1:0] stim_mode;
    wire [31:0] stim_period, stim_min, stim_max, stim_burst, stim_pause, stim_total, stim_seed;
    wire stim_pulse;

    // LOOP: the stimulus also drives the monitor's irq input (through the synchronizer, as an
    // external irq would).
    wire irq_in = irq | (stim_loop & stim_pulse);

    wire busy, core_valid, sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse;
    wire [CNT_WIDTH-1:0] core_latency;

    latmon_core #(.CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES)) core_inst (
        .clk(clk), .rst(rst), .enable(enable), .clear(clear),
        .irq_mode(irq_mode), .ack_mode(ack_mode), .timeout(timeout),
        .irq(irq_in), .ack(ack),
        .busy(busy), .sample_valid(core_valid), .sample_latency(core_latency),
        .sample_saturated(sample_saturated), .timeout_pulse(timeout_pulse),
        .overrun_pulse(overrun_pulse), .ignored_pulse(ignored_pulse)
    );

    // ---- timestamp mode ----------------------------------------------------------------------

    wire stamp_valid;
    wire [CNT_WIDTH-1:0] stamp_latency;
    wire [31:0] stamp_matched, stamp_unmatched, stamp_timeouts, stamp_full, stamp_duplicates;
    wire [6:0] stamp_outstanding;
    wire [63:0] stamp_time;

    generate
        if (HAS_STAMP != 0) begin : g_stamp
            // STIM_CTRL.STAMP: the stimulus pulses are start events with their IDs.
            wire from_stim = stim_stamp & stim_pulse;
            latmon_stamp #(
                .CNT_WIDTH(CNT_WIDTH), .ID_WIDTH(ID_WIDTH), .ENTRIES(STAMP_ENTRIES)
            ) stamp_inst (
                .clk(clk), .rst(rst), .clear(clear), .enable(stamp_enable),
                .timeout(stamp_timeout),
                .start_valid(start_valid | from_stim),
                .start_id(from_stim ? stim_id : start_id),
                .end_valid(end_valid), .end_id(end_id),
                .timebase(stamp_time), .sample_valid(stamp_valid),
                .sample_latency(stamp_latency), .matched(stamp_matched),
                .unmatched(stamp_unmatched), .timeouts(stamp_timeouts), .full(stamp_full),
                .duplicates(stamp_duplicates), .outstanding(stamp_outstanding)
            );
        end else begin : g_no_stamp
            assign stamp_valid = 1'b0;
            assign stamp_latency = {CNT_WIDTH{1'b0}};
            assign stamp_matched = 32'd0;
            assign stamp_unmatched = 32'd0;
            assign stamp_timeouts = 32'd0;
            assign stamp_full = 32'd0;
            assign stamp_duplicates = 32'd0;
            assign stamp_outstanding = 7'd0;
            assign stamp_time = 64'd0;
            wire unused_stamp = ^{start_valid, start_id, end_valid, end_id, stamp_timeout,
                                  stamp_enable, stim_stamp};
        end
    endgenerate

    // The latencies measured: from irq/ack, or in timestamp mode from matched IDs.
    wire sample_valid = stamp_enable ? stamp_valid : core_valid;
    wire [CNT_WIDTH-1:0] sample_latency = stamp_enable ? stamp_latency : core_latency;

    // ---- histogram -------------------------------------------------------------------------

    wire hist_busy, hist_saturated;
    wire [31:0] hist_snapshots, hist_dropped, hist_underflow, hist_overflow, hist_rd_data;
    wire [47:0] hist_count;
    wire [63:0] hist_sum;
    wire [CNT_WIDTH-1:0] hist_min, hist_max;
    wire [HIST_BINS_LOG2-1:0] hist_rd_addr;
    reg hist_busy_d = 1'b0;

    generate
        if (HAS_HIST != 0) begin : g_hist
            latmon_hist #(.CNT_WIDTH(CNT_WIDTH), .BINS_LOG2(HIST_BINS_LOG2)) hist_inst (
                .clk(clk), .rst(rst), .clear(clear), .offset(hist_start), .shift(hist_shift),
                .sample_valid(sample_valid), .sample_latency(sample_latency),
                .snapshot(hist_snapshot), .busy(hist_busy), .snapshots(hist_snapshots),
                .dropped(hist_dropped), .rd_addr(hist_rd_addr), .rd_data(hist_rd_data),
                .underflow(hist_underflow), .overflow(hist_overflow), .count(hist_count),
                .sum(hist_sum), .min(hist_min), .max(hist_max), .saturated(hist_saturated)
            );
        end else begin : g_no_hist
            assign hist_busy = 1'b0;
            assign hist_saturated = 1'b0;
            assign hist_snapshots = 32'd0;
            assign hist_dropped = 32'd0;
            assign hist_underflow = 32'd0;
            assign hist_overflow = 32'd0;
            assign hist_rd_data = 32'd0;
            assign hist_count = 48'd0;
            assign hist_sum = 64'd0;
            assign hist_min = {CNT_WIDTH{1'b0}};
            assign hist_max = {CNT_WIDTH{1'b0}};
            wire unused_hist = ^{hist_start, hist_shift, hist_snapshot, hist_rd_addr};
        end
    endgenerate

    // HIST_READY: the end of a snapshot (not of the clear after reset or CTRL.CLEAR).
    reg hist_snapping = 1'b0;
    always @(posedge clk) begin
        hist_busy_d <= hist_busy;
        if (hist_snapshot && !hist_busy)
            hist_snapping <= 1'b1;
        else if (hist_busy_d && !hist_busy)
            hist_snapping <= 1'b0;
        if (rst || clear)
            hist_snapping <= 1'b0;
    end
    wire hist_ready = hist_snapping && hist_busy_d && !hist_busy;

    // ---- stimulus generator ------------------------------------------------------------------

    wire stim_running, stim_done, stim_done_pulse;
    wire [31:0] stim_sent;

    generate
        if (HAS_STIM != 0) begin : g_stim
            latmon_stim #(.ID_WIDTH(ID_WIDTH)) stim_inst (
                .clk(clk), .rst(rst), .start(stim_start), .stop(stim_stop), .mode(stim_mode),
                .period(stim_period), .interval_min(stim_min), .interval_max(stim_max),
                .burst_len(stim_burst), .pause(stim_pause), .total(stim_total),
                .seed(stim_seed), .pulse(stim_pulse), .pulse_id(stim_id),
                .running(stim_running), .done(stim_done), .done_pulse(stim_done_pulse),
                .sent(stim_sent)
            );
        end else begin : g_no_stim
            assign stim_pulse = 1'b0;
            assign stim_id = {ID_WIDTH{1'b0}};
            assign stim_running = 1'b0;
            assign stim_done = 1'b0;
            assign stim_done_pulse = 1'b0;
            assign stim_sent = 32'd0;
            wire unused_stim = ^{stim_start, stim_stop, stim_mode, stim_period, stim_min,
                                 stim_max, stim_burst, stim_pause, stim_total, stim_seed};
        end
    endgenerate

    assign stim_out = stim_pulse;

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
        .ADDR_WIDTH(ADDR_WIDTH), .HAS_HIST(HAS_HIST), .HIST_BINS_LOG2(HIST_BINS_LOG2),
        .HAS_STAMP(HAS_STAMP), .STAMP_ENTRIES(STAMP_ENTRIES), .HAS_STIM(HAS_STIM),
        .ID_WIDTH(ID_WIDTH)
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
        .hist_start(hist_start), .hist_shift(hist_shift), .hist_snapshot(hist_snapshot),
        .hist_busy(hist_busy), .hist_saturated(hist_saturated),
        .hist_snapshots(hist_snapshots), .hist_dropped(hist_dropped),
        .hist_underflow(hist_underflow), .hist_overflow(hist_overflow),
        .hist_count(hist_count), .hist_sum(hist_sum), .hist_min(hist_min), .hist_max(hist_max),
        .hist_rd_addr(hist_rd_addr), .hist_rd_data(hist_rd_data),
        .stamp_enable(stamp_enable), .stamp_timeout(stamp_timeout),
        .stamp_matched(stamp_matched), .stamp_unmatched(stamp_unmatched),
        .stamp_timeouts(stamp_timeouts), .stamp_full(stamp_full),
        .stamp_duplicates(stamp_duplicates), .stamp_outstanding(stamp_outstanding),
        .stamp_time(stamp_time),
        .stim_start(stim_start), .stim_stop(stim_stop), .stim_mode(stim_mode),
        .stim_loop(stim_loop), .stim_stamp(stim_stamp), .stim_period(stim_period),
        .stim_min(stim_min), .stim_max(stim_max), .stim_burst(stim_burst),
        .stim_pause(stim_pause), .stim_total(stim_total), .stim_seed(stim_seed),
        .stim_running(stim_running), .stim_done(stim_done), .stim_sent(stim_sent),
        .ev_stim_done(stim_done_pulse), .ev_hist_ready(hist_ready),
        .irq_out(irq_out)
    );

    assign alarm = stats_alarm;

    // The per-sample saturation flag is the all-ones latency itself (LAST, trace words).
    wire unused_saturated = sample_saturated;

endmodule

`default_nettype wire
