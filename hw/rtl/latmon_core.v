// latmon_core: the measurement path of the latmon latency monitor.
//
// An `irq` event starts a cycle counter; the next `ack` event stops it and emits the latency,
// the number of clock cycles from the irq event to the ack event, with a one-cycle strobe:
//
//   cycle         0   1   2   3   4   5   6   7
//   irq (seen)  __/~~~~~~~~~~~~~~~~~~~\____      rising edge in cycle 1 = i
//   ack (seen)  ______________/~~~~~~~~\____     rising edge in cycle 4 = j
//   sample_valid                        _/~\_   in cycle j + 2, sample_latency = j - i = 3
//
// ("seen" is after the synchronizer.) Both inputs pass through the same synchronizer and
// trigger register, and every output is registered once more, so each event is reported
// SYNC_STAGES + 2 cycles after its input changed and the latency does not depend on either.
//
// Corner cases, all one cycle exact:
//   - an ack event with no measurement pending is ignored and reported on ignored_pulse
//     (edge modes only: a level ack repeats every cycle by definition);
//   - an irq event while a measurement is pending is an overrun (the interrupt that would have
//     started it is lost) and reported on overrun_pulse (edge modes only); the pending
//     measurement continues;
//   - an ack event and an irq event in the same cycle: the ack ends the pending measurement and
//     the irq starts the next one;
//   - a measurement reaching `timeout` cycles without an ack ends, reported on timeout_pulse
//     (timeout = 0 disables it); an ack in exactly that cycle still counts as a measurement;
//   - the counter saturates at 2^CNT_WIDTH-1; sample_saturated marks a sample whose true
//     latency exceeded that (a latency of exactly 2^CNT_WIDTH-1 is not flagged);
//   - enable = 0 stops new measurements from starting (irq events are not counted); a pending
//     measurement still ends normally; clear or rst abandon it.
`timescale 1ns / 1ps
`default_nettype none

