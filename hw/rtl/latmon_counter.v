// latmon_counter: an event counter that saturates at all ones instead of wrapping.
//
// A counter that wraps silently lies (a mean computed from a wrapped count is wrong); this one
// stops at 2^WIDTH-1 and says so on `full` (high while the value is all ones).
`timescale 1ns / 1ps
`default_nettype none

module latmon_counter #(
    // Counter width in bits (1..64).
    parameter WIDTH = 32
) (
    input  wire             clk,
    input  wire             clear,  // synchronous: to zero
    input  wire             inc,
    output reg  [WIDTH-1:0] value = {WIDTH{1'b0}},
    output wire             full    // value == all ones
);

    initial begin
        if (WIDTH < 1 || WIDTH > 64)
            $fatal(1, "latmon_counter: WIDTH must be 1..64, not %0d", WIDTH);
    end

    // No carry-out and no wide compare drives the increment's enable, and `full` is a flip-flop.
    // The bits above the low two are checked for all ones in registered steps (per piece of four
    // bits, then the pieces): high_ones says "bits WIDTH-1:2 were all ones two cycles ago". As
    // the value only grows by one per cycle, and stops at all ones, bits WIDTH-1:2 are then still
    // all ones; and if they were not, but are now, they rolled over at most two cycles ago, so
    // bits 1:0 are at most 1 now. So "the value is all ones but one" is high_ones && bits 1:0 ==
    // 2, and `full` is registered from it: set by an increment at all ones but one, kept until a
    // clear. After a clear the value is at most 2 while high_ones may still tell of the value
    // before it; but bits 1:0 are 2 only three cycles after the clear, when high_ones tells of
    // the cleared value. So the enable is a function of two flip-flops, the adder's sum goes
    // straight into the flip-flops, and whatever ORs `full` of several counters starts at
    // flip-flops.
    generate
        if (WIDTH > 2) begin : g_wide
            localparam PIECES = (WIDTH - 2 + 3) / 4;
            // the value with ones above it: piece k is bits 4k+5:4k+2, the last one padded
            wire [WIDTH+3:0] padded = {4'b1111, value};
            reg [PIECES-1:0] piece_ones = {PIECES{1'b0}};  // piece k all ones, a cycle ago
            reg              high_ones = 1'b0;
            integer k;
            always @(posedge clk) begin
                for (k = 0; k < PIECES; k = k + 1)
                    piece_ones[k] <= &padded[4*k+2 +: 4];
                high_ones <= &piece_ones;
            end
            reg full_reg = 1'b0;
            always @(posedge clk)
                full_reg <= !clear && (full_reg || (inc && high_ones && value[1:0] == 2'b10));
            assign full = full_reg;
`ifdef FORMAL
            // (hw/formal: the registered `full` is the value at all ones, in every state)
            always @* assert(full_reg == &value);
`endif
        end else begin : g_narrow
            assign full = &value;
        end
    endgenerate

    always @(posedge clk) begin
        if (inc && !full)
            value <= value + 1'b1;
        if (clear)
            value <= {WIDTH{1'b0}};
    end

endmodule

`default_nettype wire
