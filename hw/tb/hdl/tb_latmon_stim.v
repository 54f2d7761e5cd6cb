// Testbench wrapper of latmon_stim: a clock, a recorder of every pulse, and the interrupt
// throughput setup — the pulses drive the irq input of a latmon_core, and a model CPU in HDL
// serves an interrupt only when idle, acknowledging it `service` cycles after it arrived (one
// ack pulse); interrupts arriving while it is busy are lost, which the core counts as overruns.
//
// event_reg packs {pulses[31:0], pulse_id[31:0], cycle[63:0]}; it changes once per pulse, so the
// cocotb monitor wakes per pulse, not per clock.
`timescale 1ns / 1ps
`default_nettype none

module tb_latmon_stim #(
    parameter ID_WIDTH = 16,
    parameter HALF_PERIOD_NS = 5
) (
    input  wire          rst,
    input  wire          start,
    input  wire          stop,
    input  wire [1:0]    mode,
    input  wire [31:0]   period,
    input  wire [31:0]   interval_min,
    input  wire [31:0]   interval_max,
    input  wire [31:0]   burst_len,
    input  wire [31:0]   pause,
    input  wire [31:0]   total,
    input  wire [31:0]   seed,
    input  wire [31:0]   service,       // model CPU: cycles from irq to ack
    input  wire          core_clear,

    output reg           clk = 1'b0,
    output reg  [63:0]   cycle = 64'd0,
    output reg  [127:0]  event_reg = 128'd0,
    output wire          running,
    output wire          done,
    output wire [31:0]   sent,
    output reg  [31:0]   done_pulses = 32'd0,
    output reg  [31:0]   served = 32'd0,
    output reg  [31:0]   samples = 32'd0,
    output reg  [31:0]   overruns = 32'd0,
    output wire          core_busy
);

    always #(HALF_PERIOD_NS) clk = ~clk;

    wire                pulse, done_pulse;
    wire [ID_WIDTH-1:0] pulse_id;

    latmon_stim #(.ID_WIDTH(ID_WIDTH)) dut (
        .clk(clk), .rst(rst), .start(start), .stop(stop), .mode(mode), .period(period),
        .interval_min(interval_min), .interval_max(interval_max), .burst_len(burst_len),
        .pause(pause), .total(total), .seed(seed),
        .pulse(pulse), .pulse_id(pulse_id), .running(running), .done(done),
        .done_pulse(done_pulse), .sent(sent)
    );

    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        if (pulse)
            event_reg <= {event_reg[127:96] + 32'd1, {{(32-ID_WIDTH){1'b0}}, pulse_id}, cycle};
        if (done_pulse)
            done_pulses <= done_pulses + 32'd1;
        if (rst)
            done_pulses <= 32'd0;
    end

    // The model CPU (service >= 2): an interrupt high in cycle t, taken when idle, is
    // acknowledged by an ack pulse in cycle t + service; the CPU is idle again in that cycle, so
    // an interrupt arriving together with the ack is taken (and the core, seeing ack and irq in
    // one cycle, ends one measurement and starts the next).
    reg [31:0] busy_left = 32'd0;
    reg        ack = 1'b0;
    always @(posedge clk) begin
        ack <= 1'b0;
        if (busy_left != 32'd0) begin
            busy_left <= busy_left - 32'd1;
            if (busy_left == 32'd2)
                ack <= 1'b1;
        end
        if (pulse && (busy_left <= 32'd1)) begin
            busy_left <= service;
            served <= served + 32'd1;
        end
        if (rst || core_clear) begin
            busy_left <= 32'd0;
            served <= 32'd0;
        end
    end

    wire sample_valid, overrun_pulse;
    latmon_core #(.CNT_WIDTH(32), .SYNC_STAGES(2)) core_inst (
        .clk(clk), .rst(rst), .enable(1'b1), .clear(core_clear), .irq_mode(2'd0),
        .ack_mode(2'd0), .timeout(32'd0), .irq(pulse), .ack(ack),
        .busy(core_busy), .sample_valid(sample_valid), .sample_latency(),
        .sample_saturated(), .timeout_pulse(), .overrun_pulse(overrun_pulse), .ignored_pulse()
    );

    always @(posedge clk) begin
        if (sample_valid)
            samples <= samples + 32'd1;
        if (overrun_pulse)
            overruns <= overruns + 32'd1;
        if (rst || core_clear) begin
            samples <= 32'd0;
            overruns <= 32'd0;
        end
    end

endmodule

`default_nettype wire
