// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_sum: the registers of part "sum" of the latmon IP:
//   SUM_LO, SUM_HI, SUM_COUNT
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

module latmon_regs_sum #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16,
    // The read decode: 1 registers it (a select flip-flop per register, the value
    // in the next cycle: for Fmax in large builds); 0 registers the selected value
    // in the AR cycle from the address (fewer LUTs and flip-flops: small builds).
    parameter REG_DECODE = 1,
    // Bits the hardware keeps of the fields sized by COUNTER_WIDTH (1..32).
    parameter COUNTER_WIDTH = 32
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

    // ---- address decode ------------------------------------------------------

    // The 256-byte page of the address (bits 1:0 ignored, bits above 15 zero).
    `LATMON_DECODE_KEEP wire wr_page_00 = wr_addr[15:8] == 8'h00 && (wr_addr >> 16) == 0;
    `LATMON_DECODE_KEEP wire rd_page_00 = rd_addr[15:8] == 8'h00 && (rd_addr >> 16) == 0;
    // The word in the page (bits 7:2): bits 7:5 and 4:2, each one-hot.
    /* verilator lint_off UNUSEDSIGNAL */  // the words without a register
    `LATMON_DECODE_KEEP wire [7:0] wr_word_hi = 8'd1 << wr_addr[7:5];
    `LATMON_DECODE_KEEP wire [7:0] wr_word_lo = 8'd1 << wr_addr[4:2];
    `LATMON_DECODE_KEEP wire [7:0] rd_word_hi = 8'd1 << rd_addr[7:5];
    `LATMON_DECODE_KEEP wire [7:0] rd_word_lo = 8'd1 << rd_addr[4:2];
    /* verilator lint_on UNUSEDSIGNAL */
    localparam [63:0] WORDS_00 = 64'h000000000000E000;
    `LATMON_DECODE_KEEP wire wr_words_00 = WORDS_00[wr_addr[7:2]];
    `LATMON_DECODE_KEEP wire rd_words_00 = WORDS_00[rd_addr[7:2]];

    // Writes: the address decoded in every cycle into flip-flops (in the cycle after
    // wr_req, that of the write, they tell of wr_req's address): its page, the page's
    // words with a register (for wr_hit) and each writable register's word. wr_go:
    // this cycle is the write (wr_req registered, not in reset), done with wr_data
    // and wr_strb then. A write's enable is wr_go && page && word: one gate after
    // flip-flops; the handshake and the decode meet only there.
    reg wr_in_page_00 = 1'b0;
    reg wr_in_words_00 = 1'b0;
    always @(posedge clk) begin
        wr_in_page_00 <= wr_page_00;
        wr_in_words_00 <= wr_words_00;
    end
    // read in the cycle after wr_req only: of that cycle's address
    assign wr_hit = (wr_in_page_00 && wr_in_words_00);

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

    generate
        if (REG_DECODE != 0) begin : g_rd_registered
            // Reads: the address decoded in every cycle into flip-flops: in the
            // cycle after rd_req (the load) they tell of the AR cycle's address, the
            // only one used. The load: of a read of this page, or of another address.
            reg rd_load_page_00 = 1'b0;
            reg rd_load_other_00 = 1'b0;
            reg rd_in_words_00 = 1'b0;
            reg rd_sum_lo = 1'b0;  // 0x034
            reg rd_sum_hi = 1'b0;  // 0x038
            reg rd_sum_count = 1'b0;  // 0x03C
            reg rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                rd_load_page_00 <= rd_req && rd_page_00 && !rst;
                rd_load_other_00 <= rd_req && !rd_page_00 && !rst;
                rd_in_words_00 <= rd_words_00;
                rd_sum_lo <= rd_word_hi[1] && rd_word_lo[5];
                rd_sum_hi <= rd_word_hi[1] && rd_word_lo[6];
                rd_sum_count <= rd_word_hi[1] && rd_word_lo[7];
                // with the data (the load), from the select flip-flops
                if (rd_load_page_00)
                    rd_hit_reg <= rd_in_words_00;
                if (rd_load_other_00 || rst)
                    rd_hit_reg <= 1'b0;
            end
            assign sum_lo_value_swacc = rd_load_page_00 && rd_sum_lo;
            // Step 2 (the load): the value of the register selected (AND-OR), in pieces
            // of at most 6 registers ORed after their flip-flops.
            reg [31:0] rd_data_0 = 32'd0;
            always @(posedge clk) begin
                if (rd_load_page_00) begin
                    rd_data_0 <= ({32{rd_sum_lo}} & read_sum_lo) |
                        ({32{rd_sum_hi}} & read_sum_hi) |
                        ({32{rd_sum_count}} & read_sum_count);
                end
                if (rd_load_other_00) begin  // not this part's page
                    rd_data_0 <= 32'd0;
                end
            end
            assign rd_data = rd_data_0;
            assign rd_hit = rd_hit_reg;
        end else begin : g_rd_direct
            // REG_DECODE = 0: the read decoded in the AR cycle (rd_req) from the address: the
            // selected register's value and the hit go into one register each then. The value
            // is a tree of 2:1 multiplexers on the fewest address bits that tell the registers
            // apart (a word without a register selects one of them); a read of another page or
            // of such a word zeroes the read data instead (the flip-flops' synchronous reset, no
            // term of the multiplexer). The value is sampled at rd_req, a cycle before
            // REG_DECODE = 1 samples it.
            assign sum_lo_value_swacc = rd_req && rd_page_00 && rd_addr[7:2] == 6'd13;
            wire [31:0] rd_value = (rd_addr[3] ? (rd_addr[2] ? read_sum_count : read_sum_hi) : read_sum_lo);
            wire        rd_match = rd_page_00 && rd_words_00;
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

    wire unused_inputs = ^{wr_data, wr_strb, wr_addr[1:0], rd_addr[1:0], wr_req};

endmodule

`default_nettype wire
