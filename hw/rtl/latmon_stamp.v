// latmon_stamp: timestamp mode — start and end events matched by an ID, not by their order.
//
// A 64-bit timebase counts clock cycles. A start event (start_valid, with the ID the tapped
// interface gives it: a sequence number, a transaction ID) takes a free entry of a table of
// ENTRIES outstanding starts: its ID and the time. An end event (end_valid, with the ID it
// answers) looks the ID up in all entries at once; on a match the latency, end time - start
// time in cycles (saturated to CNT_WIDTH bits), goes out on sample_valid/sample_latency — into
// the statistics, trace and histogram like a measurement of the edge mode — and the entry is
// freed. Every event is accounted for:
//
//   starts = matched + timeouts + full + duplicates + outstanding
//   ends   = matched + unmatched
//
//   full       a start found no free entry (the table was full)          -> not stored
//   duplicate  a start whose ID is already outstanding                   -> not stored
//   unmatched  an end whose ID is not outstanding (a lost start, a late end after its timeout,
//              an end without request)
//   timeout    an entry older than `timeout` cycles (0: never) is freed; the entries are
//              checked one per cycle in turn, so an expiry is seen up to ENTRIES - 1 cycles
//              after the entry reached the timeout
//
// In one cycle: the end is matched against the table as it was before the cycle (a start in the
// same cycle never answers an end in the same cycle), a start takes the lowest-numbered entry
// free before the cycle, and an entry both matched and due for its timeout counts as matched.
// Events are decided three cycles after they are on the inputs (INPUT_DELAY of the model), start
// and end alike, so the latency is exact.
//
// Pipelined for speed, without changing those rules. Inputs: registered (stage b); each ID compared
// with every entry in pieces of four bits (stage b -> a), the pieces combined into one hit per
// entry (stage a -> s), an entry written since stage b taking instead the comparison with the ID
// written (the IDs compared with each other from the inputs on, a cycle ahead). Table: a start
// writes its ID and time into every free entry (the lowest becomes used if the start is stored), so
// the write enables need no free-entry search; the free search works in groups of four; whether a
// start is a duplicate is reduced a cycle ahead to six flip-flops (per group: a kept entry holds
// the ID; and: the start before was stored with this ID). Start times: the table keeps the low 34
// bits of the timebase and a flag "more than 2^32 cycles old" the scan sets; that is enough for
// every result (latencies saturate at 2^32 - 1, a timeout is below 2^32) in half the flip-flops of
// 64-bit times. Timeout scan: the time of the entry it will look at is read five cycles ahead
// (within each group of four entries, then the group), compared with "now - timeout" (the sign of
// one 34-bit difference) and combined a cycle later into `due`, registered for the cycle the entry
// is looked at; an entry written two to five edges before is judged by its own age instead (looked
// up ahead), one written at the last edge per entry. Timebase: 64 bits counted as two 32-bit
// halves, the high one from a registered wrap of the low one; no 64-bit carry chain in one cycle.
// Match: the entry's time selected in two steps (group, then entry), carried a cycle towards the
// subtraction, subtracted in a 32-bit and a 2-bit part and saturated a cycle later: sample_valid
// comes seven cycles after the decision, ten after the end event was on the inputs. Accounts: the
// outcomes of a decision are registered as they are, reduced to one bit, then counted: the STAMP_*
// counters and `outstanding` show a start's outcome (stored, full, duplicate) and a timeout from
// the third cycle after its decision, an end's (matched, unmatched) from the fourth.
`timescale 1ns / 1ps
`default_nettype none

