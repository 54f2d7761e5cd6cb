// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_hist: the registers of part "hist" of the latmon IP:
//   HIST_CTRL, HIST_STATUS, HIST_START, HIST_SHIFT, HIST_SNAPSHOTS, HIST_DROPPED, HIST_UNDERFLOW,
//   HIST_OVERFLOW, HIST_COUNT_LO, HIST_COUNT_HI, HIST_SUM_LO, HIST_SUM_HI, HIST_MIN, HIST_MAX
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

module latmon_regs_hist #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16,
    // The read decode: 1 registers it (a select flip-flop per register, the value
    // in the next cycle: for Fmax in large builds); 0 registers the selected value
    // in the AR cycle from the address (fewer LUTs and flip-flops: small builds).
    parameter REG_DECODE = 1,
    // Bits the hardware keeps of the fields sized by CNT_WIDTH (1..32).
    parameter CNT_WIDTH = 32
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

    // HIST_CTRL (0x100)
    output wire                  hist_ctrl_snapshot,

    // HIST_STATUS (0x104)
    input  wire                  hist_status_busy,
    input  wire                  hist_status_saturated,

    // HIST_START (0x108)
    output wire [CNT_WIDTH-1:0]  hist_start_cycles,

    // HIST_SHIFT (0x10C)
    output wire [4:0]            hist_shift_shift,

    // HIST_SNAPSHOTS (0x110)
    input  wire [31:0]           hist_snapshots_value,

    // HIST_DROPPED (0x114)
    input  wire [31:0]           hist_dropped_value,

    // HIST_UNDERFLOW (0x118)
    input  wire [31:0]           hist_underflow_value,

    // HIST_OVERFLOW (0x11C)
    input  wire [31:0]           hist_overflow_value,

    // HIST_COUNT_LO (0x120)
    input  wire [31:0]           hist_count_lo_value,

    // HIST_COUNT_HI (0x124)
    input  wire [15:0]           hist_count_hi_value,

    // HIST_SUM_LO (0x128)
    input  wire [31:0]           hist_sum_lo_value,

    // HIST_SUM_HI (0x12C)
    input  wire [31:0]           hist_sum_hi_value,

    // HIST_MIN (0x130)
    input  wire [CNT_WIDTH-1:0]  hist_min_value,

    // HIST_MAX (0x134)
    input  wire [CNT_WIDTH-1:0]  hist_max_value
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_hist: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
        if (CNT_WIDTH < 1 || CNT_WIDTH > 32)
            $fatal(1, "latmon_regs_hist: CNT_WIDTH must be 1..32, not %0d", CNT_WIDTH);
    end

    // The bytes a write changes.
    wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};

    // ---- address decode ------------------------------------------------------

    // The 256-byte page of the address (bits 1:0 ignored, bits above 15 zero).
    `LATMON_DECODE_KEEP wire wr_page_01 = wr_addr[15:8] == 8'h01 && (wr_addr >> 16) == 0;
    `LATMON_DECODE_KEEP wire rd_page_01 = rd_addr[15:8] == 8'h01 && (rd_addr >> 16) == 0;
    // The word in the page (bits 7:2): bits 7:5 and 4:2, each one-hot.
    /* verilator lint_off UNUSEDSIGNAL */  // the words without a register
    `LATMON_DECODE_KEEP wire [7:0] wr_word_hi = 8'd1 << wr_addr[7:5];
    `LATMON_DECODE_KEEP wire [7:0] wr_word_lo = 8'd1 << wr_addr[4:2];
    `LATMON_DECODE_KEEP wire [7:0] rd_word_hi = 8'd1 << rd_addr[7:5];
    `LATMON_DECODE_KEEP wire [7:0] rd_word_lo = 8'd1 << rd_addr[4:2];
    /* verilator lint_on UNUSEDSIGNAL */
    localparam [63:0] WORDS_01 = 64'h0000000000003FFF;
    `LATMON_DECODE_KEEP wire wr_words_01 = WORDS_01[wr_addr[7:2]];
    `LATMON_DECODE_KEEP wire rd_words_01 = WORDS_01[rd_addr[7:2]];

    // Writes: the address decoded in every cycle into flip-flops (in the cycle after
    // wr_req, that of the write, they tell of wr_req's address): its page, the page's
    // words with a register (for wr_hit) and each writable register's word. wr_go:
    // this cycle is the write (wr_req registered, not in reset), done with wr_data
    // and wr_strb then. A write's enable is wr_go && page && word: one gate after
    // flip-flops; the handshake and the decode meet only there.
    reg wr_in_page_01 = 1'b0;
    reg wr_in_words_01 = 1'b0;
    reg wr_hist_ctrl = 1'b0;  // 0x100, in its page
    reg wr_hist_start = 1'b0;  // 0x108, in its page
    reg wr_hist_shift = 1'b0;  // 0x10C, in its page
    reg wr_go = 1'b0;
    always @(posedge clk) begin
        wr_go <= wr_req && !rst;
        wr_in_page_01 <= wr_page_01;
        wr_in_words_01 <= wr_words_01;
        wr_hist_ctrl <= wr_word_hi[0] && wr_word_lo[0];
        wr_hist_start <= wr_word_hi[0] && wr_word_lo[2];
        wr_hist_shift <= wr_word_hi[0] && wr_word_lo[3];
    end
    // read in the cycle after wr_req only: of that cycle's address
    assign wr_hit = (wr_in_page_01 && wr_in_words_01);

    // ---- HIST_CTRL -----------------------------------------------------------------------

    wire        hist_ctrl_we = wr_go && wr_in_page_01 && wr_hist_ctrl;
    reg hist_ctrl_snapshot_reg = 1'b0;
    assign hist_ctrl_snapshot = hist_ctrl_snapshot_reg;
    always @(posedge clk)
        hist_ctrl_snapshot_reg <= !rst && hist_ctrl_we && wr_data[0] && wr_mask[0];

    // ---- HIST_START ----------------------------------------------------------------------

    wire        hist_start_we = wr_go && wr_in_page_01 && wr_hist_start;
    reg [CNT_WIDTH-1:0] hist_start_cycles_reg = {CNT_WIDTH{1'b0}};
    wire [31:0] hist_start_cycles_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_hist_start_cycles_ext
            assign hist_start_cycles_ext = {{(32-CNT_WIDTH){1'b0}}, hist_start_cycles_reg};
        end else begin : g_hist_start_cycles_full
            assign hist_start_cycles_ext = hist_start_cycles_reg;
        end
    endgenerate
    // the written bytes of the field, the others as they are
    wire [31:0] hist_start_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (hist_start_cycles_ext & ~wr_mask[31:0]);
    // saturate: a value that does not fit CNT_WIDTH bits is stored as all ones
    wire hist_start_cycles_sat = (hist_start_cycles_new >> CNT_WIDTH) != 0;
    assign hist_start_cycles = hist_start_cycles_reg;
    always @(posedge clk) begin
        if (hist_start_we)
            hist_start_cycles_reg <= hist_start_cycles_sat ? {CNT_WIDTH{1'b1}} : hist_start_cycles_new[CNT_WIDTH-1:0];
        if (rst)
            hist_start_cycles_reg <= {CNT_WIDTH{1'b0}};
    end

    // ---- HIST_SHIFT ----------------------------------------------------------------------

    wire        hist_shift_we = wr_go && wr_in_page_01 && wr_hist_shift;
    reg [4:0] hist_shift_shift_reg = 5'h0;
    // the written bytes of the field, the others as they are
    wire [4:0] hist_shift_shift_new = (wr_data[4:0] & wr_mask[4:0]) |
        (hist_shift_shift_reg & ~wr_mask[4:0]);
    assign hist_shift_shift = hist_shift_shift_reg;
    always @(posedge clk) begin
        if (hist_shift_we)
            hist_shift_shift_reg <= hist_shift_shift_new;
        if (rst)
            hist_shift_shift_reg <= 5'h0;
    end

    // ---- HIST_MIN ------------------------------------------------------------------------

    wire [31:0] hist_min_value_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_hist_min_value_ext
            assign hist_min_value_ext = {{(32-CNT_WIDTH){1'b0}}, hist_min_value};
        end else begin : g_hist_min_value_full
            assign hist_min_value_ext = hist_min_value;
        end
    endgenerate

    // ---- HIST_MAX ------------------------------------------------------------------------

    wire [31:0] hist_max_value_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_hist_max_value_ext
            assign hist_max_value_ext = {{(32-CNT_WIDTH){1'b0}}, hist_max_value};
        end else begin : g_hist_max_value_full
            assign hist_max_value_ext = hist_max_value;
        end
    endgenerate

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_hist_ctrl =
        {31'd0, 1'd0};
    wire [31:0] read_hist_status =
        {30'd0, hist_status_saturated, hist_status_busy};
    wire [31:0] read_hist_start =
        {hist_start_cycles_ext};
    wire [31:0] read_hist_shift =
        {27'd0, hist_shift_shift_reg};
    wire [31:0] read_hist_snapshots =
        {hist_snapshots_value};
    wire [31:0] read_hist_dropped =
        {hist_dropped_value};
    wire [31:0] read_hist_underflow =
        {hist_underflow_value};
    wire [31:0] read_hist_overflow =
        {hist_overflow_value};
    wire [31:0] read_hist_count_lo =
        {hist_count_lo_value};
    wire [31:0] read_hist_count_hi =
        {16'd0, hist_count_hi_value};
    wire [31:0] read_hist_sum_lo =
        {hist_sum_lo_value};
    wire [31:0] read_hist_sum_hi =
        {hist_sum_hi_value};
    wire [31:0] read_hist_min =
        {hist_min_value_ext};
    wire [31:0] read_hist_max =
        {hist_max_value_ext};

    generate
        if (REG_DECODE != 0) begin : g_rd_registered
            // Reads: the address decoded in every cycle into flip-flops: in the
            // cycle after rd_req (the load) they tell of the AR cycle's address, the
            // only one used. The load: of a read of this page, or of another address.
            reg rd_load_page_01 = 1'b0;
            reg rd_load_other_01 = 1'b0;
            reg rd_in_words_01 = 1'b0;
            reg rd_hist_ctrl = 1'b0;  // 0x100
            reg rd_hist_status = 1'b0;  // 0x104
            reg rd_hist_start = 1'b0;  // 0x108
            reg rd_hist_shift = 1'b0;  // 0x10C
            reg rd_hist_snapshots = 1'b0;  // 0x110
            reg rd_hist_dropped = 1'b0;  // 0x114
            reg rd_hist_underflow = 1'b0;  // 0x118
            reg rd_hist_overflow = 1'b0;  // 0x11C
            reg rd_hist_count_lo = 1'b0;  // 0x120
            reg rd_hist_count_hi = 1'b0;  // 0x124
            reg rd_hist_sum_lo = 1'b0;  // 0x128
            reg rd_hist_sum_hi = 1'b0;  // 0x12C
            reg rd_hist_min = 1'b0;  // 0x130
            reg rd_hist_max = 1'b0;  // 0x134
            reg rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                rd_load_page_01 <= rd_req && rd_page_01 && !rst;
                rd_load_other_01 <= rd_req && !rd_page_01 && !rst;
                rd_in_words_01 <= rd_words_01;
                rd_hist_ctrl <= rd_word_hi[0] && rd_word_lo[0];
                rd_hist_status <= rd_word_hi[0] && rd_word_lo[1];
                rd_hist_start <= rd_word_hi[0] && rd_word_lo[2];
                rd_hist_shift <= rd_word_hi[0] && rd_word_lo[3];
                rd_hist_snapshots <= rd_word_hi[0] && rd_word_lo[4];
                rd_hist_dropped <= rd_word_hi[0] && rd_word_lo[5];
                rd_hist_underflow <= rd_word_hi[0] && rd_word_lo[6];
                rd_hist_overflow <= rd_word_hi[0] && rd_word_lo[7];
                rd_hist_count_lo <= rd_word_hi[1] && rd_word_lo[0];
                rd_hist_count_hi <= rd_word_hi[1] && rd_word_lo[1];
                rd_hist_sum_lo <= rd_word_hi[1] && rd_word_lo[2];
                rd_hist_sum_hi <= rd_word_hi[1] && rd_word_lo[3];
                rd_hist_min <= rd_word_hi[1] && rd_word_lo[4];
                rd_hist_max <= rd_word_hi[1] && rd_word_lo[5];
                // with the data (the load), from the select flip-flops
                if (rd_load_page_01)
                    rd_hit_reg <= rd_in_words_01;
                if (rd_load_other_01 || rst)
                    rd_hit_reg <= 1'b0;
            end
            // Step 2 (the load): the value of the register selected (AND-OR), in pieces
            // of at most 6 registers ORed after their flip-flops.
            reg [31:0] rd_data_0 = 32'd0;
            reg [31:0] rd_data_1 = 32'd0;
            reg [31:0] rd_data_2 = 32'd0;
            always @(posedge clk) begin
                if (rd_load_page_01) begin
                    rd_data_0 <= ({32{rd_hist_ctrl}} & read_hist_ctrl) |
                        ({32{rd_hist_status}} & read_hist_status) |
                        ({32{rd_hist_start}} & read_hist_start) |
                        ({32{rd_hist_shift}} & read_hist_shift) |
                        ({32{rd_hist_snapshots}} & read_hist_snapshots) |
                        ({32{rd_hist_dropped}} & read_hist_dropped);
                    rd_data_1 <= ({32{rd_hist_underflow}} & read_hist_underflow) |
                        ({32{rd_hist_overflow}} & read_hist_overflow) |
                        ({32{rd_hist_count_lo}} & read_hist_count_lo) |
                        ({32{rd_hist_count_hi}} & read_hist_count_hi) |
                        ({32{rd_hist_sum_lo}} & read_hist_sum_lo) |
                        ({32{rd_hist_sum_hi}} & read_hist_sum_hi);
                    rd_data_2 <= ({32{rd_hist_min}} & read_hist_min) |
                        ({32{rd_hist_max}} & read_hist_max);
                end
                if (rd_load_other_01) begin  // not this part's page
                    rd_data_0 <= 32'd0;
                    rd_data_1 <= 32'd0;
                    rd_data_2 <= 32'd0;
                end
            end
            assign rd_data = rd_data_0 | rd_data_1 | rd_data_2;
            assign rd_hit = rd_hit_reg;
        end else begin : g_rd_direct
            // REG_DECODE = 0: the read decoded in the AR cycle (rd_req) from the address: the
            // selected register's value and the hit go into one register each then. The value
            // is a tree of 2:1 multiplexers on the fewest address bits that tell the registers
            // apart (a word without a register selects one of them); a read of another page or
            // of such a word zeroes the read data instead (the flip-flops' synchronous reset, no
            // term of the multiplexer). The value is sampled at rd_req, a cycle before
            // REG_DECODE = 1 samples it.
            wire [31:0] rd_value = (rd_addr[5] ? (rd_addr[4] ? (rd_addr[2] ? read_hist_max : read_hist_min) : (rd_addr[3] ? (rd_addr[2] ? read_hist_sum_hi : read_hist_sum_lo) : (rd_addr[2] ? read_hist_count_hi : read_hist_count_lo))) : (rd_addr[4] ? (rd_addr[3] ? (rd_addr[2] ? read_hist_overflow : read_hist_underflow) : (rd_addr[2] ? read_hist_dropped : read_hist_snapshots)) : (rd_addr[3] ? (rd_addr[2] ? read_hist_shift : read_hist_start) : (rd_addr[2] ? read_hist_status : read_hist_ctrl))));
            wire        rd_match = rd_page_01 && rd_words_01;
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
