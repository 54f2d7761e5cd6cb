// Formal harness of latmon_core (hw/formal/latmon_core.sby): the core against a reference model
// written here from its specification (docs/hw/latmon.md, the header of latmon_core.v), for
// every sequence of irq and ack inputs, trigger modes, TIMEOUT values, enable, clear and reset.
//
// The model works on events, as a user counts them: an event of an input is seen in the cycle
// after the input shows it (the trigger's register; SYNC_STAGES = 0 here, the synchronizer's
// stages delay irq and ack alike); an irq event with nothing pending starts a measurement, whose
// `elapsed` is the number of cycles since that start event (j - i for an event in cycle j);
// an ack event while one is pending ends it with latency = elapsed (all ones, flagged
// saturated, beyond 2^CNT_WIDTH - 1); elapsed reaching TIMEOUT (not 0) without an ack ends it
// as a timeout; an irq event while one is pending that no ack or timeout ends in that cycle is an
// overrun, an ack event with nothing pending is ignored (both counted in edge modes only).
// The core reports each decision one cycle later (its output registers), so every output is
// asserted equal to the model's decision of the cycle before, and BUSY and the held latency to
// the model's state — the properties:
//   - latency = j - i for every measurement, saturated as specified;
//   - exactly the samples, timeouts, overruns and ignored acks the model has, in the same
//     cycles: no irq event is lost without an overrun (or a timeout, clear or reset);
//   - BUSY and the held last latency (0 after clear) as the model's.
// TIMEOUT is a constant of the proof (`anyconst`: every value): the core registers it once
// before use, and a new value applies from the second measurement start on; the proof
// assumes reset in the first cycle so that the registered copy is valid.
`timescale 1ns / 1ps
`default_nettype none

