// Testbench wrapper of latmon_min, the minimal configuration of the latmon IP.
//
// - generates the clock natively (Python never toggles it);
// - irq/ack come from Python (irq_py, ack_py);
// - records every output event of the measurement core with its cycle in a packed vector the
//   Python monitor waits on (event_reg), as tb_latmon.v does (hw/tb/latmon_tb.py decodes it);
// - passes the AXI4-Lite slave through for cocotbext-axi.
`timescale 1ns / 1ps
`default_nettype none

module tb_latmon_min #(
    parameter CNT_WIDTH = 16,
    parameter SYNC_STAGES = 0,
    parameter TRACE_DEPTH = 512,
    parameter ADDR_WIDTH = 16,
    // Half period of the generated clock, ns.
    parameter HALF_PERIOD_NS = 5
) (
    input  wire                  rst,
    input  wire                  irq_py,
    input  wire                  ack_py,
    output wire                  alarm,
    output wire                  irq_out,
    output reg  [63:0]           cycle = 64'd0,
    output reg  [163:0]          event_reg = 164'd0,

    input  wire [ADDR_WIDTH-1:0] s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready
);

    reg clk = 1'b0;
    always #(HALF_PERIOD_NS) clk = ~clk;

    always @(posedge clk)
        cycle <= cycle + 64'd1;

    latmon_min #(
        .CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES), .TRACE_DEPTH(TRACE_DEPTH),
        .ADDR_WIDTH(ADDR_WIDTH)
    ) dut (
        .clk(clk), .rst(rst), .irq(irq_py), .ack(ack_py), .alarm(alarm), .irq_out(irq_out),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
        .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
        .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
        .s_axil_bready(s_axil_bready),
        .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
        .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready)
    );

    // ---- event recorder (as tb_latmon.v) ---------------------------------------------------

    wire sample_valid = dut.core_inst.sample_valid;
    wire timeout_pulse = dut.core_inst.timeout_pulse;
    wire overrun_pulse = dut.core_inst.overrun_pulse;
    wire ignored_pulse = dut.core_inst.ignored_pulse;
    wire saturated = dut.core_inst.sample_saturated;
    wire [63:0] value = {{(64-CNT_WIDTH){1'b0}}, dut.core_inst.sample_latency};
    wire [2:0] kind = sample_valid ? 3'd1 : timeout_pulse ? 3'd2 : overrun_pulse ? 3'd3 :
                      ignored_pulse ? 3'd4 : 3'd0;
    wire [2:0] active = {2'd0, sample_valid} + {2'd0, timeout_pulse} + {2'd0, overrun_pulse} +
                        {2'd0, ignored_pulse};

    always @(posedge clk) begin
        if (active > 3'd1)
            event_reg <= {event_reg[163:132] + 32'd1, 3'd7, 1'b0, cycle, 64'd0};
        else if (kind != 3'd0)
            event_reg <= {event_reg[163:132] + 32'd1, kind, saturated & sample_valid, cycle,
                          kind == 3'd1 ? value : 64'd0};
    end

endmodule

`default_nettype wire
