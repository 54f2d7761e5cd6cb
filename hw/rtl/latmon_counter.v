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

    // `full` is a flip-flop, set in the same clock edge as the value reaches all ones (from
    // value == all ones - 1, an AND of the bits, not the adder's carry-out): the increment's
    // enable does not wait for the carry chain, so the adder's sum goes straight into the
    // flip-flops.
    reg full_reg = 1'b0;
    wire one_short;
    generate
        if (WIDTH > 1) begin : g_wide
            assign one_short = &value[WIDTH-1:1] && !value[0];
        end else begin : g_one
            assign one_short = !value[0];
        end
    endgenerate

    assign full = full_reg;

    always @(posedge clk) begin
        if (inc && !full_reg) begin
            value <= value + 1'b1;
            if (one_short)
                full_reg <= 1'b1;
        end
        if (clear) begin
            value <= {WIDTH{1'b0}};
            full_reg <= 1'b0;
        end
    end

endmodule

`default_nettype wire
