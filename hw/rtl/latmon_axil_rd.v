// latmon_axil_rd: the read half of the latmon AXI4-Lite slave — the bus handshake only.
//
// After verilog-axi's axil_reg_if_rd: the register blocks (hw/rtl/generated/latmon_regs_<part>.v,
// generated from hw/regs/latmon.rdl) and the memory windows decode the address themselves. AR
// is accepted when no read is in flight; rd_req is that cycle, rd_addr the bus address: every
// block registers which of its registers the address is (one select flip-flop per register,
// loaded in every cycle) and whether rd_req is a read of its page, in flip-flops of its own; a
// RAM window reads the word at the address into its RAM's latch in every cycle AR is ready
// (rd_open_next registered: a copy of AR ready) and holds it while a read is in flight. The
// next cycle is the load (rd_load here; a register block's own flip-flops): every block
// registers the selected register's value (an AND-OR of the values with their selects) and
// its hit. From the cycle after, rd_data is the OR of the blocks' registered answers (each is
// zero unless its address matched) and rd_hit says whether any matched (else SLVERR). The
// data stays until the next accepted read, which waits for the R handshake: read data two
// cycles after AR, one read per three cycles.
//
//   cycle        0                  1                    2
//   AR          valid, ready
//   rd_req      1 (rd_addr)
//   rd_load                        1 (values sampled)
//   R                                                   rvalid, rdata = rd_data, rresp
//
// A memory window's word must be on its rd_data from cycle 2 until the next rd_req: a RAM read
// with its address latched in cycle 0 and its output register loaded at the end of cycle 1
// (block RAM with the output register on: data two cycles after rd_en, held) fits as it is.
// Its read enable may also be AR ready (every cycle without a read in flight): AR ready is low
// from cycle 1 until the cycle after the R handshake, so the word read in cycle 0 stays.
`timescale 1ns / 1ps
`default_nettype none

module latmon_axil_rd #(
    // Width of the AXI4-Lite byte address.
    parameter ADDR_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready,

    // register interface
    output wire                  rd_req,
    output wire [ADDR_WIDTH-1:0] rd_addr,
    output wire                  rd_load,
    output wire                  rd_open_next,  // AR ready in the next cycle (for its copies)
    input  wire [31:0]           rd_data,
    input  wire                  rd_hit
);

    reg load_reg = 1'b0;
    reg rvalid_reg = 1'b0;
    // = !load_reg && !rvalid_reg (no read in flight), a flip-flop loaded with their next values:
    // rd_req enables every block's read, the histogram's block RAMs across the device among
    // them, and then starts from one flip-flop and one gate (two gates were a critical path of
    // core+hist).
    reg arready_reg = 1'b1;

    assign rd_req = s_axil_arvalid && arready_reg;
    assign rd_addr = s_axil_araddr;
    assign rd_load = load_reg;

    assign s_axil_arready = arready_reg;
    assign s_axil_rvalid = rvalid_reg;
    assign s_axil_rdata = rd_data;
    assign s_axil_rresp = {!rd_hit, 1'b0};

    assign rd_open_next = rst || (!rd_req && !load_reg && (!rvalid_reg || s_axil_rready));

    always @(posedge clk) begin
        arready_reg <= rd_open_next;
        load_reg <= rd_req;
        if (load_reg)
            rvalid_reg <= 1'b1;
        else if (s_axil_rready)
            rvalid_reg <= 1'b0;
        if (rst) begin
            load_reg <= 1'b0;
            rvalid_reg <= 1'b0;
        end
    end

`ifdef FORMAL
    // (hw/formal: arready_reg is "no read in flight", in every state)
    always @* assert(arready_reg == (!load_reg && !rvalid_reg));
`endif

    // The protection bits are accepted and ignored.
    wire unused_prot = ^s_axil_arprot;

endmodule

`default_nettype wire