module latmon_core_formal #(
    // Width of the counter and latencies in the proof (small, so that saturation and every
    // timeout are reached and the proof closes).
    parameter CNT_WIDTH = 4
) (
    input wire clk,
    input wire rst,
    input wire clear,
    input wire enable,
    input wire irq,
    input wire ack
);

    (* anyconst *) reg [1:0] irq_mode;
    (* anyconst *) reg [1:0] ack_mode;
    (* anyconst *) reg [CNT_WIDTH-1:0] timeout;

    wire busy, sample_valid, sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse;
    wire [CNT_WIDTH-1:0] sample_latency;

    latmon_core #(.CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(0)) dut (
        .clk(clk), .rst(rst), .enable(enable), .clear(clear),
        .irq_mode(irq_mode), .ack_mode(ack_mode), .timeout(timeout),
        .irq(irq), .ack(ack),
        .busy(busy), .sample_valid(sample_valid), .sample_latency(sample_latency),
        .sample_saturated(sample_saturated), .timeout_pulse(timeout_pulse),
        .overrun_pulse(overrun_pulse), .ignored_pulse(ignored_pulse)
    );

    reg past_valid = 1'b0;
    always @(posedge clk) past_valid <= 1'b1;
    always @* if (!past_valid) assume(rst);

    // ---- events, from the inputs: mode 0 rising, 1 falling, 2 level high, 3 level low ----
    function event_of(input [1:0] mode, input now, input before);
        event_of = mode == 2'd0 ? now && !before :
                   mode == 2'd1 ? !now && before :
                   mode == 2'd2 ? now : !now;
    endfunction
    reg irq_before = 1'b0, ack_before = 1'b0;
    reg irq_ev = 1'b0, ack_ev = 1'b0;  // the events seen in this cycle
    always @(posedge clk) begin
        irq_before <= irq;
        ack_before <= ack;
        irq_ev <= event_of(irq_mode, irq, irq_before);
        ack_ev <= event_of(ack_mode, ack, ack_before);
    end
    wire irq_edges = irq_mode == 2'd0 || irq_mode == 2'd1;
    wire ack_edges = ack_mode == 2'd0 || ack_mode == 2'd1;

    // ---- the model ---------------------------------------------------------------------------
    localparam [CNT_WIDTH:0] ALL_ONES = {1'b0, {CNT_WIDTH{1'b1}}};
    localparam [CNT_WIDTH:0] BEYOND = ALL_ONES + 1'b1;  // elapsed stays here once past all ones
    reg             m_busy = 1'b0;
    reg [CNT_WIDTH:0] m_elapsed = {(CNT_WIDTH+1){1'b0}};  // cycles since the start event
    wire            m_hit = timeout != 0 && m_elapsed == {1'b0, timeout};
    wire            m_end = m_busy && (ack_ev || m_hit);
    wire            m_start = enable && irq_ev && (!m_busy || m_end);
    wire [CNT_WIDTH-1:0] m_latency = m_elapsed > ALL_ONES ? ALL_ONES[CNT_WIDTH-1:0]
                                                          : m_elapsed[CNT_WIDTH-1:0];
    // what the core must report in the next cycle
    reg             e_sample = 1'b0;
    reg [CNT_WIDTH-1:0] e_last = {CNT_WIDTH{1'b0}};  // the last latency, 0 after clear
    reg             e_last_saturated = 1'b0;
    reg             e_timeout = 1'b0, e_overrun = 1'b0, e_ignored = 1'b0;

    always @(posedge clk) begin
        if (rst || clear) begin
            m_busy <= 1'b0;
            m_elapsed <= {(CNT_WIDTH+1){1'b0}};
            e_sample <= 1'b0;
            e_last <= {CNT_WIDTH{1'b0}};
            e_last_saturated <= 1'b0;
            e_timeout <= 1'b0;
            e_overrun <= 1'b0;
            e_ignored <= 1'b0;
        end else begin
            if (m_start) begin
                m_busy <= 1'b1;
                m_elapsed <= {{CNT_WIDTH{1'b0}}, 1'b1};
            end else begin
                if (m_end)
                    m_busy <= 1'b0;
                if (m_busy && m_elapsed != BEYOND)
                    m_elapsed <= m_elapsed + 1'b1;
            end
            e_sample <= m_busy && ack_ev;
            if (m_busy && ack_ev) begin
                e_last <= m_latency;
                e_last_saturated <= m_elapsed > ALL_ONES;
            end
            e_timeout <= m_busy && !ack_ev && m_hit;
            e_overrun <= enable && irq_ev && irq_edges && m_busy && !m_end;
            e_ignored <= enable && ack_ev && ack_edges && !m_busy;
        end
    end

    // ---- the core's state, for the induction -------------------------------------------------
    // Wires driven by the core's registers of the same name after flattening (latmon_core.sby's
    // `connect`): the model's state and the core's agree in every reachable state, which the
    // induction cannot know from the outputs alone.
    wire [CNT_WIDTH-1:0] core_count;
    wire                 core_full;
    wire                 core_timeout_run;
    wire [CNT_WIDTH:0]   core_f_timeout;
    wire [CNT_WIDTH:0]   core_timeout_less3;
    wire                 core_timeout_high_zero;
    wire                 core_timeout_bit0;
    always @* begin
        if (past_valid) begin
            assert(core_timeout_less3 == {1'b0, timeout} - 2'd3);
            assert(core_timeout_high_zero == (timeout[CNT_WIDTH-1:1] == 0));
            assert(core_timeout_bit0 == timeout[0]);
        end
        if (m_busy) begin
            assert(core_count == m_latency);
            assert(core_full == (m_elapsed > ALL_ONES));
            assert(core_timeout_run == (timeout != 0));
            if (timeout != 0)
                assert(core_f_timeout == {1'b0, timeout});
            assert(m_elapsed != 0);
            if (timeout != 0)
                assert(m_elapsed <= {1'b0, timeout});
        end
    end

    // ---- the properties ----------------------------------------------------------------------
    always @* begin
        if (past_valid) begin
            assert(busy == m_busy);
            assert(sample_valid == e_sample);
            assert(sample_latency == e_last);
            assert(sample_saturated == e_last_saturated);
            assert(timeout_pulse == e_timeout);
            assert(overrun_pulse == e_overrun);
            assert(ignored_pulse == e_ignored);
        end
    end

endmodule

`default_nettype wire
