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
// latency is exact; sample_valid comes two cycles after the end event.
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

    initial begin
        if (ENTRIES < 2 || ENTRIES > 64)
            $fatal(1, "latmon_stamp: ENTRIES must be 2..64, not %0d", ENTRIES);
        if (ID_WIDTH < 8 || ID_WIDTH > 16)
            $fatal(1, "latmon_stamp: ID_WIDTH must be 8..16, not %0d", ID_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon_stamp: CNT_WIDTH must be 2..32, not %0d", CNT_WIDTH);
    end

    wire reset = rst || clear;

    // ---- registered inputs -------------------------------------------------------------------

    reg                s_valid = 1'b0;
    reg [ID_WIDTH-1:0] s_id = {ID_WIDTH{1'b0}};
    reg                e_valid = 1'b0;
    reg [ID_WIDTH-1:0] e_id = {ID_WIDTH{1'b0}};

    always @(posedge clk) begin
        s_valid <= start_valid && enable;
        s_id <= start_id;
        e_valid <= end_valid && enable;
        e_id <= end_id;
        timebase <= timebase + 64'd1;
        if (rst) begin
            s_valid <= 1'b0;
            e_valid <= 1'b0;
            timebase <= 64'd0;
        end
    end

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

    // Match the end, and look for the start's ID, in every entry at once.
    reg [ENTRIES-1:0] end_hit;
    reg [ENTRIES-1:0] start_hit;
    always @* begin
        for (n = 0; n < ENTRIES; n = n + 1) begin
            end_hit[n] = used[n] && ids[n] == e_id;
            start_hit[n] = used[n] && ids[n] == s_id;
        end
    end

    // The matched entry (IDs are unique in the table, so at most one hits) and the lowest free.
    reg [EW-1:0] hit_index;
    reg [EW-1:0] free_index;
    reg          any_free;
    always @* begin
        hit_index = {EW{1'b0}};
        free_index = {EW{1'b0}};
        any_free = 1'b0;
        for (n = ENTRIES - 1; n >= 0; n = n - 1) begin
            if (end_hit[n])
                hit_index = n[EW-1:0];
            if (!used[n]) begin
                free_index = n[EW-1:0];
                any_free = 1'b1;
            end
        end
    end

    wire match = e_valid && |end_hit;
    wire no_match = e_valid && !(|end_hit);
    wire duplicate = s_valid && |start_hit;
    wire store = s_valid && !duplicate && any_free;
    wire refused = s_valid && !duplicate && !any_free;

    // The timeout scan: one entry per cycle.
    reg  [EW-1:0] scan = {EW{1'b0}};
    wire [63:0]   age = timebase - times[scan];
    wire          expire = timeout != 32'd0 && used[scan] && age >= {32'd0, timeout} &&
                           !(match && hit_index == scan);

    // The latency of the match, registered once more before it goes out.
    wire [63:0] elapsed = timebase - times[hit_index];
    wire        too_long = (elapsed >> CNT_WIDTH) != 64'd0;

    reg [ENTRIES-1:0] freed;
    always @* begin
        freed = {ENTRIES{1'b0}};
        if (match)
            freed[hit_index] = 1'b1;
        if (expire)
            freed[scan] = 1'b1;
    end

    always @(posedge clk) begin
        used <= (used & ~freed) | (store ? ({{(ENTRIES-1){1'b0}}, 1'b1} << free_index)
                                         : {ENTRIES{1'b0}});
        if (store) begin
            ids[free_index] <= s_id;
            times[free_index] <= timebase;
        end
        scan <= scan == LAST_ENTRY ? {EW{1'b0}} : scan + 1'b1;
        sample_valid <= match;
        sample_latency <= too_long ? {CNT_WIDTH{1'b1}} : elapsed[CNT_WIDTH-1:0];
        outstanding <= outstanding + (store ? 7'd1 : 7'd0) - (match ? 7'd1 : 7'd0)
                       - (expire ? 7'd1 : 7'd0);
        if (reset) begin
            used <= {ENTRIES{1'b0}};
            scan <= {EW{1'b0}};
            sample_valid <= 1'b0;
            outstanding <= 7'd0;
        end
    end

    // 2^32 - 1 events of a kind: the counter stops there (it never wraps).
    wire matched_full, unmatched_full, timeouts_full, full_full, duplicates_full;
    wire unused_full = ^{matched_full, unmatched_full, timeouts_full, full_full, duplicates_full};
    latmon_counter #(.WIDTH(32)) matched_inst (
        .clk(clk), .clear(reset), .inc(match), .value(matched), .full(matched_full)
    );
    latmon_counter #(.WIDTH(32)) unmatched_inst (
        .clk(clk), .clear(reset), .inc(no_match), .value(unmatched), .full(unmatched_full)
    );
    latmon_counter #(.WIDTH(32)) timeouts_inst (
        .clk(clk), .clear(reset), .inc(expire), .value(timeouts), .full(timeouts_full)
    );
    latmon_counter #(.WIDTH(32)) full_inst (
        .clk(clk), .clear(reset), .inc(refused), .value(full), .full(full_full)
    );
    latmon_counter #(.WIDTH(32)) duplicates_inst (
        .clk(clk), .clear(reset), .inc(duplicate), .value(duplicates), .full(duplicates_full)
    );

endmodule

`default_nettype wire
