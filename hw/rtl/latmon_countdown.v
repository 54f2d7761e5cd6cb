// latmon_countdown: a down-counter kept as two halves, each its own carry chain.
//
// The countdown `value` = {hi, lo} (HI_WIDTH + LO_WIDTH bits, wrapping) is held as a low half
// `lo` that counts down at every `dec`, and a high half `hi` that counts down at a `dec` where
// `lo` is 0 (so that `lo` wraps). Whether `lo` is 0 is a flip-flop of its own (`lo_0`, kept
// exact from lo's next value, and loaded from `load_lo_0`, which the user registers beside
// the value it loads), so the high half's decrement waits on no carry chain of the low half:
// the one chain of the whole width was the critical path of the large builds wherever such a
// countdown was judged by its sign. `sign` is value's top bit, a flip-flop; `sign_next` is the
// top bit of `hi` after a count down in this cycle (no load), from `hi`'s chain alone.
//
//   load       value <= {load_hi, load_lo}, lo_0 <= load_lo_0 (which must be load_lo == 0);
//   dec        value <= value - 1 (without load);
//   hi_borrow  hi <= hi - 1 alone (value <= value - 2^LO_WIDTH; without load): a borrow the
//              user defers from its load into the high half (BORROW = 1 only). Not with `dec`
//              where lo is 0.
//   rst        value <= 0 (before all of these).
//
// The high half's decrement is written in one of two forms, as each user's timing needs:
// BORROW = 0, hi <= hi - lo_0 on the clock enable `dec` (the carry chain's operand a flip-flop,
// and sign_next that chain's top bit); BORROW = 1, hi <= hi - 1 on the clock enable
// (dec && lo_0) || hi_borrow (the chain from hi's flip-flops alone: with the borrow in the
// chain's operand, the chain started at the borrow's LUT, a critical path).
//
// The pair against the one countdown of the whole width it stands for is checked in every
// simulated cycle (below), and `lo_0` against `lo` in every state of a formal proof.
`timescale 1ns / 1ps
`default_nettype none

module latmon_countdown #(
    // Bits of the low half (1..32).
    parameter LO_WIDTH = 16,
    // Bits of the high half, its top bit the sign (2..33).
    parameter HI_WIDTH = 17,
    // 1: the high half takes the deferred borrow hi_borrow (0: hi_borrow must stay 0).
    parameter BORROW = 0
) (
    input  wire                         clk,
    input  wire                         rst,

    input  wire                         load,
    input  wire [HI_WIDTH-1:0]          load_hi,
    input  wire [LO_WIDTH-1:0]          load_lo,
    input  wire                         load_lo_0,  // load_lo == 0
    input  wire                         dec,
    input  wire                         hi_borrow,

    output wire [HI_WIDTH+LO_WIDTH-1:0] value,
    output wire                         sign,
    output wire                         sign_next
);

    initial begin
        if (LO_WIDTH < 1 || LO_WIDTH > 32)
            $fatal(1, "latmon_countdown: LO_WIDTH must be 1..32, not %0d", LO_WIDTH);
        if (HI_WIDTH < 2 || HI_WIDTH > 33)
            $fatal(1, "latmon_countdown: HI_WIDTH must be 2..33, not %0d", HI_WIDTH);
        if (BORROW != 0 && BORROW != 1)
            $fatal(1, "latmon_countdown: BORROW must be 0 or 1, not %0d", BORROW);
    end

    localparam [LO_WIDTH-1:0] LO_ONE = 1;

    reg [LO_WIDTH-1:0] lo_reg = {LO_WIDTH{1'b0}};
    reg [HI_WIDTH-1:0] hi_reg = {HI_WIDTH{1'b0}};
    reg                lo_0_reg = 1'b1;  // lo_reg == 0
    // hi after a count down: BORROW = 0, a chain from hi_reg and lo_0_reg (flip-flops);
    // BORROW = 1, hi_reg - 1 (or hi_reg), the choice after the chain.
    wire [HI_WIDTH-1:0] hi_less_lo_0 = hi_reg - {{(HI_WIDTH-1){1'b0}}, lo_0_reg};
    wire [HI_WIDTH-1:0] hi_less_1 = hi_reg - 1'b1;
    wire                hi_down = (dec && lo_0_reg) || hi_borrow;  // (BORROW = 1)
    wire [HI_WIDTH-1:0] hi_next = BORROW == 0 ? hi_less_lo_0
                                : (lo_0_reg || hi_borrow) ? hi_less_1 : hi_reg;
    wire                unused_hi_borrow = hi_borrow;  // (read with BORROW = 1 only)

    assign value = {hi_reg, lo_reg};
    assign sign = hi_reg[HI_WIDTH-1];
    assign sign_next = hi_next[HI_WIDTH-1];

    always @(posedge clk) begin
        if (load) begin
            hi_reg <= load_hi;
            lo_reg <= load_lo;
            lo_0_reg <= load_lo_0;
        end else begin
            if (dec) begin
                lo_reg <= lo_reg - 1'b1;
                lo_0_reg <= lo_reg == LO_ONE;
            end
            if (BORROW == 0) begin
                if (dec)
                    hi_reg <= hi_less_lo_0;
            end else if (hi_down) begin
                hi_reg <= hi_less_1;
            end
        end
        if (rst) begin
            hi_reg <= {HI_WIDTH{1'b0}};
            lo_reg <= {LO_WIDTH{1'b0}};
            lo_0_reg <= 1'b1;
        end
    end

`ifdef FORMAL
    // (an invariant of every proof that contains the countdown: it holds where each load's
    // load_lo_0 is load_lo == 0, which the user's own invariants then have to show)
    always @*
        assert(lo_0_reg == (lo_reg == {LO_WIDTH{1'b0}}));
`endif

    // synthesis translate_off
    // The countdown of the whole width, one carry chain: the pair must equal it in every cycle.
    reg [HI_WIDTH+LO_WIDTH-1:0] check_reg = {(HI_WIDTH+LO_WIDTH){1'b0}};
    always @(posedge clk) begin
        if (rst)
            check_reg <= {(HI_WIDTH+LO_WIDTH){1'b0}};
        else if (load)
            check_reg <= {load_hi, load_lo};
        else
            check_reg <= check_reg - {{(HI_WIDTH+LO_WIDTH-1){1'b0}}, dec}
                - ({{(HI_WIDTH+LO_WIDTH-1){1'b0}}, hi_borrow} << LO_WIDTH);
        if (BORROW == 0 && hi_borrow)
            $fatal(1, "latmon_countdown: hi_borrow with BORROW = 0");
        if (lo_0_reg != (lo_reg == {LO_WIDTH{1'b0}}))
            $fatal(1, "latmon_countdown: lo_0 %0d, lo %0h", lo_0_reg, lo_reg);
        if (value != check_reg)
            $fatal(1, "latmon_countdown: %0h, expected %0h", value, check_reg);
    end
    // synthesis translate_on

endmodule

`default_nettype wire
