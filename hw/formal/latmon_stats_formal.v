// Formal harness of the statistics and the trace (hw/formal/latmon_stats.sby): latmon_stats and
// latmon_trace, fed the same samples as in the IP, against a reference model written here from
// their specification (the headers of latmon_stats.v and latmon_trace.v, docs/hw/latmon.md),
// for every sequence of samples, pulses, THRESHOLD values, ring/stop mode, alarm
// acknowledgements, clears and resets. The properties:
//   - LAST is the last sample (one cycle later; 0 after clear); MIN and MAX the least and the
//     greatest sample since clear, COUNT their number and SUM their sum (two cycles later, one
//     with PIPE_COMPARE = 0; COUNT and SUM saturate, `saturated` says so): consistent with the
//     samples;
//   - VIOLATIONS counts the samples above a THRESHOLD that is not 0, the alarm rises with one
//     and falls with an acknowledgement; TIMEOUTS, OVERRUNS and IGNORED count their pulses;
//   - no sample is lost without a TRACE_LOST count: every sample is either written to the trace
//     (TRACE_COUNT grows) or counted in TRACE_LOST, never both, never neither; in stop mode
//     samples are written until the trace holds TRACE_DEPTH; FULL and WRAPPED as specified.
// Small widths (latencies 4 bits, counters 3, sum 5, trace 4 deep x 3 bits) so that every
// saturation is reached.
`timescale 1ns / 1ps
`default_nettype none

