// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_stim: the registers of part "stim" of the latmon IP:
//   STIM_CTRL, STIM_STATUS, STIM_PERIOD, STIM_MIN, STIM_MAX, STIM_BURST, STIM_PAUSE, STIM_TOTAL,
//   STIM_SEED, STIM_SENT
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

module latmon_regs_stim #(
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

    // STIM_CTRL (0x280)
    output wire                  stim_ctrl_start,
    output wire                  stim_ctrl_stop,
    output wire [1:0]            stim_ctrl_mode,
    output wire                  stim_ctrl_loop,
    output wire                  stim_ctrl_stamp,

    // STIM_STATUS (0x284)
    input  wire                  stim_status_running,
    input  wire                  stim_status_done,

    // STIM_PERIOD (0x288)
    output wire [31:0]           stim_period_cycles,

    // STIM_MIN (0x28C)
    output wire [31:0]           stim_min_cycles,

    // STIM_MAX (0x290)
    output wire [31:0]           stim_max_cycles,

    // STIM_BURST (0x294)
    output wire [31:0]           stim_burst_pulses,

    // STIM_PAUSE (0x298)
    output wire [31:0]           stim_pause_cycles,

    // STIM_TOTAL (0x29C)
    output wire [31:0]           stim_total_pulses,

    // STIM_SEED (0x2A0)
    output wire [31:0]           stim_seed_value,

    // STIM_SENT (0x2A4)
    input  wire [31:0]           stim_sent_value
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_stim: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
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
    localparam [63:0] WORDS_02 = 64'h000003FF00000000;
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
    reg wr_stim_ctrl = 1'b0;  // 0x280, in its page
    reg wr_stim_period = 1'b0;  // 0x288, in its page
    reg wr_stim_min = 1'b0;  // 0x28C, in its page
    reg wr_stim_max = 1'b0;  // 0x290, in its page
    reg wr_stim_burst = 1'b0;  // 0x294, in its page
    reg wr_stim_pause = 1'b0;  // 0x298, in its page
    reg wr_stim_total = 1'b0;  // 0x29C, in its page
    reg wr_stim_seed = 1'b0;  // 0x2A0, in its page
    reg wr_go = 1'b0;
    always @(posedge clk) begin
        wr_go <= wr_req && !rst;
        wr_in_page_02 <= wr_page_02;
        wr_in_words_02 <= wr_words_02;
        wr_stim_ctrl <= wr_word_hi[4] && wr_word_lo[0];
        wr_stim_period <= wr_word_hi[4] && wr_word_lo[2];
        wr_stim_min <= wr_word_hi[4] && wr_word_lo[3];
        wr_stim_max <= wr_word_hi[4] && wr_word_lo[4];
        wr_stim_burst <= wr_word_hi[4] && wr_word_lo[5];
        wr_stim_pause <= wr_word_hi[4] && wr_word_lo[6];
        wr_stim_total <= wr_word_hi[4] && wr_word_lo[7];
        wr_stim_seed <= wr_word_hi[5] && wr_word_lo[0];
    end
    // read in the cycle after wr_req only: of that cycle's address
    assign wr_hit = (wr_in_page_02 && wr_in_words_02);

    // ---- STIM_CTRL -----------------------------------------------------------------------

    wire        stim_ctrl_we = wr_go && wr_in_page_02 && wr_stim_ctrl;
    reg stim_ctrl_start_reg = 1'b0;
    assign stim_ctrl_start = stim_ctrl_start_reg;
    always @(posedge clk)
        stim_ctrl_start_reg <= !rst && stim_ctrl_we && wr_data[0] && wr_mask[0];
    reg stim_ctrl_stop_reg = 1'b0;
    assign stim_ctrl_stop = stim_ctrl_stop_reg;
    always @(posedge clk)
        stim_ctrl_stop_reg <= !rst && stim_ctrl_we && wr_data[1] && wr_mask[1];
    reg [1:0] stim_ctrl_mode_reg = 2'h0;
    // the written bytes of the field, the others as they are
    wire [1:0] stim_ctrl_mode_new = (wr_data[5:4] & wr_mask[5:4]) |
        (stim_ctrl_mode_reg & ~wr_mask[5:4]);
    assign stim_ctrl_mode = stim_ctrl_mode_reg;
    always @(posedge clk) begin
        if (stim_ctrl_we)
            stim_ctrl_mode_reg <= stim_ctrl_mode_new;
        if (rst)
            stim_ctrl_mode_reg <= 2'h0;
    end
    reg stim_ctrl_loop_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] stim_ctrl_loop_new = (wr_data[8:8] & wr_mask[8:8]) |
        (stim_ctrl_loop_reg & ~wr_mask[8:8]);
    assign stim_ctrl_loop = stim_ctrl_loop_reg;
    always @(posedge clk) begin
        if (stim_ctrl_we)
            stim_ctrl_loop_reg <= stim_ctrl_loop_new;
        if (rst)
            stim_ctrl_loop_reg <= 1'h0;
    end
    reg stim_ctrl_stamp_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] stim_ctrl_stamp_new = (wr_data[9:9] & wr_mask[9:9]) |
        (stim_ctrl_stamp_reg & ~wr_mask[9:9]);
    assign stim_ctrl_stamp = stim_ctrl_stamp_reg;
    always @(posedge clk) begin
        if (stim_ctrl_we)
            stim_ctrl_stamp_reg <= stim_ctrl_stamp_new;
        if (rst)
            stim_ctrl_stamp_reg <= 1'h0;
    end

    // ---- STIM_PERIOD ---------------------------------------------------------------------

    wire        stim_period_we = wr_go && wr_in_page_02 && wr_stim_period;
    reg [31:0] stim_period_cycles_reg = 32'h0;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_period_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_period_cycles_reg & ~wr_mask[31:0]);
    assign stim_period_cycles = stim_period_cycles_reg;
    always @(posedge clk) begin
        if (stim_period_we)
            stim_period_cycles_reg <= stim_period_cycles_new;
        if (rst)
            stim_period_cycles_reg <= 32'h0;
    end

    // ---- STIM_MIN ------------------------------------------------------------------------

    wire        stim_min_we = wr_go && wr_in_page_02 && wr_stim_min;
    reg [31:0] stim_min_cycles_reg = 32'h0;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_min_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_min_cycles_reg & ~wr_mask[31:0]);
    assign stim_min_cycles = stim_min_cycles_reg;
    always @(posedge clk) begin
        if (stim_min_we)
            stim_min_cycles_reg <= stim_min_cycles_new;
        if (rst)
            stim_min_cycles_reg <= 32'h0;
    end

    // ---- STIM_MAX ------------------------------------------------------------------------

    wire        stim_max_we = wr_go && wr_in_page_02 && wr_stim_max;
    reg [31:0] stim_max_cycles_reg = 32'h0;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_max_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_max_cycles_reg & ~wr_mask[31:0]);
    assign stim_max_cycles = stim_max_cycles_reg;
    always @(posedge clk) begin
        if (stim_max_we)
            stim_max_cycles_reg <= stim_max_cycles_new;
        if (rst)
            stim_max_cycles_reg <= 32'h0;
    end

    // ---- STIM_BURST ----------------------------------------------------------------------

    wire        stim_burst_we = wr_go && wr_in_page_02 && wr_stim_burst;
    reg [31:0] stim_burst_pulses_reg = 32'h1;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_burst_pulses_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_burst_pulses_reg & ~wr_mask[31:0]);
    assign stim_burst_pulses = stim_burst_pulses_reg;
    always @(posedge clk) begin
        if (stim_burst_we)
            stim_burst_pulses_reg <= stim_burst_pulses_new;
        if (rst)
            stim_burst_pulses_reg <= 32'h1;
    end

    // ---- STIM_PAUSE ----------------------------------------------------------------------

    wire        stim_pause_we = wr_go && wr_in_page_02 && wr_stim_pause;
    reg [31:0] stim_pause_cycles_reg = 32'h0;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_pause_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_pause_cycles_reg & ~wr_mask[31:0]);
    assign stim_pause_cycles = stim_pause_cycles_reg;
    always @(posedge clk) begin
        if (stim_pause_we)
            stim_pause_cycles_reg <= stim_pause_cycles_new;
        if (rst)
            stim_pause_cycles_reg <= 32'h0;
    end

    // ---- STIM_TOTAL ----------------------------------------------------------------------

    wire        stim_total_we = wr_go && wr_in_page_02 && wr_stim_total;
    reg [31:0] stim_total_pulses_reg = 32'h0;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_total_pulses_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_total_pulses_reg & ~wr_mask[31:0]);
    assign stim_total_pulses = stim_total_pulses_reg;
    always @(posedge clk) begin
        if (stim_total_we)
            stim_total_pulses_reg <= stim_total_pulses_new;
        if (rst)
            stim_total_pulses_reg <= 32'h0;
    end

    // ---- STIM_SEED -----------------------------------------------------------------------

    wire        stim_seed_we = wr_go && wr_in_page_02 && wr_stim_seed;
    reg [31:0] stim_seed_value_reg = 32'h1;
    // the written bytes of the field, the others as they are
    wire [31:0] stim_seed_value_new = (wr_data[31:0] & wr_mask[31:0]) |
        (stim_seed_value_reg & ~wr_mask[31:0]);
    assign stim_seed_value = stim_seed_value_reg;
    always @(posedge clk) begin
        if (stim_seed_we)
            stim_seed_value_reg <= stim_seed_value_new;
        if (rst)
            stim_seed_value_reg <= 32'h1;
    end

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_stim_ctrl =
        {22'd0, stim_ctrl_stamp_reg, stim_ctrl_loop_reg, 2'd0, stim_ctrl_mode_reg, 2'd0, 1'd0, 1'd0};
    wire [31:0] read_stim_status =
        {30'd0, stim_status_done, stim_status_running};
    wire [31:0] read_stim_period =
        {stim_period_cycles_reg};
    wire [31:0] read_stim_min =
        {stim_min_cycles_reg};
    wire [31:0] read_stim_max =
        {stim_max_cycles_reg};
    wire [31:0] read_stim_burst =
        {stim_burst_pulses_reg};
    wire [31:0] read_stim_pause =
        {stim_pause_cycles_reg};
    wire [31:0] read_stim_total =
        {stim_total_pulses_reg};
    wire [31:0] read_stim_seed =
        {stim_seed_value_reg};
    wire [31:0] read_stim_sent =
        {stim_sent_value};

    generate
        if (REG_DECODE != 0) begin : g_rd_registered
            // Reads: the address decoded in every cycle into flip-flops: in the
            // cycle after rd_req (the load) they tell of the AR cycle's address, the
            // only one used. The load: of a read of this page, or of another address.
            reg rd_load_page_02 = 1'b0;
            reg rd_load_other_02 = 1'b0;
            reg rd_in_words_02 = 1'b0;
            reg rd_stim_ctrl = 1'b0;  // 0x280
            reg rd_stim_status = 1'b0;  // 0x284
            reg rd_stim_period = 1'b0;  // 0x288
            reg rd_stim_min = 1'b0;  // 0x28C
            reg rd_stim_max = 1'b0;  // 0x290
            reg rd_stim_burst = 1'b0;  // 0x294
            reg rd_stim_pause = 1'b0;  // 0x298
            reg rd_stim_total = 1'b0;  // 0x29C
            reg rd_stim_seed = 1'b0;  // 0x2A0
            reg rd_stim_sent = 1'b0;  // 0x2A4
            reg rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                rd_load_page_02 <= rd_req && rd_page_02 && !rst;
                rd_load_other_02 <= rd_req && !rd_page_02 && !rst;
                rd_in_words_02 <= rd_words_02;
                rd_stim_ctrl <= rd_word_hi[4] && rd_word_lo[0];
                rd_stim_status <= rd_word_hi[4] && rd_word_lo[1];
                rd_stim_period <= rd_word_hi[4] && rd_word_lo[2];
                rd_stim_min <= rd_word_hi[4] && rd_word_lo[3];
                rd_stim_max <= rd_word_hi[4] && rd_word_lo[4];
                rd_stim_burst <= rd_word_hi[4] && rd_word_lo[5];
                rd_stim_pause <= rd_word_hi[4] && rd_word_lo[6];
                rd_stim_total <= rd_word_hi[4] && rd_word_lo[7];
                rd_stim_seed <= rd_word_hi[5] && rd_word_lo[0];
                rd_stim_sent <= rd_word_hi[5] && rd_word_lo[1];
                // with the data (the load), from the select flip-flops
                if (rd_load_page_02)
                    rd_hit_reg <= rd_in_words_02;
                if (rd_load_other_02 || rst)
                    rd_hit_reg <= 1'b0;
            end
            // Step 2 (the load): the value of the register selected (AND-OR), in pieces
            // of at most 6 registers ORed after their flip-flops.
            reg [31:0] rd_data_0 = 32'd0;
            reg [31:0] rd_data_1 = 32'd0;
            always @(posedge clk) begin
                if (rd_load_page_02) begin
                    rd_data_0 <= ({32{rd_stim_ctrl}} & read_stim_ctrl) |
                        ({32{rd_stim_status}} & read_stim_status) |
                        ({32{rd_stim_period}} & read_stim_period) |
                        ({32{rd_stim_min}} & read_stim_min) |
                        ({32{rd_stim_max}} & read_stim_max) |
                        ({32{rd_stim_burst}} & read_stim_burst);
                    rd_data_1 <= ({32{rd_stim_pause}} & read_stim_pause) |
                        ({32{rd_stim_total}} & read_stim_total) |
                        ({32{rd_stim_seed}} & read_stim_seed) |
                        ({32{rd_stim_sent}} & read_stim_sent);
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
            wire [31:0] rd_value = (rd_addr[5] ? (rd_addr[2] ? read_stim_sent : read_stim_seed) : (rd_addr[4] ? (rd_addr[3] ? (rd_addr[2] ? read_stim_total : read_stim_pause) : (rd_addr[2] ? read_stim_burst : read_stim_max)) : (rd_addr[3] ? (rd_addr[2] ? read_stim_min : read_stim_period) : (rd_addr[2] ? read_stim_status : read_stim_ctrl))));
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
