// latmon_axil: the AXI4-Lite slave of the latmon core — the register file and the trace window.
//
// Every address comes from latmon_regs.vh, generated from hw/regs/latmon.rdl; a test reads the
// RDL and checks each register's address, reset value and access type against this decoder.
//
// Writes: AW and W are accepted together (both valid, the B channel free), one at a time; WSTRB
// selects bytes. Reads: AR is accepted when no read is in flight; the data is returned two
// cycles later (the trace RAM has one cycle of read latency, the registers are aligned to it).
// Unmapped addresses answer SLVERR; writes to read-only registers are ignored (OKAY).
`timescale 1ns / 1ps
`default_nettype none

module latmon_axil #(
    parameter CNT_WIDTH = 32,
    parameter SYNC_STAGES = 2,
    parameter TRACE_DEPTH = 512,
    parameter TRACE_WIDTH = 32,
    parameter COUNTER_WIDTH = 32,
    parameter SUM_WIDTH = 48,
    // Width of the AXI4-Lite address (at least 16 bits: the map and its reserved windows span
    // 64 KiB; higher address bits must be zero).
    parameter ADDR_WIDTH = 16,
    // Optional parts (0: absent, their registers and window answer SLVERR) and their sizes.
    parameter HAS_HIST = 1,
    parameter HIST_BINS_LOG2 = 8,
    parameter HAS_STAMP = 1,
    parameter STAMP_ENTRIES = 16,
    parameter HAS_STIM = 1,
    parameter ID_WIDTH = 16
) (
    input  wire                     clk,
    input  wire                     rst,

    // AXI4-Lite slave
    input  wire [ADDR_WIDTH-1:0]    s_axil_awaddr,
    input  wire [2:0]               s_axil_awprot,
    input  wire                     s_axil_awvalid,
    output wire                     s_axil_awready,
    input  wire [31:0]              s_axil_wdata,
    input  wire [3:0]               s_axil_wstrb,
    input  wire                     s_axil_wvalid,
    output wire                     s_axil_wready,
    output reg  [1:0]               s_axil_bresp = 2'b00,
    output reg                      s_axil_bvalid = 1'b0,
    input  wire                     s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]    s_axil_araddr,
    input  wire [2:0]               s_axil_arprot,
    input  wire                     s_axil_arvalid,
    output wire                     s_axil_arready,
    output reg  [31:0]              s_axil_rdata = 32'd0,
    output reg  [1:0]               s_axil_rresp = 2'b00,
    output reg                      s_axil_rvalid = 1'b0,
    input  wire                     s_axil_rready,

    // configuration to the measurement
    output reg                      enable = 1'b0,
    output reg                      clear = 1'b0,      // one-cycle pulse
    output reg                      trace_ring = 1'b0,
    output reg  [1:0]               irq_mode = 2'd0,
    output reg  [1:0]               ack_mode = 2'd0,
    output reg  [CNT_WIDTH-1:0]     timeout = {CNT_WIDTH{1'b0}},
    output reg  [CNT_WIDTH-1:0]     threshold = {CNT_WIDTH{1'b0}},
    output wire                     alarm_clear,

    // status and results
    input  wire                     busy,
    input  wire                     alarm,
    input  wire                     saturated,
    input  wire [CNT_WIDTH-1:0]     last,
    input  wire [CNT_WIDTH-1:0]     min,
    input  wire [CNT_WIDTH-1:0]     max,
    input  wire [SUM_WIDTH-1:0]     sum,
    input  wire [COUNTER_WIDTH-1:0] count,
    input  wire [COUNTER_WIDTH-1:0] violations,
    input  wire [COUNTER_WIDTH-1:0] timeouts,
    input  wire [COUNTER_WIDTH-1:0] overruns,
    input  wire [COUNTER_WIDTH-1:0] ignored,
    input  wire [31:0]              trace_count,
    input  wire [COUNTER_WIDTH-1:0] trace_lost,
    input  wire                     trace_filled,
    input  wire                     trace_wrapped,

    // events that set IRQ_STATUS bits
    input  wire                     ev_sample,
    input  wire                     ev_alarm,
    input  wire                     ev_trace_full,
    input  wire                     ev_timeout,
    input  wire                     ev_overrun,

    // trace RAM read port
    output wire [$clog2(TRACE_DEPTH)-1:0] trace_rd_addr,
    input  wire [TRACE_WIDTH-1:0]   trace_rd_data,

    // histogram: configuration, the frozen bank, its read port
    output reg  [CNT_WIDTH-1:0]     hist_start = {CNT_WIDTH{1'b0}},
    output reg  [4:0]               hist_shift = 5'd0,
    output reg                      hist_snapshot = 1'b0,   // one-cycle pulse
    input  wire                     hist_busy,
    input  wire                     hist_saturated,
    input  wire [31:0]              hist_snapshots,
    input  wire [31:0]              hist_dropped,
    input  wire [31:0]              hist_underflow,
    input  wire [31:0]              hist_overflow,
    input  wire [47:0]              hist_count,
    input  wire [63:0]              hist_sum,
    input  wire [CNT_WIDTH-1:0]     hist_min,
    input  wire [CNT_WIDTH-1:0]     hist_max,
    output wire [HIST_BINS_LOG2-1:0] hist_rd_addr,
    input  wire [31:0]              hist_rd_data,

    // timestamp mode
    output reg                      stamp_enable = 1'b0,
    output reg  [31:0]              stamp_timeout = 32'd0,
    input  wire [31:0]              stamp_matched,
    input  wire [31:0]              stamp_unmatched,
    input  wire [31:0]              stamp_timeouts,
    input  wire [31:0]              stamp_full,
    input  wire [31:0]              stamp_duplicates,
    input  wire [6:0]               stamp_outstanding,
    input  wire [63:0]              stamp_time,

    // stimulus generator
    output reg                      stim_start = 1'b0,      // one-cycle pulse
    output reg                      stim_stop = 1'b0,       // one-cycle pulse
    output reg  [1:0]               stim_mode = 2'd0,
    output reg                      stim_loop = 1'b0,
    output reg                      stim_stamp = 1'b0,
    output reg  [31:0]              stim_period = 32'd0,
    output reg  [31:0]              stim_min = 32'd0,
    output reg  [31:0]              stim_max = 32'd0,
    output reg  [31:0]              stim_burst = 32'd1,
    output reg  [31:0]              stim_pause = 32'd0,
    output reg  [31:0]              stim_total = 32'd0,
    output reg  [31:0]              stim_seed = 32'd1,
    input  wire                     stim_running,
    input  wire                     stim_done,
    input  wire [31:0]              stim_sent,
    input  wire                     ev_stim_done,
    input  wire                     ev_hist_ready,

    output reg                      irq_out = 1'b0
);

    `include "latmon_regs.vh"

    localparam TRACE_AW = $clog2(TRACE_DEPTH);
    localparam IRQ_BITS = 7;

    initial begin
        if (LATMON_TRACE_COUNT_OFFSET >= 16'h0400 || LATMON_TRACE_LOST_OFFSET >= 16'h0400)
            $fatal(1, "latmon_axil: registers must lie in 0x000-0x3FF (the read index)");
        if (ADDR_WIDTH < 16)
            $fatal(1, "latmon_axil: ADDR_WIDTH must be at least 16, not %0d", ADDR_WIDTH);
        if (CNT_WIDTH > 32)
            $fatal(1, "latmon_axil: CNT_WIDTH must be at most 32 for the 32-bit registers, not %0d",
                   CNT_WIDTH);
        if (COUNTER_WIDTH > 32)
            $fatal(1, "latmon_axil: COUNTER_WIDTH must be at most 32, not %0d", COUNTER_WIDTH);
        if (SUM_WIDTH > 48)
            $fatal(1, "latmon_axil: SUM_WIDTH must be at most 48 (SUM_LO + 16-bit SUM_HI), not %0d",
                   SUM_WIDTH);
        if (HAS_HIST != 0 && (1 << HIST_BINS_LOG2) > LATMON_HIST_ENTRIES)
            $fatal(1, "latmon_axil: 2^HIST_BINS_LOG2 must be at most %0d (the window)",
                   LATMON_HIST_ENTRIES);
        if (TRACE_DEPTH > LATMON_TRACE_ENTRIES)
            $fatal(1, "latmon_axil: TRACE_DEPTH must be at most %0d (the trace window), not %0d",
                   LATMON_TRACE_ENTRIES, TRACE_DEPTH);
    end

    // Zero-extend a value to 32 bits.
    function [31:0] ext;
        input [63:0] v;
        begin
            ext = v[31:0];
        end
    endfunction

    // Merge written bytes into a register value.
    function [31:0] merge;
        input [31:0] old;
        input [31:0] data;
        input [3:0]  strb;
        integer b;
        begin
            for (b = 0; b < 4; b = b + 1)
                merge[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];
        end
    endfunction

    wire [31:0] caps = (32'd1 << LATMON_CAPS_TRACE_LSB) |
                       ((HAS_HIST != 0 ? 32'd1 : 32'd0) << LATMON_CAPS_HIST_LSB) |
                       ((HAS_STAMP != 0 ? 32'd1 : 32'd0) << LATMON_CAPS_STAMP_LSB) |
                       ((HAS_STIM != 0 ? 32'd1 : 32'd0) << LATMON_CAPS_STIM_LSB) |
                       (CNT_WIDTH << LATMON_CAPS_CNT_WIDTH_LSB) |
                       (TRACE_AW << LATMON_CAPS_TRACE_DEPTH_LOG2_LSB) |
                       (SYNC_STAGES << LATMON_CAPS_SYNC_STAGES_LSB) |
                       (TRACE_WIDTH << LATMON_CAPS_TRACE_WIDTH_LSB);

    wire [31:0] caps2 = ((HAS_HIST != 0 ? HIST_BINS_LOG2 : 0) << LATMON_CAPS2_HIST_BINS_LOG2_LSB) |
                        ((HAS_STAMP != 0 ? STAMP_ENTRIES : 0) << LATMON_CAPS2_STAMP_ENTRIES_LSB) |
                        ((HAS_STAMP != 0 || HAS_STIM != 0 ? ID_WIDTH : 0)
                         << LATMON_CAPS2_ID_WIDTH_LSB);

    // ---- write channel -------------------------------------------------------------------

    reg [IRQ_BITS-1:0] irq_enable = {IRQ_BITS{1'b0}};
    reg [IRQ_BITS-1:0] irq_status = {IRQ_BITS{1'b0}};

    // Registers live at 0x000-0x3FF: an 8-bit word index selects them.
    localparam REG_INDEX_BITS = 8;

    // Register index of an offset in the register block.
    function [REG_INDEX_BITS-1:0] index;
        input [15:0] offset;
        begin
            index = offset[REG_INDEX_BITS+1:2];
        end
    endfunction

    // The register indexes that answer on the bus (other addresses in the block: SLVERR).
    function known;
        input [REG_INDEX_BITS-1:0] i;
        begin
            case (i)
                index(LATMON_ID_OFFSET), index(LATMON_VERSION_OFFSET),
                index(LATMON_CAPS_OFFSET), index(LATMON_CTRL_OFFSET),
                index(LATMON_STATUS_OFFSET), index(LATMON_IRQ_ENABLE_OFFSET),
                index(LATMON_IRQ_STATUS_OFFSET), index(LATMON_TIMEOUT_OFFSET),
                index(LATMON_THRESHOLD_OFFSET), index(LATMON_LAST_OFFSET),
                index(LATMON_MIN_OFFSET), index(LATMON_MAX_OFFSET),
                index(LATMON_COUNT_OFFSET), index(LATMON_SUM_LO_OFFSET),
                index(LATMON_SUM_HI_OFFSET), index(LATMON_SUM_COUNT_OFFSET),
                index(LATMON_VIOLATIONS_OFFSET), index(LATMON_TIMEOUTS_OFFSET),
                index(LATMON_OVERRUNS_OFFSET), index(LATMON_IGNORED_OFFSET),
                index(LATMON_TRACE_COUNT_OFFSET), index(LATMON_TRACE_LOST_OFFSET),
                index(LATMON_CAPS2_OFFSET): known = 1'b1;
                index(LATMON_HIST_CTRL_OFFSET), index(LATMON_HIST_STATUS_OFFSET),
                index(LATMON_HIST_START_OFFSET), index(LATMON_HIST_SHIFT_OFFSET),
                index(LATMON_HIST_SNAPSHOTS_OFFSET), index(LATMON_HIST_DROPPED_OFFSET),
                index(LATMON_HIST_UNDERFLOW_OFFSET), index(LATMON_HIST_OVERFLOW_OFFSET),
                index(LATMON_HIST_COUNT_LO_OFFSET), index(LATMON_HIST_COUNT_HI_OFFSET),
                index(LATMON_HIST_SUM_LO_OFFSET), index(LATMON_HIST_SUM_HI_OFFSET),
                index(LATMON_HIST_MIN_OFFSET), index(LATMON_HIST_MAX_OFFSET):
                    known = HAS_HIST != 0;
                index(LATMON_STAMP_CTRL_OFFSET), index(LATMON_STAMP_TIMEOUT_OFFSET),
                index(LATMON_STAMP_MATCHED_OFFSET), index(LATMON_STAMP_UNMATCHED_OFFSET),
                index(LATMON_STAMP_TIMEOUTS_OFFSET), index(LATMON_STAMP_FULL_OFFSET),
                index(LATMON_STAMP_DUPLICATES_OFFSET), index(LATMON_STAMP_OUTSTANDING_OFFSET),
                index(LATMON_STAMP_TIME_LO_OFFSET), index(LATMON_STAMP_TIME_HI_OFFSET):
                    known = HAS_STAMP != 0;
                index(LATMON_STIM_CTRL_OFFSET), index(LATMON_STIM_STATUS_OFFSET),
                index(LATMON_STIM_PERIOD_OFFSET), index(LATMON_STIM_MIN_OFFSET),
                index(LATMON_STIM_MAX_OFFSET), index(LATMON_STIM_BURST_OFFSET),
                index(LATMON_STIM_PAUSE_OFFSET), index(LATMON_STIM_TOTAL_OFFSET),
                index(LATMON_STIM_SEED_OFFSET), index(LATMON_STIM_SENT_OFFSET):
                    known = HAS_STIM != 0;
                default: known = 1'b0;
            endcase
        end
    endfunction

    // In the register block / in the trace window (and no address bit above 16 set).
    function in_regs;
        input [ADDR_WIDTH-1:0] a;
        begin
            in_regs = (a >> (REG_INDEX_BITS + 2)) == 0;
        end
    endfunction

    function in_hist;
        input [ADDR_WIDTH-1:0] a;
        begin
            in_hist = HAS_HIST != 0 && (a >> 16) == 0 && a[15:0] >= LATMON_HIST_OFFSET &&
                      a[15:0] < LATMON_HIST_OFFSET + 4 * LATMON_HIST_ENTRIES;
        end
    endfunction

    function in_trace;
        input [ADDR_WIDTH-1:0] a;
        begin
            in_trace = (a >> 16) == 0 && a[15:0] >= LATMON_TRACE_OFFSET &&
                       a[15:0] < LATMON_TRACE_OFFSET + 4 * LATMON_TRACE_ENTRIES;
        end
    endfunction

    // The write pipeline: the AW/W cycle registers the decoded address and the data; the next
    // cycle writes and answers on B.
    reg                      w_pending = 1'b0;
    reg [REG_INDEX_BITS-1:0] w_index = {REG_INDEX_BITS{1'b0}};
    reg                      w_is_reg = 1'b0;
    reg                      w_in_trace = 1'b0;
    reg                      w_in_hist = 1'b0;
    reg [31:0]               wdata = 32'd0;
    reg [3:0]                wstrb = 4'd0;

    wire accept_write = s_axil_awvalid && s_axil_wvalid && !w_pending && !s_axil_bvalid;
    assign s_axil_awready = accept_write;
    assign s_axil_wready = accept_write;

    wire do_write = w_pending && w_is_reg;
    wire write_irq_status = do_write && w_index == index(LATMON_IRQ_STATUS_OFFSET);
    wire [31:0] w1c = write_irq_status ? (wdata & {{8{wstrb[3]}}, {8{wstrb[2]}}, {8{wstrb[1]}},
                                                   {8{wstrb[0]}}}) : 32'd0;

    assign alarm_clear = w1c[LATMON_IRQ_STATUS_ALARM_LSB];

    // Register values as read, and as they become after a write with WSTRB.
    wire [31:0] ctrl_value = ({31'd0, enable} << LATMON_CTRL_ENABLE_LSB) |
                             ({31'd0, trace_ring} << LATMON_CTRL_TRACE_RING_LSB) |
                             ({30'd0, irq_mode} << LATMON_CTRL_IRQ_MODE_LSB) |
                             ({30'd0, ack_mode} << LATMON_CTRL_ACK_MODE_LSB);
    wire [31:0] ctrl_w = merge(ctrl_value, wdata, wstrb);
    wire [31:0] irq_enable_w = merge(ext(irq_enable), wdata, wstrb);
    wire [31:0] timeout_w = merge(ext(timeout), wdata, wstrb);
    wire [31:0] threshold_w = merge(ext(threshold), wdata, wstrb);
    wire [31:0] hist_start_w = merge(ext(hist_start), wdata, wstrb);
    wire [31:0] hist_shift_w = merge(ext(hist_shift), wdata, wstrb);
    wire [31:0] stamp_ctrl_value = {31'd0, stamp_enable} << LATMON_STAMP_CTRL_ENABLE_LSB;
    wire [31:0] stamp_ctrl_w = merge(stamp_ctrl_value, wdata, wstrb);
    wire [31:0] stim_ctrl_value = ({30'd0, stim_mode} << LATMON_STIM_CTRL_MODE_LSB) |
                                  ({31'd0, stim_loop} << LATMON_STIM_CTRL_LOOP_LSB) |
                                  ({31'd0, stim_stamp} << LATMON_STIM_CTRL_STAMP_LSB);
    wire [31:0] stim_ctrl_w = merge(stim_ctrl_value, wdata, wstrb);
    wire [31:0] hist_ctrl_w = merge(32'd0, wdata, wstrb);

    wire [IRQ_BITS-1:0] irq_events;
    assign irq_events[LATMON_IRQ_STATUS_SAMPLE_LSB] = ev_sample;
    assign irq_events[LATMON_IRQ_STATUS_ALARM_LSB] = ev_alarm;
    assign irq_events[LATMON_IRQ_STATUS_TRACE_FULL_LSB] = ev_trace_full;
    assign irq_events[LATMON_IRQ_STATUS_TIMEOUT_LSB] = ev_timeout;
    assign irq_events[LATMON_IRQ_STATUS_OVERRUN_LSB] = ev_overrun;
    assign irq_events[LATMON_IRQ_STATUS_STIM_DONE_LSB] = ev_stim_done;
    assign irq_events[LATMON_IRQ_STATUS_HIST_READY_LSB] = ev_hist_ready;

    always @(posedge clk) begin
        clear <= 1'b0;
        hist_snapshot <= 1'b0;
        stim_start <= 1'b0;
        stim_stop <= 1'b0;
        if (accept_write) begin
            w_pending <= 1'b1;
            w_index <= index(s_axil_awaddr[15:0]);
            w_is_reg <= in_regs(s_axil_awaddr);
            w_in_trace <= in_trace(s_axil_awaddr);
            w_in_hist <= in_hist(s_axil_awaddr);
            wdata <= s_axil_wdata;
            wstrb <= s_axil_wstrb;
        end
        if (w_pending) begin
            w_pending <= 1'b0;
            s_axil_bvalid <= 1'b1;
            s_axil_bresp <= w_in_trace || w_in_hist || (w_is_reg && known(w_index)) ? 2'b00
                                                                                   : 2'b10;
        end else if (s_axil_bready) begin
            s_axil_bvalid <= 1'b0;
        end
        if (do_write) begin
            case (w_index)
                index(LATMON_CTRL_OFFSET): begin
                    enable <= ctrl_w[LATMON_CTRL_ENABLE_LSB];
                    clear <= ctrl_w[LATMON_CTRL_CLEAR_LSB];
                    trace_ring <= ctrl_w[LATMON_CTRL_TRACE_RING_LSB];
                    irq_mode <= ctrl_w[LATMON_CTRL_IRQ_MODE_LSB +: 2];
                    ack_mode <= ctrl_w[LATMON_CTRL_ACK_MODE_LSB +: 2];
                end
                index(LATMON_IRQ_ENABLE_OFFSET): irq_enable <= irq_enable_w[IRQ_BITS-1:0];
                index(LATMON_TIMEOUT_OFFSET): timeout <= timeout_w[CNT_WIDTH-1:0];
                index(LATMON_THRESHOLD_OFFSET): threshold <= threshold_w[CNT_WIDTH-1:0];
                index(LATMON_HIST_CTRL_OFFSET):
                    hist_snapshot <= HAS_HIST != 0 && hist_ctrl_w[LATMON_HIST_CTRL_SNAPSHOT_LSB];
                index(LATMON_HIST_START_OFFSET):
                    if (HAS_HIST != 0) hist_start <= hist_start_w[CNT_WIDTH-1:0];
                index(LATMON_HIST_SHIFT_OFFSET):
                    if (HAS_HIST != 0) hist_shift <= hist_shift_w[4:0];
                index(LATMON_STAMP_CTRL_OFFSET):
                    if (HAS_STAMP != 0) stamp_enable <= stamp_ctrl_w[LATMON_STAMP_CTRL_ENABLE_LSB];
                index(LATMON_STAMP_TIMEOUT_OFFSET):
                    if (HAS_STAMP != 0) stamp_timeout <= merge(stamp_timeout, wdata, wstrb);
                index(LATMON_STIM_CTRL_OFFSET):
                    if (HAS_STIM != 0) begin
                        stim_start <= stim_ctrl_w[LATMON_STIM_CTRL_START_LSB];
                        stim_stop <= stim_ctrl_w[LATMON_STIM_CTRL_STOP_LSB];
                        stim_mode <= stim_ctrl_w[LATMON_STIM_CTRL_MODE_LSB +: 2];
                        stim_loop <= stim_ctrl_w[LATMON_STIM_CTRL_LOOP_LSB];
                        stim_stamp <= stim_ctrl_w[LATMON_STIM_CTRL_STAMP_LSB];
                    end
                index(LATMON_STIM_PERIOD_OFFSET):
                    if (HAS_STIM != 0) stim_period <= merge(stim_period, wdata, wstrb);
                index(LATMON_STIM_MIN_OFFSET):
                    if (HAS_STIM != 0) stim_min <= merge(stim_min, wdata, wstrb);
                index(LATMON_STIM_MAX_OFFSET):
                    if (HAS_STIM != 0) stim_max <= merge(stim_max, wdata, wstrb);
                index(LATMON_STIM_BURST_OFFSET):
                    if (HAS_STIM != 0) stim_burst <= merge(stim_burst, wdata, wstrb);
                index(LATMON_STIM_PAUSE_OFFSET):
                    if (HAS_STIM != 0) stim_pause <= merge(stim_pause, wdata, wstrb);
                index(LATMON_STIM_TOTAL_OFFSET):
                    if (HAS_STIM != 0) stim_total <= merge(stim_total, wdata, wstrb);
                index(LATMON_STIM_SEED_OFFSET):
                    if (HAS_STIM != 0) stim_seed <= merge(stim_seed, wdata, wstrb);
                default: ;
            endcase
        end
        // A new event wins over a simultaneous write-1-to-clear, so none is lost.
        irq_status <= (irq_status & ~w1c[IRQ_BITS-1:0]) | irq_events;
        irq_out <= |(irq_status & irq_enable);
        if (rst) begin
            w_pending <= 1'b0;
            s_axil_bvalid <= 1'b0;
            enable <= LATMON_CTRL_RESET[LATMON_CTRL_ENABLE_LSB];
            clear <= 1'b0;
            trace_ring <= LATMON_CTRL_RESET[LATMON_CTRL_TRACE_RING_LSB];
            irq_mode <= LATMON_CTRL_RESET[LATMON_CTRL_IRQ_MODE_LSB +: 2];
            ack_mode <= LATMON_CTRL_RESET[LATMON_CTRL_ACK_MODE_LSB +: 2];
            irq_enable <= LATMON_IRQ_ENABLE_RESET[IRQ_BITS-1:0];
            irq_status <= LATMON_IRQ_STATUS_RESET[IRQ_BITS-1:0];
            timeout <= LATMON_TIMEOUT_RESET[CNT_WIDTH-1:0];
            threshold <= LATMON_THRESHOLD_RESET[CNT_WIDTH-1:0];
            irq_out <= 1'b0;
            hist_snapshot <= 1'b0;
            hist_start <= LATMON_HIST_START_RESET[CNT_WIDTH-1:0];
            hist_shift <= LATMON_HIST_SHIFT_RESET[4:0];
            stamp_enable <= LATMON_STAMP_CTRL_RESET[LATMON_STAMP_CTRL_ENABLE_LSB];
            stamp_timeout <= LATMON_STAMP_TIMEOUT_RESET;
            stim_start <= 1'b0;
            stim_stop <= 1'b0;
            stim_mode <= LATMON_STIM_CTRL_RESET[LATMON_STIM_CTRL_MODE_LSB +: 2];
            stim_loop <= LATMON_STIM_CTRL_RESET[LATMON_STIM_CTRL_LOOP_LSB];
            stim_stamp <= LATMON_STIM_CTRL_RESET[LATMON_STIM_CTRL_STAMP_LSB];
            stim_period <= LATMON_STIM_PERIOD_RESET;
            stim_min <= LATMON_STIM_MIN_RESET;
            stim_max <= LATMON_STIM_MAX_RESET;
            stim_burst <= LATMON_STIM_BURST_RESET;
            stim_pause <= LATMON_STIM_PAUSE_RESET;
            stim_total <= LATMON_STIM_TOTAL_RESET;
            stim_seed <= LATMON_STIM_SEED_RESET;
        end else if (clear) begin
            irq_status <= {IRQ_BITS{1'b0}};
        end
    end

    // ---- read channel --------------------------------------------------------------------

    // The read pipeline: the AR cycle registers the decoded address (register index, window),
    // the next cycle muxes with that registered index and registers the data and response.

    reg        rd_pending = 1'b0;   // an AR was accepted; data follows next cycle
    reg [REG_INDEX_BITS-1:0] rd_index = {REG_INDEX_BITS{1'b0}};
    reg        rd_is_reg = 1'b0;    // the address is in the register block
    reg        rd_in_trace = 1'b0;  // the address is in the trace window
    reg        rd_trace_ok = 1'b0;  // ... below TRACE_DEPTH
    reg        rd_in_hist = 1'b0;   // the address is in the histogram window
    reg        rd_hist_ok = 1'b0;   // ... below the number of bins
    reg        rd_time_lo = 1'b0;   // a STAMP_TIME_LO read: take the snapshot
    reg [31:0] time_hi_shadow = 32'd0;
    reg        rd_sum_lo = 1'b0;    // a SUM_LO read: take the snapshot
    reg [15:0] sum_hi_shadow = 16'd0;
    reg [31:0] sum_count_shadow = 32'd0;

    wire [15:0] araddr = {s_axil_araddr[15:2], 2'b00};

    assign s_axil_arready = !rd_pending && !s_axil_rvalid;
    assign trace_rd_addr = s_axil_araddr[2 +: TRACE_AW];
    assign hist_rd_addr = s_axil_araddr[2 +: HIST_BINS_LOG2];

    reg [31:0] reg_value;
    always @* begin
        reg_value = 32'd0;
        case (rd_index)
            index(LATMON_ID_OFFSET): reg_value = LATMON_ID_RESET;
            index(LATMON_VERSION_OFFSET): reg_value = LATMON_VERSION_RESET;
            index(LATMON_CAPS_OFFSET): reg_value = caps;
            index(LATMON_CTRL_OFFSET): reg_value = ctrl_value;
            index(LATMON_STATUS_OFFSET): begin
                reg_value[LATMON_STATUS_BUSY_LSB] = busy;
                reg_value[LATMON_STATUS_ALARM_LSB] = alarm;
                reg_value[LATMON_STATUS_TRACE_FULL_LSB] = trace_filled && !trace_ring;
                reg_value[LATMON_STATUS_TRACE_WRAPPED_LSB] = trace_wrapped;
                reg_value[LATMON_STATUS_SATURATED_LSB] = saturated;
            end
            index(LATMON_IRQ_ENABLE_OFFSET): reg_value = ext(irq_enable);
            index(LATMON_IRQ_STATUS_OFFSET): reg_value = ext(irq_status);
            index(LATMON_TIMEOUT_OFFSET): reg_value = ext(timeout);
            index(LATMON_THRESHOLD_OFFSET): reg_value = ext(threshold);
            index(LATMON_LAST_OFFSET): reg_value = ext(last);
            index(LATMON_MIN_OFFSET): reg_value = ext(min);
            index(LATMON_MAX_OFFSET): reg_value = ext(max);
            index(LATMON_COUNT_OFFSET): reg_value = ext(count);
            index(LATMON_SUM_LO_OFFSET): reg_value = ext(sum);
            index(LATMON_SUM_HI_OFFSET): reg_value = ext(sum_hi_shadow);
            index(LATMON_SUM_COUNT_OFFSET): reg_value = sum_count_shadow;
            index(LATMON_VIOLATIONS_OFFSET): reg_value = ext(violations);
            index(LATMON_TIMEOUTS_OFFSET): reg_value = ext(timeouts);
            index(LATMON_OVERRUNS_OFFSET): reg_value = ext(overruns);
            index(LATMON_IGNORED_OFFSET): reg_value = ext(ignored);
            index(LATMON_TRACE_COUNT_OFFSET): reg_value = trace_count;
            index(LATMON_TRACE_LOST_OFFSET): reg_value = ext(trace_lost);
            index(LATMON_CAPS2_OFFSET): reg_value = caps2;
            index(LATMON_HIST_STATUS_OFFSET): begin
                reg_value[LATMON_HIST_STATUS_BUSY_LSB] = hist_busy;
                reg_value[LATMON_HIST_STATUS_SATURATED_LSB] = hist_saturated;
            end
            index(LATMON_HIST_START_OFFSET): reg_value = ext(hist_start);
            index(LATMON_HIST_SHIFT_OFFSET): reg_value = ext(hist_shift);
            index(LATMON_HIST_SNAPSHOTS_OFFSET): reg_value = hist_snapshots;
            index(LATMON_HIST_DROPPED_OFFSET): reg_value = hist_dropped;
            index(LATMON_HIST_UNDERFLOW_OFFSET): reg_value = hist_underflow;
            index(LATMON_HIST_OVERFLOW_OFFSET): reg_value = hist_overflow;
            index(LATMON_HIST_COUNT_LO_OFFSET): reg_value = hist_count[31:0];
            index(LATMON_HIST_COUNT_HI_OFFSET): reg_value = ext(hist_count[47:32]);
            index(LATMON_HIST_SUM_LO_OFFSET): reg_value = hist_sum[31:0];
            index(LATMON_HIST_SUM_HI_OFFSET): reg_value = hist_sum[63:32];
            index(LATMON_HIST_MIN_OFFSET): reg_value = ext(hist_min);
            index(LATMON_HIST_MAX_OFFSET): reg_value = ext(hist_max);
            index(LATMON_STAMP_CTRL_OFFSET): reg_value = stamp_ctrl_value;
            index(LATMON_STAMP_TIMEOUT_OFFSET): reg_value = stamp_timeout;
            index(LATMON_STAMP_MATCHED_OFFSET): reg_value = stamp_matched;
            index(LATMON_STAMP_UNMATCHED_OFFSET): reg_value = stamp_unmatched;
            index(LATMON_STAMP_TIMEOUTS_OFFSET): reg_value = stamp_timeouts;
            index(LATMON_STAMP_FULL_OFFSET): reg_value = stamp_full;
            index(LATMON_STAMP_DUPLICATES_OFFSET): reg_value = stamp_duplicates;
            index(LATMON_STAMP_OUTSTANDING_OFFSET): reg_value = ext(stamp_outstanding);
            index(LATMON_STAMP_TIME_LO_OFFSET): reg_value = stamp_time[31:0];
            index(LATMON_STAMP_TIME_HI_OFFSET): reg_value = time_hi_shadow;
            index(LATMON_STIM_CTRL_OFFSET): reg_value = stim_ctrl_value;
            index(LATMON_STIM_STATUS_OFFSET): begin
                reg_value[LATMON_STIM_STATUS_RUNNING_LSB] = stim_running;
                reg_value[LATMON_STIM_STATUS_DONE_LSB] = stim_done;
            end
            index(LATMON_STIM_PERIOD_OFFSET): reg_value = stim_period;
            index(LATMON_STIM_MIN_OFFSET): reg_value = stim_min;
            index(LATMON_STIM_MAX_OFFSET): reg_value = stim_max;
            index(LATMON_STIM_BURST_OFFSET): reg_value = stim_burst;
            index(LATMON_STIM_PAUSE_OFFSET): reg_value = stim_pause;
            index(LATMON_STIM_TOTAL_OFFSET): reg_value = stim_total;
            index(LATMON_STIM_SEED_OFFSET): reg_value = stim_seed;
            index(LATMON_STIM_SENT_OFFSET): reg_value = stim_sent;
            default: reg_value = 32'd0;
        endcase
    end

    always @(posedge clk) begin
        if (s_axil_arvalid && s_axil_arready) begin
            rd_pending <= 1'b1;
            rd_index <= index(araddr);
            rd_is_reg <= in_regs(s_axil_araddr);
            rd_in_trace <= in_trace(s_axil_araddr);
            rd_trace_ok <= ((araddr - LATMON_TRACE_OFFSET) >> 2) < TRACE_DEPTH;
            rd_sum_lo <= in_regs(s_axil_araddr) && index(araddr) == index(LATMON_SUM_LO_OFFSET);
            rd_in_hist <= in_hist(s_axil_araddr);
            rd_hist_ok <= ((araddr - LATMON_HIST_OFFSET) >> 2) < (1 << HIST_BINS_LOG2);
            rd_time_lo <= in_regs(s_axil_araddr) &&
                          index(araddr) == index(LATMON_STAMP_TIME_LO_OFFSET);
        end
        if (rd_pending) begin
            rd_pending <= 1'b0;
            s_axil_rvalid <= 1'b1;
            s_axil_rdata <= rd_in_trace ? (rd_trace_ok ? ext(trace_rd_data) : 32'd0)
                          : rd_in_hist ? (rd_hist_ok ? hist_rd_data : 32'd0)
                          : rd_is_reg ? reg_value : 32'd0;
            s_axil_rresp <= rd_in_trace || rd_in_hist || (rd_is_reg && known(rd_index)) ? 2'b00
                                                                                      : 2'b10;
            if (rd_time_lo && HAS_STAMP != 0)
                time_hi_shadow <= stamp_time[63:32];
            if (rd_sum_lo) begin
                // SUM_LO, SUM_HI and SUM_COUNT form one snapshot.
                sum_hi_shadow <= ext(sum >> 32);
                sum_count_shadow <= ext(count);
            end
        end else if (s_axil_rvalid && s_axil_rready) begin
            s_axil_rvalid <= 1'b0;
        end
        if (rst) begin
            rd_pending <= 1'b0;
            s_axil_rvalid <= 1'b0;
            sum_hi_shadow <= 16'd0;
            sum_count_shadow <= 32'd0;
            time_hi_shadow <= 32'd0;
        end else if (clear) begin
            sum_hi_shadow <= 16'd0;
            sum_count_shadow <= 32'd0;
        end
    end

    // The protection bits are accepted and ignored.
    wire unused_prot = ^{s_axil_awprot, s_axil_arprot};

endmodule

`default_nettype wire
