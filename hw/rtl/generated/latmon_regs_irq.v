// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_irq: the registers of part "irq" of the latmon IP:
//   IRQ_ENABLE, IRQ_STATUS
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

module latmon_regs_irq #(
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

    // IRQ_ENABLE (0x014)
    output wire                  irq_enable_sample,
    output wire                  irq_enable_alarm,
    output wire                  irq_enable_trace_full,
    output wire                  irq_enable_timeout,
    output wire                  irq_enable_overrun,
    output wire                  irq_enable_stim_done,
    output wire                  irq_enable_hist_ready,

    // IRQ_STATUS (0x018)
    output wire                  irq_status_sample,
    input  wire                  irq_status_sample_hwset,
    input  wire                  irq_status_sample_hwclr,
    output wire                  irq_status_alarm,
    input  wire                  irq_status_alarm_hwset,
    input  wire                  irq_status_alarm_hwclr,
    output wire                  irq_status_alarm_swmod,
    output wire                  irq_status_trace_full,
    input  wire                  irq_status_trace_full_hwset,
    input  wire                  irq_status_trace_full_hwclr,
    output wire                  irq_status_timeout,
    input  wire                  irq_status_timeout_hwset,
    input  wire                  irq_status_timeout_hwclr,
    output wire                  irq_status_overrun,
    input  wire                  irq_status_overrun_hwset,
    input  wire                  irq_status_overrun_hwclr,
    output wire                  irq_status_stim_done,
    input  wire                  irq_status_stim_done_hwset,
    input  wire                  irq_status_stim_done_hwclr,
    output wire                  irq_status_hist_ready,
    input  wire                  irq_status_hist_ready_hwset,
    input  wire                  irq_status_hist_ready_hwclr
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_irq: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
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
    localparam [63:0] WORDS_00 = 64'h0000000000000060;
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
    reg wr_irq_enable = 1'b0;  // 0x014, in its page
    reg wr_irq_status = 1'b0;  // 0x018, in its page
    reg wr_go = 1'b0;
    always @(posedge clk) begin
        wr_go <= wr_req && !rst;
        wr_in_page_00 <= wr_page_00;
        wr_in_words_00 <= wr_words_00;
        wr_irq_enable <= wr_word_hi[0] && wr_word_lo[5];
        wr_irq_status <= wr_word_hi[0] && wr_word_lo[6];
    end
    // read in the cycle after wr_req only: of that cycle's address
    assign wr_hit = (wr_in_page_00 && wr_in_words_00);

    // ---- IRQ_ENABLE ----------------------------------------------------------------------

    wire        irq_enable_we = wr_go && wr_in_page_00 && wr_irq_enable;
    reg irq_enable_sample_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_sample_new = (wr_data[0:0] & wr_mask[0:0]) |
        (irq_enable_sample_reg & ~wr_mask[0:0]);
    assign irq_enable_sample = irq_enable_sample_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_sample_reg <= irq_enable_sample_new;
        if (rst)
            irq_enable_sample_reg <= 1'h0;
    end
    reg irq_enable_alarm_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_alarm_new = (wr_data[1:1] & wr_mask[1:1]) |
        (irq_enable_alarm_reg & ~wr_mask[1:1]);
    assign irq_enable_alarm = irq_enable_alarm_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_alarm_reg <= irq_enable_alarm_new;
        if (rst)
            irq_enable_alarm_reg <= 1'h0;
    end
    reg irq_enable_trace_full_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_trace_full_new = (wr_data[2:2] & wr_mask[2:2]) |
        (irq_enable_trace_full_reg & ~wr_mask[2:2]);
    assign irq_enable_trace_full = irq_enable_trace_full_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_trace_full_reg <= irq_enable_trace_full_new;
        if (rst)
            irq_enable_trace_full_reg <= 1'h0;
    end
    reg irq_enable_timeout_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_timeout_new = (wr_data[3:3] & wr_mask[3:3]) |
        (irq_enable_timeout_reg & ~wr_mask[3:3]);
    assign irq_enable_timeout = irq_enable_timeout_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_timeout_reg <= irq_enable_timeout_new;
        if (rst)
            irq_enable_timeout_reg <= 1'h0;
    end
    reg irq_enable_overrun_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_overrun_new = (wr_data[4:4] & wr_mask[4:4]) |
        (irq_enable_overrun_reg & ~wr_mask[4:4]);
    assign irq_enable_overrun = irq_enable_overrun_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_overrun_reg <= irq_enable_overrun_new;
        if (rst)
            irq_enable_overrun_reg <= 1'h0;
    end
    reg irq_enable_stim_done_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_stim_done_new = (wr_data[5:5] & wr_mask[5:5]) |
        (irq_enable_stim_done_reg & ~wr_mask[5:5]);
    assign irq_enable_stim_done = irq_enable_stim_done_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_stim_done_reg <= irq_enable_stim_done_new;
        if (rst)
            irq_enable_stim_done_reg <= 1'h0;
    end
    reg irq_enable_hist_ready_reg = 1'h0;
    // the written bytes of the field, the others as they are
    wire [0:0] irq_enable_hist_ready_new = (wr_data[6:6] & wr_mask[6:6]) |
        (irq_enable_hist_ready_reg & ~wr_mask[6:6]);
    assign irq_enable_hist_ready = irq_enable_hist_ready_reg;
    always @(posedge clk) begin
        if (irq_enable_we)
            irq_enable_hist_ready_reg <= irq_enable_hist_ready_new;
        if (rst)
            irq_enable_hist_ready_reg <= 1'h0;
    end

    // ---- IRQ_STATUS ----------------------------------------------------------------------

    wire        irq_status_we = wr_go && wr_in_page_00 && wr_irq_status;
    reg irq_status_sample_reg = 1'h0;
    wire irq_status_sample_clr = irq_status_we && wr_data[0] && wr_strb[0];
    assign irq_status_sample = irq_status_sample_reg;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_sample_reg <= (irq_status_sample_reg && !irq_status_sample_clr) || irq_status_sample_hwset;
        if (irq_status_sample_hwclr)
            irq_status_sample_reg <= 1'b0;
        if (rst)
            irq_status_sample_reg <= 1'h0;
    end
    reg irq_status_alarm_reg = 1'h0;
    wire irq_status_alarm_clr = irq_status_we && wr_data[1] && wr_strb[0];
    assign irq_status_alarm = irq_status_alarm_reg;
    assign irq_status_alarm_swmod = irq_status_alarm_clr;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_alarm_reg <= (irq_status_alarm_reg && !irq_status_alarm_clr) || irq_status_alarm_hwset;
        if (irq_status_alarm_hwclr)
            irq_status_alarm_reg <= 1'b0;
        if (rst)
            irq_status_alarm_reg <= 1'h0;
    end
    reg irq_status_trace_full_reg = 1'h0;
    wire irq_status_trace_full_clr = irq_status_we && wr_data[2] && wr_strb[0];
    assign irq_status_trace_full = irq_status_trace_full_reg;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_trace_full_reg <= (irq_status_trace_full_reg && !irq_status_trace_full_clr) || irq_status_trace_full_hwset;
        if (irq_status_trace_full_hwclr)
            irq_status_trace_full_reg <= 1'b0;
        if (rst)
            irq_status_trace_full_reg <= 1'h0;
    end
    reg irq_status_timeout_reg = 1'h0;
    wire irq_status_timeout_clr = irq_status_we && wr_data[3] && wr_strb[0];
    assign irq_status_timeout = irq_status_timeout_reg;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_timeout_reg <= (irq_status_timeout_reg && !irq_status_timeout_clr) || irq_status_timeout_hwset;
        if (irq_status_timeout_hwclr)
            irq_status_timeout_reg <= 1'b0;
        if (rst)
            irq_status_timeout_reg <= 1'h0;
    end
    reg irq_status_overrun_reg = 1'h0;
    wire irq_status_overrun_clr = irq_status_we && wr_data[4] && wr_strb[0];
    assign irq_status_overrun = irq_status_overrun_reg;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_overrun_reg <= (irq_status_overrun_reg && !irq_status_overrun_clr) || irq_status_overrun_hwset;
        if (irq_status_overrun_hwclr)
            irq_status_overrun_reg <= 1'b0;
        if (rst)
            irq_status_overrun_reg <= 1'h0;
    end
    reg irq_status_stim_done_reg = 1'h0;
    wire irq_status_stim_done_clr = irq_status_we && wr_data[5] && wr_strb[0];
    assign irq_status_stim_done = irq_status_stim_done_reg;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_stim_done_reg <= (irq_status_stim_done_reg && !irq_status_stim_done_clr) || irq_status_stim_done_hwset;
        if (irq_status_stim_done_hwclr)
            irq_status_stim_done_reg <= 1'b0;
        if (rst)
            irq_status_stim_done_reg <= 1'h0;
    end
    reg irq_status_hist_ready_reg = 1'h0;
    wire irq_status_hist_ready_clr = irq_status_we && wr_data[6] && wr_strb[0];
    assign irq_status_hist_ready = irq_status_hist_ready_reg;
    always @(posedge clk) begin
        // a new event wins over a simultaneous write of 1, so none is lost
        irq_status_hist_ready_reg <= (irq_status_hist_ready_reg && !irq_status_hist_ready_clr) || irq_status_hist_ready_hwset;
        if (irq_status_hist_ready_hwclr)
            irq_status_hist_ready_reg <= 1'b0;
        if (rst)
            irq_status_hist_ready_reg <= 1'h0;
    end

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_irq_enable =
        {25'd0, irq_enable_hist_ready_reg, irq_enable_stim_done_reg, irq_enable_overrun_reg, irq_enable_timeout_reg, irq_enable_trace_full_reg, irq_enable_alarm_reg, irq_enable_sample_reg};
    wire [31:0] read_irq_status =
        {25'd0, irq_status_hist_ready_reg, irq_status_stim_done_reg, irq_status_overrun_reg, irq_status_timeout_reg, irq_status_trace_full_reg, irq_status_alarm_reg, irq_status_sample_reg};

    generate
        if (REG_DECODE != 0) begin : g_rd_registered
            // Reads: the address decoded in every cycle into flip-flops: in the
            // cycle after rd_req (the load) they tell of the AR cycle's address, the
            // only one used. The load: of a read of this page, or of another address.
            reg rd_load_page_00 = 1'b0;
            reg rd_load_other_00 = 1'b0;
            reg rd_in_words_00 = 1'b0;
            reg rd_irq_enable = 1'b0;  // 0x014
            reg rd_irq_status = 1'b0;  // 0x018
            reg rd_hit_reg = 1'b0;
            always @(posedge clk) begin
                rd_load_page_00 <= rd_req && rd_page_00 && !rst;
                rd_load_other_00 <= rd_req && !rd_page_00 && !rst;
                rd_in_words_00 <= rd_words_00;
                rd_irq_enable <= rd_word_hi[0] && rd_word_lo[5];
                rd_irq_status <= rd_word_hi[0] && rd_word_lo[6];
                // with the data (the load), from the select flip-flops
                if (rd_load_page_00)
                    rd_hit_reg <= rd_in_words_00;
                if (rd_load_other_00 || rst)
                    rd_hit_reg <= 1'b0;
            end
            // Step 2 (the load): the value of the register selected (AND-OR), in pieces
            // of at most 6 registers ORed after their flip-flops.
            reg [31:0] rd_data_0 = 32'd0;
            always @(posedge clk) begin
                if (rd_load_page_00) begin
                    rd_data_0 <= ({32{rd_irq_enable}} & read_irq_enable) |
                        ({32{rd_irq_status}} & read_irq_status);
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
            wire [31:0] rd_value = (rd_addr[3] ? read_irq_status : read_irq_enable);
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
