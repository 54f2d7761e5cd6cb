// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_stamp: the registers of part "stamp" of the latmon IP:
//   STAMP_CTRL, STAMP_TIMEOUT, STAMP_MATCHED, STAMP_UNMATCHED, STAMP_TIMEOUTS, STAMP_FULL,
//   STAMP_DUPLICATES, STAMP_OUTSTANDING, STAMP_TIME_LO, STAMP_TIME_HI
// Register interface and field behaviour: hw/regs/regblock.py.
`timescale 1ns / 1ps
`default_nettype none
// The decode nets' attribute (hw/regs/regblock.py, KEEP): none for Icarus.
`ifndef LATMON_DECODE_KEEP
`ifdef __ICARUS__
`define LATMON_DECODE_KEEP
`else
`define LATMON_DECODE_KEEP (* keep = REG_DECODE != 0 *)
`endif
`endif

module latmon_regs_stamp #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16,
    // The read decode: 1 registers it (a select flip-flop per register, the value
    // in the next cycle: for Fmax in large builds); 0 registers the selected value
    // in the AR cycle from the address (fewer LUTs and flip-flops: small builds).
    parameter REG_DECODE = 1
) (
    input  wire                  clk,
    input  wire                  rst,

    // register interface: a write decoded in this cycle, done in the next
    input  wire                  wr_req,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [31:0]           wr_data,
    input  wire [3:0]            wr_strb,
    output wire                  wr_hit,
    // a read accepted in this cycle; its data from the next cycle on
    input  wire                  rd_req,
    input  wire [ADDR_WIDTH-1:0] rd_addr,
    output wire [31:0]           rd_data,
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

    // The bytes a write changes.
    wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};

    // ---- address decode ------------------------------------------------------

    // The 256-byte page of the address (bits 1:0 ignored, bits above 15 zero).
    `LATMON_DECODE_KEEP wire wr_page_02 = wr_addr[15:8] == 8'h02 && (wr_addr >> 16) == 0;
    `LATMON_DECODE_KEEP wire rd_page_02 = rd_addr[15:8] == 8'h02 && (rd_addr >> 16) == 0;
    // The word in the page (bits 7:2): bits 7:5 and 4:2, each one-hot.
    /* verilator lint_off UNUSEDSIGNAL */  // the words without a register
    `LATMON_DECODE_KEEP wire [7:0] wr_word_hi = 8'd1 << wr_addr[7:5];
    `LATMON_DECODE_KEEP wire [7:0] wr_word_lo = 8'd1 << wr_addr[4:2];
    `LATMON_DECODE_KEEP wire [7:0] rd_word_hi = 8'd1 << rd_addr[7:5];
    `LATMON_DECODE_KEEP wire [7:0] rd_word_lo = 8'd1 << rd_addr[4:2];
    /* verilator lint_on UNUSEDSIGNAL */
    localparam [63:0] WORDS_02 = 64'h00000000000003FF;
    `LATMON_DECODE_KEEP wire wr_words_02 = WORDS_02[wr_addr[7:2]];
    `LATMON_DECODE_KEEP wire rd_words_02 = WORDS_02[rd_addr[7:2]];

    // Writes: the address decoded in every cycle into flip-flops (in the cycle after
    // wr_req, that of the write, they tell of wr_req's address): its page, the page's
    // words with a register (for wr_hit) and each writable register's word. wr_go:
    // this cycle is the write (wr_req registered, not in reset), done with wr_data
    // and wr_strb then. A write's enable is wr_go && page && word: one gate after
    // flip-flops; the handshake and the decode meet only there.
    reg wr_in_page_02 = 1'b0;
    reg wr_in_words_02 = 1'b0;
    reg wr_stamp_ctrl = 1'b0;  // 0x200, in its page
    reg wr_stamp_timeout = 1'b0;  // 0x204, in its page
    reg wr_go = 1'b0;
    always @(posedge clk) begin
        wr_go <= wr_req && !rst;
        wr_in_page_02 <= wr_page_02;
        wr_in_words_02 <= wr_words_02;
        wr_stamp_ctrl <= wr_word_hi[0] && wr_word_lo[0];
        wr_stamp_timeout <= wr_word_hi[0] && wr_word_lo[1];
    end
    // read in the cycle after wr_req only: of that cycle's address
    assign wr_hit = (wr_in_page_02 && wr_in_words_02);

    // ---- STAMP_CTRL ----------------------------------------------------------------------

    wire        stamp_ctrl_we = wr_go && wr_in_page_02 && wr_stamp_ctrl;
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

    wire        stamp_timeout_we = wr_go && wr_in_page_02 && wr_stamp_timeout;
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

    generate
        if (REG_DECODE != 0) begin : g_rd_registered
            // Reads: the address decoded in every cycle into flip-flops: in the
            // cycle after rd_req (the load) they tell of the AR cycle's address, the
            // only one used. The load: of a read of this page, or of another address.
            reg rd_load_page_02 = 1'b0;
            reg rd_load_other_02 = 1'b0;
            reg rd_in_words_02 = 1'b0;
            reg rd_stamp_ctrl = 1'b0;  // 0x200
            reg rd_stamp_timeout = 1'b0;  // 0x204
            reg rd_stamp_matched = 1'b0;  // 0x208
            reg rd_stamp_unmatched = 1'b0;  // 0x20C
            reg rd_stamp_timeouts = 1'b0;  // 0x210
            reg rd_stamp_full = 1'b0;  // 0x214
            reg rd_stamp_duplicates = 1'b0;  // 0x218
            reg rd_stamp_outstanding = 1'b0;  // 0x21C
            reg rd_stamp_time_lo = 1'b0;  // 0x220
            reg rd_stamp_time_hi = 1'b0;  // 0x224
            reg rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                rd_load_page_02 <= rd_req && rd_page_02 && !rst;
                rd_load_other_02 <= rd_req && !rd_page_02 && !rst;
                rd_in_words_02 <= rd_words_02;
                rd_stamp_ctrl <= rd_word_hi[0] && rd_word_lo[0];
                rd_stamp_timeout <= rd_word_hi[0] && rd_word_lo[1];
                rd_stamp_matched <= rd_word_hi[0] && rd_word_lo[2];
                rd_stamp_unmatched <= rd_word_hi[0] && rd_word_lo[3];
                rd_stamp_timeouts <= rd_word_hi[0] && rd_word_lo[4];
                rd_stamp_full <= rd_word_hi[0] && rd_word_lo[5];
                rd_stamp_duplicates <= rd_word_hi[0] && rd_word_lo[6];
                rd_stamp_outstanding <= rd_word_hi[0] && rd_word_lo[7];
                rd_stamp_time_lo <= rd_word_hi[1] && rd_word_lo[0];
                rd_stamp_time_hi <= rd_word_hi[1] && rd_word_lo[1];
                // with the data (the load), from the select flip-flops
                if (rd_load_page_02)
                    rd_hit_reg <= rd_in_words_02;
                if (rd_load_other_02 || rst)
                    rd_hit_reg <= 1'b0;
            end
            assign stamp_time_lo_value_swacc = rd_load_page_02 && rd_stamp_time_lo;
            // Step 2 (the load): the value of the register selected (AND-OR), in pieces
            // of at most 6 registers ORed after their flip-flops.
            reg [31:0] rd_data_0 = 32'd0;
            reg [31:0] rd_data_1 = 32'd0;
            always @(posedge clk) begin
                if (rd_load_page_02) begin
                    rd_data_0 <= ({32{rd_stamp_ctrl}} & read_stamp_ctrl) |
                        ({32{rd_stamp_timeout}} & read_stamp_timeout) |
                        ({32{rd_stamp_matched}} & read_stamp_matched) |
                        ({32{rd_stamp_unmatched}} & read_stamp_unmatched) |
                        ({32{rd_stamp_timeouts}} & read_stamp_timeouts) |
                        ({32{rd_stamp_full}} & read_stamp_full);
                    rd_data_1 <= ({32{rd_stamp_duplicates}} & read_stamp_duplicates) |
                        ({32{rd_stamp_outstanding}} & read_stamp_outstanding) |
                        ({32{rd_stamp_time_lo}} & read_stamp_time_lo) |
                        ({32{rd_stamp_time_hi}} & read_stamp_time_hi);
                end
                if (rd_load_other_02) begin  // not this part's page
                    rd_data_0 <= 32'd0;
                    rd_data_1 <= 32'd0;
                end
            end
            assign rd_data = rd_data_0 | rd_data_1;
            assign rd_hit = rd_hit_reg;
        end else begin : g_rd_direct
            // REG_DECODE = 0: the read decoded in the AR cycle (rd_req) from the address: the
            // selected register's value and the hit go into one register each then. The value
            // is a tree of 2:1 multiplexers on the fewest address bits that tell the registers
            // apart (a word without a register selects one of them); a read of another page or
            // of such a word zeroes the read data instead (the flip-flops' synchronous reset, no
            // term of the multiplexer). The value is sampled at rd_req, a cycle before
            // REG_DECODE = 1 samples it.
            assign stamp_time_lo_value_swacc = rd_req && rd_page_02 && rd_addr[7:2] == 6'd8;
            wire [31:0] rd_value = (rd_addr[5] ? (rd_addr[2] ? read_stamp_time_hi : read_stamp_time_lo) : (rd_addr[4] ? (rd_addr[3] ? (rd_addr[2] ? read_stamp_outstanding : read_stamp_duplicates) : (rd_addr[2] ? read_stamp_full : read_stamp_timeouts)) : (rd_addr[3] ? (rd_addr[2] ? read_stamp_unmatched : read_stamp_matched) : (rd_addr[2] ? read_stamp_timeout : read_stamp_ctrl))));
            wire        rd_match = rd_page_02 && rd_words_02;
            reg [31:0] rd_data_reg = 32'd0;
            reg        rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                if (rd_req) begin
                    rd_data_reg <= rd_value;
                    rd_hit_reg <= rd_match;
                end
                if (rst || (rd_req && !rd_match))
                    rd_data_reg <= 32'd0;
                if (rst)
                    rd_hit_reg <= 1'b0;
            end
            assign rd_data = rd_data_reg;
            assign rd_hit = rd_hit_reg;
        end
    endgenerate

    wire unused_inputs = ^{wr_data, wr_strb, wr_addr[1:0], rd_addr[1:0], wr_mask};

endmodule

`default_nettype wire
