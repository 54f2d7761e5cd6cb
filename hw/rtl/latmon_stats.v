// latmon_stats: running statistics of the measured latencies and the deadline alarm.
//
// last, min, max, count and sum (SUM_WIDTH bits, so that the mean sum/count is exact), the
// alarm threshold with a sticky alarm flag and a violation count, and the counters of timeouts,
// overruns and ignored acks. Every counter and the sum saturate instead of wrapping; `saturated`
// reports that one did (a latency that saturated, all ones, does not: it is marked by its value).
// Timing, PIPE_COMPARE = 1: LAST follows a sample by one clock cycle; MIN, MAX, COUNT, SUM, the
// alarm, violation_pulse and VIOLATIONS by two (the sample's comparisons are registered in
// between, so no comparator's carry chain feeds a register's enable). PIPE_COMPARE = 0: every
// result follows a sample by one cycle (violation_pulse comes with the sample), each comparison
// a carry chain straight into its register's enable — three comparators where the pipeline has
// five, and no second copy of the sample; for narrow latencies (the published 16 bits), whose
// chains are short. TIMEOUTS, OVERRUNS and IGNORED follow their pulses by one. Samples may
// arrive in every cycle.
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
    parameter HAS_TIMEOUT = 1,
    // The sample's comparisons in a pipeline stage of their own (1), or straight into MIN, MAX
    // and the alarm (0: smaller, for narrow latencies).
    parameter PIPE_COMPARE = 1,
    // PIPE_COMPARE = 0 only: 1 when sample_latency holds the last sample until the next one
    // and is 0 after clear and reset (the core's output), so that LAST is read from it and
    // needs no register of its own.
    parameter SOURCE_HOLDS = 0
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

    output wire [CNT_WIDTH-1:0]     last,
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

    wire stats_valid;  // the sample as COUNT takes it
    wire sum_full;     // the sum saturated

    generate
        if (PIPE_COMPARE != 0) begin : g_pipe
            // ---- stage 1: the sample and its comparisons, registered ----------------------------
            //
            // Every comparison of a sample (against the threshold, MIN, MAX and the sample before
            // it) has a whole cycle: its carry chain ends in a flip-flop. Stage 2 then applies the
            // sample with no comparator in front of a register. MIN and MAX stay exact for samples
            // in consecutive cycles: the sample before (in stage 2 when this one is compared) is
            // about to be written, so this one is compared against it too, and stage 2 takes
            // whichever comparison holds against the MIN/MAX it meets.
            reg                 valid_reg = 1'b0;
            reg [CNT_WIDTH-1:0] sample_reg = {CNT_WIDTH{1'b0}};   // the last sample: LAST
            reg                 threshold_on_reg = 1'b0;      // THRESHOLD != 0, as compared
            reg                 above_threshold_reg = 1'b0;
            reg                 below_min_reg = 1'b0;
            reg                 above_max_reg = 1'b0;
            reg                 below_prev_reg = 1'b0;
            reg                 above_prev_reg = 1'b0;

            // Each comparison is the borrow of a subtraction (a < b: a - b borrows), the top bit of
            // a carry chain straight into a flip-flop. Written as subtractions, not as < and >:
            // Yosys then neither shares one chain between a < b and a > b (deriving > with a wide
            // equality) nor splits a compare into a chain and a multiplexer.
            wire [CNT_WIDTH:0] threshold_minus_sample = {1'b0, threshold} - {1'b0, sample_latency};
            wire [CNT_WIDTH:0] sample_minus_min = {1'b0, sample_latency} - {1'b0, min};
            wire [CNT_WIDTH:0] max_minus_sample = {1'b0, max} - {1'b0, sample_latency};
            wire [CNT_WIDTH:0] sample_minus_prev = {1'b0, sample_latency} - {1'b0, sample_reg};
            wire [CNT_WIDTH:0] prev_minus_sample = {1'b0, sample_reg} - {1'b0, sample_latency};

            always @(posedge clk) begin
                valid_reg <= sample_valid && !reset;
                threshold_on_reg <= threshold != {CNT_WIDTH{1'b0}};
                above_threshold_reg <= threshold_minus_sample[CNT_WIDTH];
                below_min_reg <= sample_minus_min[CNT_WIDTH];
                above_max_reg <= max_minus_sample[CNT_WIDTH];
                below_prev_reg <= sample_minus_prev[CNT_WIDTH];
                above_prev_reg <= prev_minus_sample[CNT_WIDTH];
                if (sample_valid)
                    sample_reg <= sample_latency;
                if (reset)
                    sample_reg <= {CNT_WIDTH{1'b0}};
            end

            // ---- stage 2: the statistics --------------------------------------------------------

            // Did the sample before write MIN (MAX) at the end of the last cycle? Then MIN (MAX) is
            // that sample now, and the comparison against it decides.
            reg  min_was_prev_reg = 1'b0;
            reg  max_was_prev_reg = 1'b0;
            wire min_we = valid_reg && (min_was_prev_reg ? below_prev_reg : below_min_reg);
            wire max_we = valid_reg && (max_was_prev_reg ? above_prev_reg : above_max_reg);

            assign violation_pulse = valid_reg && threshold_on_reg && above_threshold_reg;
            assign last = sample_reg;

            // The sum saturates without a multiplexer behind the adder: the accumulator has one bit
            // more than the sum, the adder's carry-out goes straight into it (as every sum bit goes
            // straight from the carry chain into its flip-flop), and once it is set the accumulator
            // stops and the sum reads all ones. So no carry-out drives an enable or a multiplexer.
            reg  [SUM_WIDTH:0] sum_acc = {(SUM_WIDTH+1){1'b0}};
            assign sum_full = sum_acc[SUM_WIDTH];
            assign sum = sum_full ? {SUM_WIDTH{1'b1}} : sum_acc[SUM_WIDTH-1:0];

            always @(posedge clk) begin
                min_was_prev_reg <= min_we && !reset;
                max_was_prev_reg <= max_we && !reset;
                if (min_we)
                    min <= sample_reg;
                if (max_we)
                    max <= sample_reg;
                if (valid_reg && !sum_full)
                    sum_acc <= sum_acc + {{(SUM_WIDTH-CNT_WIDTH+1){1'b0}}, sample_reg};
                if (reset) begin
                    min <= {CNT_WIDTH{1'b1}};
                    max <= {CNT_WIDTH{1'b0}};
                    sum_acc <= {(SUM_WIDTH+1){1'b0}};
                end
            end

            assign stats_valid = valid_reg;
        end else begin : g_direct
            // ---- one stage: each comparison straight into its register -------------------------
            // Against MIN and MAX as they are: a sample in the next cycle meets the ones this
            // sample wrote, so samples in consecutive cycles need nothing more.
            // The threshold's comparison is the borrow of a subtraction, as in g_pipe: as `>`,
            // Yosys puts a multiplexer between its chain and the alarm (under 250 MHz on ECP5).
            // MIN's and MAX's stay < and >: as subtractions they take 9 more LUTs.
            wire take = sample_valid && !reset;
            wire [CNT_WIDTH:0] threshold_minus_sample = {1'b0, threshold} - {1'b0, sample_latency};
            wire below_min = sample_latency < min;
            wire above_max = sample_latency > max;
            assign violation_pulse = take && threshold != {CNT_WIDTH{1'b0}} &&
                                     threshold_minus_sample[CNT_WIDTH];
            assign stats_valid = take;
            if (SOURCE_HOLDS != 0) begin : g_last_source
                // LAST a cycle later than the other results would be: the source's register,
                // which the sample's cycle loads (as LAST's own register would a cycle later)
                assign last = sample_latency;
            end else begin : g_last_reg
                reg [CNT_WIDTH-1:0] last_reg = {CNT_WIDTH{1'b0}};
                always @(posedge clk) begin
                    if (sample_valid)
                        last_reg <= sample_latency;
                    if (reset)
                        last_reg <= {CNT_WIDTH{1'b0}};
                end
                assign last = last_reg;
            end
            reg [SUM_WIDTH:0] sum_acc = {(SUM_WIDTH+1){1'b0}};
            assign sum_full = sum_acc[SUM_WIDTH];
            assign sum = sum_full ? {SUM_WIDTH{1'b1}} : sum_acc[SUM_WIDTH-1:0];
            // (the enables leave the reset out: it wins below, and is not in series with the
            // comparators' carry chains)
            always @(posedge clk) begin
                if (sample_valid && below_min)
                    min <= sample_latency;
                if (sample_valid && above_max)
                    max <= sample_latency;
                if (take && !sum_full)
                    sum_acc <= sum_acc + {{(SUM_WIDTH-CNT_WIDTH+1){1'b0}}, sample_latency};
                if (reset) begin
                    min <= {CNT_WIDTH{1'b1}};
                    max <= {CNT_WIDTH{1'b0}};
                    sum_acc <= {(SUM_WIDTH+1){1'b0}};
                end
            end
        end
    endgenerate

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
        .clk(clk), .clear(reset), .inc(stats_valid), .value(count), .full(count_full)
    );
    latmon_counter #(.WIDTH(COUNTER_WIDTH)) violations_inst (
        .clk(clk), .clear(reset), .inc(violation_pulse), .value(violations),
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
