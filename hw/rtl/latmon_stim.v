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
// `start` (a one-cycle strobe) seeds the run. The random intervals are computed ahead, in a
// pipeline that advances once per pulse (xorshift step; the two partial products; their sum;
// the addition of min), so that no cycle does more than one of these steps: the span
// (max - min + 1) is ready three cycles after start, the pipeline is filled in the three cycles
// after that, the sixth after start loads the first interval I, and the first pulse is high in
// cycle s + I + 7 (start high in cycle s; `pulse` is registered), each further
// one an interval after the previous — in every mode, so that a mode's timing does not depend on
// another's. After `total` pulses (0: without end) the generator stops and raises `done` (until
// the next start) and `done_pulse` (one cycle). `stop` ends a run early (without done). An
// interval of 0 counts as 1. `pulse_id` is the number of the pulse (0 for the first of a run),
// valid with `pulse`; `sent` counts the pulses of the run. The inputs are sampled from the cycle
// of start on, through registers (the configuration is static during a run).
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
    // Pipeline advances between start and the load of the first interval.
    // The first two cycles after start wait for the span (three steps from the inputs at start).
    localparam [2:0] FILL = 3'd5;

    initial begin
        if (ID_WIDTH < 8 || ID_WIDTH > 32)
            $fatal(1, "latmon_stim: ID_WIDTH must be 8..32, not %0d", ID_WIDTH);
    end

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

    // ---- the configuration, registered (it is static during a run) -------------------------
    reg [32:0] diff = 33'd0;          // interval_max - interval_min; bit 32: max below min
    reg [32:0] span = 33'd1;          // max(interval_max, interval_min) - interval_min + 1
    reg [32:0] span_m = 33'd1;        // span, the multiplier's operand (the register it keeps)
    reg        lo_is_0 = 1'b1;
    reg        lo_is_1 = 1'b0;
    reg        period_le_1 = 1'b1;    // an interval of period (or pause) is one cycle
    reg        pause_le_1 = 1'b1;
    reg        burst_le_1 = 1'b1;     // bursts of one pulse: every interval after the first a pause
    // The countdowns of a run stop at -1 and are loaded with their value less 3 or 2 (signed,
    // 33 bits), so that the sign bit, a flip-flop, says what a 32-bit compare said (see below).
    reg [32:0] lo_m3 = 33'd0;          // interval_min - 3
    reg [32:0] period_m3 = 33'd0;      // period - 3
    reg [32:0] pause_m3 = 33'd0;       // pause - 3
    reg        burst_len_0 = 1'b1;     // burst_len == 0
    reg [32:0] burst_len_m3 = 33'd0;   // burst_len - 3
    reg [32:0] burst_pl = 33'd0;       // period intervals between two pauses (burst_len - 1), - 2
    // The low halves (bits 15:0) of the interval countdown's loads are zero (see wait_m3), a
    // cycle after the values (from the third cycle after start on; the first load is the sixth).
    reg        period_m3_lo_0 = 1'b0;
    reg        pause_m3_lo_0 = 1'b0;
    reg [15:0] lo_m3_neg = 16'd0;      // -(interval_min - 3), low half: r_m3's low half is 0
                                       // when q's is this
    // The "is 0 or 1" flags in two steps: bits 31:16 zero, bits 15:1 zero (registered), then
    // their AND. A 31-input AND before one flip-flop was mapped as a chain of five LUTs.
    reg        min_hi_0 = 1'b1, min_mid_0 = 1'b1, min_b0 = 1'b0;
    reg        period_hi_0 = 1'b1, period_mid_0 = 1'b1;
    reg        pause_hi_0 = 1'b1, pause_mid_0 = 1'b1;
    reg        burst_hi_0 = 1'b1, burst_mid_0 = 1'b1, burst_b0 = 1'b0;
    always @(posedge clk) begin
        min_hi_0 <= interval_min[31:16] == 16'd0;
        min_mid_0 <= interval_min[15:1] == 15'd0;
        min_b0 <= interval_min[0];
        period_hi_0 <= period[31:16] == 16'd0;
        period_mid_0 <= period[15:1] == 15'd0;
        pause_hi_0 <= pause[31:16] == 16'd0;
        pause_mid_0 <= pause[15:1] == 15'd0;
        burst_hi_0 <= burst_len[31:16] == 16'd0;
        burst_mid_0 <= burst_len[15:1] == 15'd0;
        burst_b0 <= burst_len[0];
        lo_m3 <= {1'b0, interval_min} - 33'd3;
        // In two steps, one carry chain each, then copied for the multiplier (the span is used
        // from the third cycle after start on, see `fill`).
        diff <= {1'b0, interval_max} - {1'b0, interval_min};
        // (max below min: 1 — written after the addition, so that it is the flip-flops'
        // synchronous set/reset from diff's sign, not a multiplexer in front of the carry chain)
        span <= diff[32] ? 33'd1 : diff + 33'd1;
        // A plain copy: where the multiplier has input registers (ECP5's MULT18X18D, DSP48),
        // this one moves into them with nothing but routing before it.
        span_m <= span;
        lo_is_0 <= min_hi_0 && min_mid_0 && !min_b0;
        lo_is_1 <= min_hi_0 && min_mid_0 && min_b0;
        period_le_1 <= period_hi_0 && period_mid_0;
        pause_le_1 <= pause_hi_0 && pause_mid_0;
        burst_le_1 <= burst_hi_0 && burst_mid_0;
        burst_len_0 <= burst_hi_0 && burst_mid_0 && !burst_b0;
        burst_len_m3 <= {1'b0, burst_len} - 33'd3;
        burst_pl <= burst_len_0 ? 33'h1FFFFFFFE : burst_len_m3;  // -2: none
        period_m3 <= {1'b0, period} - 33'd3;
        pause_m3 <= {1'b0, pause} - 33'd3;
        period_m3_lo_0 <= period_m3[15:0] == 16'd0;
        pause_m3_lo_0 <= pause_m3[15:0] == 16'd0;
        lo_m3_neg <= 16'd0 - lo_m3[15:0];
    end

    // ---- the random intervals, computed ahead --------------------------------------------
    // Stage x: the generator state of the next interval but two; pp: its partial products;
    // q: the interval but one minus min; r: the next interval (less 3) and whether it is at
    // most 1.
    // All stages move together (`advance`): once per cycle while filling, then at the load and
    // at each pulse.
    // The first state of a run seeded now, in two steps (no 32-bit compare before the xorshift):
    // the seed's xorshift and whether it is 0, then the choice; `seeding`, the second cycle
    // after start, takes it (the seed of the start cycle) into x, which first advances a cycle
    // later.
    localparam [31:0] SEEDED_ONE = 32'h00042021;  // xorshift(1): a seed of 0 is replaced by 1
    reg  [31:0] seed_xs = 32'd0;      // xorshift(seed)
    reg         seed_zero = 1'b1;     // seed == 0
    reg  [31:0] seeded = SEEDED_ONE;
    reg  [31:0] x = 32'd1;
    reg  [32:0] pp_lo = 33'd0;        // x[31:16] * span_m[16:0]
    reg  [32:0] pp_hi = 33'd0;        // x[31:16] * span_m[32:17]
    reg  [31:0] q = 32'd0;            // (x[31:16] * span) >> 16
    reg  [32:0] r_m3 = 33'd0;         // the next interval - 3
    reg         r_le_1 = 1'b0;
    reg         r_m3_lo_0 = 1'b0;     // r_m3[15:0] == 0
    /* verilator lint_off UNUSEDSIGNAL */  // the fraction bits of the product are dropped
    wire [49:0] product = {17'd0, pp_lo} + {pp_hi, 17'd0};
    /* verilator lint_on UNUSEDSIGNAL */
    reg         advance = 1'b0;        // the stages move (a flip-flop, see `fire_next`)

    always @(posedge clk) begin
        seed_xs <= xorshift(seed);
        seed_zero <= seed == 32'd0;
        seeded <= seed_zero ? SEEDED_ONE : seed_xs;
        // seeding and advance are never high together (advance is filling, a load or a
        // pulse; seeding comes before filling), so the stages after x take advance alone as
        // their enable.
        if (seeding)  // the second cycle after start: the seed of the start cycle
            x <= seeded;
        else if (advance)
            x <= xorshift(x);
        if (advance) begin
            pp_lo <= x[31:16] * span_m[16:0];
            pp_hi <= x[31:16] * span_m[32:17];
            q <= product[47:16];  // product < 2^48
            r_m3 <= lo_m3 + {1'b0, q};  // q <= max - min: no overflow
            r_le_1 <= (lo_is_0 && q[31:1] == 31'd0) || (lo_is_1 && q == 32'd0);
            r_m3_lo_0 <= q[15:0] == lo_m3_neg;  // (lo_m3 + q)[15:0] == 0
        end
    end

    // ---- the run ---------------------------------------------------------------------------
    reg [2:0]  fill = 3'd0;            // cycles left before the first load (advances from 3)
    reg        seeding = 1'b0;         // fill == FILL - 1: the second cycle after start
    reg        filling = 1'b0;         // fill is 1..3: the pipeline advances
    reg        filled = 1'b1;          // fill == 0
    reg        load = 1'b0;            // this cycle loads the first interval
    // Three countdowns, each kept as its value less 2 or 3 in 33 bits, so that "reaches 1" is
    // the sign bit: while one counts down it never stands below the value it is judged at.
    //   wait_m3   cycles to the next pulse, less 3. It is counted down only while due is low,
    //             i.e. while at least 2 cycles are left (wait_m3 >= -1); the next cycle is
    //             the last (due) when 2 are left now, wait_m3 = -1: its sign. Kept as two
    //             halves of 16 and 17 bits, each its own carry chain (latmon_countdown: one
    //             33-bit chain and its load multiplexer were core+stim's critical path).
    //   pl        burst mode: the period intervals before the next pause, less 2. pause_next
    //             is "none left" (a reload follows), so pl is counted down from >= -1 only
    //             and "1 left now" (the next interval is a pause) is its sign.
    //   ll        pulses left in the run, less 2 (not endless): the run ends at a pulse when 1
    //             is left, ll = -1, its sign; from >= 1 left it is counted down only. Kept as
    //             two halves like wait_m3 (its 33-bit chain was the large builds' critical
    //             path), counted down at each pulse. The load (in the cycle after start's)
    //             takes total's halves as they are, less 2 in the low half only, and the borrow
    //             into the high half (total's low half below 2, ll_borrow) is taken a cycle
    //             later, before any pulse can read the sign (the first comes after the load of
    //             the first interval, cycles later): from then on the pair is ll in every cycle.
    /* verilator lint_off UNUSEDSIGNAL */  // the countdowns' values: for the checks only
    wire [32:0] wait_m3;
    wire [32:0] ll;
    wire       wait_sign_next, ll_sign_next;
    /* verilator lint_on UNUSEDSIGNAL */
    wire       wait_sign;              // wait_m3[32]
    reg        due = 1'b0;             // at most 1 cycle left: the pulse goes out at the next edge
    reg        pause_next = 1'b0;      // burst mode: the next interval is a pause
    reg [32:0] pl = 33'd0;
    reg [31:0] total_s = 32'd0;        // total, sampled at start
    reg        endless = 1'b0;         // total == 0 (from the cycle after start's)
    reg        ll_borrow = 1'b0;       // the load's borrow into ll's high half is still to be taken
    wire       one_left;               // ll[32]: 1 pulse left

    // The mode as flags (registered: static during a run), and "the next interval is a pause"
    // (burst mode, pause_next, not the first interval) as a flip-flop of its own, set where
    // pause_next is and cleared at start: the interval's multiplexer has three data inputs and
    // two select flip-flops.
    reg random_mode = 1'b0;
    reg burst_mode = 1'b0;
    reg pause_now = 1'b0;
    always @(posedge clk) begin
        random_mode <= mode == MODE_RANDOM;
        burst_mode <= mode == MODE_BURST;
    end

    // `ready` = running && filled && !load, kept as a flip-flop of its own (set at the load,
    // cleared where one of the three changes), so that a pulse (`fire`) and the step it makes
    // (`step`: load the next interval) are one LUT from flip-flops. The random stages advance
    // at every step, in every mode: outside random mode nothing reads them, and a start reseeds
    // them.
    reg  ready = 1'b0;
    wire fire = ready && due;
    wire step = load || fire;
    // advance = filling || step, as a flip-flop: its next value is spelled out from the next
    // values of filling, load, ready and due (below, checked against that definition in every
    // simulated cycle). It is the multiplier's clock enable, and the multiplier is a fixed
    // block away from the run's control: as logic (three LUTs after the shared `fire` and
    // `step`) it was core+stim's critical path.
    // Spelled out by case (ready implies !load, so a load is not a fire): at the load, due
    // next if the first interval is one cycle; at a fire, if the next one is and the run does
    // not end here; else (ready, not due) when the countdown says so. next_le_1 is kept as a
    // net of its own (one LUT from flip-flops), so that synthesis does not spread its
    // multiplexer through the terms: this is then two LUT levels, `advance` three.
    wire fill_advances = !filled && fill != 3'd0 && fill <= 3'd4;  // filling or load next
    wire ends_here = !endless && one_left;  // a pulse now is the run's last
    wire fire_next = load ? next_le_1_kept
                          : ready && (due ? !ends_here && next_le_1_kept : wait_sign);
    always @(posedge clk)
        advance <= !rst && !start && !stop && (fill_advances || fire_next);
    // synthesis translate_off
    always @(posedge clk)
        if (advance != (filling || step))
            $fatal(1, "latmon_stim: advance %0d, filling %0d, step %0d", advance, filling, step);
    // synthesis translate_on

    // The interval loaded now (in `load` the first, else the one after the pulse sent now),
    // less 3.
    reg [32:0] next_m3;
    reg        next_le_1;
    reg        next_lo_0;  // next_m3[15:0] == 0
    (* keep *) wire next_le_1_kept;
    assign next_le_1_kept = next_le_1;
    always @* begin
        if (random_mode) begin
            next_m3 = r_m3;
            next_le_1 = r_le_1;
            next_lo_0 = r_m3_lo_0;
        end else if (pause_now) begin
            next_m3 = pause_m3;
            next_le_1 = pause_le_1;
            next_lo_0 = pause_m3_lo_0;
        end else begin
            next_m3 = period_m3;
            next_le_1 = period_le_1;
            next_lo_0 = period_m3_lo_0;
        end
    end

    // The pulse: a fire, unless START, STOP or rst comes with it. (`ready` implies `filled`:
    // it is set at the load, which ends the fill, and cleared by START and STOP, the only ways
    // back to filling; so the fire branch below needs no `filled` term here.) Written apart
    // from the run's control, the pulse is a small function of five flip-flops and inputs; as
    // part of that control it was built from the `advance` logic, behind four LUTs.
    always @(posedge clk)
        pulse <= fire && !start && !stop && !rst;
    // done_pulse likewise: the fire that ends the run (within the run's control below,
    // synthesis built it from that control's shared terms, four LUTs deep).
    always @(posedge clk)
        done_pulse <= fire && ends_here && !start && !stop && !rst;
    // synthesis translate_off
    always @(posedge clk)
        if (ready && !filled)
            $fatal(1, "latmon_stim: ready without filled");
    // synthesis translate_on

    always @(posedge clk) begin
        if (start) begin
            running <= 1'b1;
            ready <= 1'b0;
            fill <= FILL;
            seeding <= 1'b0;
            filling <= 1'b0;
            filled <= 1'b0;
            load <= 1'b0;
            done <= 1'b0;
            sent <= 32'd0;
            pulse_id <= {ID_WIDTH{1'b0}};
            total_s <= total;
        end else if (stop) begin
            running <= 1'b0;
            ready <= 1'b0;
            fill <= 3'd0;
            seeding <= 1'b0;
            filling <= 1'b0;
            filled <= 1'b1;
            load <= 1'b0;
        end else if (!filled) begin
            fill <= fill - 3'd1;
            seeding <= fill == FILL;
            filling <= fill >= 3'd2 && fill <= 3'd4;
            filled <= fill == 3'd1;
            load <= fill == 3'd1;
        end else if (load || fire) begin
            load <= 1'b0;
            ready <= 1'b1;  // load (running), or fire (running: ready)
            if (fire) begin
                pulse_id <= sent[ID_WIDTH-1:0];
                sent <= sent + 32'd1;
                if (!endless && one_left) begin
                    running <= 1'b0;
                    ready <= 1'b0;
                    done <= 1'b1;
                end
            end
        end
        if (rst) begin
            running <= 1'b0;
            fill <= 3'd0;
            seeding <= 1'b0;
            filling <= 1'b0;
            filled <= 1'b1;
            load <= 1'b0;
            done <= 1'b0;
            sent <= 32'd0;
            ready <= 1'b0;
        end
    end

    // The countdown to the next pulse runs in every cycle and a step loads it, on no enable:
    // a pulse needs `ready`, which only a load sets, and the load loads the countdown too, so
    // what it counts outside a run is never read. The run's length likewise: loaded in the
    // cycle after start (`started`), counted down at each pulse.
    reg started = 1'b0;
    latmon_countdown #(.LO_WIDTH(16), .HI_WIDTH(17)) wait_inst (
        .clk(clk), .rst(rst),
        .load(step), .load_hi(next_m3[32:16]), .load_lo(next_m3[15:0]), .load_lo_0(next_lo_0),
        .dec(1'b1), .hi_borrow(1'b0),
        .value(wait_m3), .sign(wait_sign), .sign_next(wait_sign_next)
    );
    // (from the cycle after start's; the borrow of the load taken from the second)
    latmon_countdown #(.LO_WIDTH(16), .HI_WIDTH(17), .BORROW(1)) ll_inst (
        .clk(clk), .rst(1'b0),
        .load(started), .load_hi({1'b0, total_s[31:16]}), .load_lo(total_s[15:0] - 16'd2),
        .load_lo_0(total_s[15:0] == 16'd2),
        .dec(fire), .hi_borrow(ll_borrow),
        .value(ll), .sign(one_left), .sign_next(ll_sign_next)
    );
    always @(posedge clk) begin
        if (step)
            due <= next_le_1;
        else
            due <= wait_sign;
        started <= start && !rst;
        if (started) begin  // the run's length, first used at the first pulse, cycles later
            endless <= total_s == 32'd0;
            ll_borrow <= total_s[15:1] == 15'd0;
        end else begin
            ll_borrow <= 1'b0;
        end
        if (rst)
            due <= 1'b0;
    end

    // synthesis translate_off
    // The halves of ll against the one 33-bit countdown they stand for, with the load's
    // borrow taken at once, in every cycle in which a pulse could read its sign.
    reg [32:0] ll_check = 33'd0;
    always @(posedge clk) begin
        if (started)
            ll_check <= {1'b0, total_s} - 33'd2;
        else if (fire)
            ll_check <= ll_check - 33'd1;
        if (ll_borrow && fire)
            $fatal(1, "latmon_stim: a pulse in the cycle after the run's length was loaded");
        if (!ll_borrow && !started && ll != ll_check)
            $fatal(1, "latmon_stim: ll %0h, expected %0h", ll, ll_check);
    end
    // synthesis translate_on

    // The burst countdown moves at every step, on its own enable (no start, stop or fill in
    // it): a step in a start's or a stop's cycle moves it too, and the next run's load
    // reloads it before anything reads it. pause_now alone is cleared at start (the first
    // interval is a period).
    always @(posedge clk) begin
        if (step) begin
            if (load || pause_next) begin
                pl <= burst_pl;
                pause_next <= burst_le_1;
                pause_now <= burst_mode && burst_le_1;
            end else begin
                pl <= pl - 33'd1;
                pause_next <= pl[32];
                pause_now <= burst_mode && pl[32];
            end
        end
        if (start)
            pause_now <= 1'b0;
        if (rst) begin
            pause_next <= 1'b0;
            pause_now <= 1'b0;
        end
    end

endmodule

`default_nettype wire