module latmon_core #(
    // Width of the cycle counter and of the latencies (2..64).
    parameter CNT_WIDTH = 32,
    // Synchronizer flip-flops per input: 2 (default) .. 4, or 0 for inputs in clk's domain.
    parameter SYNC_STAGES = 2
) (
    input  wire                 clk,
    input  wire                 rst,

    // configuration (run time)
    input  wire                 enable,
    input  wire                 clear,
    input  wire [1:0]           irq_mode,   // 0 rising, 1 falling, 2 level high, 3 level low
    input  wire [1:0]           ack_mode,
    input  wire [CNT_WIDTH-1:0] timeout,    // cycles; 0 = never

    // the signals measured
    input  wire                 irq,
    input  wire                 ack,

    // results
    output wire                 busy,
    output wire                 sample_valid,
    output wire [CNT_WIDTH-1:0] sample_latency,  // with sample_valid; held until the next sample
    output wire                 sample_saturated,
    output wire                 timeout_pulse,
    output wire                 overrun_pulse,
    output wire                 ignored_pulse
);

    initial begin
        if (CNT_WIDTH < 2 || CNT_WIDTH > 64)
            $fatal(1, "latmon_core: CNT_WIDTH must be 2..64, not %0d", CNT_WIDTH);
    end

    wire irq_sync, ack_sync;
    wire irq_event, ack_event, irq_level, ack_level;
    // ack_event inverted, a flip-flop of its own, for the enable of the sample register alone
    // (the latency and its saturated flag): ack_event then feeds the decisions only and stays
    // next to them, where the one shared event sat between them and that wide register.
    wire ack_event_n;
    /* verilator lint_off UNUSEDSIGNAL */
    wire irq_event_n;  // (no consumer)
    /* verilator lint_on UNUSEDSIGNAL */

    latmon_sync #(.STAGES(SYNC_STAGES)) irq_sync_inst (.clk(clk), .in(irq), .out(irq_sync));
    latmon_sync #(.STAGES(SYNC_STAGES)) ack_sync_inst (.clk(clk), .in(ack), .out(ack_sync));

    latmon_trigger irq_trigger_inst (
        .clk(clk), .mode(irq_mode), .in(irq_sync), .event_out(irq_event),
        .event_out_n(irq_event_n), .level(irq_level)
    );
    latmon_trigger ack_trigger_inst (
        .clk(clk), .mode(ack_mode), .in(ack_sync), .event_out(ack_event),
        .event_out_n(ack_event_n), .level(ack_level)
    );

    reg                 busy_reg = 1'b0;
    reg [CNT_WIDTH-1:0] count_reg = {CNT_WIDTH{1'b0}};
    // The latency exceeded all ones: count_reg stays there and the sample is flagged saturated.
    reg                 full_reg = 1'b0;

    // Timeout: count_reg reaches TIMEOUT in this cycle (`hit_reg`). Judged one cycle ahead and
    // registered, from flip-flops only: a start loads the countdown left_reg with TIMEOUT - 3
    // (CNT_WIDTH + 1 bits, signed), every increment counts it down, and left_reg is negative
    // exactly when it stands at -1, when count_reg is TIMEOUT - 1: the next increment takes
    // count_reg to TIMEOUT. So the sign bit decides, as a flip-flop (timeout_armed_reg, with
    // timeout_run_reg); the countdown's carry chains only feed flip-flops. (After the hit the
    // measurement ends; the countdown is loaded again by the next start.) The cycle after a
    // start judges TIMEOUT = 1 instead. TIMEOUT = 0 never times out. A new TIMEOUT value
    // applies to the measurements that start from the second cycle after it is written on; the
    // pending one keeps the value it started with, on or off (timeout_run_reg).
    //
    // TIMEOUT as registered: bits above 0 all zero, bit 0, and TIMEOUT - 3 (one cycle old,
    // all three from the same value); on is a small function of the first two, and one (both
    // set) a flip-flop of its own.
    reg                 timeout_high_zero_reg = 1'b1;
    reg                 timeout_bit0_reg = 1'b0;
    reg [CNT_WIDTH:0]   timeout_less3_reg = {(CNT_WIDTH+1){1'b0}};
    wire                timeout_on = !timeout_high_zero_reg || timeout_bit0_reg;
    // timeout_one, a flip-flop of its own (from the same value as the two, in the same cycle),
    // so that the start decisions below take one input for it, not two.
    reg                 timeout_one_reg = 1'b0;
    reg                 timeout_run_reg = 1'b0;  // the pending measurement has a timeout
    // The countdown is kept as two halves, each its own carry chain (latmon_countdown: the one
    // chain of CNT_WIDTH + 1 bits was the critical path of the large builds): left_reg's low LL
    // bits count down at every increment, the high half when the low one is 0 (a flip-flop in
    // the countdown, loaded from timeout_less3_lo_0_reg, registered beside timeout_less3_reg
    // from the same value). left_sign_next is its sign (the high half's top bit) after this
    // cycle's increment.
    localparam LL = (CNT_WIDTH + 1) / 2;  // bits of the low half (1..32)
    localparam [CNT_WIDTH:0] THREE_W = 3;
    localparam [LL-1:0] THREE_LO = THREE_W[LL-1:0];  // 3's low half
    /* verilator lint_off UNUSEDSIGNAL */  // the countdown and its sign: the proof's view only
    wire [CNT_WIDTH:0]  left_reg;
    wire                left_sign;
    /* verilator lint_on UNUSEDSIGNAL */
    wire                left_sign_next;
    reg                 timeout_less3_lo_0_reg = 1'b1;  // timeout_less3_reg[LL-1:0] == 0
    // The pending measurement has a timeout and its countdown is negative (timeout_run_reg and
    // left_reg's top bit): one flip-flop, registered from their next values, so that the timeout
    // decision (hit_by_count) reaches the start decisions from one flip-flop, not two.
    reg                 timeout_armed_reg = 1'b0;

    // "bits above 0 all zero" from pieces of four bits, each a net of its own (one LUT4), so
    // that the flip-flop ANDs at most eight pieces (two levels, not four for 31 bits).
    localparam TZ = (CNT_WIDTH - 1 + 3) / 4;  // pieces of bits CNT_WIDTH-1:1
    function [4*TZ-1:0] timeout_high_of;  // bits CNT_WIDTH-1:1, zero-extended to whole pieces
        input [CNT_WIDTH-1:1] t;
        begin
            timeout_high_of = {(4*TZ){1'b0}};
            timeout_high_of[CNT_WIDTH-2:0] = t[CNT_WIDTH-1:1];
        end
    endfunction
    wire [4*TZ-1:0] timeout_high = timeout_high_of(timeout[CNT_WIDTH-1:1]);
    (* keep *) wire [TZ-1:0] timeout_high_zero_piece;
    genvar tz;
    generate
        for (tz = 0; tz < TZ; tz = tz + 1) begin : g_timeout_zero
            assign timeout_high_zero_piece[tz] = timeout_high[4*tz +: 4] == 4'd0;
        end
    endgenerate
    always @(posedge clk) begin
        timeout_high_zero_reg <= &timeout_high_zero_piece;
        timeout_bit0_reg <= timeout[0];
        timeout_one_reg <= &timeout_high_zero_piece && timeout[0];
        timeout_less3_reg <= {1'b0, timeout} - {{(CNT_WIDTH-1){1'b0}}, 2'd3};
        // (timeout - 3)'s low half is 0 exactly when timeout's is 3's: no carry chain before it
        timeout_less3_lo_0_reg <= timeout[LL-1:0] == THREE_LO;
    end

    // The decision of a cycle comes from flip-flops and the two trigger events only, so that
    // the set/reset and the clock enables of count_reg, left_reg and busy_reg are two LUT levels
    // from flip-flops (the timeout's carry chain and the run of `hit` through `ends` into
    // `starts` used to be in series with them). Both registers below are the next-cycle value
    // of what they stand for, computed from the same terms as before, so no timing moves:
    //   hit_reg       the pending measurement reaches TIMEOUT in this cycle;
    //   start_ok_reg  no measurement is pending, or it times out in this cycle (!busy || hit):
    //                 an irq event starts a measurement unless one is pending and no ack or
    //                 timeout ends it.
    reg                 hit_reg = 1'b0;
    reg                 start_ok_reg = 1'b1;

    wire timed_out = busy_reg && !ack_event && hit_reg;
    // The pending measurement ends in this cycle (by ack or timeout).
    wire ends = busy_reg && (ack_event || hit_reg);
    // = enable && irq_event && (!busy_reg || ends), with ends expanded.
    wire starts = enable && irq_event && (start_ok_reg || ack_event);
    // The same decision for the wide loads (count_reg, left_reg and the flags beside them), from
    // a copy of start_ok_reg kept inverted so that synthesis cannot merge the two: `starts` then
    // drives a few flip-flops only and the loop through start_ok_reg stays short, where the one
    // shared decision sat between the flip-flops of count and countdown and start_ok_reg, a long
    // route each way in a large build.
    reg                 start_ok_n_reg = 1'b0;  // !start_ok_reg
    wire starts_load = enable && irq_event && (!start_ok_n_reg || ack_event);

    // A start loads 1 (the flip-flops' synchronous set/reset), a running measurement counts
    // count + 1 (their clock enable holds it otherwise). The adder sees only count_reg and its
    // sum goes straight into the flip-flops: no path from the trigger events runs through the
    // carry chain, and no carry-out or wide compare drives an enable. almost_reg is registered
    // from the count of the cycle before ("at least all ones - 1") and started_reg says a
    // measurement started then: as the count only grows by one, count_reg is all ones now
    // exactly when almost_reg and bit 0 are set and no start came between. (The start is a
    // flip-flop of its own, not a term of almost_reg, so that the start decision and the
    // count's 31-input AND meet in no LUT.)
    reg                 almost_reg = 1'b0;
    reg                 started_reg = 1'b0;
    wire                at_ones = almost_reg && !started_reg && count_reg[0];
    wire                inc = busy_reg && !full_reg;
    // Without a start, the measurement reaches TIMEOUT next cycle: this increment takes count_reg
    // to TIMEOUT (the countdown stands at -1).
    wire                hit_by_count = timeout_armed_reg && inc;

    // Outputs are registered: every event leaves the core two cycles after the trigger saw it
    // (the trigger's register and this one), irq and ack alike.
    reg                 sample_valid_reg = 1'b0;
    reg [CNT_WIDTH-1:0] sample_latency_reg = {CNT_WIDTH{1'b0}};
    reg                 sample_saturated_reg = 1'b0;
    reg                 timeout_pulse_reg = 1'b0;
    reg                 overrun_pulse_reg = 1'b0;
    reg                 ignored_pulse_reg = 1'b0;

    assign busy = busy_reg;
    assign sample_valid = sample_valid_reg;
    assign sample_latency = sample_latency_reg;
    assign sample_saturated = sample_saturated_reg;
    assign timeout_pulse = timeout_pulse_reg;
    assign overrun_pulse = overrun_pulse_reg;
    assign ignored_pulse = ignored_pulse_reg;

    // The countdown matters only while a measurement is pending (hit_by_count needs inc, so
    // busy): clear and rst need not touch it, and its clock enable stays out of their fan-out.
    latmon_countdown #(.LO_WIDTH(LL), .HI_WIDTH(CNT_WIDTH - LL + 1)) left_inst (
        .clk(clk), .rst(1'b0),
        .load(starts_load), .load_hi(timeout_less3_reg[CNT_WIDTH:LL]),
        .load_lo(timeout_less3_reg[LL-1:0]), .load_lo_0(timeout_less3_lo_0_reg),
        .dec(inc), .hi_borrow(1'b0),
        .value(left_reg), .sign(left_sign), .sign_next(left_sign_next)
    );
    always @(posedge clk) begin
        if (starts_load) begin
            timeout_run_reg <= timeout_on;
            timeout_armed_reg <= timeout_on && timeout_less3_reg[CNT_WIDTH];
        end else if (inc) begin
            timeout_armed_reg <= timeout_run_reg && left_sign_next;
        end
    end

    // sample_latency holds the last latency measured until the next one (0 after clear): the IP
    // reads it as LAST when there is no other source of latencies.
    always @(posedge clk) begin
        if (busy_reg && !ack_event_n) begin  // busy_reg && ack_event
            sample_latency_reg <= count_reg;
            sample_saturated_reg <= full_reg;
        end
        if (rst || clear) begin
            sample_latency_reg <= {CNT_WIDTH{1'b0}};
            sample_saturated_reg <= 1'b0;
            busy_reg <= 1'b0;
            count_reg <= {CNT_WIDTH{1'b0}};
            full_reg <= 1'b0;
            almost_reg <= 1'b0;
            started_reg <= 1'b0;
            hit_reg <= 1'b0;
            start_ok_reg <= 1'b1;
            start_ok_n_reg <= 1'b0;
            sample_valid_reg <= 1'b0;
            timeout_pulse_reg <= 1'b0;
            overrun_pulse_reg <= 1'b0;
            ignored_pulse_reg <= 1'b0;
        end else begin
            if (starts)
                busy_reg <= 1'b1;
            else if (ends)
                busy_reg <= 1'b0;
            // At all ones the count stays and the flag goes up.
            if (starts_load)
                count_reg <= {{(CNT_WIDTH-1){1'b0}}, 1'b1};
            else if (inc && !at_ones)
                count_reg <= count_reg + 1'b1;
            almost_reg <= &count_reg[CNT_WIDTH-1:1];
            started_reg <= starts_load;
            if (starts_load)
                full_reg <= 1'b0;
            else if (inc && at_ones)
                full_reg <= 1'b1;
            // A start times out next cycle only with TIMEOUT = 1 (count_reg is 1 then).
            hit_reg <= starts ? timeout_one_reg : hit_by_count;
            // !busy || hit of the next cycle: busy_reg's next value spelled out.
            if (starts)
                start_ok_reg <= timeout_one_reg;
            else if (ends || !busy_reg)
                start_ok_reg <= 1'b1;
            else
                start_ok_reg <= hit_by_count;
            // the inverted copy, from the same terms
            if (starts)
                start_ok_n_reg <= !timeout_one_reg;
            else if (ends || !busy_reg)
                start_ok_n_reg <= 1'b0;
            else
                start_ok_n_reg <= !hit_by_count;
            sample_valid_reg <= busy_reg && ack_event;
            timeout_pulse_reg <= timed_out;
            overrun_pulse_reg <= enable && irq_event && !irq_level && busy_reg && !ends;
            ignored_pulse_reg <= enable && ack_event && !ack_level && !busy_reg;
        end
    end

`ifdef FORMAL
    // Invariants of the core's redundant state (hw/formal/latmon_core.sby proves them with the
    // harness's properties; they make the induction close): each register that stands for a
    // function of others agrees with it in every reachable state.
    localparam [CNT_WIDTH-1:0] F_ONES = {CNT_WIDTH{1'b1}};
    // the TIMEOUT the pending measurement started with (a ghost register: proof only)
    reg [CNT_WIDTH:0] f_timeout = {(CNT_WIDTH+1){1'b0}};
    always @(posedge clk)
        if (starts_load)
            f_timeout <= timeout_less3_reg + 2'd3;
    always @* begin
        assert(start_ok_n_reg == !start_ok_reg);
        assert(timeout_one_reg == (timeout_high_zero_reg && timeout_bit0_reg));
        assert(timeout_armed_reg == (timeout_run_reg && left_reg[CNT_WIDTH]));
        assert(timeout_less3_lo_0_reg == (timeout_less3_reg[LL-1:0] == {LL{1'b0}}));
        assert(start_ok_reg == (!busy_reg || hit_reg));
        if (full_reg)
            assert(count_reg == F_ONES);
        if (started_reg)
            assert(count_reg == {{(CNT_WIDTH-1){1'b0}}, 1'b1} && busy_reg && !full_reg);
        if (!started_reg && almost_reg)
            assert(&count_reg[CNT_WIDTH-1:1]);
        if (!started_reg && count_reg == F_ONES)
            assert(almost_reg);
        if (busy_reg) begin
            assert(count_reg != {CNT_WIDTH{1'b0}});
            if (timeout_run_reg) begin
                assert(f_timeout != {(CNT_WIDTH+1){1'b0}});
                assert({1'b0, count_reg} <= f_timeout);
                assert(!full_reg);
                assert(left_reg == f_timeout - 2'd2 - {1'b0, count_reg});
                assert(hit_reg == ({1'b0, count_reg} == f_timeout));
            end else begin
                assert(!hit_reg);
            end
        end
    end
`endif

    // synthesis translate_off
    always @(posedge clk)
        if (start_ok_n_reg == start_ok_reg)
            $fatal(1, "latmon_core: start_ok_n_reg is not the inverse of start_ok_reg");
    // synthesis translate_on

endmodule

`default_nettype wire
