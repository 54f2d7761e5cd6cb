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
// through this module, so the delay cancels out of every latency. event_out_n is the same event
// inverted, a flip-flop of its own (inverted so that synthesis cannot merge the two): a consumer
// feeds a wide clock enable from it and keeps event_out for its decisions, so that the decision
// flip-flop is not pulled towards the enabled register.
`timescale 1ns / 1ps
`default_nettype none

module latmon_trigger (
    input  wire       clk,
    input  wire [1:0] mode,
    input  wire       in,
    output reg        event_out = 1'b0,
    output reg        event_out_n = 1'b1,  // !event_out
    output wire       level
);

    reg prev_reg = 1'b0;

    // prev is not reset: it always follows the input, so an input that is already high when
    // reset is released does not look like an edge.
    wire rising = in & ~prev_reg;
    wire falling = ~in & prev_reg;

    wire event_next = mode[1] ? (in ^ mode[0]) : (mode[0] ? falling : rising);
    always @(posedge clk) begin
        prev_reg <= in;
        event_out <= event_next;
        event_out_n <= !event_next;
    end

`ifdef FORMAL
    always @*
        assert(event_out_n == !event_out);
`endif

    // synthesis translate_off
    always @(posedge clk)
        if (event_out_n == event_out)
            $fatal(1, "latmon_trigger: event_out_n is not the inverse of event_out");
    // synthesis translate_on

    assign level = mode[1];

endmodule

`default_nettype wire
