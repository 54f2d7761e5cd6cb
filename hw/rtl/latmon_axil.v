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
    parameter ADDR_WIDTH = 16
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

    output reg                      irq_out = 1'b0
);

    `include "latmon_regs.vh"

    localparam TRACE_AW = $clog2(TRACE_DEPTH);
    localparam IRQ_BITS = 5;

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
                       (CNT_WIDTH << LATMON_CAPS_CNT_WIDTH_LSB) |
                       (TRACE_AW << LATMON_CAPS_TRACE_DEPTH_LOG2_LSB) |
                       (SYNC_STAGES << LATMON_CAPS_SYNC_STAGES_LSB) |
                       (TRACE_WIDTH << LATMON_CAPS_TRACE_WIDTH_LSB);

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
                index(LATMON_TRACE_COUNT_OFFSET), index(LATMON_TRACE_LOST_OFFSET): known = 1'b1;
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

    wire [IRQ_BITS-1:0] irq_events;
    assign irq_events[LATMON_IRQ_STATUS_SAMPLE_LSB] = ev_sample;
    assign irq_events[LATMON_IRQ_STATUS_ALARM_LSB] = ev_alarm;
    assign irq_events[LATMON_IRQ_STATUS_TRACE_FULL_LSB] = ev_trace_full;
    assign irq_events[LATMON_IRQ_STATUS_TIMEOUT_LSB] = ev_timeout;
    assign irq_events[LATMON_IRQ_STATUS_OVERRUN_LSB] = ev_overrun;

    always @(posedge clk) begin
        clear <= 1'b0;
        if (accept_write) begin
            w_pending <= 1'b1;
            w_index <= index(s_axil_awaddr[15:0]);
            w_is_reg <= in_regs(s_axil_awaddr);
            w_in_trace <= in_trace(s_axil_awaddr);
            wdata <= s_axil_wdata;
            wstrb <= s_axil_wstrb;
        end
        if (w_pending) begin
            w_pending <= 1'b0;
            s_axil_bvalid <= 1'b1;
            s_axil_bresp <= w_in_trace || (w_is_reg && known(w_index)) ? 2'b00 : 2'b10;
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
    reg        rd_sum_lo = 1'b0;    // a SUM_LO read: take the snapshot
    reg [15:0] sum_hi_shadow = 16'd0;
    reg [31:0] sum_count_shadow = 32'd0;

    wire [15:0] araddr = {s_axil_araddr[15:2], 2'b00};

    assign s_axil_arready = !rd_pending && !s_axil_rvalid;
    assign trace_rd_addr = s_axil_araddr[2 +: TRACE_AW];

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
        end
        if (rd_pending) begin
            rd_pending <= 1'b0;
            s_axil_rvalid <= 1'b1;
            s_axil_rdata <= rd_in_trace ? (rd_trace_ok ? ext(trace_rd_data) : 32'd0)
                          : rd_is_reg ? reg_value : 32'd0;
            s_axil_rresp <= rd_in_trace || (rd_is_reg && known(rd_index)) ? 2'b00 : 2'b10;
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
        end else if (clear) begin
            sum_hi_shadow <= 16'd0;
            sum_count_shadow <= 32'd0;
        end
    end

    // The protection bits are accepted and ignored.
    wire unused_prot = ^{s_axil_awprot, s_axil_arprot};

endmodule

`default_nettype wire
