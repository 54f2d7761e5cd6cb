// latmon_counter: an event counter that saturates at all ones instead of wrapping.
//
// A counter that wraps silently lies (a mean computed from a wrapped count is wrong); this one
// stops at 2^WIDTH-1 and says so on `full`. The increment's carry-out is the saturation test,
// so the check rides on the adder's carry chain.
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

    wire [WIDTH:0] next = {1'b0, value} + 1'b1;

    assign full = next[WIDTH];

    always @(posedge clk) begin
        if (clear)
            value <= {WIDTH{1'b0}};
        else if (inc && !next[WIDTH])
            value <= next[WIDTH-1:0];
    end

endmodule

`default_nettype wire
