// latmon_stim: stimulus generator — drives the system under test with one-cycle pulses at
// programmed intervals, and numbers them (an ID for start events of the timestamp mode).
//
//   mode 0, periodic:  every `period` cycles;
//   mode 1, random:    intervals uniform in [interval_min, interval_max] cycles, drawn from a
//                      32-bit xorshift generator (a linear feedback shift register generator,
//                      seeded by `seed`): interval = min + ((x[31:16] * (max - min + 1)) >> 16),
//                      one 16 x 33-bit multiplication (a span up to 65,536 cycles takes every
//                      value, each with probability within 1/65,536 of uniform);
//   mode 2, burst:     `burst_len` pulses `period` cycles apart, then `pause` cycles from the
//                      last pulse of a burst to the first of the next.
//
// `start` (a one-cycle strobe) seeds the run; the next cycle loads the first interval I, and the
// first pulse is high in cycle s + I + 2 (start high in cycle s; `pulse` is registered), each
// further one an interval after the previous. After `total` pulses (0: without end) the generator stops and
// raises `done` (until the next start) and `done_pulse` (one cycle). `stop` ends a run early
// (without done). An interval of 0 counts as 1. `pulse_id` is the number of the pulse (0 for
// the first of a run), valid with `pulse`; `sent` counts the pulses of the run.
//
// Pulses one cycle apart (interval 1) form a level, not edges: for an edge-triggered input use
// intervals of at least 2.
`timescale 1ns / 1ps
`default_nettype none

module latmon_stim #(
    // Width of the pulse ID (8..32).
    parameter ID_WIDTH = 16
) (
    input  wire                clk,
    input  wire                rst,

    input  wire                start,
    input  wire                stop,
    input  wire [1:0]          mode,
    input  wire [31:0]         period,        // periodic: the period; burst: the spacing
    input  wire [31:0]         interval_min,  // random mode
    input  wire [31:0]         interval_max,  // random mode (below min: min)
    input  wire [31:0]         burst_len,     // pulses per burst (0 counts as 1)
    input  wire [31:0]         pause,         // burst mode: last pulse to next burst's first
    input  wire [31:0]         total,         // pulses per run; 0 = until stopped
    input  wire [31:0]         seed,          // random mode (0 is replaced by 1)

    output reg                 pulse = 1'b0,
    output reg  [ID_WIDTH-1:0] pulse_id = {ID_WIDTH{1'b0}},
    output reg                 running = 1'b0,
    output reg                 done = 1'b0,
    output reg                 done_pulse = 1'b0,
    output reg  [31:0]         sent = 32'd0
);

    localparam MODE_RANDOM = 2'd1;
    localparam MODE_BURST = 2'd2;

    initial begin
        if (ID_WIDTH < 8 || ID_WIDTH > 32)
            $fatal(1, "latmon_stim: ID_WIDTH must be 8..32, not %0d", ID_WIDTH);
    end

    reg [31:0] x = 32'd1;          // xorshift32 state
    reg [31:0] wait_left = 32'd0;  // cycles to the next pulse (1: it comes next cycle)
    reg [31:0] in_burst = 32'd0;   // pulses sent in the current burst
    reg        load = 1'b0;        // the cycle after start: load the first interval

    // One xorshift32 step.
    function [31:0] xorshift;
        input [31:0] v;
        reg [31:0] a;
        begin
            a = v ^ (v << 13);
            a = a ^ (a >> 17);
            xorshift = a ^ (a << 5);
        end
    endfunction

    // A random interval from the generator state v: min + floor(v[31:16] * span / 2^16).
    wire [31:0] lo = interval_min;
    wire [31:0] hi = interval_max < interval_min ? interval_min : interval_max;
    wire [32:0] span = {1'b0, hi} - {1'b0, lo} + 33'd1;
    /* verilator lint_off UNUSEDSIGNAL */  // the fraction bits product[15:0] are dropped
    function [31:0] random_interval;
        input [15:0] v;
        reg [48:0] product;
        begin
            product = v * span;
            random_interval = lo + product[47:16];  // product < 2^48: bit 48 is always 0
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    function [31:0] at_least_1;
        input [31:0] v;
        begin
            at_least_1 = v == 32'd0 ? 32'd1 : v;
        end
    endfunction

    wire [31:0] seed_state = seed == 32'd0 ? 32'd1 : seed;
    wire [31:0] x_next = xorshift(x);
    wire [31:0] burst_n = at_least_1(burst_len);
    wire        last_of_run = total != 32'd0 && sent + 32'd1 == total;
    wire        last_of_burst = in_burst + 32'd1 >= burst_n;

    // The interval after the pulse being sent now (or the first, when loading).
    reg [31:0] next_interval;
    always @* begin
        case (mode)
            MODE_RANDOM: next_interval = random_interval(x_next[31:16]);
            MODE_BURST: next_interval = (last_of_burst && !load) ? pause : period;
            default: next_interval = period;
        endcase
    end

    always @(posedge clk) begin
        pulse <= 1'b0;
        done_pulse <= 1'b0;
        if (start) begin
            running <= 1'b1;
            load <= 1'b1;
            done <= 1'b0;
            sent <= 32'd0;
            in_burst <= 32'd0;
            pulse_id <= {ID_WIDTH{1'b0}};
            x <= seed_state;
        end else if (stop) begin
            running <= 1'b0;
            load <= 1'b0;
        end else if (load) begin
            load <= 1'b0;
            if (mode == MODE_RANDOM)
                x <= x_next;
            wait_left <= at_least_1(next_interval);
        end else if (running) begin
            if (wait_left == 32'd1) begin
                pulse <= 1'b1;
                pulse_id <= sent[ID_WIDTH-1:0];
                sent <= sent + 32'd1;
                in_burst <= last_of_burst ? 32'd0 : in_burst + 32'd1;
                if (mode == MODE_RANDOM)
                    x <= x_next;
                wait_left <= at_least_1(next_interval);
                if (last_of_run) begin
                    running <= 1'b0;
                    done <= 1'b1;
                    done_pulse <= 1'b1;
                end
            end else begin
                wait_left <= wait_left - 32'd1;
            end
        end
        if (rst) begin
            pulse <= 1'b0;
            running <= 1'b0;
            load <= 1'b0;
            done <= 1'b0;
            done_pulse <= 1'b0;
            sent <= 32'd0;
            in_burst <= 32'd0;
            x <= 32'd1;
            wait_left <= 32'd0;
        end
    end

endmodule

`default_nettype wire
