// Testbench wrapper of the reference design: a clock, a cycle counter, and three recorders —
// timer interrupts, data-ready rising edges and ISR data reads — each a packed
// {count[31:0], cycle[63:0]} that changes once per event, so cocotb wakes per event.
`timescale 1ns / 1ps
`default_nettype none

module tb_refdesign #(
    parameter HALF_PERIOD_NS = 5,
    parameter ADDR_WIDTH = 18
) (
    input  wire                  rst,
    output reg                   clk = 1'b0,
    output reg  [63:0]           cycle = 64'd0,
    output reg  [95:0]           timer_ev = 96'd0,
    output reg  [95:0]           ready_ev = 96'd0,
    output reg  [95:0]           read_ev = 96'd0,
    output wire                  pl_ps_irq,
    output wire                  monitor_irq,

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

    always #(HALF_PERIOD_NS) clk = ~clk;

    wire timer_irq, data_read;
    reg  ready_d = 1'b0;

    refdesign #(.ADDR_WIDTH(ADDR_WIDTH)) dut (
        .clk(clk), .rst(rst), .pl_ps_irq(pl_ps_irq), .monitor_irq(monitor_irq),
        .timer_irq(timer_irq), .data_read(data_read),
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

    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        ready_d <= pl_ps_irq;
        if (timer_irq)
            timer_ev <= {timer_ev[95:64] + 32'd1, cycle};
        if (pl_ps_irq && !ready_d)
            ready_ev <= {ready_ev[95:64] + 32'd1, cycle};
        if (data_read)
            read_ev <= {read_ev[95:64] + 32'd1, cycle};
        if (rst)
            ready_d <= 1'b0;
    end

endmodule

`default_nettype wire