module latmon_stats_formal #(
    parameter CNT_WIDTH = 4,
    parameter COUNTER_WIDTH = 3,
    parameter SUM_WIDTH = 5,
    parameter DEPTH = 4,
    parameter WIDTH = 3,
    // the statistics' timing structure (latmon_stats): 1 pipelined, 0 direct
    parameter PIPE_COMPARE = 1
) (
    input wire                 clk,
    input wire                 rst,
    input wire                 clear,
    input wire                 ring,
    input wire [CNT_WIDTH-1:0] threshold,
    input wire                 alarm_clear,
    input wire                 sample_valid,
    input wire [CNT_WIDTH-1:0] sample_latency,
    input wire                 timeout_pulse,
    input wire                 overrun_pulse,
    input wire                 ignored_pulse,
    input wire                 rd_en,
    input wire [$clog2(DEPTH)-1:0] rd_addr
);

    localparam AW = $clog2(DEPTH);
    localparam [COUNTER_WIDTH-1:0] C_ONES = {COUNTER_WIDTH{1'b1}};
    localparam [SUM_WIDTH-1:0] S_ONES = {SUM_WIDTH{1'b1}};

    wire [CNT_WIDTH-1:0] last, min, max;
    wire [SUM_WIDTH-1:0] sum;
    wire [COUNTER_WIDTH-1:0] count, violations, timeouts, overruns, ignored, lost;
    wire alarm, violation_pulse, saturated;
    wire [WIDTH-1:0] rd_data;
    wire [31:0] trace_count;
    wire filled, wrapped, fill_pulse;

    latmon_stats #(
        .CNT_WIDTH(CNT_WIDTH), .COUNTER_WIDTH(COUNTER_WIDTH), .SUM_WIDTH(SUM_WIDTH),
        .PIPE_COMPARE(PIPE_COMPARE)
    ) stats (
        .clk(clk), .rst(rst), .clear(clear), .threshold(threshold), .alarm_clear(alarm_clear),
        .sample_valid(sample_valid), .sample_latency(sample_latency),
        .timeout_pulse(timeout_pulse), .overrun_pulse(overrun_pulse),
        .ignored_pulse(ignored_pulse),
        .last(last), .min(min), .max(max), .sum(sum), .count(count), .violations(violations),
        .timeouts(timeouts), .overruns(overruns), .ignored(ignored), .alarm(alarm),
        .violation_pulse(violation_pulse), .saturated(saturated)
    );

    latmon_trace #(
        .DEPTH(DEPTH), .WIDTH(WIDTH), .CNT_WIDTH(CNT_WIDTH), .COUNTER_WIDTH(COUNTER_WIDTH)
    ) trace (
        .clk(clk), .rst(rst), .clear(clear), .ring(ring),
        .sample_valid(sample_valid), .sample_latency(sample_latency),
        .rd_en(rd_en), .rd_addr(rd_addr), .rd_sel(1'b1), .rd_data(rd_data),
        .count(trace_count), .lost(lost), .filled(filled), .wrapped(wrapped),
        .fill_pulse(fill_pulse)
    );

    reg past_valid = 1'b0;
    always @(posedge clk) past_valid <= 1'b1;
    always @* if (!past_valid) assume(rst);

    wire reset = rst || clear;

    // ---- the model -----------------------------------------------------------------------------
    // a sample taken in this cycle, as the statistics see it one cycle later
    reg                 s1_valid = 1'b0;
    reg [CNT_WIDTH-1:0] s1_latency = {CNT_WIDTH{1'b0}};
    reg                 s1_violation = 1'b0;
    // the statistics since clear
    reg [CNT_WIDTH-1:0] m_last = {CNT_WIDTH{1'b0}};
    reg [CNT_WIDTH-1:0] m_min = {CNT_WIDTH{1'b1}};  // all ones until a sample: no sample yet
    reg [CNT_WIDTH-1:0] m_max = {CNT_WIDTH{1'b0}};
    reg [COUNTER_WIDTH-1:0] m_count = 0, m_violations = 0, m_timeouts = 0, m_overruns = 0;
    reg [COUNTER_WIDTH-1:0] m_ignored = 0, m_lost = 0;
    reg [SUM_WIDTH:0]   m_sum = 0;  // saturates at 2^SUM_WIDTH: beyond SUM's all ones
    reg                 m_alarm = 1'b0;
    // the trace
    reg [31:0]          m_written = 32'd0;  // TRACE_COUNT
    reg                 m_filled = 1'b0, m_wrapped = 1'b0;

    function [COUNTER_WIDTH-1:0] inc_sat(input [COUNTER_WIDTH-1:0] v, input do_inc);
        inc_sat = do_inc && v != C_ONES ? v + 1'b1 : v;
    endfunction

    wire m_take = sample_valid && !reset;            // a sample of this cycle counts
    // the sample as the statistics apply it: a cycle later (PIPE_COMPARE = 1), or now
    wire                 t_valid = PIPE_COMPARE != 0 ? s1_valid : m_take;
    wire [CNT_WIDTH-1:0] t_latency = PIPE_COMPARE != 0 ? s1_latency : sample_latency;
    wire                 t_violation = PIPE_COMPARE != 0 ? s1_violation
                                       : threshold != 0 && sample_latency > threshold;
    wire m_write = sample_valid && (ring || !m_filled);

    always @(posedge clk) begin
        s1_valid <= m_take;
        s1_latency <= sample_latency;
        s1_violation <= threshold != 0 && sample_latency > threshold;
        if (sample_valid)
            m_last <= sample_latency;
        if (t_valid) begin
            if (t_latency < m_min) m_min <= t_latency;
            if (t_latency > m_max) m_max <= t_latency;
            m_count <= inc_sat(m_count, 1'b1);
            if (m_sum[SUM_WIDTH] == 1'b0)
                m_sum <= m_sum + t_latency > {1'b0, S_ONES} ? {1'b1, {SUM_WIDTH{1'b0}}}
                                                             : m_sum + t_latency;
        end
        m_violations <= inc_sat(m_violations, t_valid && t_violation);
        m_timeouts <= inc_sat(m_timeouts, timeout_pulse);
        m_overruns <= inc_sat(m_overruns, overrun_pulse);
        m_ignored <= inc_sat(m_ignored, ignored_pulse);
        if (t_valid && t_violation)
            m_alarm <= 1'b1;
        else if (alarm_clear)
            m_alarm <= 1'b0;
        // the trace: a sample is written while there is room (always in ring mode), else lost
        if (m_write)
            m_written <= m_written + 32'd1;
        m_lost <= inc_sat(m_lost, sample_valid && !m_write);
        if (m_write && m_written[AW-1:0] == {AW{1'b1}})
            m_filled <= 1'b1;
        if (sample_valid && ring && m_filled)
            m_wrapped <= 1'b1;
        if (reset) begin
            m_last <= {CNT_WIDTH{1'b0}};
            m_min <= {CNT_WIDTH{1'b1}};
            m_max <= {CNT_WIDTH{1'b0}};
            m_count <= 0;
            m_violations <= 0;
            m_timeouts <= 0;
            m_overruns <= 0;
            m_ignored <= 0;
            m_lost <= 0;
            m_sum <= 0;
            m_alarm <= 1'b0;
            m_written <= 32'd0;
            m_filled <= 1'b0;
            m_wrapped <= 1'b0;
        end
    end

    // ---- the properties ------------------------------------------------------------------------
    always @* begin
        if (past_valid) begin
            assert(last == m_last);
            assert(min == m_min);
            assert(max == m_max);
            assert(count == m_count);
            assert(sum == (m_sum[SUM_WIDTH] ? S_ONES : m_sum[SUM_WIDTH-1:0]));
            assert(saturated == (m_sum[SUM_WIDTH] || m_count == C_ONES || m_violations == C_ONES
                                 || m_overruns == C_ONES || m_ignored == C_ONES
                                 || m_timeouts == C_ONES));
            assert(violation_pulse == (t_valid && t_violation));
            assert(violations == m_violations);
            assert(timeouts == m_timeouts);
            assert(overruns == m_overruns);
            assert(ignored == m_ignored);
            assert(alarm == m_alarm);
            assert(trace_count == m_written);
            assert(lost == m_lost);
            assert(filled == m_filled);
            assert(wrapped == m_wrapped);
            // the model's own invariants: the trace fills at TRACE_DEPTH, and in stop mode
            // (from a clear on) holds at most that; min <= max once a sample is counted
            if (m_written >= DEPTH)
                assert(m_filled);
            if (m_count != 0)
                assert(m_min <= m_max);
        end
    end

endmodule

`default_nettype wire
