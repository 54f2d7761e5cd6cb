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
// Events enter registered (one cycle), so start and end times are both one cycle late and the
// latency is exact.
//
// Pipelined for speed, without changing those rules: the IDs are compared with every entry in
// the cycle the events enter (a cycle ahead; an entry written in that cycle is compared with the
// written ID instead); a start writes its ID and time into every free entry (the lowest becomes
// used if the start is stored), so the write enables need no free-entry search; the timeout
// scan reads the time of the entry it will look at four cycles ahead (in two steps: within each
// group of four entries, then the group), compares it with "now - timeout" in two 32-bit halves
// and combines them a cycle later (an entry written in between is judged by its own age, one to
// four cycles, looked up a cycle ahead); the latency of a match is selected, subtracted and
// saturated in three further cycles: sample_valid comes five cycles after the end event.
// The event counters and `outstanding` count an event one cycle after the cycle that decides it.
`timescale 1ns / 1ps
`default_nettype none

module latmon_stamp #(
    // Width of the latencies (2..32).
    parameter CNT_WIDTH = 32,
    // Width of the IDs (8..16).
    parameter ID_WIDTH = 16,
    // Outstanding starts the table holds (2..64).
    parameter ENTRIES = 16
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
    localparam integer  AHEAD_INDEX = 4 % ENTRIES;
    localparam integer  GROUPS = (ENTRIES + 3) / 4;
    localparam GW = GROUPS > 1 ? $clog2(GROUPS) : 1;
    localparam [EW-1:0] AHEAD_ENTRY = AHEAD_INDEX[EW-1:0];  // scan_ahead after reset

    initial begin
        if (ENTRIES < 2 || ENTRIES > 64)
            $fatal(1, "latmon_stamp: ENTRIES must be 2..64, not %0d", ENTRIES);
        if (ID_WIDTH < 8 || ID_WIDTH > 16)
            $fatal(1, "latmon_stamp: ID_WIDTH must be 8..16, not %0d", ID_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon_stamp: CNT_WIDTH must be 2..32, not %0d", CNT_WIDTH);
    end

    wire reset = rst || clear;

    // ---- the table -------------------------------------------------------------------------

    reg [ENTRIES-1:0]  used = {ENTRIES{1'b0}};
    reg [ID_WIDTH-1:0] ids [0:ENTRIES-1];
    reg [63:0]         times [0:ENTRIES-1];

    integer n;
    initial begin
        for (n = 0; n < ENTRIES; n = n + 1) begin
            ids[n] = {ID_WIDTH{1'b0}};
            times[n] = 64'd0;
        end
    end

    // ---- registered inputs, their IDs compared with every entry in the same cycle ----------

    reg                s_valid = 1'b0;
    reg [ID_WIDTH-1:0] s_id = {ID_WIDTH{1'b0}};
    reg                e_valid = 1'b0;
    reg [ENTRIES-1:0]  s_same = {ENTRIES{1'b0}};  // ids[n] == s_id (before this cycle's write)
    reg [ENTRIES-1:0]  e_same = {ENTRIES{1'b0}};  // ids[n] == the end's ID (before the write)
    reg                s_is_last = 1'b0;          // s_id == the ID the start before wrote
    reg                e_is_last = 1'b0;          // the end's ID == the ID the start before wrote
    reg [ENTRIES-1:0]  wrote = {ENTRIES{1'b0}};   // the entries written at the last edge
    reg [ENTRIES-1:0]  wrote2 = {ENTRIES{1'b0}};  // the entries written at the edge before
    reg [ENTRIES-1:0]  wrote3 = {ENTRIES{1'b0}};  // ... three edges ago

    // A start writes its ID and time into every free entry whether or not it is stored (a free
    // entry's contents do not matter; the lowest of them becomes used when the start is stored):
    // the write enables need neither a match result nor the free-entry search.
    wire [ENTRIES-1:0] free_lowest;
    wire               any_free = !(&used);
    genvar g;
    generate
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_free
            if (g == 0) begin : g_first
                assign free_lowest[g] = !used[g];
            end else begin : g_next
                assign free_lowest[g] = !used[g] && &used[g-1:0];
            end
        end
    endgenerate
    wire [ENTRIES-1:0] write = s_valid ? ~used : {ENTRIES{1'b0}};
    wire [ENTRIES-1:0] write_lowest = s_valid ? free_lowest : {ENTRIES{1'b0}};

    always @(posedge clk) begin
        s_valid <= start_valid && enable;
        s_id <= start_id;
        e_valid <= end_valid && enable;
        for (n = 0; n < ENTRIES; n = n + 1) begin
            s_same[n] <= ids[n] == start_id;
            e_same[n] <= ids[n] == end_id;
        end
        s_is_last <= start_id == s_id;
        e_is_last <= end_id == s_id;
        wrote <= write;
        wrote2 <= wrote;
        wrote3 <= wrote2;
        timebase <= timebase + 64'd1;
        for (n = 0; n < ENTRIES; n = n + 1) begin
            if (write[n]) begin
                ids[n] <= s_id;
                times[n] <= timebase;
            end
        end
        if (rst) begin
            s_valid <= 1'b0;
            e_valid <= 1'b0;
            timebase <= 64'd0;
        end
    end

    // Match the end, and look for the start's ID, in every entry: the IDs compared last cycle,
    // or for the entry written at the last edge, with the ID written.
    wire [ENTRIES-1:0] end_hit;
    wire [ENTRIES-1:0] start_hit;
    generate
        for (g = 0; g < ENTRIES; g = g + 1) begin : g_hit
            assign end_hit[g] = e_valid && used[g] && (wrote[g] ? e_is_last : e_same[g]);
            assign start_hit[g] = used[g] && (wrote[g] ? s_is_last : s_same[g]);
        end
    endgenerate

    wire match = |end_hit;
    wire no_match = e_valid && !match;
    wire duplicate = s_valid && |start_hit;
    wire store = s_valid && !duplicate && any_free;
    wire refused = s_valid && !duplicate && !any_free;

    // ---- the timeout scan: one entry per cycle, judged ahead ---------------------------------
    // scan: the entry looked at now (scan_hot, one-hot); scan_ahead: the one in four cycles,
    // whose time is read now in two steps: in each group of four entries the one at
    // scan_ahead's low two bits, then the group's. lim: now + 2 - timeout, the latest start time that is due two
    // cycles later (negative: none). The 64-bit "start time <= lim" is split into two 32-bit
    // halves compared in one cycle and combined in the next.

    reg  [EW-1:0]      scan = {EW{1'b0}};
    reg  [ENTRIES-1:0] scan_hot = {{(ENTRIES-1){1'b0}}, 1'b1};
    reg  [EW-1:0]      scan_ahead = AHEAD_ENTRY;
    // scan_hot of the next cycle unless reset (after a reset no entry is used: no matter).
    wire [ENTRIES-1:0] scan_hot_next = {scan_hot[ENTRIES-2:0], scan_hot[ENTRIES-1]};
    reg  [63:0]        timebase_3 = 64'd3;       // timebase + 3
    reg  [64:0]        lim = 65'd0;
    reg  [63:0]        ahead_time = 64'd0;       // times[scan] of two cycles later, read last cycle
    reg  [63:0]        cand [0:GROUPS-1];        // per group: the entry at scan_ahead's low bits
    reg  [GW-1:0]      cand_group = {GW{1'b0}};  // the group of the entry read into cand
    reg                hi_lt = 1'b0;             // ahead_time[63:32] <  lim[63:32], last cycle
    reg                hi_eq = 1'b0;             // ahead_time[63:32] == lim[63:32]
    reg                lo_le = 1'b0;             // ahead_time[31:0]  <= lim[31:0]
    reg                lim_neg = 1'b0;           // lim < 0: no start time is due
    reg                aged = 1'b0;              // the entry scanned now is due (unless written)
    reg                timeout_on = 1'b0;
    reg                timeout_le_1 = 1'b0;      // 1 <= timeout <= 1: an entry written 1 edge ago
    reg                timeout_le_2 = 1'b0;      // ... <= 2, two edges ago
    reg                timeout_le_3 = 1'b0;      // ... <= 3, three edges ago
    reg                timeout_le_4 = 1'b0;      // ... <= 4, four edges ago
    reg                scan_w1 = 1'b0;           // the entry scanned now was written 1 edge ago
    reg                scan_w2 = 1'b0;           // ... two edges ago
    reg                scan_w3 = 1'b0;           // ... three edges ago
    reg                scan_w4 = 1'b0;           // ... four edges ago

    // The entry of group `grp` at the low two bits of `i` (entry 0 where the group is short).
    function integer entry_in_group;
        input integer grp;
        input [EW-1:0] i;
        integer k;
        begin
            k = grp * 4 + {{(32 - EW){1'b0}}, i} % 4;
            entry_in_group = k < ENTRIES ? k : 0;
        end
    endfunction

    // The group of scan_ahead (its bits above the low two; GW = EW - 2 when ENTRIES > 4).
    wire [GW-1:0] ahead_group;
    generate
        if (ENTRIES > 4) begin : g_groups
            assign ahead_group = scan_ahead[EW-1:2];
        end else begin : g_one_group
            assign ahead_group = 1'b0;
        end
    endgenerate

    function [EW-1:0] next_entry;
        input [EW-1:0] i;
        begin
            next_entry = i == LAST_ENTRY ? {EW{1'b0}} : i + 1'b1;
        end
    endfunction

    always @(posedge clk) begin : scan_step
        integer c;
        timeout_on <= timeout != 32'd0;
        timeout_le_1 <= timeout != 32'd0 && timeout <= 32'd1;
        timeout_le_2 <= timeout != 32'd0 && timeout <= 32'd2;
        timeout_le_3 <= timeout != 32'd0 && timeout <= 32'd3;
        timeout_le_4 <= timeout != 32'd0 && timeout <= 32'd4;
        scan_w1 <= |(write & scan_hot_next);
        scan_w2 <= |(wrote & scan_hot_next);
        scan_w3 <= |(wrote2 & scan_hot_next);
        scan_w4 <= |(wrote3 & scan_hot_next);
        timebase_3 <= timebase_3 + 64'd1;
        lim <= {1'b0, timebase_3} - {33'd0, timeout};
        cand_group <= ahead_group;
        for (c = 0; c < GROUPS; c = c + 1)
            cand[c] <= times[entry_in_group(c, scan_ahead)];
        ahead_time <= cand[cand_group];
        hi_lt <= ahead_time[63:32] < lim[63:32];
        hi_eq <= ahead_time[63:32] == lim[63:32];
        lo_le <= ahead_time[31:0] <= lim[31:0];
        lim_neg <= lim[64];
        aged <= timeout_on && !lim_neg && (hi_lt || (hi_eq && lo_le));
        scan <= next_entry(scan);
        scan_ahead <= next_entry(scan_ahead);
        scan_hot <= scan_hot_next;
        if (rst)
            timebase_3 <= 64'd3;
        if (reset) begin
            scan <= {EW{1'b0}};
            scan_ahead <= AHEAD_ENTRY;
            scan_hot <= {{(ENTRIES-1){1'b0}}, 1'b1};
        end
    end

    // An entry written one to four edges ago was judged by a time read before the write: it is
    // judged by its own age (whether it was written so is looked up a cycle ahead).
    wire due = scan_w1 ? timeout_le_1 : scan_w2 ? timeout_le_2 : scan_w3 ? timeout_le_3 :
               scan_w4 ? timeout_le_4 : timeout_on && aged;
    wire [ENTRIES-1:0] expire_hot = due ? scan_hot & used & ~end_hit : {ENTRIES{1'b0}};
    wire expire = |expire_hot;

    always @(posedge clk) begin
        // free_lowest is nonzero only when an entry is free: the duplicate decides last.
        used <= (used & ~end_hit & ~expire_hot) | (duplicate ? {ENTRIES{1'b0}} : write_lowest);
        if (reset)
            used <= {ENTRIES{1'b0}};
    end

    // ---- the latency of a match: select, subtract, saturate ----------------------------------
    // The matched entry is freed at the edge after the match, so it is rewritten two edges after
    // it at the earliest: its time is still there in the cycle after the match.

    reg [ENTRIES-1:0] m_hit = {ENTRIES{1'b0}};
    reg               m_valid = 1'b0;
    reg [63:0]        m_now = 64'd0;
    reg               t_valid = 1'b0;
    reg [63:0]        t_now = 64'd0;
    reg [63:0]        t_start = 64'd0;
    reg               d_valid = 1'b0;
    reg [63:0]        d_elapsed = 64'd0;

    reg [63:0] hit_time;
    always @* begin : select_hit_time
        integer i;
        hit_time = 64'd0;
        for (i = 0; i < ENTRIES; i = i + 1)
            hit_time = hit_time | (m_hit[i] ? times[i] : 64'd0);
    end

    always @(posedge clk) begin
        m_valid <= match;
        m_hit <= end_hit;
        m_now <= timebase;
        t_valid <= m_valid;
        t_now <= m_now;
        t_start <= hit_time;
        d_valid <= t_valid;
        d_elapsed <= t_now - t_start;
        sample_valid <= d_valid;
        sample_latency <= (d_elapsed >> CNT_WIDTH) != 64'd0 ? {CNT_WIDTH{1'b1}}
                                                            : d_elapsed[CNT_WIDTH-1:0];
        if (reset) begin
            m_valid <= 1'b0;
            t_valid <= 1'b0;
            d_valid <= 1'b0;
            sample_valid <= 1'b0;
        end
    end

    // ---- the accounts, a cycle later -----------------------------------------------------------

    reg c_match = 1'b0, c_no_match = 1'b0, c_expire = 1'b0, c_refused = 1'b0, c_duplicate = 1'b0;
    reg c_store = 1'b0;
    always @(posedge clk) begin
        c_match <= match;
        c_no_match <= no_match;
        c_expire <= expire;
        c_refused <= refused;
        c_duplicate <= duplicate;
        c_store <= store;
        outstanding <= outstanding + (c_store ? 7'd1 : 7'd0) - (c_match ? 7'd1 : 7'd0)
                       - (c_expire ? 7'd1 : 7'd0);
        if (reset) begin
            {c_match, c_no_match, c_expire, c_refused, c_duplicate, c_store} <= 6'd0;
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