module latmon_stamp #(
    // Width of the latencies (2..32).
    parameter CNT_WIDTH = 32,
    // Width of the IDs (8..16).
    parameter ID_WIDTH = 16,
    // Outstanding starts the table holds (2..64).
    parameter ENTRIES = 16,
    // Width of the start times the table keeps (CNT_WIDTH + 2 and 12..34). 34 in use; smaller only
    // in tests, to cross the "older than 2^(TIME_WIDTH-2) cycles" flag and the wrap of the
    // times in simulation, with timeouts below 2^(TIME_WIDTH-2).
    parameter TIME_WIDTH = 34
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 clear,
    input  wire                 enable,
    input  wire [31:0]          timeout,   // cycles; 0 = never

    input  wire                 start_valid,
    input  wire [ID_WIDTH-1:0]  start_id,
    input  wire                 end_valid,
    input  wire [ID_WIDTH-1:0]  end_id,

    output reg  [63:0]          timebase = 64'd0,

    output reg                  sample_valid = 1'b0,
    output reg  [CNT_WIDTH-1:0] sample_latency = {CNT_WIDTH{1'b0}},

    output wire [31:0]          matched,
    output wire [31:0]          unmatched,
    output wire [31:0]          timeouts,
    output wire [31:0]          full,
    output wire [31:0]          duplicates,
    output reg  [6:0]           outstanding = 7'd0
);

    localparam EW = ENTRIES > 1 ? $clog2(ENTRIES) : 1;
    localparam integer  LAST_INDEX = ENTRIES - 1;
    localparam [EW-1:0] LAST_ENTRY = LAST_INDEX[EW-1:0];
    localparam integer  AHEAD_INDEX = 5 % ENTRIES;
    localparam integer  GROUPS = (ENTRIES + 3) / 4;
    localparam GW = GROUPS > 1 ? $clog2(GROUPS) : 1;
    localparam [EW-1:0] AHEAD_ENTRY = AHEAD_INDEX[EW-1:0];  // scan_ahead at power-up

    initial begin
        if (ENTRIES < 2 || ENTRIES > 64)
            $fatal(1, "latmon_stamp: ENTRIES must be 2..64, not %0d", ENTRIES);
        if (ID_WIDTH < 8 || ID_WIDTH > 16)
            $fatal(1, "latmon_stamp: ID_WIDTH must be 8..16, not %0d", ID_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon_stamp: CNT_WIDTH must be 2..32, not %0d", CNT_WIDTH);
        if (TIME_WIDTH < CNT_WIDTH + 2 || TIME_WIDTH < 12 || TIME_WIDTH > 34)
            $fatal(1, "latmon_stamp: TIME_WIDTH must be CNT_WIDTH + 2 (and 12)..34, not %0d",
                   TIME_WIDTH);
    end

    wire reset = rst || clear;

    // Per group of four entries (the last one may be shorter): any bit of `v` in the group.
    function [GROUPS-1:0] any_in_groups;
        input [ENTRIES-1:0] v;
        integer i;
        begin
            any_in_groups = {GROUPS{1'b0}};
            for (i = 0; i < ENTRIES; i = i + 1)
                any_in_groups[i / 4] = any_in_groups[i / 4] | v[i];
        end
    endfunction

    // ---- the table -------------------------------------------------------------------------

    // An entry's start time: the low TW bits of the timebase, and a flag "more than 2^LOW
    // cycles old" the scan sets (bit TW), cleared when the entry is written. An entry without
    // the flag is younger than 2^(TW-1) cycles (see the scan), so its age is exact as a TW-bit
    // difference; with it, its latency saturates and it is due for any timeout (a timeout is
    // below 2^32 = 2^LOW): every result is as with the full 64-bit times, in half the
    // flip-flops. The times are kept in PW-bit pieces (the scan reads them piece by piece);
    // the bits above the flag are zero.
    localparam TW = TIME_WIDTH;
    localparam LOW = TIME_WIDTH - 2;              // below the flag's age, 2^LOW
    localparam PW = 12;                           // bits of a piece
    localparam NP = (TW + 1 + PW - 1) / PW;       // pieces of a time
    localparam TSW = NP * PW;                     // a time with its flag, in whole pieces

    reg [ENTRIES-1:0]  used = {ENTRIES{1'b0}};
    reg [ID_WIDTH-1:0] ids [0:ENTRIES-1];
    reg [TSW-1:0]      times [0:ENTRIES-1];
    wire [ENTRIES-1:0] set_old;  // the scan sets the entry's flag (see the scan)

    integer n;
    initial begin
        for (n = 0; n < ENTRIES; n = n + 1) begin
            ids[n] = {ID_WIDTH{1'b0}};
            times[n] = {TSW{1'b0}};
        end
    end

    // ---- the inputs: three stages; IDs compared with every entry on the way ----------------
    // Stage b: the events as they were on the inputs a cycle before; each ID compared with every
    // entry in pieces of four bits (h_start, h_end). Stage a: the pieces combined into per-entry
    // hits. Stage s (the decision): s_valid/e_valid and e_hit_id, "the entry holds this end's ID"
    // in the decision cycle (for a start, the same is reduced further: see dup_kept below). The
    // pieces compare the table as it is in stage b; in stage a, an entry written since — at the
    // edge after stage b (wrote) or at the edge after stage a (write) — takes instead the
    // comparison with the ID written there: the start decided in stage b's cycle (*_is_prev) or
    // in stage a's (*_is_last), both compared in stage b.

    localparam NQ = (ID_WIDTH + 3) / 4;  // an ID is compared in NQ pieces of four bits

    // An ID widened to NQ pieces of four bits (the bits above ID_WIDTH zero).
    function [4*NQ-1:0] pieces;
        input [ID_WIDTH-1:0] id;
        begin
            pieces = {(4*NQ){1'b0}};
            pieces[ID_WIDTH-1:0] = id;
        end
    endfunction

    reg                b_start = 1'b0;
    reg [ID_WIDTH-1:0] b_start_id = {ID_WIDTH{1'b0}};
    reg                b_end = 1'b0;
    reg [ID_WIDTH-1:0] b_end_id = {ID_WIDTH{1'b0}};
    reg                a_start = 1'b0;
    reg [ID_WIDTH-1:0] a_start_id = {ID_WIDTH{1'b0}};
    reg                a_end = 1'b0;
    // bit NQ*g + q: piece q of entry g's ID == piece q of stage a's end ID (and for piece 0:
    // stage a has the end)
    reg [ENTRIES*NQ-1:0] h_end = {(ENTRIES*NQ){1'b0}};
    // A start's hits, for the duplicate search alone (see dup_kept): bit NQ*g + q, for an entry
    // not written at the edge after stage b, as h_end's for the start (piece 0: and stage a has
    // the start, and the entry is not the one scanned in stage a's cycle); for an entry written
    // there, piece 0 is "the start is the one decided last, and the entry is not due at once"
    // (a_start_is_prev and not scan_new_due), the others 1. h_start_scan[g]: piece 0 of the
    // start's comparison, the start in stage a, entry g not written and scanned then.
    reg [ENTRIES*NQ-1:0] h_start = {(ENTRIES*NQ){1'b0}};
    reg [ENTRIES-1:0]    h_start_scan = {ENTRIES{1'b0}};
    reg                a_start_is_last = 1'b0;        // a start, its ID == stage s's start ID
    reg                a_end_is_last = 1'b0;          // an end, its ID == stage s's start ID
    reg                a_end_is_prev = 1'b0;          // an end, its ID == the start decided last
    reg                s_valid = 1'b0;
    reg [ID_WIDTH-1:0] s_id = {ID_WIDTH{1'b0}};
    reg                e_valid = 1'b0;
    reg [ENTRIES-1:0]  e_hit_id = {ENTRIES{1'b0}};  // an end in the decision, entry g's ID
    reg                timebase_lo_max = 1'b0;       // timebase[31:0] is all ones
    reg [ENTRIES-1:0]  wrote = {ENTRIES{1'b0}};     // the entries written at the last edge
    reg [ENTRIES-1:0]  wrote2 = {ENTRIES{1'b0}};    // the entries written at the edge before
    // The timebase's low TW bits again, counted by themselves, for the table's writes and the
    // match (`now`), so that the table's load does not pull the timebase's flip-flops away from
    // their carry chain: the timebase drives its outputs alone.
    reg [TW-1:0]       now = {TW{1'b0}};
    // `now` counts as two halves too, the high one from a registered wrap of the low one, so
    // that no TW-bit carry chain starts at a flip-flop the table's writes pull away.
    localparam NOW_LO = TW / 2;
    reg                now_lo_max = 1'b0;            // now[NOW_LO-1:0] is all ones

    // A start writes its ID and time into every free entry whether or not it is stored (a free
    // entry's contents do not matter; the lowest of them becomes used when the start is stored):
    // the write enables need neither a match result nor the free-entry search.
    // The lowest free entry, in groups of four: free within its group below it, and every
    // group below full.
    wire [ENTRIES-1:0] free_in_group;  // free, and every entry below it in its group used
    wire [ENTRIES-1:0] below_full;     // every group below the entry's group is full
    // (kept as nets of their own: the synthesis then builds "all used" from them, in two levels,
    // not through the free search's chain; and from a copy of `used` of their own, kept
    // inverted (free_copy) so that the synthesis cannot merge it with `used`: built from `used`,
    // they shared the search's "entries below are used" terms, as a chain of three LUT2s, and
    // the path through them and the start decision was five LUT levels deep)
    (* keep *) wire [GROUPS-1:0] group_full;
    reg [ENTRIES-1:0] free_copy = {ENTRIES{1'b1}};
    genvar g;
    generate
        for (g = 0; g < GROUPS; g = g + 1) begin : g_group_full
            if (4 * g + 4 <= ENTRIES) begin : g_whole
                assign group_full[g] = ~|free_copy[4*g +: 4];
            end else begin : g_short
                assign group_full[g] = ~|free_copy[ENTRIES-1:4*g];
            end
        end
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_free
            wire below_in_group;  // every entry of g's group below g is used
            // every group below g's is full (kept: one LUT after group_full, not a chain)
            (* keep *) wire groups_below;
            if (g % 4 == 0) begin : g_first_in_group
                assign below_in_group = 1'b1;
            end else begin : g_next_in_group
                assign below_in_group = &used[g-1:g-g%4];
            end
            if (g < 4) begin : g_first_group
                assign groups_below = 1'b1;
            end else begin : g_next_group
                assign groups_below = &group_full[g/4-1:0];
            end
            assign free_in_group[g] = !used[g] && below_in_group;
            assign below_full[g] = groups_below;
        end
    endgenerate
    wire [ENTRIES-1:0] write = s_valid ? ~used : {ENTRIES{1'b0}};

    // piece by piece: the table now against stage b's IDs; the hits of stage a as a whole
    wire [4*NQ-1:0]      b_start_pieces = pieces(b_start_id);
    wire [4*NQ-1:0]      b_end_pieces = pieces(b_end_id);
    wire [ENTRIES*NQ-1:0] start_piece_eq;
    wire [ENTRIES*NQ-1:0] end_piece_eq;
    generate
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_pieces
            wire [4*NQ-1:0] id_pieces = pieces(ids[g]);
            genvar gq;
            for (gq = 0; gq < NQ; gq = gq + 1) begin : g_piece
                assign start_piece_eq[NQ*g+gq] = id_pieces[4*gq +: 4] == b_start_pieces[4*gq +: 4];
                assign end_piece_eq[NQ*g+gq] = id_pieces[4*gq +: 4] == b_end_pieces[4*gq +: 4];
            end
        end
    endgenerate

    // Stage b's IDs against stage a's and stage s's start IDs, in the 4-bit pieces of the table
    // compare, registered a cycle ahead: the IDs move through the stages unconditionally, so
    // "b's ID == a's start ID" is "the input ID == b's start ID" of the cycle before (and
    // "== s's" is "== a's"), so that no flag is more than two LUT4 levels deep. For an end,
    // piece 0 also holds the event's valid, so that its two flags are one LUT of four
    // flip-flops; a start's valid (it can be the stimulus's pulse, far away) stays out of them.
    wire [4*NQ-1:0] in_start_pieces = pieces(start_id);
    wire [4*NQ-1:0] in_end_pieces = pieces(end_id);
    wire            in_start = start_valid && enable;
    wire            in_end = end_valid && enable;
    reg [NQ-1:0] start_last_eq = {NQ{1'b0}};  // piece q of b's start ID == of a's start ID
    reg [NQ-1:0] end_last_eq = {NQ{1'b0}};    // (an end's piece 0: and b has the end)
    reg [NQ-1:0] start_prev_eq = {NQ{1'b0}};  // ... == of s's start ID
    reg [NQ-1:0] end_prev_eq = {NQ{1'b0}};
    wire [4*NQ-1:0] a_start_pieces = pieces(a_start_id);
    always @(posedge clk) begin : id_to_id
        integer q;
        for (q = 0; q < NQ; q = q + 1) begin
            start_last_eq[q] <= in_start_pieces[4*q +: 4] == b_start_pieces[4*q +: 4];
            end_last_eq[q] <= in_end_pieces[4*q +: 4] == b_start_pieces[4*q +: 4];
            start_prev_eq[q] <= in_start_pieces[4*q +: 4] == a_start_pieces[4*q +: 4];
            end_prev_eq[q] <= in_end_pieces[4*q +: 4] == a_start_pieces[4*q +: 4];
        end
        end_last_eq[0] <= in_end && in_end_pieces[3:0] == b_start_pieces[3:0];
        end_prev_eq[0] <= in_end && in_end_pieces[3:0] == a_start_pieces[3:0];
        if (rst) begin
            end_last_eq[0] <= 1'b0;
            end_prev_eq[0] <= 1'b0;
        end
    end

    always @(posedge clk) begin
        b_start <= in_start;
        b_start_id <= start_id;
        b_end <= in_end;
        b_end_id <= end_id;
        h_end <= end_piece_eq;
        for (n = 0; n < ENTRIES; n = n + 1)  // piece 0 with the valid: e_hit_id reads one less
            h_end[NQ*n] <= b_end && end_piece_eq[NQ*n];
        a_start <= b_start;
        a_start_id <= b_start_id;
        a_end <= b_end;
        a_start_is_last <= b_start && &start_last_eq;
        a_end_is_last <= &end_last_eq;
        a_end_is_prev <= &end_prev_eq;
        s_valid <= a_start;
        s_id <= a_start_id;
        e_valid <= a_end;
        for (n = 0; n < ENTRIES; n = n + 1) begin
            e_hit_id[n] <= write[n] ? a_end_is_last : wrote[n] ? a_end_is_prev
                                                             : &h_end[NQ*n +: NQ];
        end
        wrote <= write;
        wrote2 <= wrote;
        // the high half counts when the low half wraps: known a cycle ahead (timebase_lo_max)
        timebase[31:0] <= timebase[31:0] + 32'd1;
        timebase[63:32] <= timebase[63:32] + {31'd0, timebase_lo_max};
        timebase_lo_max <= timebase[31:0] == 32'hffff_fffe;
        now[NOW_LO-1:0] <= now[NOW_LO-1:0] + 1'b1;
        now[TW-1:NOW_LO] <= now[TW-1:NOW_LO] + {{(TW - NOW_LO - 1){1'b0}}, now_lo_max};
        now_lo_max <= &now[NOW_LO-1:1] && !now[0];
        for (n = 0; n < ENTRIES; n = n + 1) begin
            if (write[n]) begin
                ids[n] <= s_id;
                times[n] <= {{(TSW - TW){1'b0}}, now};
            end else if (set_old[n]) begin
                times[n][TW] <= 1'b1;
            end
        end
        if (rst) begin
            b_start <= 1'b0;
            b_end <= 1'b0;
            for (n = 0; n < ENTRIES; n = n + 1)
                h_end[NQ*n] <= 1'b0;
            a_start <= 1'b0;
            a_end <= 1'b0;
            s_valid <= 1'b0;
            e_valid <= 1'b0;
            e_hit_id <= {ENTRIES{1'b0}};
            timebase <= 64'd0;
            timebase_lo_max <= 1'b0;
            now <= {TW{1'b0}};
            now_lo_max <= 1'b0;
        end
    end

    // ---- the timeout scan: one entry per cycle, judged ahead ---------------------------------
    // scan: the entry looked at now (scan_hot, one-hot). due: it is at least `timeout` cycles
    // old unless it was written at the last edge (then it is one cycle old: timeout_le_1),
    // registered from the cycle before. It is judged from its time read five cycles ahead
    // (scan_ahead), in two steps: in each group of four entries the one at scan_ahead's low two
    // bits, then the group's; that time is compared with lim = "now - timeout" of the cycle
    // judged (aged, a cycle later): due when lim - time, a TW-bit difference, is not negative,
    // or the entry's flag is set. An entry written two to five edges before the cycle judged
    // was read before the write: it is judged by its own age, 2 to 5 cycles (scan_w2..5, looked
    // up two cycles ahead: for 2, from the write of that cycle). The same read sets the flag
    // (more than 2^LOW cycles old, judged from the high bits: see lim_old) in the cycle the
    // entry is looked at, unless the entry was written in the five edges before (young then).

    reg  [EW-1:0]      scan = {EW{1'b0}};
    reg  [ENTRIES-1:0] scan_hot = {{(ENTRIES-1){1'b0}}, 1'b1};
    reg  [EW-1:0]      scan_ahead = AHEAD_ENTRY;
    // scan_hot of the next cycle, and of the cycle after.
    wire [ENTRIES-1:0] scan_hot_next = {scan_hot[ENTRIES-2:0], scan_hot[ENTRIES-1]};
    wire [ENTRIES-1:0] scan_hot_next2 = {scan_hot_next[ENTRIES-2:0], scan_hot_next[ENTRIES-1]};
    localparam [TW-1:0] FIVE = 5;
    localparam HB = LOW / 2;                     // the flag is judged from time bits TW-1:HB
    localparam [TW-1:HB] OLD_AFTER = (1 << (LOW - HB)) + 1;
    localparam [LOW-1:0] LOW_ONES_1 = {{(LOW - 1){1'b1}}, 1'b0};  // 2^LOW - 2
    reg  [TW-1:0]      timebase_5 = FIVE;        // the timebase's low TW bits + 5
    reg                timebase_5_lo_max = 1'b0; // timebase_5[LOW-1:0] is all ones
    reg  [LOW-1:0]     lim_lo = {LOW{1'b0}};     // low LOW bits of lim, a cycle ahead
    reg                lim_borrow = 1'b0;        // ... and its borrow
    reg  [1:0]         lim_hi_from = 2'd0;       // timebase_5[TW-1:LOW] of that cycle
    reg  [LOW-1:HB]    now_mid = {(LOW-HB){1'b0}}; // timebase_5[LOW-1:HB] of that cycle
    reg  [TW-1:0]      lim = {TW{1'b0}};         // now - timeout of the cycle judged 3 later
    // now[TW-1:HB] - (2^(LOW-HB) + 1) of that cycle: a time whose bits TW-1:HB are at most this
    // (as a signed difference) is more than 2^LOW cycles old
    reg  [TW-1:HB]     lim_old = {(TW-HB){1'b0}};
    reg  [TSW-1:0]     ahead_time = {TSW{1'b0}}; // times[scan] of four cycles later
    reg  [TSW-1:0]     cand [0:GROUPS-1];        // per group: the entry at scan_ahead's low bits
    // The selects of those reads, one copy per group and piece of the time (cand_sel,
    // the low bits of scan_ahead), and per piece for the group select after them (cand_group,
    // scan_ahead of the cycle before), so that no single select routes to the multiplexers of
    // every group. Each copy counts by itself, as scan_ahead does, from nothing but
    // itself (no reset: see below), so that it can sit beside the multiplexers it drives; the
    // synthesis cannot merge the copies (their inputs differ), nor is a route to them long.
    localparam SW = ENTRIES % 4 == 0 ? 2 : EW;  // with whole groups, the low two bits count alone
    localparam integer  SEL_LAST_INDEX = ENTRIES % 4 == 0 ? 3 : LAST_INDEX;
    localparam [SW-1:0] SEL_LAST = SEL_LAST_INDEX[SW-1:0];
    localparam [SW-1:0] SEL_AHEAD = AHEAD_ENTRY[SW-1:0];
    reg  [SW-1:0]      cand_sel [0:NP*GROUPS-1]; // copy NP * group + piece
    localparam integer  AHEAD_PREV_INDEX = (AHEAD_INDEX + ENTRIES - 1) % ENTRIES;
    localparam [EW-1:0] AHEAD_PREV = AHEAD_PREV_INDEX[EW-1:0];
    reg  [EW-1:0]      cand_group [0:NP-1];      // per piece (its group bits select)
    // The judgment of the time read: "(now - timeout) - time" in TW bits, and whether its sign
    // (bit TW-1, straight from the carry chain) is set; and whether the time is old enough for
    // the flag. The flag needs no precision: an entry without it must only stay younger than
    // 2^(TW-1) cycles (for this sign) and 2^TW (for a match's difference), so it is judged
    // from the time's bits TW-1:HB alone and set between 2^LOW and 2^LOW + 2^(HB+1) + ENTRIES
    // cycles of age: one carry chain of TW - HB bits, not two more of the whole width.
    reg                lim_neg = 1'b0;           // (lim - time)[TW-1]: not due by its time
    reg                old_neg = 1'b0;           // (lim_old - time[TW-1:HB]) < 0: not old yet
    reg                time_old = 1'b0;          // the time's flag
    reg                aged = 1'b0;              // the entry scanned next cycle is due by its time
    reg                old = 1'b0;               // ... is old enough for the flag by its time
    // the entry scanned now is due (see above), one copy per group of four entries: copy k
    // only while the entry is in group k, so that each drives its group's entries alone (a
    // single flip-flop fanned out to every entry was the everything-on build's critical path)
    reg  [GROUPS-1:0]  due = {GROUPS{1'b0}};
    reg  [GROUPS-1:0]  due_old = {GROUPS{1'b0}}; // likewise: old enough for the flag
    reg                timeout_le_1 = 1'b0;      // 1 <= timeout <= 1: an entry written 1 edge ago
    reg                timeout_le_2 = 1'b0;      // ... <= 2, two edges ago
    reg                timeout_le_3 = 1'b0;      // ... <= 3
    reg                timeout_le_4 = 1'b0;      // ... <= 4
    reg                timeout_le_5 = 1'b0;      // ... <= 5
    reg                timeout_on = 1'b0;
    reg                timeout_mid_0 = 1'b1;     // timeout[17:3] == 0
    reg                timeout_hi_0 = 1'b1;      // timeout[31:18] == 0
    reg  [2:0]         timeout_lo = 3'd0;        // timeout[2:0]
    reg                scan_w2 = 1'b0;           // the entry scanned next cycle: written 2 edges
    reg                scan_w3 = 1'b0;           // before it, 3 edges, 4, 5
    reg                scan_w4 = 1'b0;
    reg                scan_w5 = 1'b0;

    /* verilator lint_off UNUSEDSIGNAL */  // the signs alone
    wire [TW-1:0]    lim_diff = lim - ahead_time[TW-1:0];
    wire [TW-1:HB]   old_diff = lim_old - ahead_time[TW-1:HB];
    /* verilator lint_on UNUSEDSIGNAL */

    // The entry at position `pos` of group `grp` (entry 0 where the group is short).
    function integer entry_in_group;
        input integer grp;
        input [1:0] pos;
        integer k;
        begin
            k = grp * 4 + {30'd0, pos};
            entry_in_group = k < ENTRIES ? k : 0;
        end
    endfunction

    /* verilator lint_off UNUSEDSIGNAL */  // each function looks at some bits of its k
    // The group of entry i (its bits above the low two; GW = EW - 2 when ENTRIES > 4).
    function [GW-1:0] group_of;
        input [EW-1:0] i;
        reg [31:0] k;
        begin
            k = {{(32 - EW){1'b0}}, i} >> 2;
            group_of = k[GW-1:0];
        end
    endfunction

    // The low two bits of an entry number.
    function [1:0] low_two;
        input [EW-1:0] i;
        reg [31:0] k;
        begin
            k = {{(32 - EW){1'b0}}, i};
            low_two = k[1:0];
        end
    endfunction

    // The low two bits of an entry number, from a cand_sel.
    function [1:0] sel_pos;
        input [SW-1:0] sel;
        reg [31:0] k;
        begin
            k = {{(32 - SW){1'b0}}, sel};
            sel_pos = k[1:0];
        end
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    function [EW-1:0] next_entry;
        input [EW-1:0] i;
        begin
            next_entry = i == LAST_ENTRY ? {EW{1'b0}} : i + 1'b1;
        end
    endfunction

    // "The scanned entry was written k edges before": one bit of a vector picked by the one-hot
    // scan, as ORs of three entries each (nets of their own for k = 2, flip-flops for k = 3..5,
    // so that the synthesis builds no pick as one long chain).
    localparam TRIPLES = (ENTRIES + 2) / 3;
    function [3*TRIPLES-1:0] widen;  // an entry vector widened to whole triples (zeros above)
        input [ENTRIES-1:0] v;
        begin
            widen = {(3*TRIPLES){1'b0}};
            widen[ENTRIES-1:0] = v;
        end
    endfunction
    // The picks for 3 to 5 edges are made a cycle earlier, per triple, into flip-flops (the
    // scan steps in every cycle: the entry two ahead then is three ahead now), and ORed into
    // scan_w3..5 after them; only "two edges" needs this cycle's free entries.
    wire [ENTRIES-1:0] scan_hot_next3 = {scan_hot_next2[ENTRIES-2:0], scan_hot_next2[ENTRIES-1]};
    wire [3*TRIPLES-1:0] hot_next2_w = widen(scan_hot_next2);
    wire [3*TRIPLES-1:0] hot_next3_w = widen(scan_hot_next3);
    wire [3*TRIPLES-1:0] free_w = widen(~used);
    wire [3*TRIPLES-1:0] wrote_w = widen(wrote);
    wire [3*TRIPLES-1:0] wrote2_w = widen(wrote2);
    (* keep *) wire [TRIPLES-1:0] pick_w2;
    reg [TRIPLES-1:0] pick_w3 = {TRIPLES{1'b0}};
    reg [TRIPLES-1:0] pick_w4 = {TRIPLES{1'b0}};
    reg [TRIPLES-1:0] pick_w5 = {TRIPLES{1'b0}};
    generate
        for (g = 0; g < TRIPLES; g = g + 1) begin : g_pick
            // (free, not `write`: s_valid comes in at the flip-flop, not through the write
            // enables' nets, which drive the whole table)
            assign pick_w2[g] = |(free_w[3*g +: 3] & hot_next2_w[3*g +: 3]);
            always @(posedge clk) begin
                pick_w3[g] <= s_valid && |(free_w[3*g +: 3] & hot_next3_w[3*g +: 3]);
                pick_w4[g] <= |(wrote_w[3*g +: 3] & hot_next3_w[3*g +: 3]);
                pick_w5[g] <= |(wrote2_w[3*g +: 3] & hot_next3_w[3*g +: 3]);
            end
        end
    endgenerate

    // the entry scanned next cycle is in group k
    wire [GROUPS-1:0] next_in_group = any_in_groups(scan_hot_next);

    always @(posedge clk) begin : scan_step
        integer c;
        // The timeout's flags in two steps, as lim (no 32-bit compare before a flip-flop):
        // whether bits 17:3 and bits 31:18 are 0 (two LUT levels each, not three for 29 bits),
        // and bits 2:0; then the flags from those.
        timeout_mid_0 <= timeout[17:3] == 15'd0;
        timeout_hi_0 <= timeout[31:18] == 14'd0;
        timeout_lo <= timeout[2:0];
        timeout_on <= !(timeout_mid_0 && timeout_hi_0) || timeout_lo != 3'd0;
        timeout_le_1 <= timeout_mid_0 && timeout_hi_0 && timeout_lo == 3'd1;
        timeout_le_2 <= timeout_mid_0 && timeout_hi_0 && timeout_lo != 3'd0 && timeout_lo <= 3'd2;
        timeout_le_3 <= timeout_mid_0 && timeout_hi_0 && timeout_lo != 3'd0 && timeout_lo <= 3'd3;
        timeout_le_4 <= timeout_mid_0 && timeout_hi_0 && timeout_lo != 3'd0 && timeout_lo <= 3'd4;
        timeout_le_5 <= timeout_mid_0 && timeout_hi_0 && timeout_lo != 3'd0 && timeout_lo <= 3'd5;
        // written k edges before the cycle two ahead: this cycle's write (k = 2); for 3 to 5,
        // the picks registered a cycle before from write, wrote and wrote2
        scan_w2 <= s_valid && |pick_w2;
        scan_w3 <= |pick_w3;
        scan_w4 <= |pick_w4;
        scan_w5 <= |pick_w5;
        // (the timebase's low TW bits + 5, its high two from a registered wrap of the low LOW)
        timebase_5[LOW-1:0] <= timebase_5[LOW-1:0] + 1'b1;
        timebase_5[TW-1:LOW] <= timebase_5[TW-1:LOW] + {1'b0, timebase_5_lo_max};
        timebase_5_lo_max <= timebase_5[LOW-1:0] == LOW_ONES_1;
        // (a timeout is below 2^LOW: 2^32 in use, where these are its 32 bits)
        {lim_borrow, lim_lo} <= {1'b0, timebase_5[LOW-1:0]} - {1'b0, timeout[LOW-1:0]};
        lim_hi_from <= timebase_5[TW-1:LOW];
        now_mid <= timebase_5[LOW-1:HB];
        lim <= {lim_hi_from - {1'b0, lim_borrow}, lim_lo};
        lim_old <= {lim_hi_from, now_mid} - OLD_AFTER;
        for (c = 0; c < NP * GROUPS; c = c + 1) begin
            cand[c / NP][PW * (c % NP) +: PW] <=
                times[entry_in_group(c / NP, sel_pos(cand_sel[c]))][PW * (c % NP) +: PW];
            cand_sel[c] <= cand_sel[c] == SEL_LAST ? {SW{1'b0}} : cand_sel[c] + 1'b1;
        end
        for (c = 0; c < NP; c = c + 1) begin
            cand_group[c] <= next_entry(cand_group[c]);
            ahead_time[PW * c +: PW] <= cand[group_of(cand_group[c])][PW * c +: PW];
        end
        lim_neg <= lim_diff[TW-1];
        old_neg <= old_diff[TW-1];
        time_old <= ahead_time[TW];
        aged <= timeout_on && (time_old || !lim_neg);
        old <= time_old || !old_neg;
        for (c = 0; c < GROUPS; c = c + 1) begin
            due[c] <= next_in_group[c] &&
                      (scan_w2 ? timeout_le_2 : scan_w3 ? timeout_le_3 :
                       scan_w4 ? timeout_le_4 : scan_w5 ? timeout_le_5 : aged);
            due_old[c] <= next_in_group[c] && !(scan_w2 || scan_w3 || scan_w4 || scan_w5) && old;
        end
        scan <= next_entry(scan);
        scan_ahead <= next_entry(scan_ahead);
        scan_hot <= scan_hot_next;
        if (rst) begin
            timebase_5 <= FIVE;
            timebase_5_lo_max <= 1'b0;
        end
        // (the scan's position is not reset: it steps in every cycle, all its copies together
        // from their initial values, and an empty table has nothing to expire; the reset, routed
        // to the copies beside their multiplexers, was a critical path)
    end

    // ---- the decision ------------------------------------------------------------------------
    // Per entry: the end matches it, the scan frees it (due, and not matched), or it stays
    // (kept). The table in the decision is what was kept in the cycle before plus the entry the
    // start before was stored in; so whether a start is a duplicate is known in two parts a cycle
    // ahead: per group of four entries, "a kept entry holds the ID" (dup_kept, from the hits the
    // cycle before computes for stage s), and "the start before was stored and had this ID"
    // (last_same, last_full). The decision then only ORs six flip-flops.

    wire [ENTRIES-1:0] end_hit = used & e_hit_id;
    // The scanned entry is due (if used): written at the last edge, it is one cycle old
    // (scan_new_due); else `due` decides (scan_old). Both per entry, registered a cycle ahead.
    reg  [ENTRIES-1:0] scan_new_due = {ENTRIES{1'b0}};
    reg  [ENTRIES-1:0] scan_old = {ENTRIES{1'b0}};
    always @(posedge clk) begin
        scan_new_due <= scan_hot_next & write & {ENTRIES{timeout_le_1}};
        scan_old <= scan_hot_next & ~write;
        if (reset)
            scan_new_due <= {ENTRIES{1'b0}};
    end
    // the start's hits (see h_start): stage b's comparison, or for an entry written now the
    // start decided now (a_start_is_prev, not due at once: scan_new_due's terms). Without the
    // reset (a_start's, scan_new_due's): after a reset no entry is used, and kept_hit is 0
    // whatever these hold (the clear, from the register block, was a critical path into them).
    always @(posedge clk) begin : start_hits
        integer i;
        for (i = 0; i < ENTRIES; i = i + 1) begin
            if (write[i]) begin
                h_start[NQ*i +: NQ] <= {{(NQ - 1){1'b1}},
                    b_start && &start_prev_eq && !(scan_hot_next[i] && timeout_le_1)};
                h_start_scan[i] <= 1'b0;
            end else begin
                h_start[NQ*i +: NQ] <= start_piece_eq[NQ*i +: NQ];
                h_start[NQ*i] <= b_start && start_piece_eq[NQ*i] && !scan_hot_next[i];
                h_start_scan[i] <= b_start && start_piece_eq[NQ*i] && scan_hot_next[i];
            end
        end
    end
    wire [ENTRIES-1:0] scan_due;
    generate
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_scan_due
            assign scan_due[g] = scan_new_due[g] | (scan_old[g] & due[g / 4]);
        end
    endgenerate
    wire [ENTRIES-1:0] expire_hot = used & ~e_hit_id & scan_due;
    // the scanned entry's flag: set when due_old (not if written at the last edge: scan_old;
    // a write at this edge clears it instead)
    generate
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_set_old
            assign set_old[g] = scan_old[g] & due_old[g / 4];
        end
    endgenerate
    wire [ENTRIES-1:0] kept = used & ~e_hit_id & ~scan_due;

    reg [GROUPS-1:0] dup_kept = {GROUPS{1'b0}};  // a start, and a kept entry of group k has its ID
    // The start decided last cycle was not a duplicate, and this start has its ID (last_same);
    // the table was full then (last_full): together, "stored with this start's ID".
    reg              last_same = 1'b0;
    reg              last_full = 1'b0;
    wire duplicate = |dup_kept || (last_same && !last_full);
    // s_valid && !last_same, registered a cycle ahead from their own next values; with
    // s_valid && last_full, "not stored with this start's ID": a start is stored when that is
    // set and no dup_kept is (no LUT level for the start before in the path into `used`; and
    // the table's fullness a cycle late, from last_full: the start decision's "all used" in
    // this flip-flop's cone was its fifth LUT level).
    reg              s_fresh = 1'b0;
    // dup_kept again, inverted (so that the synthesis cannot merge the two), for `store` alone:
    // one set of flip-flops drove every entry of `used` and the duplicate's own paths
    reg [GROUPS-1:0] dup_kept_n = {GROUPS{1'b1}};
    wire store = (s_fresh || (s_valid && last_full)) && &dup_kept_n;
    // The start is stored in this entry if the groups below are full (below_full): a net of its
    // own, so that "the groups below are full" comes last, in the LUT that writes `used` (the
    // synthesis otherwise put it two LUTs before `used`, five levels deep).
    (* keep *) wire [ENTRIES-1:0] store_in_group;
    assign store_in_group = {ENTRIES{store}} & free_in_group;

    // a kept entry's hit for stage s (kept entries are not written: no `write` term), from the
    // hits h_start and h_start_scan bring with them whether the entry was written at the last
    // edge and whether it is the one scanned and due at once (scan_old, scan_new_due): with
    // 16-bit IDs an entry reads seven flip-flops and its group's `due`, not eleven.
    wire [ENTRIES-1:0] kept_hit;
    generate
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_kept_hit
            assign kept_hit[g] = used[g] && !e_hit_id[g] && &h_start[NQ*g+1 +: NQ-1] &&
                                 (h_start[NQ*g] || (h_start_scan[g] && !due[g / 4]));
        end
    endgenerate
    wire [GROUPS-1:0] kept_hit_group = any_in_groups(kept_hit);

    // synthesis translate_off
    // kept_hit against its form before h_start carried the write and the scan: the table's
    // comparison with stage a's start as it was (h_start_ref), or for an entry written at the
    // last edge the start decided then (is_prev_ref); checked in every simulated cycle.
    reg [ENTRIES*NQ-1:0] h_start_ref = {(ENTRIES*NQ){1'b0}};
    reg                  is_prev_ref = 1'b0;
    always @(posedge clk) begin : check_kept_hit
        integer i;
        reg [ENTRIES-1:0] ref_hit;
        for (i = 0; i < ENTRIES; i = i + 1)
            ref_hit[i] = kept[i] && (wrote[i] ? is_prev_ref
                                              : a_start && &h_start_ref[NQ*i +: NQ]);
        if (kept_hit != ref_hit)
            $fatal(1, "latmon_stamp: kept_hit %h, from the table's comparison %h", kept_hit,
                   ref_hit);
        h_start_ref <= start_piece_eq;
        is_prev_ref <= b_start && &start_prev_eq;
    end
    // synthesis translate_on

    always @(posedge clk) begin
        used <= kept | (store_in_group & below_full);
        free_copy <= ~(kept | (store_in_group & below_full));
        dup_kept <= kept_hit_group;
        dup_kept_n <= ~kept_hit_group;
        last_same <= s_valid && !duplicate && a_start_is_last;
        last_full <= &group_full;
        s_fresh <= a_start && !rst && !(s_valid && !duplicate && a_start_is_last);
        if (reset) begin
            used <= {ENTRIES{1'b0}};
            free_copy <= {ENTRIES{1'b1}};
            dup_kept <= {GROUPS{1'b0}};
            dup_kept_n <= {GROUPS{1'b1}};
            last_same <= 1'b0;
            s_fresh <= a_start && !rst;
        end
    end

    // ---- the latency of a match: select (in two steps), subtract, saturate -------------------
    // The matched entry is freed at the edge after the match, so it is rewritten two edges after
    // it at the earliest: its time is still there in the cycle after the match, when it is read
    // into its group's g_time (within each group of four entries); the group is selected in the
    // next cycle.

    reg [ENTRIES-1:0] m_hit = {ENTRIES{1'b0}};
    // m_hit again, for the upper half of the time (bits MH and up), kept inverted so that the
    // synthesis cannot merge it with m_hit: each copy selects half of an entry's time bits,
    // which are spread over the table (no one select routes across the whole of them)
    localparam MH = (TW + 1) / 2;
    reg [ENTRIES-1:0] m_hit_hi_n = {ENTRIES{1'b1}};
    reg               m_end = 1'b0;   // an end was decided (matched or not)
    reg [TW-1:0]      m_now = {TW{1'b0}};
    reg [TW:0]        g_time [0:GROUPS-1];  // with the flag
    reg [GROUPS-1:0]  g_hit = {GROUPS{1'b0}};
    reg               g_end = 1'b0;   // an end was decided (matched or not)
    reg [TW-1:0]      g_now = {TW{1'b0}};
    reg               t_valid = 1'b0;
    reg [TW-1:0]      t_now = {TW{1'b0}};
    reg [TW:0]        t_start = {(TW+1){1'b0}};
    // t_* again, a cycle later: the selection (at the table) and the subtraction (at the
    // statistics) are far apart in a large build: the route between them gets a cycle of its
    // own, not one shared with a carry chain.
    reg               u_valid = 1'b0;
    reg [TW-1:0]      u_now = {TW{1'b0}};
    reg [TW:0]        u_start = {(TW+1){1'b0}};
    reg               d_valid = 1'b0;
    reg [CNT_WIDTH-1:0] d_elapsed = {CNT_WIDTH{1'b0}};  // low bits of end - start
    reg               d_low_over = 1'b0;   // end - start has a bit set in [LOW-1:CNT_WIDTH]
    reg               d_borrow = 1'b0;     // borrow of the low LOW bits' difference
    reg [1:0]         d_high = 2'd0;       // top two bits' difference, before that borrow
    reg               d_old = 1'b0;        // the start's flag: more than 2^LOW cycles before
    reg               o_valid = 1'b0;
    reg               o_over = 1'b0;    // the latency does not fit in CNT_WIDTH bits
    reg [CNT_WIDTH-1:0] o_latency = {CNT_WIDTH{1'b0}};
    wire              g_valid = |g_hit;  // the end decided two cycles ago was matched

    // synthesis translate_off
    // The copies are scan_ahead (cand_sel, in its low bits) and scan_ahead of the cycle before
    // (cand_group), m_hit_hi_n, free_copy and dup_kept_n the inverses of m_hit, used and
    // dup_kept, and `now` the timebase's low bits: checked in every simulated cycle.
    reg [EW-1:0] scan_ahead_before = AHEAD_PREV;
    always @(posedge clk) begin : check_copies
        integer i;
        for (i = 0; i < NP * GROUPS; i = i + 1)
            if (sel_pos(cand_sel[i]) != low_two(scan_ahead))
                $fatal(1, "latmon_stamp: cand_sel[%0d] %0d, scan_ahead %0d", i, cand_sel[i],
                       scan_ahead);
        if (m_hit_hi_n != ~m_hit)
            $fatal(1, "latmon_stamp: m_hit_hi_n %h is not the inverse of m_hit %h", m_hit_hi_n,
                   m_hit);
        if (free_copy != ~used)
            $fatal(1, "latmon_stamp: free_copy %h is not the inverse of used %h", free_copy, used);
        if (dup_kept_n != ~dup_kept)
            $fatal(1, "latmon_stamp: dup_kept_n %h is not the inverse of dup_kept %h", dup_kept_n,
                   dup_kept);
        if (now != timebase[TW-1:0])
            $fatal(1, "latmon_stamp: now %h is not the timebase's low bits %h", now,
                   timebase[TW-1:0]);
        for (i = 0; i < NP; i = i + 1)
            if (cand_group[i] != scan_ahead_before)
                $fatal(1, "latmon_stamp: cand_group[%0d] %0d, scan_ahead before %0d", i,
                       cand_group[i], scan_ahead_before);
        scan_ahead_before <= scan_ahead;
    end
    // synthesis translate_on

    initial begin : init_cand_sel
        integer i;
        for (i = 0; i < NP * GROUPS; i = i + 1)
            cand_sel[i] = SEL_AHEAD;
        for (i = 0; i < NP; i = i + 1)
            cand_group[i] = AHEAD_PREV;
    end

    initial begin : init_g_time
        integer i;
        for (i = 0; i < GROUPS; i = i + 1)
            g_time[i] = {(TW+1){1'b0}};
    end

    reg [TW:0] group_time [0:GROUPS-1];
    reg [GROUPS-1:0] group_hit;
    always @* begin : select_in_groups
        integer i;
        for (i = 0; i < GROUPS; i = i + 1) begin
            group_time[i] = {(TW+1){1'b0}};
            group_hit[i] = 1'b0;
        end
        for (i = 0; i < ENTRIES; i = i + 1) begin
            group_time[i / 4][MH-1:0] = group_time[i / 4][MH-1:0] |
                                        (m_hit[i] ? times[i][MH-1:0] : {MH{1'b0}});
            group_time[i / 4][TW:MH] = group_time[i / 4][TW:MH] |
                                       (!m_hit_hi_n[i] ? times[i][TW:MH] : {(TW+1-MH){1'b0}});
            group_hit[i / 4] = group_hit[i / 4] | m_hit[i];
        end
    end

    // A group's g_time is zero unless its entry hit (at most one entry holds the ID: a start
    // with an outstanding ID is not stored), so the group's time is the OR of them all, with no
    // select: g_hit, routed to every bit of the selection, was a critical path.
    reg [TW:0] hit_time;
    always @* begin : select_group
        integer i;
        hit_time = {(TW+1){1'b0}};
        for (i = 0; i < GROUPS; i = i + 1)
            hit_time = hit_time | g_time[i];
    end

    // borrow, difference
    wire [LOW:0]   low_diff = {1'b0, u_now[LOW-1:0]} - {1'b0, u_start[LOW-1:0]};
    wire [LOW-1:0] low_elapsed = low_diff[LOW-1:0];

    always @(posedge clk) begin : latency_step
        integer i;
        m_hit <= end_hit;
        m_hit_hi_n <= ~end_hit;
        m_end <= e_valid;
        m_now <= now;
        for (i = 0; i < GROUPS; i = i + 1)
            g_time[i] <= group_time[i];
        g_hit <= group_hit;
        g_end <= m_end;
        g_now <= m_now;
        t_valid <= g_valid;
        t_now <= g_now;
        t_start <= hit_time;
        u_valid <= t_valid;
        u_now <= t_now;
        u_start <= t_start;
        d_valid <= u_valid;
        d_borrow <= low_diff[LOW];
        d_elapsed <= low_elapsed[CNT_WIDTH-1:0];
        d_low_over <= (low_elapsed >> CNT_WIDTH) != {LOW{1'b0}};
        d_high <= u_now[TW-1:LOW] - u_start[TW-1:LOW];
        d_old <= u_start[TW];
        o_valid <= d_valid;
        // end - start >= 2^CNT_WIDTH: the start's flag, a low bit above CNT_WIDTH, or the top
        // two bits (d_high - borrow) not zero
        o_over <= d_old || d_low_over || d_high != {1'b0, d_borrow};
        o_latency <= d_elapsed;
        sample_valid <= o_valid;
        sample_latency <= o_over ? {CNT_WIDTH{1'b1}} : o_latency;
        if (reset) begin
            m_hit <= {ENTRIES{1'b0}};
            m_hit_hi_n <= {ENTRIES{1'b1}};
            m_end <= 1'b0;
            g_hit <= {GROUPS{1'b0}};
            g_end <= 1'b0;
            t_valid <= 1'b0;
            u_valid <= 1'b0;
            d_valid <= 1'b0;
            o_valid <= 1'b0;
            sample_valid <= 1'b0;
        end
    end

    // ---- the accounts, two cycles later ------------------------------------------------------
    // The decision's outcomes are registered as they are (per entry, or a start's "duplicate"
    // and "no entry free"), reduced to one bit each in the next cycle, and counted in the next.

    // expire_hot of the cycle before, per group of four entries (one 16-input OR in front of
    // c_delta's sum was two of its three levels, and a critical path of the core+stamp build)
    reg [GROUPS-1:0] x_group = {GROUPS{1'b0}};

    // stored - matched - expired, in two bits (two's complement)
    function [1:0] delta_of;
        input is_stored, is_matched, is_expired;
        begin
            case ({is_stored, is_matched, is_expired})
                3'b100: delta_of = 2'b01;
                3'b000, 3'b110, 3'b101: delta_of = 2'b00;
                3'b010, 3'b001, 3'b111: delta_of = 2'b11;
                default: delta_of = 2'b10;  // 3'b011
            endcase
        end
    endfunction

    reg m_start = 1'b0, m_duplicate = 1'b0, m_full = 1'b0;
    reg c_match = 1'b0, c_no_match = 1'b0, c_expire = 1'b0, c_refused = 1'b0, c_duplicate = 1'b0;
    // The change of `outstanding` (+1 to -2, two's complement), registered beside it from the
    // outcomes c_match and c_expire are registered from: those drive the counters too, and the
    // route from c_expire through the sum into the count's carry chain was a critical path.
    reg [1:0] c_delta = 2'd0;
    always @(posedge clk) begin
        x_group <= any_in_groups(expire_hot);
        m_start <= s_valid;
        m_duplicate <= duplicate;
        m_full <= &group_full;
        c_match <= g_valid;
        c_no_match <= g_end && !g_valid;
        c_expire <= |x_group;
        c_refused <= m_start && !m_duplicate && m_full;
        c_duplicate <= m_start && m_duplicate;
        c_delta <= delta_of(m_start && !m_duplicate && !m_full, g_valid, |x_group);
        outstanding <= outstanding + {{5{c_delta[1]}}, c_delta};
        if (reset) begin
            x_group <= {GROUPS{1'b0}};
            {m_start, m_duplicate, m_full} <= 3'd0;
            {c_match, c_no_match, c_expire, c_refused, c_duplicate} <= 5'd0;
            c_delta <= 2'd0;
            outstanding <= 7'd0;
        end
    end

    // 2^32 - 1 events of a kind: the counter stops there (it never wraps).
    wire matched_full, unmatched_full, timeouts_full, full_full, duplicates_full;
    wire unused_full = ^{matched_full, unmatched_full, timeouts_full, full_full, duplicates_full};
    latmon_counter #(.WIDTH(32)) matched_inst (
        .clk(clk), .clear(reset), .inc(c_match), .value(matched), .full(matched_full)
    );
    latmon_counter #(.WIDTH(32)) unmatched_inst (
        .clk(clk), .clear(reset), .inc(c_no_match), .value(unmatched), .full(unmatched_full)
    );
    latmon_counter #(.WIDTH(32)) timeouts_inst (
        .clk(clk), .clear(reset), .inc(c_expire), .value(timeouts), .full(timeouts_full)
    );
    latmon_counter #(.WIDTH(32)) full_inst (
        .clk(clk), .clear(reset), .inc(c_refused), .value(full), .full(full_full)
    );
    latmon_counter #(.WIDTH(32)) duplicates_inst (
        .clk(clk), .clear(reset), .inc(c_duplicate), .value(duplicates), .full(duplicates_full)
    );

endmodule

`default_nettype wire
