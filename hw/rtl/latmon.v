// latmon: the latency monitor IP — measurement, statistics, deadline alarm and trace RAM behind
// one AXI4-Lite slave.
//
// It measures the time from an event on `irq` to the next event on `ack` in clock cycles, one
// cycle exact, independently of the software under test (docs/hw/latmon.md). Software
// configures it and reads the results over s_axil_* (register map: hw/regs/latmon.rdl);
// `alarm` is high while a latency above the threshold is unacknowledged; `irq_out` is a level
// interrupt (IRQ_STATUS AND IRQ_ENABLE).
//
// One AXI4-Lite slave serves the registers and the trace RAM window, where the published design
// had two: one bus interface, one address range in the device tree and one UIO map. The slave is
// split as in verilog-axi: latmon_axil_wr/_rd do the handshake only; the register blocks,
// generated from the map (hw/rtl/generated/latmon_regs_<part>.v), decode and hold their own registers; a
// part the IP is built without is not instantiated. A read is registered twice: the AR cycle
// registers which register it is (the RAM windows their word, in the RAM's read latch), the next
// the register's value; the read data is the OR of the blocks' answers (latmon_axil_rd.v).
`timescale 1ns / 1ps
`default_nettype none

module latmon #(
    // Width of the cycle counter and of every latency (2..32).
    parameter CNT_WIDTH = 32,
    // Synchronizer flip-flops per input: 2 (default) .. 4, or 0 when irq and ack are already
    // synchronous to clk.
    parameter SYNC_STAGES = 2,
    // Samples in the trace RAM (a power of two, 2..4096).
    parameter TRACE_DEPTH = 512,
    // Bits per trace sample (1..32); longer latencies are stored as all ones (saturated).
    parameter TRACE_WIDTH = 32,
    // Width of the event counters (COUNT, VIOLATIONS, TIMEOUTS, OVERRUNS, IGNORED, TRACE_LOST).
    parameter COUNTER_WIDTH = 32,
    // Width of the sum of latencies (CNT_WIDTH..48; 48 keeps the mean exact for 2^16 samples
    // of the largest 32-bit latency).
    parameter SUM_WIDTH = 48,
    // Width of the AXI4-Lite address (>= 16).
    parameter ADDR_WIDTH = 16,
    // Histogram engine (docs/hw/latmon_hist.md): 1 present, 0 left out; 2^HIST_BINS_LOG2 bins
    // (4..4096) per bank, two banks of block RAM.
    parameter HAS_HIST = 1,
    parameter HIST_BINS_LOG2 = 8,
    // Timestamp mode (docs/hw/latmon_stamp.md): starts and ends matched by ID; STAMP_ENTRIES
    // outstanding starts (2..64).
    parameter HAS_STAMP = 1,
    parameter STAMP_ENTRIES = 16,
    // Stimulus generator (docs/hw/latmon_stim.md).
    parameter HAS_STIM = 1,
    // Width of the event IDs of the timestamp mode and of the stimulus pulses (8..16).
    parameter ID_WIDTH = 16,
    // The interrupt output with IRQ_ENABLE and IRQ_STATUS (0: irq_out is 0; STATUS.ALARM and
    // the alarm pin are then cleared by CTRL.CLEAR only).
    parameter HAS_IRQ = 1,
    // The timeout with TIMEOUT and TIMEOUTS (0: a measurement waits for its ack forever).
    parameter HAS_TIMEOUT = 1,
    // The event counters VIOLATIONS, OVERRUNS, IGNORED and TRACE_LOST.
    parameter HAS_COUNTERS = 1,
    // The exact sum of the latencies: SUM_LO, SUM_HI, SUM_COUNT.
    parameter HAS_SUM = 1,
    // The timing structure (docs/hw/resources.md lists what each costs), for Fmax in large
    // builds; a small build leaves them out. REG_DECODE: the register blocks' read decode in
    // flip-flops (1: a select flip-flop per register, the value registered a cycle after AR;
    // 0: the value registered in the AR cycle from the address). PIPE_COMPARE: the statistics'
    // comparisons in a pipeline stage of their own (1: MIN, MAX and the alarm two cycles after a
    // sample; 0: one cycle, each comparator straight into its register).
    parameter REG_DECODE = 1,
    parameter PIPE_COMPARE = 1
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  irq,
    input  wire                  ack,
    output wire                  alarm,
    output wire                  irq_out,

    // timestamp mode: start and end events with their IDs (tie to 0 when unused)
    input  wire                  start_valid,
    input  wire [ID_WIDTH-1:0]   start_id,
    input  wire                  end_valid,
    input  wire [ID_WIDTH-1:0]   end_id,

    // stimulus generator: one-cycle pulses and their IDs
    output wire                  stim_out,
    output wire [ID_WIDTH-1:0]   stim_id,

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


    /* verilator lint_off UNUSEDPARAM */
    `include "latmon_regs.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam TRACE_AW = $clog2(TRACE_DEPTH);
    // CAPS and CAPS2 fields: what this instance was built with
    localparam integer CNT_WIDTH_I = CNT_WIDTH;
    localparam integer SYNC_STAGES_I = SYNC_STAGES;
    localparam integer TRACE_WIDTH_I = TRACE_WIDTH;
    localparam [6:0] CAPS_CNT_WIDTH = CNT_WIDTH_I[6:0];
    localparam [4:0] CAPS_TRACE_DEPTH_LOG2 = TRACE_AW[4:0];
    localparam [2:0] CAPS_SYNC_STAGES = SYNC_STAGES_I[2:0];
    localparam [5:0] CAPS_TRACE_WIDTH = TRACE_WIDTH_I[5:0];
    localparam integer HIST_BINS_I = HAS_HIST != 0 ? HIST_BINS_LOG2 : 0;
    localparam integer STAMP_ENTRIES_I = HAS_STAMP != 0 ? STAMP_ENTRIES : 0;
    localparam integer ID_WIDTH_I = HAS_STAMP != 0 || HAS_STIM != 0 ? ID_WIDTH : 0;
    localparam [3:0] CAPS2_HIST_BINS_LOG2 = HIST_BINS_I[3:0];
    localparam [6:0] CAPS2_STAMP_ENTRIES = STAMP_ENTRIES_I[6:0];
    localparam [4:0] CAPS2_ID_WIDTH = ID_WIDTH_I[4:0];

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon: CNT_WIDTH must be 2..32 for the 32-bit registers, not %0d", CNT_WIDTH);
        if (COUNTER_WIDTH < 1 || COUNTER_WIDTH > 32)
            $fatal(1, "latmon: COUNTER_WIDTH must be 1..32, not %0d", COUNTER_WIDTH);
        if (SUM_WIDTH > 48)
            $fatal(1, "latmon: SUM_WIDTH must be at most 48 (SUM_LO + 16-bit SUM_HI), not %0d",
                   SUM_WIDTH);
        if (HAS_HIST != 0 && (1 << HIST_BINS_LOG2) > LATMON_HIST_ENTRIES)
            $fatal(1, "latmon: 2^HIST_BINS_LOG2 must be at most %0d (the window)",
                   LATMON_HIST_ENTRIES);
        if ({16'd0, LATMON_TRACE_OFFSET} % (4 * LATMON_TRACE_ENTRIES) != 0 ||
            {16'd0, LATMON_HIST_OFFSET} % (4 * LATMON_HIST_ENTRIES) != 0)
            $fatal(1, "latmon: the memory windows must be aligned to their size");
        if (TRACE_DEPTH > LATMON_TRACE_ENTRIES)
            $fatal(1, "latmon: TRACE_DEPTH must be at most %0d (the trace window), not %0d",
                   LATMON_TRACE_ENTRIES, TRACE_DEPTH);
    end

    // ---- the bus: handshake only; the blocks below decode ----------------------------------

    wire                  wr_req, rd_req, rd_load, rd_open_next;
    wire [ADDR_WIDTH-1:0] wr_addr, rd_addr;
    wire [31:0]           wr_data;
    wire [3:0]            wr_strb;

    // Each block's answer: write address hit, registered read data (zero unless it matched)
    // and read hit. Index: core, irq, timeout, counters, sum, hist, stamp, stim, trace window,
    // histogram window.
    localparam BLOCKS = 10;
    wire [BLOCKS-1:0] wr_hits, rd_hits;
    wire [32*BLOCKS-1:0] rd_datas;

    latmon_axil_wr #(.ADDR_WIDTH(ADDR_WIDTH)) axil_wr_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
        .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
        .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
        .s_axil_bready(s_axil_bready),
        .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
        .wr_hit(|wr_hits)
    );

    // The OR of the blocks' registered read answers.
    reg [31:0] rd_data_or;
    integer b;
    always @* begin
        rd_data_or = 32'd0;
        for (b = 0; b < BLOCKS; b = b + 1)
            rd_data_or = rd_data_or | rd_datas[32*b +: 32];
    end

    latmon_axil_rd #(.ADDR_WIDTH(ADDR_WIDTH)) axil_rd_inst (
        .clk(clk), .rst(rst),
        .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
        .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
        .rd_req(rd_req), .rd_addr(rd_addr), .rd_load(rd_load), .rd_open_next(rd_open_next),
        .rd_data(rd_data_or), .rd_hit(|rd_hits)
    );

    // ---- core registers and the measurement --------------------------------------------------

    // clear_core: CTRL.CLEAR's copy for the measurement path (the same pulse in a flip-flop of
    // its own: clear's fan-out across every block was a critical path into the core's count)
    wire enable, clear, clear_core, trace_ring;
    wire [1:0] irq_mode, ack_mode;
    wire [CNT_WIDTH-1:0] threshold, timeout;
    wire alarm_clear;

    // what the stimulus generator feeds back (0 without it)
    wire stim_pulse, stim_loop, stim_stamp;

    // LOOP: the stimulus also drives the monitor's irq input (through the synchronizer, as an
    // external irq would).
    wire irq_in = irq | (stim_loop & stim_pulse);

    wire busy, core_valid, sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse;
    wire [CNT_WIDTH-1:0] core_latency;

    latmon_core #(.CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES)) core_inst (
        .clk(clk), .rst(rst), .enable(enable), .clear(clear_core),
        .irq_mode(irq_mode), .ack_mode(ack_mode), .timeout(timeout),
        .irq(irq_in), .ack(ack),
        .busy(busy), .sample_valid(core_valid), .sample_latency(core_latency),
        .sample_saturated(sample_saturated), .timeout_pulse(timeout_pulse),
        .overrun_pulse(overrun_pulse), .ignored_pulse(ignored_pulse)
    );

    // The latencies measured: from irq/ack, or in timestamp mode from matched IDs.
    wire stamp_enable, stamp_valid;
    wire [CNT_WIDTH-1:0] stamp_latency;
    // The source follows STAMP_CTRL.ENABLE a cycle later: a copy of it next to this multiplexer
    // (the register block's flip-flop is far from the statistics on the critical path).
    reg stamp_mode = 1'b0;
    always @(posedge clk) stamp_mode <= stamp_enable;
    // The timestamp mode takes CTRL.CLEAR through a register of its own (below), a cycle later.
    wire stamp_clear;
    wire sample_valid;
    wire [CNT_WIDTH-1:0] sample_latency;
    generate
        if (HAS_STAMP != 0) begin : g_sample_stage
            // Two sources: the selected latency goes through a register before the statistics,
            // the trace, the histogram and IRQ_STATUS.SAMPLE, a cycle after the source (the
            // multiplexer into the statistics' comparisons was core+stamp's critical path). A
            // sample in it when CTRL.CLEAR pulses is dropped, as the parts drop one that comes
            // with the pulse.
            reg                 valid_q = 1'b0;
            reg [CNT_WIDTH-1:0] latency_q = {CNT_WIDTH{1'b0}};
            always @(posedge clk) begin
                // (a timestamp-mode sample in the cycle after the pulse is from before it: the
                // mode clears then)
                valid_q <= (stamp_mode ? stamp_valid && !stamp_clear : core_valid) &&
                           !rst && !clear;
                latency_q <= stamp_mode ? stamp_latency : core_latency;
            end
            assign sample_valid = valid_q;
            assign sample_latency = latency_q;
        end else begin : g_core_samples
            assign sample_valid = core_valid;
            assign sample_latency = core_latency;
            wire unused_stamp = ^{stamp_mode, stamp_valid, stamp_latency, stamp_clear};  // tied off
        end
    endgenerate

    wire [CNT_WIDTH-1:0] last, min, max;
    wire [SUM_WIDTH-1:0] sum;
    wire [COUNTER_WIDTH-1:0] count, violations, timeouts, overruns, ignored;
    wire stats_alarm, violation_pulse, saturated;

    latmon_stats #(
        .CNT_WIDTH(CNT_WIDTH), .COUNTER_WIDTH(COUNTER_WIDTH), .SUM_WIDTH(SUM_WIDTH),
        .HAS_SUM(HAS_SUM), .HAS_COUNTERS(HAS_COUNTERS), .HAS_TIMEOUT(HAS_TIMEOUT),
        .PIPE_COMPARE(PIPE_COMPARE), .SOURCE_HOLDS(HAS_STAMP == 0 ? 1 : 0)
    ) stats_inst (
        .clk(clk), .rst(rst), .clear(clear), .threshold(threshold), .alarm_clear(alarm_clear),
        .sample_valid(sample_valid), .sample_latency(sample_latency),
        .timeout_pulse(timeout_pulse), .overrun_pulse(overrun_pulse),
        .ignored_pulse(ignored_pulse),
        .last(last), .min(min), .max(max), .sum(sum), .count(count), .violations(violations),
        .timeouts(timeouts), .overruns(overruns), .ignored(ignored), .alarm(stats_alarm),
        .violation_pulse(violation_pulse), .saturated(saturated)
    );

    assign alarm = stats_alarm;


    wire [TRACE_WIDTH-1:0] trace_rd_data;
    wire [31:0] trace_count;
    wire [COUNTER_WIDTH-1:0] trace_lost;
    wire trace_filled, trace_wrapped, trace_fill_pulse;

    // The trace window (aligned to its size, TRACE_WB address bits): the RAM's read latch holds
    // the answer; words at and above TRACE_DEPTH read 0.
    localparam TRACE_WB = $clog2(4 * LATMON_TRACE_ENTRIES);
    wire rd_in_trace = (rd_addr >> 16) == 0 &&
                       rd_addr[15:TRACE_WB] == LATMON_TRACE_OFFSET[15:TRACE_WB];
    wire wr_in_trace = (wr_addr >> 16) == 0 &&
                       wr_addr[15:TRACE_WB] == LATMON_TRACE_OFFSET[15:TRACE_WB];
    reg trace_in_reg = 1'b0;   // the read is of the window (rd_req)
    reg trace_sel_reg = 1'b0;  // ... of a word the RAM has
    reg trace_hit_reg = 1'b0;  // with the data (rd_load), as the register blocks' hits
    always @(posedge clk) begin
        if (rd_req) begin
            trace_in_reg <= rd_in_trace;
            trace_sel_reg <= rd_in_trace && (rd_addr[TRACE_WB-1:2] >> TRACE_AW) == 0;
        end
        if (rd_load)
            trace_hit_reg <= trace_in_reg;
    end

    latmon_trace #(
        .DEPTH(TRACE_DEPTH), .WIDTH(TRACE_WIDTH), .CNT_WIDTH(CNT_WIDTH),
        .COUNTER_WIDTH(COUNTER_WIDTH)
    ) trace_inst (
        .clk(clk), .rst(rst), .clear(clear), .ring(trace_ring),
        .sample_valid(sample_valid), .sample_latency(sample_latency),
        .rd_en(rd_req), .rd_addr(rd_addr[2 +: TRACE_AW]), .rd_sel(trace_rd_sel),
        .rd_data(trace_rd_data),
        .count(trace_count), .lost(trace_lost), .filled(trace_filled), .wrapped(trace_wrapped),
        .fill_pulse(trace_fill_pulse)
    );

    // The window is read-only: writes are ignored (OKAY). The hit is registered, as the
    // register blocks' are (latmon_axil_wr.v).
    reg trace_wr_hit_reg = 1'b0;
    always @(posedge clk)
        trace_wr_hit_reg <= wr_in_trace;  // read in the cycle after wr_req only
    assign wr_hits[8] = trace_wr_hit_reg;
    assign rd_hits[8] = trace_hit_reg;
    // The word, or 0 when the read is not of one: REG_DECODE = 1 selects it after the RAM from
    // a flip-flop; 0 resets the RAM's read latch in the AR cycle instead (no LUT behind the
    // RAM, the decode in front of its reset pin).
    wire trace_rd_sel;
    wire [TRACE_WIDTH-1:0] trace_word;
    generate
        if (REG_DECODE != 0) begin : g_trace_sel_reg
            assign trace_rd_sel = 1'b1;
            assign trace_word = trace_sel_reg ? trace_rd_data : {TRACE_WIDTH{1'b0}};
        end else begin : g_trace_sel_ram
            assign trace_rd_sel = rd_in_trace && (rd_addr[TRACE_WB-1:2] >> TRACE_AW) == 0;
            assign trace_word = trace_rd_data;
            wire unused_trace_sel = trace_sel_reg;
        end
    endgenerate
    assign rd_datas[32*8 +: 32] = {{(32-TRACE_WIDTH){1'b0}}, trace_word};

    // ---- histogram ---------------------------------------------------------------------------

    wire hist_busy_any;
    wire hist_ready;

    generate
        if (HAS_HIST != 0) begin : g_hist
            wire [CNT_WIDTH-1:0] hist_start;
            wire [4:0] hist_shift;
            wire hist_snapshot, hist_busy, hist_saturated;
            wire [31:0] hist_snapshots, hist_dropped, hist_underflow, hist_overflow, hist_bin;
            wire [47:0] hist_count;
            wire [63:0] hist_sum;
            wire [CNT_WIDTH-1:0] hist_min, hist_max;

            localparam HIST_WB = $clog2(4 * LATMON_HIST_ENTRIES);
            wire rd_in_hist = (rd_addr >> 16) == 0 &&
                              rd_addr[15:HIST_WB] == LATMON_HIST_OFFSET[15:HIST_WB];
            wire wr_in_hist = (wr_addr >> 16) == 0 &&
                              wr_addr[15:HIST_WB] == LATMON_HIST_OFFSET[15:HIST_WB];
            // The window's RAMs read the bus address in every cycle the bus can accept a read
            // (AR ready), the AR cycle among them, and hold their word while a read is in
            // flight: their read enable is a flip-flop of the window's own (AR ready's copy,
            // inverted so that synthesis cannot merge it with AR ready), not AR valid and
            // ready decoded with the address, which was a critical path of the everything-on
            // configuration (two gates and routes across the device into a RAM's enable).
            // A word read for another address is never answered: hist_sel_reg is 0 then.
            reg hist_rd_shut = 1'b0;  // = !s_axil_arready
            reg hist_in_reg = 1'b0;
            reg hist_sel_reg = 1'b0;
            reg hist_hit_reg = 1'b0;
            always @(posedge clk) begin
                hist_rd_shut <= !rd_open_next;
                if (!hist_rd_shut) begin
                    hist_in_reg <= rd_in_hist;
                    hist_sel_reg <= rd_in_hist && (rd_addr[HIST_WB-1:2] >> HIST_BINS_LOG2) == 0;
                end
                if (rd_load)
                    hist_hit_reg <= hist_in_reg;
            end
            // synthesis translate_off
            always @(posedge clk)
                if (hist_rd_shut == s_axil_arready)
                    $fatal(1, "latmon: hist_rd_shut %0d with AR ready %0d", hist_rd_shut,
                           s_axil_arready);
            // synthesis translate_on
`ifdef FORMAL
            always @* assert(hist_rd_shut == !s_axil_arready);  // (hw/formal/latmon_axil.sby)
