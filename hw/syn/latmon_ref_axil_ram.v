// latmon_ref_axil_ram: the speed reference of `make synth` — an AXI4-Lite RAM, 32-bit data,
// 2^(ADDR_WIDTH-2) words, every output registered.
//
// It is written here, not taken from verilog-axi (whose axil_ram the issue measured: no package
// registry publishes that library, and its code is not copied into this repository), to behave
// as axil_ram does with its default pipeline: AW and W accepted together in one cycle with a
// registered ready, B one cycle later; AR accepted with a registered ready, the word read into a
// registered R one cycle later; WSTRB honoured; SLVERR never. With ADDR_WIDTH = 12 (1,024 words,
// the size the issue measured) both go through the same ECP5 flow to about the same Fmax
// (hw/syn/README in docs/hw/latmon.md, "Resources").
`timescale 1ns / 1ps
`default_nettype none

module latmon_ref_axil_ram #(
    // Width of the AXI4-Lite byte address (the RAM holds 2^(ADDR_WIDTH-2) 32-bit words).
    parameter ADDR_WIDTH = 12
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
    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready
);

    localparam WORDS = 1 << (ADDR_WIDTH - 2);

    initial begin
        if (ADDR_WIDTH < 3 || ADDR_WIDTH > 20)
            $fatal(1, "latmon_ref_axil_ram: ADDR_WIDTH must be 3..20, not %0d", ADDR_WIDTH);
    end

    reg [31:0] mem [0:WORDS-1];

    integer n;
    initial begin
        for (n = 0; n < WORDS; n = n + 1)
            mem[n] = 32'd0;
    end

    reg        wready_reg = 1'b0;
    reg        bvalid_reg = 1'b0;
    reg        arready_reg = 1'b0;
    reg        rvalid_reg = 1'b0;
    reg [31:0] rdata_reg = 32'd0;

    // A write: both channels valid, not the cycle after the last one (ready is registered), and
    // the response channel free or being freed.
    wire write = s_axil_awvalid && s_axil_wvalid && !wready_reg && (!bvalid_reg || s_axil_bready);
    // A read: AR valid, not the cycle after the last one, and R free or being freed.
    wire read = s_axil_arvalid && !arready_reg && (!rvalid_reg || s_axil_rready);

    wire [ADDR_WIDTH-3:0] waddr = s_axil_awaddr[ADDR_WIDTH-1:2];
    wire [ADDR_WIDTH-3:0] raddr = s_axil_araddr[ADDR_WIDTH-1:2];

    integer b;
    always @(posedge clk) begin
        for (b = 0; b < 4; b = b + 1)
            if (write && s_axil_wstrb[b])
                mem[waddr][8*b +: 8] <= s_axil_wdata[8*b +: 8];
        if (read)
            rdata_reg <= mem[raddr];
    end

    always @(posedge clk) begin
        wready_reg <= write;
        bvalid_reg <= write || (bvalid_reg && !s_axil_bready);
        arready_reg <= read;
        rvalid_reg <= read || (rvalid_reg && !s_axil_rready);
        if (rst) begin
            wready_reg <= 1'b0;
            bvalid_reg <= 1'b0;
            arready_reg <= 1'b0;
            rvalid_reg <= 1'b0;
        end
    end

    assign s_axil_awready = wready_reg;
    assign s_axil_wready = wready_reg;
    assign s_axil_bresp = 2'b00;
    assign s_axil_bvalid = bvalid_reg;
    assign s_axil_arready = arready_reg;
    assign s_axil_rdata = rdata_reg;
    assign s_axil_rresp = 2'b00;
    assign s_axil_rvalid = rvalid_reg;

    wire unused_prot = ^{s_axil_awprot, s_axil_arprot, s_axil_awaddr[1:0], s_axil_araddr[1:0]};

endmodule

`default_nettype wire
