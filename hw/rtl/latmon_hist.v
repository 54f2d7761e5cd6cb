// latmon_hist: histogram engine — counts every latency into a bin, one latency per clock, with
// a consistent snapshot for readout while counting goes on.
//
// bin = (latency - offset) >> shift; a latency below `offset` counts as underflow, a bin number
// of BINS or more as overflow. Bin counters are BIN_WIDTH (32) bits and saturate (the bank's `saturated`
// flag is set) instead of wrapping. Beside the bins each bank keeps the count (48 bits), the
// exact sum (64 bits, saturating), min and max of every latency it received (underflow and overflow
// included) and the underflow and overflow counts.
//
// Two banks, each its own simple dual-port RAM (block RAM): the active bank counts, the frozen
// bank holds the last snapshot and is read over the bus (rd_addr -> rd_data, one cycle). A
// `snapshot` strobe (accepted when not busy) first clears the frozen bank (BINS cycles, on its
// own write port: counting goes on in the active bank), then swaps the banks at one clock edge
// and lets the two samples still in the pipeline land in their bank; `busy` is high until then.
// Every latency is therefore counted in exactly one snapshot: the sum of all snapshots equals
// what was sent, bin by bin. Read the frozen bank only while busy is low.
//
// The counting pipeline reads a bin in one cycle and writes it incremented in the next; a
// latency for the bin written in the same cycle as its read takes the value being written
// (forwarding), so back-to-back latencies for one bin are all counted.
//
//   cycle       t        t+1                t+2
//   s0      latency  -> bin, range checks   (side registers of the bank updated)
//   s1               -> RAM read of the bin
//   s2                                     -> old = forwarded or read value; write old + 1
//
// `clear` (and rst) zero both banks: BINS cycles with busy high, during which latencies are
// not counted but counted in `dropped`, so none disappears unnoticed.
`timescale 1ns / 1ps
`default_nettype none

