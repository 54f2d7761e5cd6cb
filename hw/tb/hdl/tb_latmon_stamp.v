// Testbench wrapper of latmon_stamp: a clock, a cycle counter, and a recorder of every sample
// (event_reg = {samples[31:0], latency[31:0], cycle[63:0]}, changing once per sample), so the
// cocotb test wakes per event.
`timescale 1ns / 1ps
`default_nettype none

module tb_latmon_stamp #(
    parameter CNT_WIDTH = 32,
    parameter ID_WIDTH = 16,
    parameter ENTRIES = 16,
    parameter TIME_WIDTH = 34,
    parameter HALF_PERIOD_NS = 5
) (
    input  wire                rst,
    input  wire                clear,
    input  wire                enable,
    input  wire [31:0]         timeout,
    input  wire                start_valid,
    input  wire [ID_WIDTH-1:0] start_id,
    input  wire                end_valid,
    input  wire [ID_WIDTH-1:0] end_id,

    output reg                 clk = 1'b0,
    output reg  [63:0]         cycle = 64'd0,
    output reg  [127:0]        event_reg = 128'd0,
    output wire [31:0]         matched,
    output wire [31:0]         unmatched,
    output wire [31:0]         timeouts,
    output wire [31:0]         full,
    output wire [31:0]         duplicates,
    output wire [6:0]          outstanding,
    output wire [63:0]         timebase
);

    always #(HALF_PERIOD_NS) clk = ~clk;

    wire                 sample_valid;
    wire [CNT_WIDTH-1:0] sample_latency;

    latmon_stamp #(
        .CNT_WIDTH(CNT_WIDTH), .ID_WIDTH(ID_WIDTH), .ENTRIES(ENTRIES), .TIME_WIDTH(TIME_WIDTH)
    ) dut (
        .clk(clk), .rst(rst), .clear(clear), .enable(enable), .timeout(timeout),
        .start_valid(start_valid), .start_id(start_id), .end_valid(end_valid), .end_id(end_id),
        .timebase(timebase), .sample_valid(sample_valid), .sample_latency(sample_latency),
        .matched(matched), .unmatched(unmatched), .timeouts(timeouts), .full(full),
        .duplicates(duplicates), .outstanding(outstanding)
    );

    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        if (sample_valid)
            event_reg <= {event_reg[127:96] + 32'd1, {{(32-CNT_WIDTH){1'b0}}, sample_latency},
                          cycle};
    end

endmodule

`default_nettype wire
