// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_stamp: the registers of part "stamp" of the latmon IP:
//   STAMP_CTRL, STAMP_TIMEOUT, STAMP_MATCHED, STAMP_UNMATCHED, STAMP_TIMEOUTS, STAMP_FULL,
//   STAMP_DUPLICATES, STAMP_OUTSTANDING, STAMP_TIME_LO, STAMP_TIME_HI
// Register interface and field behaviour: hw/regs/regblock.py.
`timescale 1ns / 1ps
`default_nettype none

module latmon_regs_stamp #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16
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

    // STAMP_CTRL (0x200)
    output wire                  stamp_ctrl_enable,

    // STAMP_TIMEOUT (0x204)
    output wire [31:0]           stamp_timeout_cycles,

    // STAMP_MATCHED (0x208)
    input  wire [31:0]           stamp_matched_value,

    // STAMP_UNMATCHED (0x20C)
    input  wire [31:0]           stamp_unmatched_value,

    // STAMP_TIMEOUTS (0x210)
    input  wire [31:0]           stamp_timeouts_value,

    // STAMP_FULL (0x214)
    input  wire [31:0]           stamp_full_value,

    // STAMP_DUPLICATES (0x218)
    input  wire [31:0]           stamp_duplicates_value,

    // STAMP_OUTSTANDING (0x21C)
    input  wire [6:0]            stamp_outstanding_value,

    // STAMP_TIME_LO (0x220)
    input  wire [31:0]           stamp_time_lo_value,
    output wire                  stamp_time_lo_value_swacc,

    // STAMP_TIME_HI (0x224)
    input  wire [31:0]           stamp_time_hi_value,
    input  wire                  stamp_time_hi_value_we
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_stamp: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
    end

    // The byte address is of the word `word` (bits 1:0 ignored, bits above 15 zero).
    function at;
        input [ADDR_WIDTH-1:0] addr;
        input [13:0]           word;
        begin
            at = addr[15:2] == word && (addr >> 16) == 0;
        end
    endfunction

    // The bytes a write changes.
    wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};

    // ---- address decode ------------------------------------------------------

    wire wr_stamp_ctrl = at(wr_addr, 14'h0080);  // 0x200
    wire wr_stamp_timeout = at(wr_addr, 14'h0081);  // 0x204
    wire wr_stamp_matched = at(wr_addr, 14'h0082);  // 0x208
    wire wr_stamp_unmatched = at(wr_addr, 14'h0083);  // 0x20C
    wire wr_stamp_timeouts = at(wr_addr, 14'h0084);  // 0x210
    wire wr_stamp_full = at(wr_addr, 14'h0085);  // 0x214
    wire wr_stamp_duplicates = at(wr_addr, 14'h0086);  // 0x218
    wire wr_stamp_outstanding = at(wr_addr, 14'h0087);  // 0x21C
    wire wr_stamp_time_lo = at(wr_addr, 14'h0088);  // 0x220
    wire wr_stamp_time_hi = at(wr_addr, 14'h0089);  // 0x224
    wire rd_stamp_ctrl = at(rd_addr, 14'h0080);
    wire rd_stamp_timeout = at(rd_addr, 14'h0081);
    wire rd_stamp_matched = at(rd_addr, 14'h0082);
    wire rd_stamp_unmatched = at(rd_addr, 14'h0083);
    wire rd_stamp_timeouts = at(rd_addr, 14'h0084);
    wire rd_stamp_full = at(rd_addr, 14'h0085);
    wire rd_stamp_duplicates = at(rd_addr, 14'h0086);
    wire rd_stamp_outstanding = at(rd_addr, 14'h0087);
    wire rd_stamp_time_lo = at(rd_addr, 14'h0088);
    wire rd_stamp_time_hi = at(rd_addr, 14'h0089);
    assign wr_hit = wr_stamp_ctrl || wr_stamp_timeout || wr_stamp_matched || wr_stamp_unmatched || wr_stamp_timeouts || wr_stamp_full || wr_stamp_duplicates || wr_stamp_outstanding || wr_stamp_time_lo || wr_stamp_time_hi;

    // ---- STAMP_CTRL ----------------------------------------------------------------------

    wire        stamp_ctrl_we = wr_req && wr_stamp_ctrl;
    reg stamp_ctrl_enable_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] stamp_ctrl_enable_new = (wr_data[0:0] & wr_mask[0:0]) |
        (stamp_ctrl_enable_reg & ~wr_mask[0:0]);
    assign stamp_ctrl_enable = stamp_ctrl_enable_reg;
    always @(posedge clk) begin
        if (stamp_ctrl_we)
            stamp_ctrl_enable_reg <= stamp_ctrl_enable_new;
        if (rst)
            stamp_ctrl_enable_reg <= 1'h0;
    end

    // ---- STAMP_TIMEOUT -------------------------------------------------------------------

    wire        stamp_timeout_we = wr_req && wr_stamp_timeout;
    reg [31:0] stamp_timeout_cycles_reg = 32'h0;
    // the written bytes of the field, the others as they are
    wire [31:0] stamp_timeout_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stamp_timeout_cycles_reg & ~wr_mask[31:0]);
    assign stamp_timeout_cycles = stamp_timeout_cycles_reg;
    always @(posedge clk) begin
        if (stamp_timeout_we)
            stamp_timeout_cycles_reg <= stamp_timeout_cycles_new;
        if (rst)
            stamp_timeout_cycles_reg <= 32'h0;
    end

    // ---- STAMP_TIME_HI -------------------------------------------------------------------

    reg [31:0] stamp_time_hi_value_reg = 32'h0;
    always @(posedge clk) begin
        if (stamp_time_hi_value_we)
            stamp_time_hi_value_reg <= stamp_time_hi_value;
        if (rst)
            stamp_time_hi_value_reg <= 32'h0;
    end

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_stamp_ctrl =
        {31'd0, stamp_ctrl_enable_reg};
    wire [31:0] read_stamp_timeout =
        {stamp_timeout_cycles_reg};
    wire [31:0] read_stamp_matched =
        {stamp_matched_value};
    wire [31:0] read_stamp_unmatched =
        {stamp_unmatched_value};
    wire [31:0] read_stamp_timeouts =
        {stamp_timeouts_value};
    wire [31:0] read_stamp_full =
        {stamp_full_value};
    wire [31:0] read_stamp_duplicates =
        {stamp_duplicates_value};
    wire [31:0] read_stamp_outstanding =
        {25'd0, stamp_outstanding_value};
    wire [31:0] read_stamp_time_lo =
        {stamp_time_lo_value};
    wire [31:0] read_stamp_time_hi =
        {stamp_time_hi_value_reg};
    // Which register a read is of: its index here, 15 none (step 1, rd_req).
    localparam [3:0] RD_NONE = 4'd15;
    reg [3:0] rd_sel = RD_NONE;
    always @(posedge clk) begin
        if (rd_req) begin
            rd_sel <= RD_NONE;
            if (rd_stamp_ctrl)
                rd_sel <= 4'd0;
            if (rd_stamp_timeout)
                rd_sel <= 4'd1;
            if (rd_stamp_matched)
                rd_sel <= 4'd2;
            if (rd_stamp_unmatched)
                rd_sel <= 4'd3;
            if (rd_stamp_timeouts)
                rd_sel <= 4'd4;
            if (rd_stamp_full)
                rd_sel <= 4'd5;
            if (rd_stamp_duplicates)
                rd_sel <= 4'd6;
            if (rd_stamp_outstanding)
                rd_sel <= 4'd7;
            if (rd_stamp_time_lo)
                rd_sel <= 4'd8;
            if (rd_stamp_time_hi)
                rd_sel <= 4'd9;
        end
        if (rst)
            rd_sel <= RD_NONE;
    end
    assign rd_hit = rd_sel != RD_NONE;

    assign stamp_time_lo_value_swacc = rd_load && rd_sel == 4'd8;
    // Step 2 (rd_load): the value of that register.
    always @(posedge clk) begin
        if (rd_load) begin
            case (rd_sel)
                4'd0: rd_data <= read_stamp_ctrl;
                4'd1: rd_data <= read_stamp_timeout;
                4'd2: rd_data <= read_stamp_matched;
                4'd3: rd_data <= read_stamp_unmatched;
                4'd4: rd_data <= read_stamp_timeouts;
                4'd5: rd_data <= read_stamp_full;
                4'd6: rd_data <= read_stamp_duplicates;
                4'd7: rd_data <= read_stamp_outstanding;
                4'd8: rd_data <= read_stamp_time_lo;
                4'd9: rd_data <= read_stamp_time_hi;
                default: rd_data <= 32'd0;
            endcase
        end
    end

    wire unused_inputs = ^{wr_data, wr_strb, wr_addr[1:0], rd_addr[1:0], wr_mask};

endmodule

`default_nettype wire
