// latmon_stats: running statistics of the measured latencies and the deadline alarm.
//
// last, min, max, count and sum (SUM_WIDTH bits, so that the mean sum/count is exact), the
// alarm threshold with a sticky alarm flag and a violation count, and the counters of timeouts,
// overruns and ignored acks. Every counter and the sum saturate instead of wrapping; `saturated`
// reports that one did (a latency that saturated, all ones, does not: it is marked by its value).
// Results follow a sample by one clock cycle.
`timescale 1ns / 1ps
`default_nettype none

module latmon_stats #(
    // Width of the latencies (the core's CNT_WIDTH).
    parameter CNT_WIDTH = 32,
    // Width of the event counters (count, violations, timeouts, overruns, ignored).
    parameter COUNTER_WIDTH = 32,
    // Width of the sum of latencies (at least 48: 2^16 samples of the largest 32-bit latency).
    parameter SUM_WIDTH = 48,
    // Which results the IP reads (an absent one is left out, and does not set `saturated`):
    // the sum; violations, overruns and ignored; timeouts.
    parameter HAS_SUM = 1,
    parameter HAS_COUNTERS = 1,
    parameter HAS_TIMEOUT = 1
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     clear,

    input  wire [CNT_WIDTH-1:0]     threshold,     // violation: latency > threshold; 0: off
    input  wire                     alarm_clear,   // software acknowledges the alarm

    input  wire                     sample_valid,
    input  wire [CNT_WIDTH-1:0]     sample_latency,
    input  wire                     timeout_pulse,
    input  wire                     overrun_pulse,
    input  wire                     ignored_pulse,

    output reg  [CNT_WIDTH-1:0]     last = {CNT_WIDTH{1'b0}},
    output reg  [CNT_WIDTH-1:0]     min = {CNT_WIDTH{1'b1}},
    output reg  [CNT_WIDTH-1:0]     max = {CNT_WIDTH{1'b0}},
    output wire [SUM_WIDTH-1:0]     sum,
    output wire [COUNTER_WIDTH-1:0] count,
    output wire [COUNTER_WIDTH-1:0] violations,
    output wire [COUNTER_WIDTH-1:0] timeouts,
    output wire [COUNTER_WIDTH-1:0] overruns,
    output wire [COUNTER_WIDTH-1:0] ignored,
    output reg                      alarm = 1'b0,
    output wire                     violation_pulse,
    output wire                     saturated
);

    initial begin
        if (SUM_WIDTH < CNT_WIDTH || SUM_WIDTH > 64)
            $fatal(1, "latmon_stats: SUM_WIDTH must be CNT_WIDTH..64, not %0d", SUM_WIDTH);
    end

    wire reset = rst || clear;

    // The sum saturates without a multiplexer behind the adder: the accumulator adds on (its
    // sum bits go straight from the carry chain into the flip-flops), its carry-out sets a
    // sticky flag, and the sum reads all ones from then on. So the adder's carry-out drives one
    // flip-flop, not SUM_WIDTH multiplexers.
    reg  [SUM_WIDTH-1:0] sum_acc = {SUM_WIDTH{1'b0}};
    reg                  sum_full = 1'b0;
    wire [SUM_WIDTH:0]   sum_next = {1'b0, sum_acc} +
                                    {{(SUM_WIDTH-CNT_WIDTH+1){1'b0}}, sample_latency};
    assign sum = sum_full ? {SUM_WIDTH{1'b1}} : sum_acc;

    assign violation_pulse = sample_valid && threshold != {CNT_WIDTH{1'b0}} &&
                             sample_latency > threshold;
    // VIOLATIONS counts one cycle after the alarm goes up: the comparison drives the alarm and
    // this register, not the counter's clock enables.
    reg violation_reg = 1'b0;
    always @(posedge clk)
        violation_reg <= violation_pulse && !reset;

    always @(posedge clk) begin
        if (reset) begin
            last <= {CNT_WIDTH{1'b0}};
            min <= {CNT_WIDTH{1'b1}};
            max <= {CNT_WIDTH{1'b0}};
            sum_acc <= {SUM_WIDTH{1'b0}};
            sum_full <= 1'b0;
        end else if (sample_valid) begin
            last <= sample_latency;
            if (sample_latency < min)
                min <= sample_latency;
            if (sample_latency > max)
                max <= sample_latency;
            sum_acc <= sum_next[SUM_WIDTH-1:0];
            if (sum_next[SUM_WIDTH])
                sum_full <= 1'b1;
        end
    end


    always @(posedge clk) begin
        if (reset)
            alarm <= 1'b0;
        else if (violation_pulse)
            alarm <= 1'b1;  // a new violation wins over a simultaneous acknowledgement
        else if (alarm_clear)
            alarm <= 1'b0;
    end

    wire count_full, violations_full, timeouts_full, overruns_full, ignored_full;

    latmon_counter #(.WIDTH(COUNTER_WIDTH)) count_inst (
        .clk(clk), .clear(reset), .inc(sample_valid), .value(count), .full(count_full)
    );
    latmon_counter #(.WIDTH(COUNTER_WIDTH)) violations_inst (
        .clk(clk), .clear(reset), .inc(violation_reg), .value(violations),
        .full(violations_full)
    );
    latmon_counter #(.WIDTH(COUNTER_WIDTH)) timeouts_inst (
        .clk(clk), .clear(reset), .inc(timeout_pulse), .value(timeouts), .full(timeouts_full)
    );
    latmon_counter #(.WIDTH(COUNTER_WIDTH)) overruns_inst (
        .clk(clk), .clear(reset), .inc(overrun_pulse), .value(overruns), .full(overruns_full)
    );
    latmon_counter #(.WIDTH(COUNTER_WIDTH)) ignored_inst (
        .clk(clk), .clear(reset), .inc(ignored_pulse), .value(ignored), .full(ignored_full)
    );

    assign saturated = (HAS_SUM != 0 && sum_full) || count_full ||
                       (HAS_COUNTERS != 0 && (violations_full || overruns_full || ignored_full)) ||
                       (HAS_TIMEOUT != 0 && timeouts_full);

endmodule

`default_nettype wire
