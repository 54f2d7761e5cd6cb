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

    // No carry-out and no wide compare drives the increment's enable. almost_reg is registered
    // from the value of the cycle before: "it was at least all ones - 1". As the value only
    // grows by one, the value now is then all ones - 1 or all ones, and its bit 0 tells which;
    // and if it was less, the value now is below all ones. So `full` (value == all ones) and the
    // enable are small functions of two flip-flops, and the adder's sum goes straight into the
    // flip-flops.
    reg almost_reg = 1'b0;
    wire almost_now;
    generate
        if (WIDTH > 1) begin : g_wide
            assign almost_now = &value[WIDTH-1:1];
        end else begin : g_one
            assign almost_now = 1'b1;
        end
    endgenerate

    assign full = almost_reg && value[0];

    always @(posedge clk) begin
        almost_reg <= almost_now && !clear;
        if (inc && !full)
            value <= value + 1'b1;
        if (clear)
            value <= {WIDTH{1'b0}};
    end

endmodule

`default_nettype wire
