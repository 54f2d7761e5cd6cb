// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_sum: the registers of part "sum" of the latmon IP:
//   SUM_LO, SUM_HI, SUM_COUNT
// Register interface and field behaviour: hw/regs/regblock.py.
`timescale 1ns / 1ps
`default_nettype none

module latmon_regs_sum #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16,
    // Bits the hardware keeps of the fields sized by COUNTER_WIDTH (1..32).
    parameter COUNTER_WIDTH = 32
) (
    input  wire                  clk,
    input  wire                  rst,

    // register interface: a write in this cycle
    input  wire                  wr_req,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [31:0]           wr_data,
    input  wire [3:0]            wr_strb,
    output wire                  wr_hit,
    // a read accepted in this cycle; its data from the next cycle on
    input  wire                  rd_req,
    input  wire [ADDR_WIDTH-1:0] rd_addr,
    input  wire                  rd_load,
    output reg  [31:0]           rd_data = 32'd0,
    output wire                  rd_hit,

    // SUM_LO (0x034)
    input  wire [31:0]           sum_lo_value,
    output wire                  sum_lo_value_swacc,

    // SUM_HI (0x038)
    input  wire [15:0]           sum_hi_value,
    input  wire                  sum_hi_value_we,
    input  wire                  sum_hi_value_hwclr,

    // SUM_COUNT (0x03C)
    input  wire [COUNTER_WIDTH-1:0] sum_count_value,
    input  wire                  sum_count_value_we,
    input  wire                  sum_count_value_hwclr
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_sum: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
        if (COUNTER_WIDTH < 1 || COUNTER_WIDTH > 32)
            $fatal(1, "latmon_regs_sum: COUNTER_WIDTH must be 1..32, not %0d", COUNTER_WIDTH);
    end

    // The byte address is of the word `word` (bits 1:0 ignored, bits above 15 zero).
    function at;
        input [ADDR_WIDTH-1:0] addr;
        input [13:0]           word;
        begin
            at = addr[15:2] == word && (addr >> 16) == 0;
        end
    endfunction

    // ---- address decode ------------------------------------------------------

    wire wr_sum_lo = at(wr_addr, 14'h000D);  // 0x034
    wire wr_sum_hi = at(wr_addr, 14'h000E);  // 0x038
    wire wr_sum_count = at(wr_addr, 14'h000F);  // 0x03C
    wire rd_sum_lo = at(rd_addr, 14'h000D);
    wire rd_sum_hi = at(rd_addr, 14'h000E);
    wire rd_sum_count = at(rd_addr, 14'h000F);
    assign wr_hit = wr_sum_lo || wr_sum_hi || wr_sum_count;

    // ---- SUM_HI --------------------------------------------------------------------------

    reg [15:0] sum_hi_value_reg = 16'h0;
    always @(posedge clk) begin
        if (sum_hi_value_we)
            sum_hi_value_reg <= sum_hi_value;
        if (sum_hi_value_hwclr)
            sum_hi_value_reg <= 16'h0;
        if (rst)
            sum_hi_value_reg <= 16'h0;
    end

    // ---- SUM_COUNT -----------------------------------------------------------------------

    reg [COUNTER_WIDTH-1:0] sum_count_value_reg = {COUNTER_WIDTH{1'b0}};
    wire [31:0] sum_count_value_ext;
    generate
        if (COUNTER_WIDTH < 32) begin : g_sum_count_value_ext
            assign sum_count_value_ext = {{(32-COUNTER_WIDTH){1'b0}}, sum_count_value_reg};
        end else begin : g_sum_count_value_full
            assign sum_count_value_ext = sum_count_value_reg;
        end
    endgenerate
    always @(posedge clk) begin
        if (sum_count_value_we)
            sum_count_value_reg <= sum_count_value;
        if (sum_count_value_hwclr)
            sum_count_value_reg <= {COUNTER_WIDTH{1'b0}};
        if (rst)
            sum_count_value_reg <= {COUNTER_WIDTH{1'b0}};
    end

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_sum_lo =
        {sum_lo_value};
    wire [31:0] read_sum_hi =
        {16'd0, sum_hi_value_reg};
    wire [31:0] read_sum_count =
        {sum_count_value_ext};
    // Which register a read is of: its index here, 3 none (step 1, rd_req).
    localparam [1:0] RD_NONE = 2'd3;
    reg [1:0] rd_sel = RD_NONE;
    always @(posedge clk) begin
        if (rd_req) begin
            rd_sel <= RD_NONE;
            if (rd_sum_lo)
                rd_sel <= 2'd0;
            if (rd_sum_hi)
                rd_sel <= 2'd1;
            if (rd_sum_count)
                rd_sel <= 2'd2;
        end
        if (rst)
            rd_sel <= RD_NONE;
    end
    assign rd_hit = rd_sel != RD_NONE;

    assign sum_lo_value_swacc = rd_load && rd_sel == 2'd0;
    // Step 2 (rd_load): the value of that register.
    always @(posedge clk) begin
        if (rd_load) begin
            case (rd_sel)
                2'd0: rd_data <= read_sum_lo;
                2'd1: rd_data <= read_sum_hi;
                2'd2: rd_data <= read_sum_count;
                default: rd_data <= 32'd0;
            endcase
        end
    end

    wire unused_inputs = ^{wr_data, wr_strb, wr_addr[1:0], rd_addr[1:0], wr_req};

endmodule

`default_nettype wire
