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
    output wire             full
);

    initial begin
        if (WIDTH < 1 || WIDTH > 64)
            $fatal(1, "latmon_counter: WIDTH must be 1..64, not %0d", WIDTH);
    end

    // No carry-out and no wide compare drives the increment's enable. The bits above the low two
    // are checked for all ones in registered steps (per piece of four bits, then the pieces):
    // high_ones says "bits WIDTH-1:2 were all ones two cycles ago". As the value only grows by
    // one per cycle, and stops at all ones, bits WIDTH-1:2 are then still all ones; and if they
    // were not, but are now, they rolled over at most two cycles ago, so bits 1:0 are at most 1
    // now. Either way `full` (value == all ones) is high_ones && bits 1:0 all ones. After a
    // clear the value is at most 2 while high_ones may still tell of the value before it: `full`
    // stays low all the same. So the enable is a small function of three flip-flops, and the
    // adder's sum goes straight into the flip-flops.
    generate
        if (WIDTH > 2) begin : g_wide
            localparam PIECES = (WIDTH - 2 + 3) / 4;
            reg [4*PIECES-1:0] high_bits;  // bits WIDTH-1:2, ones above
            always @* begin
                high_bits = {(4*PIECES){1'b1}};
                high_bits[WIDTH-3:0] = value[WIDTH-1:2];
            end
            reg [PIECES-1:0] piece_ones = {PIECES{1'b0}};  // piece k all ones, a cycle ago
            reg              high_ones = 1'b0;
            integer k;
            always @(posedge clk) begin
                for (k = 0; k < PIECES; k = k + 1)
                    piece_ones[k] <= &high_bits[4*k +: 4];
                high_ones <= &piece_ones;
            end
            assign full = high_ones && &value[1:0];
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
