// latmon_trace: the trace RAM — every measured latency, in order, read over the bus.
//
// A simple dual-port RAM (DEPTH x WIDTH, inferred as block RAM): the measurement writes, the
// bus reads (one cycle read latency; the read latch holds its word until the next rd_en).
// Sample number k (k counted from 0 since the last clear) goes to word k mod DEPTH; `count` is
// k+1 after it, modulo 2^32.
//   ring = 0 (stop when full): after DEPTH samples the RAM keeps the first DEPTH; later samples
//            are counted in `lost`.
//   ring = 1: the RAM keeps the last DEPTH samples.
// A latency that does not fit WIDTH bits is stored as all ones (saturated).
`timescale 1ns / 1ps
`default_nettype none

module latmon_trace #(
    // Samples the RAM holds (a power of two, 2..65536).
    parameter DEPTH = 512,
    // Bits per sample (1..32, so that one bus read returns one whole sample).
    parameter WIDTH = 32,
    // Width of the incoming latencies.
    parameter CNT_WIDTH = 32,
    // Width of the lost-sample counter.
    parameter COUNTER_WIDTH = 32
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     clear,
    input  wire                     ring,

    input  wire                     sample_valid,
    input  wire [CNT_WIDTH-1:0]     sample_latency,

    input  wire                     rd_en,    // read rd_addr into rd_data (else rd_data holds)
    input  wire [$clog2(DEPTH)-1:0] rd_addr,
    input  wire                     rd_sel,   // with rd_en: 0 reads 0 (the read latch's reset)
    output reg  [WIDTH-1:0]         rd_data = {WIDTH{1'b0}},

    output reg  [31:0]              count = 32'd0,
    output wire [COUNTER_WIDTH-1:0] lost,
    output reg                      filled = 1'b0,   // DEPTH samples have been written
    output reg                      wrapped = 1'b0,  // ring mode: a sample was overwritten
    output wire                     fill_pulse       // the RAM just filled: `filled` rose
);

    localparam AW = $clog2(DEPTH);

    initial begin
        if (DEPTH < 2 || DEPTH > 65536 || (1 << AW) != DEPTH)
            $fatal(1, "latmon_trace: DEPTH must be a power of two, 2..65536, not %0d", DEPTH);
        if (WIDTH < 1 || WIDTH > 32)
            $fatal(1, "latmon_trace: WIDTH must be 1..32, not %0d", WIDTH);
    end

    reg [WIDTH-1:0] mem [0:DEPTH-1];

    integer i;
    initial begin
        for (i = 0; i < DEPTH; i = i + 1)
            mem[i] = {WIDTH{1'b0}};
    end

    // Clip to WIDTH bits: a latency of 2^WIDTH-1 or more is stored as all ones.
    wire [WIDTH-1:0] value;
    generate
        if (CNT_WIDTH > WIDTH) begin : g_clip
            assign value = |sample_latency[CNT_WIDTH-1:WIDTH] ? {WIDTH{1'b1}}
                                                              : sample_latency[WIDTH-1:0];
        end else begin : g_fit
            assign value = {{(WIDTH-CNT_WIDTH){1'b0}}, sample_latency};
        end
    endgenerate

    wire reset = rst || clear;
    wire write = sample_valid && (ring || !filled);
    // The sample goes to the RAM's last word (count is all ones in its low AW bits), from two
    // flip-flops: almost_reg, registered from the count of the cycle before ("its bits AW-1..1
    // were all ones"), and bit 0 now — the count grows by at most one a cycle, so no wide AND is
    // in front of the fill flags.
    reg almost_reg = 1'b0;
    wire last_word = almost_reg && count[0];
    generate
        if (AW > 1) begin : g_almost
            always @(posedge clk)
                almost_reg <= !reset && &count[AW-1:1];
        end else begin : g_almost_one
            always @(posedge clk)
                almost_reg <= !reset;
        end
    endgenerate

    // Registered: high in the cycle `filled` rises (one cycle after the sample that filled the
    // RAM), so no path runs from the sample through the fill test into the IRQ status.
    reg fill_pulse_reg = 1'b0;
    assign fill_pulse = fill_pulse_reg;

    always @(posedge clk) begin
        if (write)
            mem[count[AW-1:0]] <= value;
        if (rd_en)
            rd_data <= rd_sel ? mem[rd_addr] : {WIDTH{1'b0}};
    end

    // The flags from sample_valid, not from `write` (equal here: a sample fills the RAM only
    // while it is not yet full, and overwrites only in ring mode), so that the fill test is
    // not in series with the ring-or-not-full test.
    always @(posedge clk) begin
        fill_pulse_reg <= !reset && sample_valid && last_word && !filled;
        if (write)
            count <= count + 32'd1;
        if (sample_valid && last_word)
            filled <= 1'b1;
        if (sample_valid && ring && filled)
            wrapped <= 1'b1;
        if (reset) begin
            count <= 32'd0;
            filled <= 1'b0;
            wrapped <= 1'b0;
        end
    end

`ifdef FORMAL
    // (hw/formal: last_word, from almost_reg and bit 0, is "the count's low AW bits are all
    // ones" in every state)
    always @* begin
        if (&count[AW-1:0])
            assert(almost_reg);
        if (almost_reg)  // bits AW-1..1 all ones, or the count just left the last word
            assert(&(count[AW-1:0] | 1'b1) || count[AW-1:0] == 0);
    end
`endif

    // LOST stops at all ones (the IP's saturated flag does not include it).
    wire lost_full;
    wire unused_lost_full = lost_full;
    latmon_counter #(.WIDTH(COUNTER_WIDTH)) lost_inst (
        .clk(clk), .clear(reset), .inc(sample_valid && !write), .value(lost), .full(lost_full)
    );

endmodule

`default_nettype wire
