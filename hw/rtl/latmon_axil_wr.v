// latmon_axil_wr: the write half of the latmon AXI4-Lite slave — the bus handshake only.
//
// It turns AW + W into one register-interface write (after verilog-axi's axil_reg_if_wr): the
// register blocks (hw/rtl/generated/latmon_regs_<part>.v, generated from hw/regs/latmon.rdl) decode the
// address and store the data themselves. A write takes two cycles before its response, so that
// the address decode ends in a flip-flop and no path runs from s_axil_awaddr into a register's
// enable (or into CTRL.CLEAR and everything a clear resets):
//
//   cycle        0                     1                       2
//   AW/W        valid (not ready)     valid, ready (accepted)
//   wr_req      1: the blocks register which register wr_addr is, and wr_hit
//   write                             the register takes wr_data, wr_strb (still on the bus:
//                                     AXI holds them until ready)
//   B                                                         bvalid, bresp
//
// The response is OKAY when a block recognised the address (wr_hit, writes to read-only
// registers included: they are ignored), SLVERR otherwise. One write per three cycles; a
// register written in cycle 1 has its new value (and acts: CTRL.CLEAR clears) from cycle 2.
`timescale 1ns / 1ps
`default_nettype none

module latmon_axil_wr #(
    // Width of the AXI4-Lite byte address.
    parameter ADDR_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

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

    // register interface
    output wire                  wr_req,   // decode wr_addr in this cycle
    output wire [ADDR_WIDTH-1:0] wr_addr,
    output wire [31:0]           wr_data,  // the write: the cycle after wr_req
    output wire [3:0]            wr_strb,
    input  wire                  wr_hit    // from the blocks' flip-flops: the cycle after wr_req
);

    reg accept_reg = 1'b0;
    reg bvalid_reg = 1'b0;
    reg slverr_reg = 1'b0;

    assign wr_req = s_axil_awvalid && s_axil_wvalid && !accept_reg && !bvalid_reg;
    assign wr_addr = s_axil_awaddr;
    assign wr_data = s_axil_wdata;
    assign wr_strb = s_axil_wstrb;

    assign s_axil_awready = accept_reg;
    assign s_axil_wready = accept_reg;
    assign s_axil_bvalid = bvalid_reg;
    assign s_axil_bresp = {slverr_reg, 1'b0};

    always @(posedge clk) begin
        accept_reg <= wr_req;
        if (accept_reg) begin
            bvalid_reg <= 1'b1;
            slverr_reg <= !wr_hit;
        end else if (s_axil_bready) begin
            bvalid_reg <= 1'b0;
        end
        if (rst) begin
            accept_reg <= 1'b0;
            bvalid_reg <= 1'b0;
        end
    end

`ifdef FORMAL
    // (hw/formal: AW and W are accepted only when no response is pending)
    always @* if (accept_reg) assert(!bvalid_reg);
`endif

    // The protection bits are accepted and ignored.
    wire unused_prot = ^s_axil_awprot;

endmodule

`default_nettype wire
