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

    wire do_write = s_axil_awvalid && s_axil_wvalid && (!s_axil_bvalid || s_axil_bready);
    assign s_axil_awready = do_write;
    assign s_axil_wready = do_write;

    wire [15:0] waddr = {s_axil_awaddr[15:2], 2'b00};
    wire [31:0] wdata = s_axil_wdata;
    wire [3:0]  wstrb = s_axil_wstrb;
    wire write_irq_status = do_write && waddr == LATMON_IRQ_STATUS_OFFSET;
    wire [31:0] w1c = write_irq_status ? (wdata & {{8{wstrb[3]}}, {8{wstrb[2]}}, {8{wstrb[1]}},
                                                   {8{wstrb[0]}}}) : 32'd0;

    // Registers that answer on the bus (everything else is SLVERR).
    function mapped;
        input [15:0] a;
        begin
            mapped = (a >= LATMON_TRACE_OFFSET &&
                      a < LATMON_TRACE_OFFSET + 4 * LATMON_TRACE_ENTRIES) ||
                     a == LATMON_ID_OFFSET || a == LATMON_VERSION_OFFSET ||
                     a == LATMON_CAPS_OFFSET || a == LATMON_CTRL_OFFSET ||
                     a == LATMON_STATUS_OFFSET || a == LATMON_IRQ_ENABLE_OFFSET ||
                     a == LATMON_IRQ_STATUS_OFFSET || a == LATMON_TIMEOUT_OFFSET ||
                     a == LATMON_THRESHOLD_OFFSET || a == LATMON_LAST_OFFSET ||
                     a == LATMON_MIN_OFFSET || a == LATMON_MAX_OFFSET ||
                     a == LATMON_COUNT_OFFSET || a == LATMON_SUM_LO_OFFSET ||
                     a == LATMON_SUM_HI_OFFSET || a == LATMON_SUM_COUNT_OFFSET ||
                     a == LATMON_VIOLATIONS_OFFSET || a == LATMON_TIMEOUTS_OFFSET ||
                     a == LATMON_OVERRUNS_OFFSET || a == LATMON_IGNORED_OFFSET ||
                     a == LATMON_TRACE_COUNT_OFFSET || a == LATMON_TRACE_LOST_OFFSET;
        end
    endfunction

    wire waddr_ok = mapped(waddr) && (s_axil_awaddr >> 16) == 0;

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
        if (do_write) begin
            s_axil_bvalid <= 1'b1;
            s_axil_bresp <= waddr_ok ? 2'b00 : 2'b10;
        end else if (s_axil_bready) begin
            s_axil_bvalid <= 1'b0;
        end
        if (do_write) begin
            case (waddr)
                LATMON_CTRL_OFFSET: begin
                    enable <= ctrl_w[LATMON_CTRL_ENABLE_LSB];
                    clear <= ctrl_w[LATMON_CTRL_CLEAR_LSB];
                    trace_ring <= ctrl_w[LATMON_CTRL_TRACE_RING_LSB];
                    irq_mode <= ctrl_w[LATMON_CTRL_IRQ_MODE_LSB +: 2];
                    ack_mode <= ctrl_w[LATMON_CTRL_ACK_MODE_LSB +: 2];
                end
                LATMON_IRQ_ENABLE_OFFSET: irq_enable <= irq_enable_w[IRQ_BITS-1:0];
                LATMON_TIMEOUT_OFFSET: timeout <= timeout_w[CNT_WIDTH-1:0];
                LATMON_THRESHOLD_OFFSET: threshold <= threshold_w[CNT_WIDTH-1:0];
                default: ;
            endcase
        end
        // A new event wins over a simultaneous write-1-to-clear, so none is lost.
        irq_status <= (irq_status & ~w1c[IRQ_BITS-1:0]) | irq_events;
        irq_out <= |(irq_status & irq_enable);
        if (rst) begin
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

    reg        rd_pending = 1'b0;   // an AR was accepted; data follows next cycle
    reg [15:0] rd_addr = 16'd0;
    reg        rd_high = 1'b0;      // address bits above 16 set: unmapped
    reg [15:0] sum_hi_shadow = 16'd0;
    reg [31:0] sum_count_shadow = 32'd0;

    assign s_axil_arready = !rd_pending && !s_axil_rvalid;
    assign trace_rd_addr = s_axil_araddr[2 +: TRACE_AW];

    wire in_trace = rd_addr >= LATMON_TRACE_OFFSET &&
                    rd_addr < LATMON_TRACE_OFFSET + 4 * LATMON_TRACE_ENTRIES;
    wire [15:0] trace_index = (rd_addr - LATMON_TRACE_OFFSET) >> 2;

    reg [31:0] rd_value;
    always @* begin
        rd_value = 32'd0;
        case (rd_addr)
            LATMON_ID_OFFSET: rd_value = LATMON_ID_RESET;
            LATMON_VERSION_OFFSET: rd_value = LATMON_VERSION_RESET;
            LATMON_CAPS_OFFSET: rd_value = caps;
            LATMON_CTRL_OFFSET: rd_value = ctrl_value;
            LATMON_STATUS_OFFSET: begin
                rd_value[LATMON_STATUS_BUSY_LSB] = busy;
                rd_value[LATMON_STATUS_ALARM_LSB] = alarm;
                rd_value[LATMON_STATUS_TRACE_FULL_LSB] = trace_filled && !trace_ring;
                rd_value[LATMON_STATUS_TRACE_WRAPPED_LSB] = trace_wrapped;
                rd_value[LATMON_STATUS_SATURATED_LSB] = saturated;
            end
            LATMON_IRQ_ENABLE_OFFSET: rd_value = ext(irq_enable);
            LATMON_IRQ_STATUS_OFFSET: rd_value = ext(irq_status);
            LATMON_TIMEOUT_OFFSET: rd_value = ext(timeout);
            LATMON_THRESHOLD_OFFSET: rd_value = ext(threshold);
            LATMON_LAST_OFFSET: rd_value = ext(last);
            LATMON_MIN_OFFSET: rd_value = ext(min);
            LATMON_MAX_OFFSET: rd_value = ext(max);
            LATMON_COUNT_OFFSET: rd_value = ext(count);
            LATMON_SUM_LO_OFFSET: rd_value = ext(sum);
            LATMON_SUM_HI_OFFSET: rd_value = ext(sum_hi_shadow);
            LATMON_SUM_COUNT_OFFSET: rd_value = sum_count_shadow;
            LATMON_VIOLATIONS_OFFSET: rd_value = ext(violations);
            LATMON_TIMEOUTS_OFFSET: rd_value = ext(timeouts);
            LATMON_OVERRUNS_OFFSET: rd_value = ext(overruns);
            LATMON_IGNORED_OFFSET: rd_value = ext(ignored);
            LATMON_TRACE_COUNT_OFFSET: rd_value = trace_count;
            LATMON_TRACE_LOST_OFFSET: rd_value = ext(trace_lost);
            default: rd_value = 32'd0;
        endcase
        if (in_trace)
            rd_value = trace_index < TRACE_DEPTH ? ext(trace_rd_data) : 32'd0;
    end

    always @(posedge clk) begin
        if (s_axil_arvalid && s_axil_arready) begin
            rd_pending <= 1'b1;
            rd_addr <= {s_axil_araddr[15:2], 2'b00};
            rd_high <= (s_axil_araddr >> 16) != 0;
        end
        if (rd_pending) begin
            rd_pending <= 1'b0;
            s_axil_rvalid <= 1'b1;
            s_axil_rdata <= rd_value;
            s_axil_rresp <= mapped(rd_addr) && !rd_high ? 2'b00 : 2'b10;
            if (rd_addr == LATMON_SUM_LO_OFFSET) begin
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
