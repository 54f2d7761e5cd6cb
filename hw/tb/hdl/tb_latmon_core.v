// Testbench wrapper of latmon_core: records every output event with the cycle it happened in,
// so that the cocotb test wakes once per event instead of once per clock.
//
// event_reg packs {count[31:0], kind[2:0], saturated, cycle[63:0], value[63:0]} into one vector
// that changes atomically; the Python monitor waits for it to change.
`timescale 1ns / 1ps
`default_nettype none

module tb_latmon_core #(
    parameter CNT_WIDTH = 32,
    parameter SYNC_STAGES = 2,
    // Half period of the clock generated here, in ns (the simulator toggles it natively, which
    // is many times faster than a clock driven from Python).
    parameter HALF_PERIOD_NS = 5
) (
    input  wire                 rst,
    input  wire                 enable,
    input  wire                 clear,
    input  wire [1:0]           irq_mode,
    input  wire [1:0]           ack_mode,
    input  wire [CNT_WIDTH-1:0] timeout,
    input  wire                 irq,
    input  wire                 ack,
    output wire                 busy,
    output reg  [63:0]          cycle = 64'd0,
    output reg  [163:0]         event_reg = 164'd0
);

    reg clk = 1'b0;
    always #(HALF_PERIOD_NS) clk = ~clk;

    wire sample_valid, sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse;
    wire [CNT_WIDTH-1:0] sample_latency;

    latmon_core #(.CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES)) dut (
        .clk(clk), .rst(rst), .enable(enable), .clear(clear),
        .irq_mode(irq_mode), .ack_mode(ack_mode), .timeout(timeout),
        .irq(irq), .ack(ack),
        .busy(busy), .sample_valid(sample_valid), .sample_latency(sample_latency),
        .sample_saturated(sample_saturated), .timeout_pulse(timeout_pulse),
        .overrun_pulse(overrun_pulse), .ignored_pulse(ignored_pulse)
    );

    wire [2:0] kind = sample_valid ? 3'd1 : timeout_pulse ? 3'd2 : overrun_pulse ? 3'd3 :
                      ignored_pulse ? 3'd4 : 3'd0;
    wire [1:0] active = sample_valid + timeout_pulse + overrun_pulse + ignored_pulse;
    wire [63:0] value = sample_latency;

    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        if (active > 2'd1) begin
            // The core never reports two kinds in one cycle; make it a visible failure if it does.
            event_reg <= {event_reg[163:132] + 32'd1, 3'd7, 1'b0, cycle, 64'd0};
        end else if (kind != 3'd0) begin
            event_reg <= {event_reg[163:132] + 32'd1, kind, sample_saturated & sample_valid,
                          cycle, value};
        end
    end

endmodule

`default_nettype wire