module latmon_hist #(
    // Width of the incoming latencies (2..32).
    parameter CNT_WIDTH = 32,
    // log2 of the number of bins (2..12: 4..4096 bins per bank).
    parameter BINS_LOG2 = 8,
    // Bits per bin counter (4..32; 32 in any real use — smaller only to test saturation).
    parameter BIN_WIDTH = 32
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 clear,

    input  wire [CNT_WIDTH-1:0] offset,
    input  wire [4:0]           shift,

    input  wire                 sample_valid,
    input  wire [CNT_WIDTH-1:0] sample_latency,

    input  wire                 snapshot,
    output wire                 busy,
    output reg  [31:0]          snapshots = 32'd0,   // snapshots taken since clear
    output reg  [31:0]          dropped = 32'd0,     // latencies not counted (while clearing)

    // the frozen bank
    input  wire                 rd_en,     // read rd_addr of the frozen bank (else it holds)
    input  wire [BINS_LOG2-1:0] rd_addr,
    output wire [31:0]          rd_data,
    output wire [31:0]          underflow,
    output wire [31:0]          overflow,
    output wire [47:0]          count,
    output wire [63:0]          sum,
    output wire [CNT_WIDTH-1:0] min,
    output wire [CNT_WIDTH-1:0] max,
    output wire                 saturated
);

    localparam BINS = 1 << BINS_LOG2;
    localparam [31:0] FULL = 32'hFFFFFFFF;
    localparam [BIN_WIDTH-1:0] BIN_FULL = {BIN_WIDTH{1'b1}};

    initial begin
        if (BINS_LOG2 < 2 || BINS_LOG2 > 12)
            $fatal(1, "latmon_hist: BINS_LOG2 must be 2..12, not %0d", BINS_LOG2);
        if (BIN_WIDTH < 4 || BIN_WIDTH > 32)
            $fatal(1, "latmon_hist: BIN_WIDTH must be 4..32, not %0d", BIN_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon_hist: CNT_WIDTH must be 2..32, not %0d", CNT_WIDTH);
    end

    reg [BIN_WIDTH-1:0] mem0 [0:BINS-1];
    reg [BIN_WIDTH-1:0] mem1 [0:BINS-1];

    integer i;
    initial begin
        for (i = 0; i < BINS; i = i + 1) begin
            mem0[i] = {BIN_WIDTH{1'b0}};
            mem1[i] = {BIN_WIDTH{1'b0}};
        end
    end

    // ---- control: clear, snapshot, bank swap ---------------------------------------------

    localparam ST_IDLE = 2'd0;
    localparam ST_CLEAR_ALL = 2'd1;    // clear or reset: both banks
    localparam ST_CLEAR_FROZEN = 2'd2; // snapshot: the frozen bank, then swap
    localparam ST_DRAIN = 2'd3;        // after the swap: the pipeline lands

    reg [1:0]           state = ST_CLEAR_ALL;
    reg [BINS_LOG2-1:0] clear_addr = {BINS_LOG2{1'b0}};
    reg [1:0]           drain = 2'd0;
    reg                 act = 1'b0;    // the active bank

    assign busy = state != ST_IDLE;
    wire counting = state != ST_CLEAR_ALL;
    wire clear_last = &clear_addr;
    wire zero_frozen_regs = state == ST_IDLE && snapshot;

    always @(posedge clk) begin
        case (state)
            ST_IDLE: if (snapshot) state <= ST_CLEAR_FROZEN;
            ST_CLEAR_ALL, ST_CLEAR_FROZEN: begin
                clear_addr <= clear_addr + 1'b1;
                if (clear_last) begin
                    if (state == ST_CLEAR_FROZEN) begin
                        act <= !act;
                        snapshots <= snapshots + 32'd1;
                        drain <= 2'd2;
                        state <= ST_DRAIN;
                    end else begin
                        state <= ST_IDLE;
                    end
                end
            end
            ST_DRAIN: begin
                drain <= drain - 2'd1;
                if (drain == 2'd1)
                    state <= ST_IDLE;
            end
            default: state <= ST_IDLE;
        endcase
        if (rst || clear) begin
            state <= ST_CLEAR_ALL;
            clear_addr <= {BINS_LOG2{1'b0}};
            act <= 1'b0;
            snapshots <= 32'd0;
        end
    end

    // ---- s0 -> s1: bin and range, side registers ------------------------------------------

    wire                 under0 = sample_latency < offset;
    wire [CNT_WIDTH-1:0] delta0 = sample_latency - offset;
    wire [CNT_WIDTH-1:0] index0 = delta0 >> shift;
    wire                 over0 = !under0 && (index0 >> BINS_LOG2) != 0;
    wire                 take0 = sample_valid && counting;

    reg                 v1 = 1'b0;
    reg                 bank1 = 1'b0;
    reg [BINS_LOG2-1:0] bin1 = {BINS_LOG2{1'b0}};

    // Per-bank side registers, [0] and [1].
    reg [31:0]          under_r [0:1];
    reg [31:0]          over_r [0:1];
    reg [47:0]          count_r [0:1];
    reg [63:0]          sum_r [0:1];
    reg [CNT_WIDTH-1:0] min_r [0:1];
    reg [CNT_WIDTH-1:0] max_r [0:1];
    reg                 sat_r [0:1];

    initial begin
        for (i = 0; i < 2; i = i + 1) begin
            under_r[i] = 32'd0;
            over_r[i] = 32'd0;
            count_r[i] = 48'd0;
            sum_r[i] = 64'd0;
            min_r[i] = {CNT_WIDTH{1'b1}};
            max_r[i] = {CNT_WIDTH{1'b0}};
            sat_r[i] = 1'b0;
        end
    end

    wire       b0 = act;  // the bank of a latency entering now
    // The sum saturates too (at 100 MHz it would take 5.8 years of 1000-cycle latencies).
    wire [64:0] sum_next = {1'b0, sum_r[b0]} + {{(65-CNT_WIDTH){1'b0}}, sample_latency};
    integer    k_side;  // one loop variable per always block: a variable assigned from two
                        // blocks is a multi-driven net in synthesis and a race in simulation

    always @(posedge clk) begin
        v1 <= take0 && !under0 && !over0;
        bank1 <= b0;
        bin1 <= index0[BINS_LOG2-1:0];
        if (take0) begin
            if (under0 && under_r[b0] != FULL)
                under_r[b0] <= under_r[b0] + 32'd1;
            if (over0 && over_r[b0] != FULL)
                over_r[b0] <= over_r[b0] + 32'd1;
            if (~&count_r[b0])
                count_r[b0] <= count_r[b0] + 48'd1;
            sum_r[b0] <= sum_next[64] ? {64{1'b1}} : sum_next[63:0];
            if (sample_latency < min_r[b0])
                min_r[b0] <= sample_latency;
            if (sample_latency > max_r[b0])
                max_r[b0] <= sample_latency;
        end
        if (sample_valid && !counting && dropped != FULL)
            dropped <= dropped + 32'd1;
        // A snapshot starts: the frozen bank's registers become the next active bank's zeros.
        for (k_side = 0; k_side < 2; k_side = k_side + 1) begin
            if (rst || clear || (zero_frozen_regs && k_side[0] != act)) begin
                under_r[k_side] <= 32'd0;
                over_r[k_side] <= 32'd0;
                count_r[k_side] <= 48'd0;
                sum_r[k_side] <= 64'd0;
                min_r[k_side] <= {CNT_WIDTH{1'b1}};
                max_r[k_side] <= {CNT_WIDTH{1'b0}};
            end
        end
        if (rst || clear) begin
            v1 <= 1'b0;
            dropped <= 32'd0;
        end
    end

    // ---- s1 -> s2: RAM read; s2: increment and write ----------------------------------------

    reg                 v2 = 1'b0;
    reg                 bank2 = 1'b0;
    reg [BINS_LOG2-1:0] bin2 = {BINS_LOG2{1'b0}};
    reg [BIN_WIDTH-1:0] q0 = {BIN_WIDTH{1'b0}};
    reg [BIN_WIDTH-1:0] q1 = {BIN_WIDTH{1'b0}};
    // the write of the previous cycle, for forwarding
    reg                 wv = 1'b0;
    reg                 wbank = 1'b0;
    reg [BINS_LOG2-1:0] wbin = {BINS_LOG2{1'b0}};
    reg [BIN_WIDTH-1:0] wdata = {BIN_WIDTH{1'b0}};
    integer             k_sat;

    // Each bank's read port: the counting pipeline when it reads that bank, else the bus. The
    // frozen bank's latch changes only on a bus read (the pipeline reads the active bank), so
    // a bus read's word stays until the next one.
    wire                 count0 = v1 && bank1 == 1'b0;
    wire                 count1 = v1 && bank1 == 1'b1;
    wire [BINS_LOG2-1:0] raddr0 = count0 ? bin1 : rd_addr;
    wire [BINS_LOG2-1:0] raddr1 = count1 ? bin1 : rd_addr;

    wire [BIN_WIDTH-1:0] read2 = bank2 ? q1 : q0;
    wire [BIN_WIDTH-1:0] old2 = (wv && wbank == bank2 && wbin == bin2) ? wdata : read2;
    wire [BIN_WIDTH-1:0] new2 = old2 == BIN_FULL ? BIN_FULL : old2 + 1'b1;

    // Each bank's write port: the counting pipeline, or the clearing.
    wire clearing = state == ST_CLEAR_ALL || state == ST_CLEAR_FROZEN;
    wire clear0 = state == ST_CLEAR_ALL || (state == ST_CLEAR_FROZEN && act == 1'b1);
    wire clear1 = state == ST_CLEAR_ALL || (state == ST_CLEAR_FROZEN && act == 1'b0);
    wire we0 = (v2 && bank2 == 1'b0) || clear0;
    wire we1 = (v2 && bank2 == 1'b1) || clear1;
    wire [BINS_LOG2-1:0] waddr0 = clear0 ? clear_addr : bin2;
    wire [BINS_LOG2-1:0] waddr1 = clear1 ? clear_addr : bin2;
    wire [BIN_WIDTH-1:0] wdata0 = clear0 ? {BIN_WIDTH{1'b0}} : new2;
    wire [BIN_WIDTH-1:0] wdata1 = clear1 ? {BIN_WIDTH{1'b0}} : new2;

    always @(posedge clk) begin
        if (we0)
            mem0[waddr0] <= wdata0;
        if (count0 || rd_en)
            q0 <= mem0[raddr0];
    end

    always @(posedge clk) begin
        if (we1)
            mem1[waddr1] <= wdata1;
        if (count1 || rd_en)
            q1 <= mem1[raddr1];
    end

    always @(posedge clk) begin
        v2 <= v1;
        bank2 <= bank1;
        bin2 <= bin1;
        wv <= v2;
        wbank <= bank2;
        wbin <= bin2;
        wdata <= new2;
        if (v2 && old2 == BIN_FULL)
            sat_r[bank2] <= 1'b1;
        for (k_sat = 0; k_sat < 2; k_sat = k_sat + 1)
            if (rst || clear || (zero_frozen_regs && k_sat[0] != act))
                sat_r[k_sat] <= 1'b0;
        if (rst || clear) begin
            v2 <= 1'b0;
            wv <= 1'b0;
        end
    end

    // ---- the frozen bank, to the bus --------------------------------------------------------

    wire frozen = !act;
    assign rd_data = frozen ? q1 : q0;  // zero-extended to 32 bits
    assign underflow = under_r[frozen];
    assign overflow = over_r[frozen];
    assign count = count_r[frozen];
    assign sum = sum_r[frozen];
    assign min = min_r[frozen];
    assign max = max_r[frozen];
    assign saturated = sat_r[frozen];

    wire unused_clearing = clearing;

endmodule

`default_nettype wire