`endif

            // The histogram takes each latency a cycle after the statistics and the trace, from
            // a register of its own next to it: its first stage (a 32-bit subtraction) then
            // starts from flip-flops, not from the source select and the route across the
            // device (default's critical path). CTRL.CLEAR reaches it through a register too,
            // so the engine counts, drops and clears what it did, one cycle later; only a
            // snapshot meets the stream a cycle earlier (docs/hw/latmon_hist.md).
            reg                 hist_sample_valid = 1'b0;
            reg [CNT_WIDTH-1:0] hist_sample_latency = {CNT_WIDTH{1'b0}};
            reg                 hist_clear = 1'b0;
            always @(posedge clk) begin
                hist_sample_valid <= sample_valid && !rst;
                hist_sample_latency <= sample_latency;
                hist_clear <= clear;
            end
            // HIST_STATUS.BUSY covers the clear on its way: a read after CTRL.CLEAR's B sees
            // BUSY (and every count cleared), as when the engine took the pulse directly.
            wire hist_busy_status = hist_busy || hist_clear;

            latmon_hist #(.CNT_WIDTH(CNT_WIDTH), .BINS_LOG2(HIST_BINS_LOG2)) hist_inst (
                .clk(clk), .rst(rst), .clear(hist_clear), .offset(hist_start), .shift(hist_shift),
                .sample_valid(hist_sample_valid), .sample_latency(hist_sample_latency),
                .snapshot(hist_snapshot), .busy(hist_busy), .snapshots(hist_snapshots),
                .dropped(hist_dropped), .rd_en(!hist_rd_shut),
                .rd_addr(rd_addr[2 +: HIST_BINS_LOG2]), .rd_data(hist_bin),
                .underflow(hist_underflow), .overflow(hist_overflow), .count(hist_count),
                .sum(hist_sum), .min(hist_min), .max(hist_max), .saturated(hist_saturated)
            );

            latmon_regs_hist #(
                .ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE), .CNT_WIDTH(CNT_WIDTH)
            ) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[5]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*5 +: 32]), .rd_hit(rd_hits[5]),
                .hist_ctrl_snapshot(hist_snapshot),
                .hist_status_busy(hist_busy_status), .hist_status_saturated(hist_saturated),
                .hist_start_cycles(hist_start), .hist_shift_shift(hist_shift),
                .hist_snapshots_value(hist_snapshots), .hist_dropped_value(hist_dropped),
                .hist_underflow_value(hist_underflow), .hist_overflow_value(hist_overflow),
                .hist_count_lo_value(hist_count[31:0]), .hist_count_hi_value(hist_count[47:32]),
                .hist_sum_lo_value(hist_sum[31:0]), .hist_sum_hi_value(hist_sum[63:32]),
                .hist_min_value(hist_min), .hist_max_value(hist_max)
            );

            reg hist_wr_hit_reg = 1'b0;
            always @(posedge clk)
                hist_wr_hit_reg <= wr_in_hist;
            assign wr_hits[9] = hist_wr_hit_reg;
            assign rd_hits[9] = hist_hit_reg;
            // The bin is on the bus from the RAM's output register in the first cycle of R,
            // and from a register of its own after it: a snapshot (a write, which AXI lets
            // complete while R waits for RREADY) swaps the banks and the new active bank's
            // output register then follows the counting, so RDATA would change while RVALID is
            // high (found by hw/formal/latmon_axil.sby, task all).
            reg        hist_first_r = 1'b0;  // the first cycle of R (rd_load a cycle ago)
            reg [31:0] hist_bin_hold = 32'd0;
            wire [31:0] hist_bin_now = hist_sel_reg ? hist_bin : 32'd0;
            always @(posedge clk) begin
                hist_first_r <= rd_load;
                if (hist_first_r)
                    hist_bin_hold <= hist_bin_now;
            end
            assign rd_datas[32*9 +: 32] = hist_first_r ? hist_bin_now : hist_bin_hold;

            // HIST_READY: the end of a snapshot (not of the clear after reset or CTRL.CLEAR).
            reg hist_busy_d = 1'b0;
            reg hist_snapping = 1'b0;
            always @(posedge clk) begin
                hist_busy_d <= hist_busy;
                if (hist_snapshot && !hist_busy)
                    hist_snapping <= 1'b1;
                else if (hist_busy_d && !hist_busy)
                    hist_snapping <= 1'b0;
                if (rst || hist_clear)
                    hist_snapping <= 1'b0;
            end
            assign hist_ready = hist_snapping && hist_busy_d && !hist_busy;
            assign hist_busy_any = hist_busy;
        end else begin : g_no_hist
            assign wr_hits[5] = 1'b0;
            assign rd_hits[5] = 1'b0;
            assign rd_datas[32*5 +: 32] = 32'd0;
            assign wr_hits[9] = 1'b0;
            assign rd_hits[9] = 1'b0;
            assign rd_datas[32*9 +: 32] = 32'd0;
            assign hist_ready = 1'b0;
            assign hist_busy_any = 1'b0;
            wire unused_hist = rd_open_next;
        end
    endgenerate

    // ---- timestamp mode ----------------------------------------------------------------------

    generate
        if (HAS_STAMP != 0) begin : g_stamp
            wire [31:0] stamp_timeout, stamp_matched, stamp_unmatched, stamp_timeouts;
            wire [31:0] stamp_full, stamp_duplicates;
            wire [6:0] stamp_outstanding;
            wire [63:0] stamp_time;
            wire time_lo_read;

            // CTRL.CLEAR through a register of its own: the table, its pipeline and its counters
            // are the biggest load of the pulse, and they take it a cycle later, from a
            // flip-flop next to them (the pulse's fan-out from the register block was
            // core+stamp's critical path). A read issued after CTRL.CLEAR's B still sees the
            // STAMP_* counters cleared (its value is sampled two cycles after AR at the
            // earliest); the sample the mode may give in the cycle after the pulse is dropped.
            reg stamp_clear_q = 1'b0;
            always @(posedge clk) stamp_clear_q <= clear;
            assign stamp_clear = stamp_clear_q;

            // STIM_CTRL.STAMP: the stimulus is the start source, its pulses the start events
            // with their IDs; the start inputs are not looked at meanwhile (a start on them in a
            // pulse's cycle could not be taken with it). The selection is a register bit, not
            // the pulse: the pulse drives only the start's valid.
            latmon_stamp #(
                .CNT_WIDTH(CNT_WIDTH), .ID_WIDTH(ID_WIDTH), .ENTRIES(STAMP_ENTRIES)
            ) stamp_inst (
                .clk(clk), .rst(rst), .clear(stamp_clear), .enable(stamp_enable),
                .timeout(stamp_timeout),
                .start_valid(stim_stamp ? stim_pulse : start_valid),
                .start_id(stim_stamp ? stim_id : start_id),
                .end_valid(end_valid), .end_id(end_id),
                .timebase(stamp_time), .sample_valid(stamp_valid),
                .sample_latency(stamp_latency), .matched(stamp_matched),
                .unmatched(stamp_unmatched), .timeouts(stamp_timeouts), .full(stamp_full),
                .duplicates(stamp_duplicates), .outstanding(stamp_outstanding)
            );

            latmon_regs_stamp #(.ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE)) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[6]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*6 +: 32]), .rd_hit(rd_hits[6]),
                .stamp_ctrl_enable(stamp_enable), .stamp_timeout_cycles(stamp_timeout),
                .stamp_matched_value(stamp_matched), .stamp_unmatched_value(stamp_unmatched),
                .stamp_timeouts_value(stamp_timeouts), .stamp_full_value(stamp_full),
                .stamp_duplicates_value(stamp_duplicates),
                .stamp_outstanding_value(stamp_outstanding),
                .stamp_time_lo_value(stamp_time[31:0]), .stamp_time_lo_value_swacc(time_lo_read),
                .stamp_time_hi_value(stamp_time[63:32]), .stamp_time_hi_value_we(time_lo_read)
            );
        end else begin : g_no_stamp
            assign stamp_enable = 1'b0;
            assign stamp_clear = 1'b0;
            assign stamp_valid = 1'b0;
            assign stamp_latency = {CNT_WIDTH{1'b0}};
            assign wr_hits[6] = 1'b0;
            assign rd_hits[6] = 1'b0;
            assign rd_datas[32*6 +: 32] = 32'd0;
            wire unused_stamp = ^{start_valid, start_id, end_valid, end_id, stim_stamp};
        end
    endgenerate

    // ---- stimulus generator ------------------------------------------------------------------

    wire stim_done_pulse;

    generate
        if (HAS_STIM != 0) begin : g_stim
            wire stim_start, stim_stop, stim_running, stim_done;
            wire [1:0] stim_mode;
            wire [31:0] stim_period, stim_min, stim_max, stim_burst, stim_pause, stim_total;
            wire [31:0] stim_seed, stim_sent;

            latmon_stim #(.ID_WIDTH(ID_WIDTH)) stim_inst (
                .clk(clk), .rst(rst), .start(stim_start), .stop(stim_stop), .mode(stim_mode),
                .period(stim_period), .interval_min(stim_min), .interval_max(stim_max),
                .burst_len(stim_burst), .pause(stim_pause), .total(stim_total),
                .seed(stim_seed), .pulse(stim_pulse), .pulse_id(stim_id),
                .running(stim_running), .done(stim_done), .done_pulse(stim_done_pulse),
                .sent(stim_sent)
            );

            latmon_regs_stim #(.ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE)) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[7]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*7 +: 32]), .rd_hit(rd_hits[7]),
                .stim_ctrl_start(stim_start), .stim_ctrl_stop(stim_stop),
                .stim_ctrl_mode(stim_mode), .stim_ctrl_loop(stim_loop),
                .stim_ctrl_stamp(stim_stamp),
                .stim_status_running(stim_running), .stim_status_done(stim_done),
                .stim_period_cycles(stim_period), .stim_min_cycles(stim_min),
                .stim_max_cycles(stim_max), .stim_burst_pulses(stim_burst),
                .stim_pause_cycles(stim_pause), .stim_total_pulses(stim_total),
                .stim_seed_value(stim_seed), .stim_sent_value(stim_sent)
            );
        end else begin : g_no_stim
            assign stim_pulse = 1'b0;
            assign stim_id = {ID_WIDTH{1'b0}};
            assign stim_loop = 1'b0;
            assign stim_stamp = 1'b0;
            assign stim_done_pulse = 1'b0;
            assign wr_hits[7] = 1'b0;
            assign rd_hits[7] = 1'b0;
            assign rd_datas[32*7 +: 32] = 32'd0;
        end
    endgenerate

    assign stim_out = stim_pulse;

    // ---- timeout -----------------------------------------------------------------------------

    generate
        if (HAS_TIMEOUT != 0) begin : g_timeout
            latmon_regs_timeout #(
                .ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE), .CNT_WIDTH(CNT_WIDTH),
                .COUNTER_WIDTH(COUNTER_WIDTH)
            ) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[2]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*2 +: 32]), .rd_hit(rd_hits[2]),
                .timeout_cycles(timeout), .timeouts_value(timeouts)
            );
        end else begin : g_no_timeout
            assign timeout = {CNT_WIDTH{1'b0}};  // never
            assign wr_hits[2] = 1'b0;
            assign rd_hits[2] = 1'b0;
            assign rd_datas[32*2 +: 32] = 32'd0;
        end
    endgenerate

    // ---- event counters ----------------------------------------------------------------------

    generate
        if (HAS_COUNTERS != 0) begin : g_counters
            latmon_regs_counters #(
                .ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE), .COUNTER_WIDTH(COUNTER_WIDTH)
            ) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[3]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*3 +: 32]), .rd_hit(rd_hits[3]),
                .violations_value(violations), .overruns_value(overruns),
                .ignored_value(ignored), .trace_lost_value(trace_lost)
            );
        end else begin : g_no_counters
            assign wr_hits[3] = 1'b0;
            assign rd_hits[3] = 1'b0;
            assign rd_datas[32*3 +: 32] = 32'd0;
        end
    endgenerate

    // ---- sum of latencies --------------------------------------------------------------------

    generate
        if (HAS_SUM != 0) begin : g_sum
            // SUM_LO, SUM_HI and SUM_COUNT form one snapshot: reading SUM_LO copies the others.
            wire sum_lo_read;
            wire [63:0] sum_wide = {{(64-SUM_WIDTH){1'b0}}, sum};
            latmon_regs_sum #(
                .ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE), .COUNTER_WIDTH(COUNTER_WIDTH)
            ) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[4]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*4 +: 32]), .rd_hit(rd_hits[4]),
                .sum_lo_value(sum_wide[31:0]), .sum_lo_value_swacc(sum_lo_read),
                .sum_hi_value(sum_wide[47:32]), .sum_hi_value_we(sum_lo_read),
                .sum_hi_value_hwclr(clear),
                .sum_count_value(count), .sum_count_value_we(sum_lo_read),
                .sum_count_value_hwclr(clear)
            );
            wire unused_sum = ^sum_wide[63:48];
        end else begin : g_no_sum
            assign wr_hits[4] = 1'b0;
            assign rd_hits[4] = 1'b0;
            assign rd_datas[32*4 +: 32] = 32'd0;
        end
    endgenerate

    // ---- interrupts --------------------------------------------------------------------------

    generate
        if (HAS_IRQ != 0) begin : g_irq
            wire [6:0] status, enabled;
            reg irq_out_reg = 1'b0;
            latmon_regs_irq #(.ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE)) regs_inst (
                .clk(clk), .rst(rst),
                .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
                .wr_hit(wr_hits[1]), .rd_req(rd_req), .rd_addr(rd_addr),
                .rd_data(rd_datas[32*1 +: 32]), .rd_hit(rd_hits[1]),
                .irq_enable_sample(enabled[0]), .irq_enable_alarm(enabled[1]),
                .irq_enable_trace_full(enabled[2]), .irq_enable_timeout(enabled[3]),
                .irq_enable_overrun(enabled[4]), .irq_enable_stim_done(enabled[5]),
                .irq_enable_hist_ready(enabled[6]),
                .irq_status_sample(status[0]), .irq_status_sample_hwset(sample_valid),
                .irq_status_sample_hwclr(clear),
                .irq_status_alarm(status[1]), .irq_status_alarm_hwset(violation_pulse),
                .irq_status_alarm_hwclr(clear), .irq_status_alarm_swmod(alarm_clear),
                .irq_status_trace_full(status[2]), .irq_status_trace_full_hwset(trace_fill_pulse),
                .irq_status_trace_full_hwclr(clear),
                .irq_status_timeout(status[3]), .irq_status_timeout_hwset(timeout_pulse),
                .irq_status_timeout_hwclr(clear),
                .irq_status_overrun(status[4]), .irq_status_overrun_hwset(overrun_pulse),
                .irq_status_overrun_hwclr(clear),
                .irq_status_stim_done(status[5]), .irq_status_stim_done_hwset(stim_done_pulse),
                .irq_status_stim_done_hwclr(clear),
                .irq_status_hist_ready(status[6]), .irq_status_hist_ready_hwset(hist_ready),
                .irq_status_hist_ready_hwclr(clear)
            );
            always @(posedge clk)
                irq_out_reg <= !rst && |(status & enabled);
            assign irq_out = irq_out_reg;
        end else begin : g_no_irq
            assign alarm_clear = 1'b0;
            assign irq_out = 1'b0;
            assign wr_hits[1] = 1'b0;
            assign rd_hits[1] = 1'b0;
            assign rd_datas[32*1 +: 32] = 32'd0;
            wire unused_events = ^{trace_fill_pulse, stim_done_pulse, hist_ready, violation_pulse};
        end
    endgenerate

    // ---- core registers ----------------------------------------------------------------------

    latmon_regs_core #(
        .ADDR_WIDTH(ADDR_WIDTH), .REG_DECODE(REG_DECODE), .CNT_WIDTH(CNT_WIDTH),
        .COUNTER_WIDTH(COUNTER_WIDTH)
    ) regs_core_inst (
        .clk(clk), .rst(rst),
        .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
        .wr_hit(wr_hits[0]), .rd_req(rd_req), .rd_addr(rd_addr),
        .rd_data(rd_datas[31:0]), .rd_hit(rd_hits[0]),
        .caps_trace(1'b1), .caps_hist(HAS_HIST != 0), .caps_stamp(HAS_STAMP != 0),
        .caps_stim(HAS_STIM != 0), .caps_irq(HAS_IRQ != 0), .caps_timeout(HAS_TIMEOUT != 0),
        .caps_counters(HAS_COUNTERS != 0), .caps_sum(HAS_SUM != 0), .caps_minimal(1'b0),
        .caps_cnt_width(CAPS_CNT_WIDTH), .caps_trace_depth_log2(CAPS_TRACE_DEPTH_LOG2),
        .caps_sync_stages(CAPS_SYNC_STAGES), .caps_trace_width(CAPS_TRACE_WIDTH),
        .ctrl_enable(enable), .ctrl_clear(clear), .ctrl_clear_copy(clear_core),
        .ctrl_trace_ring(trace_ring),
        .ctrl_irq_mode(irq_mode), .ctrl_ack_mode(ack_mode),
        .status_busy(busy), .status_alarm(stats_alarm),
        .status_trace_full(trace_filled && !trace_ring), .status_trace_wrapped(trace_wrapped),
        .status_saturated(saturated),
        .threshold_cycles(threshold), .last_value(last), .min_value(min), .max_value(max),
        .count_value(count), .trace_count_value(trace_count),
        .caps2_hist_bins_log2(CAPS2_HIST_BINS_LOG2), .caps2_stamp_entries(CAPS2_STAMP_ENTRIES),
        .caps2_id_width(CAPS2_ID_WIDTH)
    );

    // The per-sample saturation flag is the all-ones latency itself (LAST, trace words); the
    // counters absent from this build are not read.
    wire unused_core = ^{sample_saturated, hist_busy_any, timeouts, violations, overruns, ignored,
                         trace_lost, sum, ignored_pulse};

endmodule

`default_nettype wire
