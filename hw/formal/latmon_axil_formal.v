// Formal harness of the latmon IP's AXI4-Lite slave (hw/formal/latmon_axil.sby): the whole IP
// (latmon.v: the handshake modules, every register block, the trace window) with the AXI4-Lite
// rules of latmon_axil_props.v on its bus, every other input free. Small sizes keep the proof
// quick; the bus logic does not depend on them. HAS_HIST, HAS_STAMP and HAS_STIM as the
// parameters say (the .sby file's tasks set them).
`timescale 1ns / 1ps
`default_nettype none

module latmon_axil_formal #(
    parameter HAS_HIST = 0,
    parameter HAS_STAMP = 0,
    parameter HAS_STIM = 0,
    parameter HAS_IRQ = 1,
    parameter HAS_TIMEOUT = 1,
    parameter HAS_COUNTERS = 1,
    parameter HAS_SUM = 1,
    parameter REG_DECODE = 1,
    parameter PIPE_COMPARE = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        irq,
    input  wire        ack,
    input  wire        start_valid,
    input  wire [7:0]  start_id,
    input  wire        end_valid,
    input  wire [7:0]  end_id,
    input  wire [15:0] s_axil_awaddr,
    input  wire [2:0]  s_axil_awprot,
    input  wire        s_axil_awvalid,
    input  wire [31:0] s_axil_wdata,
    input  wire [3:0]  s_axil_wstrb,
    input  wire        s_axil_wvalid,
    input  wire        s_axil_bready,
    input  wire [15:0] s_axil_araddr,
    input  wire [2:0]  s_axil_arprot,
    input  wire        s_axil_arvalid,
    input  wire        s_axil_rready
);

    wire s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid;
    wire [1:0] s_axil_bresp, s_axil_rresp;
    wire [31:0] s_axil_rdata;
    wire alarm, irq_out, stim_out;
    wire [7:0] stim_id;

    latmon #(
        .CNT_WIDTH(4), .SYNC_STAGES(0), .TRACE_DEPTH(4), .TRACE_WIDTH(4), .COUNTER_WIDTH(4),
        .SUM_WIDTH(8), .HAS_HIST(HAS_HIST), .HIST_BINS_LOG2(2), .HAS_STAMP(HAS_STAMP),
        .STAMP_ENTRIES(2), .HAS_STIM(HAS_STIM), .ID_WIDTH(8), .HAS_IRQ(HAS_IRQ),
        .HAS_TIMEOUT(HAS_TIMEOUT), .HAS_COUNTERS(HAS_COUNTERS), .HAS_SUM(HAS_SUM),
        .REG_DECODE(REG_DECODE), .PIPE_COMPARE(PIPE_COMPARE)
    ) dut (
        .clk(clk), .rst(rst), .irq(irq), .ack(ack), .alarm(alarm), .irq_out(irq_out),
        .start_valid(start_valid), .start_id(start_id), .end_valid(end_valid),
        .end_id(end_id), .stim_out(stim_out), .stim_id(stim_id),
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

    reg past_valid = 1'b0;
    always @(posedge clk) past_valid <= 1'b1;
    always @* if (!past_valid) assume(rst);

    latmon_axil_props #(.ADDR_WIDTH(16)) props (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
        .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
        .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
        .s_axil_bready(s_axil_bready),
        .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
        .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
        .aw_outstanding(aw_outstanding), .w_outstanding(w_outstanding),
        .ar_outstanding(ar_outstanding)
    );

    // The handshake modules' state against what is outstanding on the bus (induction
    // invariants): wires driven, after flattening, by the registers of latmon_axil_wr and
    // latmon_axil_rd (latmon_axil.sby's `connect`).
    wire [1:0] aw_outstanding, w_outstanding, ar_outstanding;
    wire wr_bvalid_reg, rd_load_reg, rd_rvalid_reg;
    always @* begin
        if (past_valid && !rst) begin
            assert(aw_outstanding == {1'b0, wr_bvalid_reg});
            assert(w_outstanding == {1'b0, wr_bvalid_reg});
            assert(ar_outstanding == {1'b0, rd_load_reg || rd_rvalid_reg});
        end
    end

    wire unused = ^{alarm, irq_out, stim_out, stim_id};

endmodule

`default_nettype wire
