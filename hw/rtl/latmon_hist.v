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
// bank holds the last snapshot and is read over the bus (rd_addr -> rd_data two cycles later:
// the RAM's read register, then its output register; the word holds until the next read). A
// `snapshot` strobe (accepted when not busy) first clears the frozen bank (BINS cycles, on its
// own write port: counting goes on in the active bank), then swaps the banks at one clock edge
// and lets the samples still in the pipeline (eight cycles) land in their bank; `busy` is high
// until then. Every latency is therefore counted in exactly one snapshot: the sum of all
// snapshots equals what was sent, bin by bin. Read the frozen bank only while busy is low.
//
// The counting pipeline checks the range, then computes the bin, reads it from the RAM through
// the RAM's output register, selects the bin's bank, adds, registers the count into the RAM's
// write port and writes five cycles after the read. Instead of forwarding values, a latency adds
// itself and the latencies of its bin whose writes its read missed (those in s2..s6 when it is
// in s1), so back-to-back latencies for one bin are all counted:
//
//   cycle   t          t+1                  t+2          t+3      t+4       t+5       t+6       t+7       t+8
//   s0a     latency -> under/over, latency - offset
//   s0b                -> that >> 8 * shift[4:3]; side registers (min/max: halves compared
//                         in s0a, written in s0c)
//   s0s                                     -> bin = that >> shift[2:0]
//   s1                                                   RAM read; bin vs s2..s6
//   s2                                                            output reg; 1 + matches
//   s3                                                                      bank's word
//   s4                                                                                + (1 + matches)
//   s5                                                                                          -> write port
//   s6                                                                                                    write
//
// `clear` (and rst) zero both banks: BINS cycles during which latencies are not counted but
// counted in `dropped`, so none disappears unnoticed, and busy is high (one cycle longer: the
// last bin's zero lands).
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
    output wire [31:0]          dropped,     // latencies not counted (while clearing)

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

    initial begin
        if (BINS_LOG2 < 2 || BINS_LOG2 > 12)
            $fatal(1, "latmon_hist: BINS_LOG2 must be 2..12, not %0d", BINS_LOG2);
        if (BIN_WIDTH < 4 || BIN_WIDTH > 32)
            $fatal(1, "latmon_hist: BIN_WIDTH must be 4..32, not %0d", BIN_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon_hist: CNT_WIDTH must be 2..32, not %0d", CNT_WIDTH);
    end

    // What the RAM returns for a read and a write of one address at one edge is never used: a
    // counting read that meets s6's write takes the written value instead (fwd3 below), and the
    // bus reads the frozen bank only while nothing writes it (busy low). So synthesis need not
    // emulate a defined result around the block RAM (no_rw_check): its read register goes
    // straight into its output register.
    (* no_rw_check *) reg [BIN_WIDTH-1:0] mem0 [0:BINS-1];
    (* no_rw_check *) reg [BIN_WIDTH-1:0] mem1 [0:BINS-1];

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
    localparam ST_DRAIN = 2'd3;        // after the swap: the pipeline lands; after a clear:
                                       // its last write lands

    reg [1:0]           state = ST_CLEAR_ALL;
    reg [BINS_LOG2-1:0] clear_addr = {BINS_LOG2{1'b0}};
    reg [3:0]           drain = 4'd0;
    reg                 act = 1'b0;    // the active bank

    assign busy = state != ST_IDLE;
    wire counting = state != ST_CLEAR_ALL;
    reg  clear_last = 1'b0;  // clear_addr is the last bin (registered: no 12-bit AND)
    wire zero_frozen_regs = state == ST_IDLE && snapshot;

    // The next state, combinational, so that the RAMs' clear enables can be registered from it
    // (no state decode between a flip-flop and a block RAM's write port).
    reg [1:0]           state_n;
    reg                 act_n;
    always @* begin
        state_n = state;
        act_n = act;
        case (state)
            ST_IDLE: if (snapshot) state_n = ST_CLEAR_FROZEN;
            ST_CLEAR_ALL, ST_CLEAR_FROZEN:
                if (clear_last) begin
                    if (state == ST_CLEAR_FROZEN)
                        act_n = !act;
                    state_n = ST_DRAIN;
                end
            ST_DRAIN: if (drain == 4'd1) state_n = ST_IDLE;
            default: state_n = ST_IDLE;
        endcase
        if (rst || clear) begin
            state_n = ST_CLEAR_ALL;
            act_n = 1'b0;
        end
    end

    reg clear0 = 1'b1;  // bank 0's write port clears (the clear_addr word)
    reg clear1 = 1'b1;
    // "the state is ST_IDLE", a flip-flop of its own for clear0/clear1 alone: decoded from
    // `state`, "idle and a snapshot" was shared with the snapshot's other users (the frozen
    // bank's flags, the top's HIST_READY) and placed among them, and the route from there to
    // the clears beside the block RAMs was a critical path of the everything-on build.
    reg clear_idle = 1'b0;
    // synthesis translate_off
    always @(posedge clk)
        if (clear_idle != (state == ST_IDLE))
            $fatal(1, "latmon_hist: clear_idle %0d, state %0d", clear_idle, state);
    // synthesis translate_on
    // state_n == ST_IDLE, written out in two parts, each a net of its own: the snapshot's (one
    // LUT) and the clears' and the drain's (no snapshot in it); state_n's own decode, shared
    // with the snapshot's other users, put the snapshot three LUT4s before clear_idle, a
    // critical path of the everything-on build on ECP5.
    (* keep *) wire idle_stays;
    assign idle_stays = state == ST_IDLE && !snapshot;
    (* keep *) wire idle_comes;
    assign idle_comes = state == ST_DRAIN && drain == 4'd1;
    always @(posedge clk) begin
        state <= state_n;
        act <= act_n;
        clear_idle <= !(rst || clear) && (idle_stays || idle_comes);
        // = the next state clears (all, or the bank then frozen), written out from the present
        // state so that the drain count stays out of it.
        clear0 <= rst || clear || (state == ST_CLEAR_ALL && !clear_last)
            || (act && ((clear_idle && snapshot)
                        || (state == ST_CLEAR_FROZEN && !clear_last)));
        clear1 <= rst || clear || (state == ST_CLEAR_ALL && !clear_last)
            || (!act && ((clear_idle && snapshot)
                         || (state == ST_CLEAR_FROZEN && !clear_last)));
        // A clear starts at address 0 (where the last one wrapped to, or reset), never the last.
        clear_last <= (state == ST_CLEAR_ALL || state == ST_CLEAR_FROZEN)
            && clear_addr == {{(BINS_LOG2-1){1'b1}}, 1'b0};  // BINS - 2
        case (state)
            ST_CLEAR_ALL, ST_CLEAR_FROZEN: begin
                clear_addr <= clear_addr + 1'b1;
                // The RAMs write a cycle after their write port's registers are set (s6),
                // so the last clear lands a cycle after the clearing ends: one cycle of drain
                // after a clear; after a swap, eight: the samples of the old bank still in
                // s0a..s6.
                drain <= 4'd1;
                if (clear_last && state == ST_CLEAR_FROZEN) begin
                    snapshots <= snapshots + 32'd1;
                    drain <= 4'd8;
                end
            end
            ST_DRAIN: drain <= drain - 4'd1;
            default: ;
        endcase
        if (rst || clear) begin
            clear_addr <= {BINS_LOG2{1'b0}};
            clear_last <= 1'b0;
            snapshots <= 32'd0;
        end
    end

    // ---- s0 -> s1: bin and range, side registers ------------------------------------------

    // s0a: the range checks, as compares of the latency with offset and with the first
    // latency past the last bin, offset + (BINS << shift) (registered: the settings are static).
    // BINS << shift has one bit set, bit BINS_LOG2 + shift; the first latency past the bins,
    // offset + (BINS << shift), is kept less one (past_m1, CNT_WIDTH + 1 bits), so that "over"
    // (latency >= it) is the borrow of past_m1 - latency, the top of a carry chain straight
    // into its flip-flop (as >=, a LUT inverted the carry-out: a critical path of core+hist).
    // (BINS << shift) - 1 is a mask of ones below that bit, each bit one LUT of the shift's
    // decode (below); a bit that falls beyond the sum's width gives all CNT_WIDTH ones, so
    // past_m1 >= 2^CNT_WIDTH - 1: no latency is over (no wide OR, no flag after the chain).
    // The mask is registered before the sum (the shift's decode before the carry chain was a
    // critical path of core+hist), and the shift is decoded in a register before the mask, so
    // a new setting reaches past_m1 three edges after it.
    localparam [CNT_WIDTH:0] BINS_WIDE = BINS;
    reg  [CNT_WIDTH:0]   bins_mask = BINS_WIDE - 1'b1;  // (BINS << shift) - 1, at most 2^CNT_WIDTH - 1
    reg  [CNT_WIDTH:0]   past_m1 = BINS_WIDE - 1'b1;    // offset + (BINS << shift) - 1
    // Bit k of the mask is set when shift > k - BINS_LOG2 (below bit CNT_WIDTH). The shift,
    // 8 h + l, is decoded into flip-flops first: h > j, h == j (j = 0..3), l > j (j = 0..7); so
    // "shift > 8 a + b" is h > a || (h == a && l > b), one LUT of three of them for each bit.
    // As a table of the shift's five bits, Yosys shared terms between the bits and the mask was
    // nine steps from the shift's flip-flop, 3.1 ns of routing: the worst seed's critical path
    // of the everything-on build on ECP5 (233.1 MHz). (The decode is registered: the shift, a
    // register that keeps its power-up value, may never change, and a combinational table in
    // an `always @*` block never evaluated in Icarus: the mask stayed X at the reset settings.)
    reg  [3:0]           shift_hi_gt = 4'd0;  // shift[4:3] > j
    reg  [3:0]           shift_hi_eq = 4'd1;  // shift[4:3] == j
    reg  [7:0]           shift_lo_gt = 8'd0;  // shift[2:0] > j
    integer j_sh;
    function [CNT_WIDTH:0] bins_mask_of;  // (BINS << shift) - 1 from the shift's decode
        input [3:0] hi_gt;
        input [3:0] hi_eq;
        input [7:0] lo_gt;
        integer k;
        integer m;
        begin
            for (k = 0; k <= CNT_WIDTH; k = k + 1) begin
                m = k - BINS_LOG2;
                if (k == CNT_WIDTH)
                    bins_mask_of[k] = 1'b0;
                else if (m < 0)
                    bins_mask_of[k] = 1'b1;
                else
                    bins_mask_of[k] = hi_gt[m / 8] || (hi_eq[m / 8] && lo_gt[m % 8]);
            end
        end
    endfunction
    always @(posedge clk) begin
        for (j_sh = 0; j_sh < 4; j_sh = j_sh + 1) begin
            shift_hi_gt[j_sh] <= {30'd0, shift[4:3]} > j_sh;
            shift_hi_eq[j_sh] <= {30'd0, shift[4:3]} == j_sh;
        end
        for (j_sh = 0; j_sh < 8; j_sh = j_sh + 1)
            shift_lo_gt[j_sh] <= {29'd0, shift[2:0]} > j_sh;
        bins_mask <= bins_mask_of(shift_hi_gt, shift_hi_eq, shift_lo_gt);
        past_m1 <= {1'b0, offset} + bins_mask;
    end

    wire                 take0 = sample_valid && counting;
    reg                  va = 1'b0;
    reg                  bank_a = 1'b0;
    reg  [CNT_WIDTH-1:0] lat_a = {CNT_WIDTH{1'b0}};
    reg  [CNT_WIDTH-1:0] delta_a = {CNT_WIDTH{1'b0}};  // latency - offset
    reg                  under_a = 1'b0;
    // One subtraction for both: its borrow is "below the offset" (written as `<`, Yosys shares
    // the chain and puts a LUT behind its carry-out: core+hist's critical path).
    wire [CNT_WIDTH:0]   lat_minus_offset = {1'b0, sample_latency} - {1'b0, offset};
    wire [CNT_WIDTH+1:0] past_m1_minus_lat = {1'b0, past_m1} - {2'b00, sample_latency};
    reg                  over_a = 1'b0;
    always @(posedge clk) begin
        va <= take0;
        bank_a <= act;  // the bank of a latency: the active one when it enters
        lat_a <= sample_latency;
        // Nothing after the carry chain: the shift is done in s0b and s0s (a multiplexer for
        // each of the BINS_LOG2 bin bits only).
        delta_a <= lat_minus_offset[CNT_WIDTH-1:0];
        under_a <= lat_minus_offset[CNT_WIDTH];  // latency < offset: the borrow, no LUT after it
        over_a <= past_m1_minus_lat[CNT_WIDTH+1];  // latency > past_m1: the borrow
        if (rst || clear)
            va <= 1'b0;
    end
    // The shift in two stages, each one multiplexer: s0b by 8 * shift[4:3] (registered, as
    // wide as the second step needs), s0s by shift[2:0]. In one cycle, even in two kept steps,
    // it was two multiplexers and their routes after a flip-flop (core+hist's critical path).
    localparam CW = BINS_LOG2 + 7 < CNT_WIDTH ? BINS_LOG2 + 7 : CNT_WIDTH;
    /* verilator lint_off UNUSEDSIGNAL */  // the bits above the bin number
    wire [CNT_WIDTH-1:0] coarse_full = delta_a >> {shift[4:3], 3'b000};
    reg  [CW-1:0]        coarse_sh = {CW{1'b0}};
    wire [CW-1:0]        index_sh = coarse_sh >> shift[2:0];
    /* verilator lint_on UNUSEDSIGNAL */
    reg                  vsh = 1'b0;   // a latency in s0s, inside the bins
    reg                  bank_sh = 1'b0;

    reg                 v1 = 1'b0;
    // min and max in three steps, no 32-bit compare in one cycle. s0a: the latency (x) is
    // compared in 16-bit halves with its bank's min and max as they are then, and with the
    // two latencies before it (s0b, s0c), whose min/max writes that value does not include
    // yet; s0b: the halves combine; s0c: x is written if it beats the bank's value and is not
    // beaten by either of the two (a latency written is then the bank's running min or max).
    localparam LO = CNT_WIDTH / 2;
    localparam HI = CNT_WIDTH - LO;
    // {a.hi > b.hi, a.hi < b.hi, a.lo > b.lo, a.lo < b.lo}, each the borrow of a subtraction of
    // its own (x < y: x - y borrows), the top bit of a carry chain straight into a flip-flop.
    // Written as > and <, Yosys shares one chain between the two and derives the other with a
    // LUT behind the carry-out (core+hist's critical path).
    /* verilator lint_off UNUSEDSIGNAL */  // greater and less each use three of the four bits
    function [3:0] halves(input [CNT_WIDTH-1:0] a, input [CNT_WIDTH-1:0] b);
        reg [HI:0] hi_b_minus_a, hi_a_minus_b;
        reg [LO:0] lo_b_minus_a, lo_a_minus_b;
        begin
            hi_b_minus_a = {1'b0, b[CNT_WIDTH-1 -: HI]} - {1'b0, a[CNT_WIDTH-1 -: HI]};
            hi_a_minus_b = {1'b0, a[CNT_WIDTH-1 -: HI]} - {1'b0, b[CNT_WIDTH-1 -: HI]};
            lo_b_minus_a = {1'b0, b[LO-1:0]} - {1'b0, a[LO-1:0]};
            lo_a_minus_b = {1'b0, a[LO-1:0]} - {1'b0, b[LO-1:0]};
            halves = {hi_b_minus_a[HI], hi_a_minus_b[HI], lo_b_minus_a[LO], lo_a_minus_b[LO]};
        end
    endfunction
    function greater(input [3:0] h);
        greater = h[3] || (!h[2] && h[1]);
    endfunction
    function less(input [3:0] h);
        less = h[2] || (!h[3] && h[0]);
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    reg [CNT_WIDTH-1:0] lat_b = {CNT_WIDTH{1'b0}};  // s0b's latency
    reg [CNT_WIDTH-1:0] lat_c = {CNT_WIDTH{1'b0}};  // s0c's latency, written to min or max
    reg                 vb = 1'b0;                  // a latency in s0b
    reg                 bank_b = 1'b0;
    reg                 vc = 1'b0;
    reg                 bank_c = 1'b0;
    reg [3:0]           vs_b_b = 4'd0;  // s0b's latency vs the one in s0b (before) then
    reg [3:0]           vs_c_b = 4'd0;  // s0b's latency vs the one in s0c then
    reg                 prev1_b = 1'b0; // those two were of the same bank
    reg                 prev2_b = 1'b0;
    reg                 bank1 = 1'b0;
    reg [BINS_LOG2-1:0] bin1 = {BINS_LOG2{1'b0}};

    // Per-bank side registers, each bank its own (no bank multiplexer before an adder or a
    // compare): bank k counts when a latency of bank k is in s0b. The counters saturate on
    // their increment's carry-out. The sum is kept in two 32-bit halves, the carry of the low
    // half added to the high half a cycle later (the drain after a swap covers it); past
    // 2^64 - 1 it stays at all ones.
    wire [64*2-1:0]        sum_w;
    wire [48*2-1:0]        count_w;
    wire [32*2-1:0]        under_w;
    wire [32*2-1:0]        over_w;
    wire [CNT_WIDTH*2-1:0] min_w;
    wire [CNT_WIDTH*2-1:0] max_w;
    reg                    sat_r [0:1];
    reg  [1:0]             sat_zero = 2'b00;  // zero sat_r[k] (registered: see s5)

    initial begin
        for (i = 0; i < 2; i = i + 1)
            sat_r[i] = 1'b0;
    end

    genvar g_bank;
    generate
        for (g_bank = 0; g_bank < 2; g_bank = g_bank + 1) begin : g_side
            // Counters in two halves, as the sum: the low half's carry-out reaches the high
            // half a cycle later; past all ones the counter reads all ones (full).
            reg                 zero_q = 1'b0;  // zero this bank's side registers
            // "the state is ST_IDLE and a snapshot now freezes this bank", less the snapshot:
            // a flip-flop of its own per bank, set from the same terms as clear_idle, so that
            // zero_q is one LUT4 from it, the snapshot, rst and clear (decoded from `state`
            // and `act`, the state's flip-flops were two LUT levels and a long route away, a
            // critical path of the everything-on build on ECP5).
            reg                 zero_idle = 1'b0;
            // synthesis translate_off
            always @(posedge clk)
                if (zero_idle != (state == ST_IDLE && (g_bank == 1) != act))
                    $fatal(1, "latmon_hist: zero_idle %0d, state %0d, act %0d", zero_idle,
                           state, act);
            // synthesis translate_on
            reg [15:0]          under_lo = 16'd0;
            reg [15:0]          under_hi = 16'd0;
            reg                 under_carry = 1'b0;
            reg                 under_full = 1'b0;
            reg [15:0]          over_lo = 16'd0;
            reg [15:0]          over_hi = 16'd0;
            reg                 over_carry = 1'b0;
            reg                 over_full = 1'b0;
            reg [23:0]          count_lo = 24'd0;
            reg [23:0]          count_hi = 24'd0;
            reg                 count_carry = 1'b0;
            reg                 count_full = 1'b0;
            reg [31:0]          sum_lo = 32'd0;
            reg [31:0]          sum_hi = 32'd0;
            reg                 sum_carry = 1'b0;   // the low half's carry, not yet in the high
            reg                 sum_full = 1'b0;
            reg                 hi_ones_top = 1'b0;  // sum_hi[31:16] were all ones
            reg                 hi_ones_mid = 1'b0;  // sum_hi[15:4] were all ones
            reg                 hi_almost = 1'b0;    // sum_hi was all ones - 1 or more
            reg [CNT_WIDTH-1:0] min_q = {CNT_WIDTH{1'b1}};
            reg [CNT_WIDTH-1:0] max_q = {CNT_WIDTH{1'b0}};
            reg [3:0]           max_h = 4'd0;   // s0b's latency vs max_q in s0a
            reg [3:0]           min_h = 4'd0;
            reg                 lower_c = 1'b0; // s0c's latency is the new min
            reg                 higher_c = 1'b0;
            wire [16:0] under_lo_next = {1'b0, under_lo} + 17'd1;
            wire [16:0] under_hi_next = {1'b0, under_hi} + {16'd0, under_carry};
            wire [16:0] over_lo_next = {1'b0, over_lo} + 17'd1;
            wire [16:0] over_hi_next = {1'b0, over_hi} + {16'd0, over_carry};
            wire [24:0] count_lo_next = {1'b0, count_lo} + 25'd1;
            wire [24:0] count_hi_next = {1'b0, count_hi} + {24'd0, count_carry};
            // s0b's latency if it is this bank's, else zero (registered mine ? lat_a : 0): a
            // copy of the latency for this bank's sum alone, next to its carry chain, so the
            // chain needs no enable and its carry-out goes straight into sum_carry (lat_a's
            // fan-out routed across the device, then the AND with `mine` after the chain, were
            // critical paths of core+hist). The sum is final a cycle later for it, as min and
            // max are: inside the drain.
            reg [CNT_WIDTH-1:0] lat_s = {CNT_WIDTH{1'b0}};
            wire [32:0] lo_next = {1'b0, sum_lo} + {{(33-CNT_WIDTH){1'b0}}, lat_s};
            wire [31:0] hi_next = sum_hi + {31'd0, sum_carry};
            // va && bank_a is this bank, a flip-flop of its own for each bank: decoded from va
            // and bank_a, whose fan-out spans both banks' registers, the LUT and its routes
            // into the counters' carry logic (va to under_carry) were the critical path of
            // core+hist on ECP5 (217.3 MHz on its worst seed).
            reg         mine = 1'b0;
            always @(posedge clk) begin
                mine <= take0 && act == (g_bank == 1);
                if (rst || clear)
                    mine <= 1'b0;
                if (mine && under_a)
                    under_lo <= under_lo_next[15:0];
                under_carry <= mine && under_a && under_lo_next[16];
                under_hi <= under_hi_next[15:0];
                if (under_hi_next[16])
                    under_full <= 1'b1;
                if (mine && over_a)
                    over_lo <= over_lo_next[15:0];
                over_carry <= mine && over_a && over_lo_next[16];
                over_hi <= over_hi_next[15:0];
                if (over_hi_next[16])
                    over_full <= 1'b1;
                if (mine)
                    count_lo <= count_lo_next[23:0];
                count_carry <= mine && count_lo_next[24];
                count_hi <= count_hi_next[23:0];
                if (count_hi_next[24])
                    count_full <= 1'b1;
                max_h <= halves(lat_a, max_q);
                min_h <= halves(lat_a, min_q);
                lower_c <= vb && bank_b == (g_bank == 1) && less(min_h)
                    && !(prev1_b && greater(vs_b_b)) && !(prev2_b && greater(vs_c_b));
                higher_c <= vb && bank_b == (g_bank == 1) && greater(max_h)
                    && !(prev1_b && less(vs_b_b)) && !(prev2_b && less(vs_c_b));
                if (lower_c)
                    min_q <= lat_c;
                if (higher_c)
                    max_q <= lat_c;
                if (mine)
                    lat_s <= lat_a;
                else
                    lat_s <= {CNT_WIDTH{1'b0}};
                sum_lo <= lo_next[31:0];
                sum_carry <= lo_next[32];
                sum_hi <= hi_next[31:0];
                // sum_hi grows by at most one a cycle (the carry), so it saturates as `dropped`
                // does: from hi_almost, registered from pieces of a cycle before (see there),
                // not from the carry chain's carry-out (a critical path of core+hist).
                hi_ones_top <= &sum_hi[31:16];
                hi_ones_mid <= &sum_hi[15:4];
                hi_almost <= hi_ones_top && hi_ones_mid && &sum_hi[3:1];
                if (hi_almost && sum_hi[0] && sum_carry)  // all ones + 1
                    sum_full <= 1'b1;
                // A snapshot starts: the frozen bank's registers become the next active bank's
                // zeros (a cycle later, from a flip-flop: the frozen bank gets no latency, and
                // after rst or clear va is low, so that cycle changes nothing).
                zero_q <= rst || clear || (zero_idle && snapshot);
                // (act does not change while the state stays or becomes ST_IDLE)
                zero_idle <= !(rst || clear) && (idle_stays || idle_comes)
                             && (g_bank == 1) != act;
                if (zero_q) begin
                    under_lo <= 16'd0;
                    under_hi <= 16'd0;
                    under_carry <= 1'b0;
                    under_full <= 1'b0;
                    over_lo <= 16'd0;
                    over_hi <= 16'd0;
                    over_carry <= 1'b0;
                    over_full <= 1'b0;
                    count_lo <= 24'd0;
                    count_hi <= 24'd0;
                    count_carry <= 1'b0;
                    count_full <= 1'b0;
                    sum_lo <= 32'd0;
                    sum_hi <= 32'd0;
                    sum_carry <= 1'b0;
                    sum_full <= 1'b0;
                    min_q <= {CNT_WIDTH{1'b1}};
                    max_q <= {CNT_WIDTH{1'b0}};
                    lower_c <= 1'b0;
                    higher_c <= 1'b0;
                end
            end
            assign sum_w[64*g_bank +: 64] = sum_full ? {64{1'b1}} : {sum_hi, sum_lo};
            assign count_w[48*g_bank +: 48] = count_full ? {48{1'b1}} : {count_hi, count_lo};
            assign under_w[32*g_bank +: 32] = under_full ? FULL : {under_hi, under_lo};
            assign over_w[32*g_bank +: 32] = over_full ? FULL : {over_hi, over_lo};
            assign min_w[CNT_WIDTH*g_bank +: CNT_WIDTH] = min_q;
            assign max_w[CNT_WIDTH*g_bank +: CNT_WIDTH] = max_q;
        end
    endgenerate

    // dropped: a saturating counter (latmon_counter: its saturation from registered pieces,
    // not from the increment's carry-out, which was core+hist's critical path)
    wire dropped_full;
    wire unused_dropped_full = dropped_full;
    latmon_counter #(.WIDTH(32)) dropped_inst (
        .clk(clk), .clear(rst || clear), .inc(sample_valid && !counting), .value(dropped),
        .full(dropped_full)
    );
    always @(posedge clk) begin
        vsh <= va && !under_a && !over_a;
        bank_sh <= bank_a;
        coarse_sh <= coarse_full[CW-1:0];
        v1 <= vsh;
        bank1 <= bank_sh;
        bin1 <= index_sh[BINS_LOG2-1:0];
        lat_b <= lat_a;
        lat_c <= lat_b;
        vb <= va;
        bank_b <= bank_a;
        vc <= vb;
        bank_c <= bank_b;
        vs_b_b <= halves(lat_a, lat_b);
        vs_c_b <= halves(lat_a, lat_c);
        prev1_b <= vb && bank_b == bank_a;
        prev2_b <= vc && bank_c == bank_a;
        if (rst || clear) begin
            vsh <= 1'b0;
            v1 <= 1'b0;
            vb <= 1'b0;
            vc <= 1'b0;
        end
    end

    // ---- s1: RAM read; s2: its output register; s3: the bin's bank; s4: + count; s5: the
    // ---- count, registered into each bank's write port; s6: write -------------------------
    //
    // A latency counts itself and the latencies of its bin whose writes its read did not see:
    // its RAM read (at the end of s1) sees every write made before that edge, so the ones it
    // misses are those of the four latencies in s2..s5 then. Its new count is
    //
    //     read + 1 + (latencies of the same bank and bin in s2..s5 when it was in s1),
    //
    // saturated; each write is the whole count up to that latency, so the last write of a bin
    // is its total. s6 writes at the edge that ends s1: when s6's latency has the same bank and
    // bin, what the RAM reads then is undefined, so the value s6 writes is carried beside the
    // read (fwd2, fwd3) and taken instead of it in s4 — a copy of the word, selected in the same
    // LUT as the bank, not a 32-bit increment after a selection. The matches are compared in
    // s1, their sum (1..5) in s2.
    //
    // Each RAM's write port (enable, address, data) is a register of its own, set in s5 from
    // the count or the clear: nothing but a route between a flip-flop and the block RAM. The
    // count's saturation (full5: all ones) fanned out to every data bit of both ports, then
    // the clear's multiplexer, then the route into the RAM was the everything-on build's
    // critical path on ECP5.

    localparam DEPTH = 5;  // the stages after s1: s2..s6

    reg [DEPTH:1]       v_p = {DEPTH{1'b0}};       // v_p[n]: a latency in s<n+1>
    reg                 bank_p [1:DEPTH];
    reg [BINS_LOG2-1:0] bin_p [1:DEPTH];
    reg [DEPTH-1:0]     same2 = {DEPTH{1'b0}};     // s2: the matches found in s1 (s2..s6)
    reg [BIN_WIDTH-1:0] fwd2 = {BIN_WIDTH{1'b0}};   // s2: the word s6 wrote at the end of s1
    reg [BIN_WIDTH-1:0] fwd3 = {BIN_WIDTH{1'b0}};   // s3: ... and whether it is this bin's
    reg                 coll3 = 1'b0;
    reg [2:0]           add3 = 3'd1;               // s3: 1 + the matches
    reg [2:0]           add4 = 3'd1;
    reg [BIN_WIDTH-1:0] q0 = {BIN_WIDTH{1'b0}};     // each bank's read register (in the RAM)
    reg [BIN_WIDTH-1:0] q1 = {BIN_WIDTH{1'b0}};
    reg [BIN_WIDTH-1:0] q0_out = {BIN_WIDTH{1'b0}}; // ... and its output register: nothing
    reg [BIN_WIDTH-1:0] q1_out = {BIN_WIDTH{1'b0}}; // between, so the RAM's own one can take it
    reg [BIN_WIDTH-1:0] read4 = {BIN_WIDTH{1'b0}};  // s4: the bin's bank's word
    reg [BIN_WIDTH-1:0] new5 = {BIN_WIDTH{1'b0}};   // s5: the count to write
    reg                 full5 = 1'b0;              // ... it saturated
    reg                 we0_q = 1'b0;              // s6: each bank's write port
    reg                 we1_q = 1'b0;
    reg [BINS_LOG2-1:0] waddr0_q = {BINS_LOG2{1'b0}};
    reg [BINS_LOG2-1:0] waddr1_q = {BINS_LOG2{1'b0}};
    reg [BIN_WIDTH-1:0] wdata0_q = {BIN_WIDTH{1'b0}};
    reg [BIN_WIDTH-1:0] wdata1_q = {BIN_WIDTH{1'b0}};
    integer             k_pipe;
    integer             k_sat;

    initial begin
        for (k_pipe = 1; k_pipe <= DEPTH; k_pipe = k_pipe + 1) begin
            bank_p[k_pipe] = 1'b0;
            bin_p[k_pipe] = {BINS_LOG2{1'b0}};
        end
    end

    // Each bank's read port: the counting pipeline when it reads that bank, else the bus. The
    // frozen bank's latch changes only on a bus read (the pipeline reads the active bank), so
    // a bus read's word stays until the next one.
    wire                 count0 = v1 && bank1 == 1'b0;
    wire                 count1 = v1 && bank1 == 1'b1;
    wire [BINS_LOG2-1:0] raddr0 = count0 ? bin1 : rd_addr;
    wire [BINS_LOG2-1:0] raddr1 = count1 ? bin1 : rd_addr;

    // read4 + add4 as a carry-select adder: the low half + add4 and the high half + 1 side by
    // side, the low half's carry-out selects (no carry chain across all BIN_WIDTH bits).
    localparam LOB = BIN_WIDTH / 2 < 3 ? 3 : BIN_WIDTH / 2;  // add4 (<= 4) fits the low half
    localparam HIB = BIN_WIDTH - LOB;
    wire [LOB:0]         lo_sum4 = {1'b0, read4[LOB-1:0]} + {{(LOB-2){1'b0}}, add4};
    wire [HIB:0]         hi_inc4 = {1'b0, read4[BIN_WIDTH-1:LOB]} + {{HIB{1'b0}}, 1'b1};
    wire                 full4 = lo_sum4[LOB] && hi_inc4[HIB];
    wire [BIN_WIDTH-1:0] sum4 = lo_sum4[LOB] ? {hi_inc4[HIB-1:0], lo_sum4[LOB-1:0]}
                                             : {read4[BIN_WIDTH-1:LOB], lo_sum4[LOB-1:0]};

    // Each bank's write port, set in s5 from the counting pipeline or the clearing, writes
    // in s6. No clear meets a count in one bank: a clear of both banks empties the pipeline,
    // a snapshot clears the frozen bank, which gets no latency. So in s6 both ports hold the
    // count unless that bank clears, and s6's bank's port holds what s6 writes.
    wire clearing = state == ST_CLEAR_ALL || state == ST_CLEAR_FROZEN;
    wire v5 = v_p[DEPTH-1];  // s5
    wire bank5 = bank_p[DEPTH-1];
    wire [BIN_WIDTH-1:0] count5 = new5 | {BIN_WIDTH{full5}};
    always @(posedge clk) begin
        we0_q <= (v5 && bank5 == 1'b0) || clear0;
        we1_q <= (v5 && bank5 == 1'b1) || clear1;
        waddr0_q <= clear0 ? clear_addr : bin_p[DEPTH-1];
        waddr1_q <= clear1 ? clear_addr : bin_p[DEPTH-1];
        wdata0_q <= clear0 ? {BIN_WIDTH{1'b0}} : count5;
        wdata1_q <= clear1 ? {BIN_WIDTH{1'b0}} : count5;
    end

    always @(posedge clk) begin
        if (we0_q)
            mem0[waddr0_q] <= wdata0_q;
        if (count0 || rd_en)
            q0 <= mem0[raddr0];
        q0_out <= q0;
    end

    always @(posedge clk) begin
        if (we1_q)
            mem1[waddr1_q] <= wdata1_q;
        if (count1 || rd_en)
            q1 <= mem1[raddr1];
        q1_out <= q1;
    end

    always @(posedge clk) begin
        v_p[1] <= v1;
        bank_p[1] <= bank1;
        bin_p[1] <= bin1;
        for (k_pipe = 2; k_pipe <= DEPTH; k_pipe = k_pipe + 1) begin
            v_p[k_pipe] <= v_p[k_pipe-1];
            bank_p[k_pipe] <= bank_p[k_pipe-1];
            bin_p[k_pipe] <= bin_p[k_pipe-1];
        end
        // s1 (v1, bank1, bin1) against the latencies in s2..s6: the writes its read misses.
        for (k_pipe = 1; k_pipe <= DEPTH; k_pipe = k_pipe + 1)
            same2[k_pipe-1] <= v_p[k_pipe] && bank_p[k_pipe] == bank1 && bin_p[k_pipe] == bin1;
        add3 <= 3'd1 + {2'd0, same2[0]} + {2'd0, same2[1]} + {2'd0, same2[2]}
            + {2'd0, same2[3]};
        add4 <= add3;
        fwd2 <= bank_p[DEPTH] ? wdata1_q : wdata0_q;  // what s6 writes at this edge
        fwd3 <= fwd2;
        coll3 <= same2[DEPTH-1];
        read4 <= coll3 ? fwd3 : bank_p[2] ? q1_out : q0_out;  // s3's bank, or s6's write
        new5 <= sum4;  // wrapped past all ones: full5 makes the write all ones
        full5 <= full4;
        if (v5 && full5)
            sat_r[bank5] <= 1'b1;
        // A bank's flag is zeroed as its side registers are, a cycle after the clear or the
        // snapshot's start, from a flip-flop: the state decode, the snapshot strobe and the
        // clear in front of its reset were a critical path of core+hist. No latency of that
        // bank is in s5 then (the pipeline is emptied by rst and clear; the frozen bank gets
        // none), and the flag is read only while busy is low.
        for (k_sat = 0; k_sat < 2; k_sat = k_sat + 1) begin
            sat_zero[k_sat] <= rst || clear || (zero_frozen_regs && k_sat[0] != act);
            if (sat_zero[k_sat])
                sat_r[k_sat] <= 1'b0;
        end
        if (rst || clear)
            v_p <= {DEPTH{1'b0}};
    end

    // ---- the frozen bank, to the bus --------------------------------------------------------

    wire frozen = !act;
    assign rd_data = frozen ? q1_out : q0_out;  // zero-extended to 32 bits
    // The frozen bank's side registers, registered after the bank selection (and the "full"
    // selections): the bus read mux starts from flip-flops. They lag a cycle, inside BUSY.
    reg [31:0]          underflow_q = 32'd0;
    reg [31:0]          overflow_q = 32'd0;
    reg [47:0]          count_q = 48'd0;
    reg [63:0]          sum_q = 64'd0;
    reg [CNT_WIDTH-1:0] min_out = {CNT_WIDTH{1'b1}};
    reg [CNT_WIDTH-1:0] max_out = {CNT_WIDTH{1'b0}};
    always @(posedge clk) begin
        underflow_q <= under_w[32*frozen +: 32];
        overflow_q <= over_w[32*frozen +: 32];
        count_q <= count_w[48*frozen +: 48];
        sum_q <= sum_w[64*frozen +: 64];
        min_out <= min_w[CNT_WIDTH*frozen +: CNT_WIDTH];
        max_out <= max_w[CNT_WIDTH*frozen +: CNT_WIDTH];
    end
    assign underflow = underflow_q;
    assign overflow = overflow_q;
    assign count = count_q;
    assign sum = sum_q;
    assign min = min_out;
    assign max = max_out;
    assign saturated = sat_r[frozen];

    wire unused_clearing = clearing;

endmodule

`default_nettype wire
