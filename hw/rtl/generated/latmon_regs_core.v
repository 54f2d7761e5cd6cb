// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_core: the registers of part "core" of the latmon IP:
//   ID, VERSION, CAPS, CTRL, STATUS, THRESHOLD, LAST, MIN, MAX, COUNT, TRACE_COUNT, CAPS2
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

module latmon_regs_core #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16,
    // The read decode: 1 registers it (a select flip-flop per register, the value
    // in the next cycle: for Fmax in large builds); 0 registers the selected value
    // in the AR cycle from the address (fewer LUTs and flip-flops: small builds).
    parameter REG_DECODE = 1,
    // Bits the hardware keeps of the fields sized by CNT_WIDTH (1..32).
    parameter CNT_WIDTH = 32,
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

    // CAPS (0x008)
    input  wire                  caps_trace,
    input  wire                  caps_hist,
    input  wire                  caps_stamp,
    input  wire                  caps_stim,
    input  wire                  caps_irq,
    input  wire                  caps_timeout,
    input  wire                  caps_counters,
    input  wire                  caps_sum,
    input  wire [6:0]            caps_cnt_width,
    input  wire                  caps_minimal,
    input  wire [4:0]            caps_trace_depth_log2,
    input  wire [2:0]            caps_sync_stages,
    input  wire [5:0]            caps_trace_width,

    // CTRL (0x00C)
    output wire                  ctrl_enable,
    output wire                  ctrl_clear,
    output wire                  ctrl_clear_copy,
    output wire                  ctrl_trace_ring,
    output wire [1:0]            ctrl_irq_mode,
    output wire [1:0]            ctrl_ack_mode,

    // STATUS (0x010)
    input  wire                  status_busy,
    input  wire                  status_alarm,
    input  wire                  status_trace_full,
    input  wire                  status_trace_wrapped,
    input  wire                  status_saturated,

    // THRESHOLD (0x020)
    output wire [CNT_WIDTH-1:0]  threshold_cycles,

    // LAST (0x024)
    input  wire [CNT_WIDTH-1:0]  last_value,

    // MIN (0x028)
    input  wire [CNT_WIDTH-1:0]  min_value,

    // MAX (0x02C)
    input  wire [CNT_WIDTH-1:0]  max_value,

    // COUNT (0x030)
    input  wire [COUNTER_WIDTH-1:0] count_value,

    // TRACE_COUNT (0x050)
    input  wire [31:0]           trace_count_value,

    // CAPS2 (0x058)
    input  wire [3:0]            caps2_hist_bins_log2,
    input  wire [6:0]            caps2_stamp_entries,
    input  wire [4:0]            caps2_id_width
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_core: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
        if (CNT_WIDTH < 1 || CNT_WIDTH > 32)
            $fatal(1, "latmon_regs_core: CNT_WIDTH must be 1..32, not %0d", CNT_WIDTH);
        if (COUNTER_WIDTH < 1 || COUNTER_WIDTH > 32)
            $fatal(1, "latmon_regs_core: COUNTER_WIDTH must be 1..32, not %0d", COUNTER_WIDTH);
    end

    // The bytes a write changes.
    wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};

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
    localparam [63:0] WORDS_00 = 64'h0000000000501F1F;
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
    reg wr_ctrl = 1'b0;  // 0x00C, in its page
    reg wr_threshold = 1'b0;  // 0x020, in its page
    reg wr_go = 1'b0;
    always @(posedge clk) begin
        wr_go <= wr_req && !rst;
        wr_in_page_00 <= wr_page_00;
        wr_in_words_00 <= wr_words_00;
        wr_ctrl <= wr_word_hi[0] && wr_word_lo[3];
        wr_threshold <= wr_word_hi[1] && wr_word_lo[0];
    end
    // read in the cycle after wr_req only: of that cycle's address
    assign wr_hit = (wr_in_page_00 && wr_in_words_00);

    // ---- CTRL ----------------------------------------------------------------------------

    wire        ctrl_we = wr_go && wr_in_page_00 && wr_ctrl;
    reg ctrl_enable_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] ctrl_enable_new = (wr_data[0:0] & wr_mask[0:0]) |
        (ctrl_enable_reg & ~wr_mask[0:0]);
    assign ctrl_enable = ctrl_enable_reg;
    always @(posedge clk) begin
        if (ctrl_we)
            ctrl_enable_reg <= ctrl_enable_new;
        if (rst)
            ctrl_enable_reg <= 1'h0;
    end
    reg ctrl_clear_reg = 1'b0;
    assign ctrl_clear = ctrl_clear_reg;
    always @(posedge clk)
        ctrl_clear_reg <= !rst && ctrl_we && wr_data[1] && wr_mask[1];
    reg ctrl_clear_copy_n = 1'b1;  // inverted: not merged with ctrl_clear_reg
    assign ctrl_clear_copy = !ctrl_clear_copy_n;
    always @(posedge clk)
        ctrl_clear_copy_n <= !(!rst && ctrl_we && wr_data[1] && wr_mask[1]);
    reg ctrl_trace_ring_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] ctrl_trace_ring_new = (wr_data[2:2] & wr_mask[2:2]) |
        (ctrl_trace_ring_reg & ~wr_mask[2:2]);
    assign ctrl_trace_ring = ctrl_trace_ring_reg;
    always @(posedge clk) begin
        if (ctrl_we)
            ctrl_trace_ring_reg <= ctrl_trace_ring_new;
        if (rst)
            ctrl_trace_ring_reg <= 1'h0;
    end
    reg [1:0] ctrl_irq_mode_reg = 2'h0;
    // the written bytes of the field, the others as they are
    wire [1:0] ctrl_irq_mode_new = (wr_data[5:4] & wr_mask[5:4]) |
        (ctrl_irq_mode_reg & ~wr_mask[5:4]);
    assign ctrl_irq_mode = ctrl_irq_mode_reg;
    always @(posedge clk) begin
        if (ctrl_we)
            ctrl_irq_mode_reg <= ctrl_irq_mode_new;
        if (rst)
            ctrl_irq_mode_reg <= 2'h0;
    end
    reg [1:0] ctrl_ack_mode_reg = 2'h0;
    // the written bytes of the field, the others as they are
    wire [1:0] ctrl_ack_mode_new = (wr_data[7:6] & wr_mask[7:6]) |
        (ctrl_ack_mode_reg & ~wr_mask[7:6]);
    assign ctrl_ack_mode = ctrl_ack_mode_reg;
    always @(posedge clk) begin
        if (ctrl_we)
            ctrl_ack_mode_reg <= ctrl_ack_mode_new;
        if (rst)
            ctrl_ack_mode_reg <= 2'h0;
    end

    // ---- THRESHOLD -----------------------------------------------------------------------

    wire        threshold_we = wr_go && wr_in_page_00 && wr_threshold;
    reg [CNT_WIDTH-1:0] threshold_cycles_reg = {CNT_WIDTH{1'b0}};
    wire [31:0] threshold_cycles_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_threshold_cycles_ext
            assign threshold_cycles_ext = {{(32-CNT_WIDTH){1'b0}}, threshold_cycles_reg};
        end else begin : g_threshold_cycles_full
            assign threshold_cycles_ext = threshold_cycles_reg;
        end
    endgenerate
    // the written bytes of the field, the others as they are
    wire [31:0] threshold_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (threshold_cycles_ext & ~wr_mask[31:0]);
    // saturate: a value that does not fit CNT_WIDTH bits is stored as all ones
    wire threshold_cycles_sat = (threshold_cycles_new >> CNT_WIDTH) != 0;
    assign threshold_cycles = threshold_cycles_reg;
    always @(posedge clk) begin
        if (threshold_we)
            threshold_cycles_reg <= threshold_cycles_sat ? {CNT_WIDTH{1'b1}} : threshold_cycles_new[CNT_WIDTH-1:0];
        if (rst)
            threshold_cycles_reg <= {CNT_WIDTH{1'b0}};
    end

    // ---- LAST ----------------------------------------------------------------------------

    wire [31:0] last_value_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_last_value_ext
            assign last_value_ext = {{(32-CNT_WIDTH){1'b0}}, last_value};
        end else begin : g_last_value_full
            assign last_value_ext = last_value;
        end
    endgenerate

    // ---- MIN -----------------------------------------------------------------------------

    wire [31:0] min_value_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_min_value_ext
            assign min_value_ext = {{(32-CNT_WIDTH){1'b0}}, min_value};
        end else begin : g_min_value_full
            assign min_value_ext = min_value;
        end
    endgenerate

    // ---- MAX -----------------------------------------------------------------------------

    wire [31:0] max_value_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_max_value_ext
            assign max_value_ext = {{(32-CNT_WIDTH){1'b0}}, max_value};
        end else begin : g_max_value_full
            assign max_value_ext = max_value;
        end
    endgenerate

    // ---- COUNT ---------------------------------------------------------------------------

    wire [31:0] count_value_ext;
    generate
        if (COUNTER_WIDTH < 32) begin : g_count_value_ext
            assign count_value_ext = {{(32-COUNTER_WIDTH){1'b0}}, count_value};
        end else begin : g_count_value_full
            assign count_value_ext = count_value;
        end
    endgenerate

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_id =
        {32'h4C544D4E};
    wire [31:0] read_version =
        {16'h1, 16'h3};
    wire [31:0] read_caps =
        {2'd0, caps_trace_width, caps_sync_stages, caps_trace_depth_log2, caps_minimal, caps_cnt_width, caps_sum, caps_counters, caps_timeout, caps_irq, caps_stim, caps_stamp, caps_hist, caps_trace};
    wire [31:0] read_ctrl =
        {24'd0, ctrl_ack_mode_reg, ctrl_irq_mode_reg, 1'd0, ctrl_trace_ring_reg, 1'd0, ctrl_enable_reg};
    wire [31:0] read_status =
        {27'd0, status_saturated, status_trace_wrapped, status_trace_full, status_alarm, status_busy};
    wire [31:0] read_threshold =
        {threshold_cycles_ext};
    wire [31:0] read_last =
        {last_value_ext};
    wire [31:0] read_min =
        {min_value_ext};
    wire [31:0] read_max =
        {max_value_ext};
    wire [31:0] read_count =
        {count_value_ext};
    wire [31:0] read_trace_count =
        {trace_count_value};
    wire [31:0] read_caps2 =
        {11'd0, caps2_id_width, 1'd0, caps2_stamp_entries, 4'd0, caps2_hist_bins_log2};

    generate
        if (REG_DECODE != 0) begin : g_rd_registered
            // Reads: the address decoded in every cycle into flip-flops: in the
            // cycle after rd_req (the load) they tell of the AR cycle's address, the
            // only one used. The load: of a read of this page, or of another address.
            reg rd_load_page_00 = 1'b0;
            reg rd_load_other_00 = 1'b0;
            reg rd_in_words_00 = 1'b0;
            reg rd_id = 1'b0;  // 0x000
            reg rd_version = 1'b0;  // 0x004
            reg rd_caps = 1'b0;  // 0x008
            reg rd_ctrl = 1'b0;  // 0x00C
            reg rd_status = 1'b0;  // 0x010
            reg rd_threshold = 1'b0;  // 0x020
            reg rd_last = 1'b0;  // 0x024
            reg rd_min = 1'b0;  // 0x028
            reg rd_max = 1'b0;  // 0x02C
            reg rd_count = 1'b0;  // 0x030
            reg rd_trace_count = 1'b0;  // 0x050
            reg rd_caps2 = 1'b0;  // 0x058
            reg rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                rd_load_page_00 <= rd_req && rd_page_00 && !rst;
                rd_load_other_00 <= rd_req && !rd_page_00 && !rst;
                rd_in_words_00 <= rd_words_00;
                rd_id <= rd_word_hi[0] && rd_word_lo[0];
                rd_version <= rd_word_hi[0] && rd_word_lo[1];
                rd_caps <= rd_word_hi[0] && rd_word_lo[2];
                rd_ctrl <= rd_word_hi[0] && rd_word_lo[3];
                rd_status <= rd_word_hi[0] && rd_word_lo[4];
                rd_threshold <= rd_word_hi[1] && rd_word_lo[0];
                rd_last <= rd_word_hi[1] && rd_word_lo[1];
                rd_min <= rd_word_hi[1] && rd_word_lo[2];
                rd_max <= rd_word_hi[1] && rd_word_lo[3];
                rd_count <= rd_word_hi[1] && rd_word_lo[4];
                rd_trace_count <= rd_word_hi[2] && rd_word_lo[4];
                rd_caps2 <= rd_word_hi[2] && rd_word_lo[6];
                // with the data (the load), from the select flip-flops
                if (rd_load_page_00)
                    rd_hit_reg <= rd_in_words_00;
                if (rd_load_other_00 || rst)
                    rd_hit_reg <= 1'b0;
            end
            // Step 2 (the load): the value of the register selected (AND-OR), in pieces
            // of at most 6 registers ORed after their flip-flops.
            reg [31:0] rd_data_0 = 32'd0;
            reg [31:0] rd_data_1 = 32'd0;
            always @(posedge clk) begin
                if (rd_load_page_00) begin
                    rd_data_0 <= ({32{rd_id}} & read_id) |
                        ({32{rd_version}} & read_version) |
                        ({32{rd_caps}} & read_caps) |
                        ({32{rd_ctrl}} & read_ctrl) |
                        ({32{rd_status}} & read_status) |
                        ({32{rd_threshold}} & read_threshold);
                    rd_data_1 <= ({32{rd_last}} & read_last) |
                        ({32{rd_min}} & read_min) |
                        ({32{rd_max}} & read_max) |
                        ({32{rd_count}} & read_count) |
                        ({32{rd_trace_count}} & read_trace_count) |
                        ({32{rd_caps2}} & read_caps2);
                end
                if (rd_load_other_00) begin  // not this part's page
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
            wire [31:0] rd_value = (rd_addr[6] ? (rd_addr[3] ? read_caps2 : read_trace_count) : (rd_addr[5] ? (rd_addr[4] ? read_count : (rd_addr[3] ? (rd_addr[2] ? read_max : read_min) : (rd_addr[2] ? read_last : read_threshold))) : (rd_addr[4] ? read_status : (rd_addr[3] ? (rd_addr[2] ? read_ctrl : read_caps) : (rd_addr[2] ? read_version : read_id)))));
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

    wire unused_inputs = ^{wr_data, wr_strb, wr_addr[1:0], rd_addr[1:0], wr_mask};

endmodule

`default_nettype wire
