// latmon_trigger: turns a (synchronized) input into trigger events.
//
// MODE selects at run time what counts as an event:
//   0  rising edge       (one event per 0->1 transition)
//   1  falling edge      (one event per 1->0 transition)
//   2  level, active high (an event in every cycle the input is 1)
//   3  level, active low  (an event in every cycle the input is 0)
// `level` tells the consumer that events repeat while the level holds, so that repeated events
// are not counted as overruns or spurious acknowledgements.
//
// event_out is registered: one cycle after the input change reaches `in`. irq and ack both pass
// through this module, so the delay cancels out of every latency.
`timescale 1ns / 1ps
`default_nettype none

module latmon_trigger (
    input  wire       clk,
    input  wire [1:0] mode,
    input  wire       in,
    output reg        event_out = 1'b0,
    output wire       level
);

    reg prev_reg = 1'b0;

    // prev is not reset: it always follows the input, so an input that is already high when
    // reset is released does not look like an edge.
    wire rising = in & ~prev_reg;
    wire falling = ~in & prev_reg;

    always @(posedge clk) begin
        prev_reg <= in;
        event_out <= mode[1] ? (in ^ mode[0]) : (mode[0] ? falling : rising);
    end

    assign level = mode[1];

endmodule

`default_nettype wire
