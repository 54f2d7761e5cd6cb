// latmon_sync: synchronizer for one asynchronous input.
//
// STAGES flip-flops in series bring a signal from another clock domain into clk's domain.
// STAGES = 0 bypasses the chain for a source already synchronous to clk.
`timescale 1ns / 1ps
`default_nettype none

module latmon_sync #(
    // Flip-flops in the chain: 0 (bypass, same clock domain) or 2..4.
    parameter STAGES = 2
) (
    input  wire clk,
    input  wire in,
    output wire out
);

    initial begin
        if (STAGES != 0 && (STAGES < 2 || STAGES > 4))
            $fatal(1, "latmon_sync: STAGES must be 0 (bypass) or 2..4, not %0d", STAGES);
    end

    generate
        if (STAGES == 0) begin : g_bypass
            assign out = in;
            wire unused_clk = clk;
        end else begin : g_chain
            // ASYNC_REG keeps Vivado from moving logic between the stages and places them close.
            (* ASYNC_REG = "TRUE" *) reg [STAGES-1:0] sync_reg = {STAGES{1'b0}};
            always @(posedge clk)
                sync_reg <= {sync_reg[STAGES-2:0], in};
            assign out = sync_reg[STAGES-1];
        end
    endgenerate

endmodule

`default_nettype wire
