// soc_wb_axil: a Wishbone (classic) slave that performs each access as one AXI4-Lite
// transaction on its master port — how the SoC's CPUs reach the latmon IP and the reference
// design through their AXI4-Lite slaves, as a PS reaches the PL through M_AXI_HPM0.
//
//   read:  stb (we=0) -> ARVALID until ARREADY -> wait RVALID -> ack with RDATA
//   write: stb (we=1) -> AWVALID and WVALID until each is taken -> wait BVALID -> ack
//
// A response other than OKAY answers with ERR instead of ACK (the CPU takes a bus-error trap).
// One transaction at a time; the Wishbone byte selects become WSTRB.
`timescale 1ns / 1ps
`default_nettype none

module soc_wb_axil #(
    // Width of the AXI4-Lite address (the low bits of the Wishbone byte address).
    parameter ADDR_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  stb,
    input  wire                  we,
    input  wire [29:0]           adr,
    input  wire [31:0]           dat_w,
    input  wire [3:0]            sel,
    output reg  [31:0]           dat_r = 32'd0,
    output reg                   ack = 1'b0,
    output reg                   err = 1'b0,

    output wire [ADDR_WIDTH-1:0] m_axil_awaddr,
    output wire [2:0]            m_axil_awprot,
    output reg                   m_axil_awvalid = 1'b0,
    input  wire                  m_axil_awready,
    output wire [31:0]           m_axil_wdata,
    output wire [3:0]            m_axil_wstrb,
    output reg                   m_axil_wvalid = 1'b0,
    input  wire                  m_axil_wready,
    input  wire [1:0]            m_axil_bresp,
    input  wire                  m_axil_bvalid,
    output wire                  m_axil_bready,
    output wire [ADDR_WIDTH-1:0] m_axil_araddr,
    output wire [2:0]            m_axil_arprot,
    output reg                   m_axil_arvalid = 1'b0,
    input  wire                  m_axil_arready,
    input  wire [31:0]           m_axil_rdata,
    input  wire [1:0]            m_axil_rresp,
    input  wire                  m_axil_rvalid,
    output wire                  m_axil_rready
);

    localparam IDLE = 2'd0, READ = 2'd1, WRITE = 2'd2, DONE = 2'd3;
    reg [1:0] state = IDLE;
    reg [ADDR_WIDTH-1:0] addr_reg = {ADDR_WIDTH{1'b0}};
    reg [31:0] wdata_reg = 32'd0;
    reg [3:0]  wstrb_reg = 4'd0;

    assign m_axil_awaddr = addr_reg;
    assign m_axil_araddr = addr_reg;
    assign m_axil_awprot = 3'b000;
    assign m_axil_arprot = 3'b000;
    assign m_axil_wdata = wdata_reg;
    assign m_axil_wstrb = wstrb_reg;
    assign m_axil_bready = state == WRITE && !m_axil_awvalid && !m_axil_wvalid;
    assign m_axil_rready = state == READ && !m_axil_arvalid;

    wire [31:0] byte_addr = {adr, 2'b00};

    always @(posedge clk) begin
        ack <= 1'b0;
        err <= 1'b0;
        case (state)
            IDLE: if (stb) begin
                addr_reg <= byte_addr[ADDR_WIDTH-1:0];
                wdata_reg <= dat_w;
                wstrb_reg <= sel;
                if (we) begin
                    m_axil_awvalid <= 1'b1;
                    m_axil_wvalid <= 1'b1;
                    state <= WRITE;
                end else begin
                    m_axil_arvalid <= 1'b1;
                    state <= READ;
                end
            end
            READ: begin
                if (m_axil_arvalid && m_axil_arready)
                    m_axil_arvalid <= 1'b0;
                if (m_axil_rvalid && m_axil_rready) begin
                    dat_r <= m_axil_rdata;
                    ack <= m_axil_rresp == 2'b00;
                    err <= m_axil_rresp != 2'b00;
                    state <= DONE;
                end
            end
            WRITE: begin
                if (m_axil_awvalid && m_axil_awready)
                    m_axil_awvalid <= 1'b0;
                if (m_axil_wvalid && m_axil_wready)
                    m_axil_wvalid <= 1'b0;
                if (m_axil_bvalid && m_axil_bready) begin
                    ack <= m_axil_bresp == 2'b00;
                    err <= m_axil_bresp != 2'b00;
                    state <= DONE;
                end
            end
            // the master sees ACK in this cycle and drops (or changes) its strobe
            DONE: state <= IDLE;
        endcase
        if (rst) begin
            state <= IDLE;
            ack <= 1'b0;
            err <= 1'b0;
            m_axil_awvalid <= 1'b0;
            m_axil_wvalid <= 1'b0;
            m_axil_arvalid <= 1'b0;
        end
    end

endmodule

`default_nettype wire
