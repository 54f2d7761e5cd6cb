// Testbench wrapper of the latmon IP.
//
// - generates the clock natively (Python never toggles it), or, with TB_EXTERNAL_CLOCK defined
//   (Verilator), takes it from cocotb's C++ clock driver;
// - irq/ack come from Python (irq_py, ack_py) OR from a stimulus player that replays two lists
//   of rising-edge cycles read with $readmemh (plusargs +stim_irq=FILE +stim_ack=FILE
//   +stim_n_irq=N +stim_n_ack=N): one-cycle pulses at exactly those cycles, no Python involved;
// - records every output event of the measurement core with its cycle, both in a packed vector
//   the Python monitor can wait on (event_reg) and, with +events=FILE, as text lines
//   "cycle kind value saturated" for a scoreboard that runs after the simulation;
// - passes the AXI4-Lite slave through for cocotbext-axi.
`timescale 1ns / 1ps
`default_nettype none

module tb_latmon #(
    parameter CNT_WIDTH = 32,
    parameter SYNC_STAGES = 2,
    parameter TRACE_DEPTH = 512,
    parameter TRACE_WIDTH = 32,
    parameter COUNTER_WIDTH = 32,
    parameter SUM_WIDTH = 48,
    parameter ADDR_WIDTH = 16,
    // Half period of the generated clock, ns.
    parameter HALF_PERIOD_NS = 5,
    // Most edges per signal the player can hold.
    parameter STIM_MAX = 1200000,
    parameter HAS_HIST = 1,
    parameter HIST_BINS_LOG2 = 8,
    parameter HAS_STAMP = 1,
    parameter STAMP_ENTRIES = 16,
    parameter HAS_STIM = 1,
    parameter ID_WIDTH = 16,
    parameter HAS_IRQ = 1,
    parameter HAS_TIMEOUT = 1,
    parameter HAS_COUNTERS = 1,
    parameter HAS_SUM = 1,
    parameter REG_DECODE = 1,
    parameter PIPE_COMPARE = 1
) (
`ifdef TB_EXTERNAL_CLOCK
    input  wire                  clk,
`endif
    input  wire                  rst,
    input  wire                  irq_py,
    input  wire                  ack_py,
    input  wire                  flush,     // rising edge: close the event file
    output wire                  alarm,
    output wire                  irq_out,
    output reg  [63:0]           cycle = 64'd0,
    output reg  [163:0]          event_reg = 164'd0,
    output reg                   stim_done = 1'b0,
    // timestamp-mode inputs and the stimulus outputs of the IP
    input  wire                  start_valid,
    input  wire [ID_WIDTH-1:0]   start_id,
    input  wire                  end_valid,
    input  wire [ID_WIDTH-1:0]   end_id,
    output wire                  stim_out,
    output wire [ID_WIDTH-1:0]   stim_id,

    input  wire [ADDR_WIDTH-1:0] s_axil_awaddr,
    input  wire [2:0]            s_axil_awprot,
    input  wire                  s_axil_awvalid,
    output wire                  s_axil_awready,
    input  wire [31:0]           s_axil_wdata,
    input  wire [3:0]            s_axil_wstrb,
    input  wire                  s_axil_wvalid,
    output wire                  s_axil_wready,
    output wire [1:0]            s_axil_bresp,
    output wire                  s_axil_bvalid,
    input  wire                  s_axil_bready,
    input  wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input  wire [2:0]            s_axil_arprot,
    input  wire                  s_axil_arvalid,
    output wire                  s_axil_arready,
    output wire [31:0]           s_axil_rdata,
    output wire [1:0]            s_axil_rresp,
    output wire                  s_axil_rvalid,
    input  wire                  s_axil_rready
);

`ifndef TB_EXTERNAL_CLOCK
    // Icarus toggles this natively, many times faster than a clock driven from Python.
    reg clk = 1'b0;
    always #(HALF_PERIOD_NS) clk = ~clk;
`endif

    // ---- stimulus player -----------------------------------------------------------------

    reg [63:0] stim_irq [0:STIM_MAX-1];
    reg [63:0] stim_ack [0:STIM_MAX-1];
    reg [63:0] n_irq = 64'd0, n_ack = 64'd0;
    reg [63:0] i_irq = 64'd0, i_ack = 64'd0;
    reg irq_play = 1'b0, ack_play = 1'b0;
    reg [1023:0] fname;
    integer events_fd = 0;

    initial begin
        if (!$value$plusargs("stim_n_irq=%d", n_irq)) n_irq = 64'd0;
        if (!$value$plusargs("stim_n_ack=%d", n_ack)) n_ack = 64'd0;
        // the words the files hold (the arrays have STIM_MAX, a few more)
        if (n_irq != 0 && $value$plusargs("stim_irq=%s", fname))
            $readmemh(fname, stim_irq, 0, n_irq - 64'd1);
        if (n_ack != 0 && $value$plusargs("stim_ack=%s", fname))
            $readmemh(fname, stim_ack, 0, n_ack - 64'd1);
        if ($value$plusargs("events=%s", fname)) events_fd = $fopen(fname, "w");
    end

    /* verilator lint_off WIDTHTRUNC */  // 64-bit indexes into the STIM_MAX-deep lists
    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        irq_play <= i_irq < n_irq && stim_irq[i_irq] == cycle;
        ack_play <= i_ack < n_ack && stim_ack[i_ack] == cycle;
        if (i_irq < n_irq && stim_irq[i_irq] == cycle)
            i_irq <= i_irq + 64'd1;
        if (i_ack < n_ack && stim_ack[i_ack] == cycle)
            i_ack <= i_ack + 64'd1;
        stim_done <= i_irq >= n_irq && i_ack >= n_ack;
    end
    /* verilator lint_on WIDTHTRUNC */

    // ---- the device under test -----------------------------------------------------------

    latmon #(
        .CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES), .TRACE_DEPTH(TRACE_DEPTH),
        .TRACE_WIDTH(TRACE_WIDTH), .COUNTER_WIDTH(COUNTER_WIDTH), .SUM_WIDTH(SUM_WIDTH),
        .ADDR_WIDTH(ADDR_WIDTH), .HAS_HIST(HAS_HIST), .HIST_BINS_LOG2(HIST_BINS_LOG2),
        .HAS_STAMP(HAS_STAMP), .STAMP_ENTRIES(STAMP_ENTRIES), .HAS_STIM(HAS_STIM),
        .ID_WIDTH(ID_WIDTH), .HAS_IRQ(HAS_IRQ), .HAS_TIMEOUT(HAS_TIMEOUT),
        .HAS_COUNTERS(HAS_COUNTERS), .HAS_SUM(HAS_SUM),
        .REG_DECODE(REG_DECODE), .PIPE_COMPARE(PIPE_COMPARE)
    ) dut (
        .clk(clk), .rst(rst),
        .irq(irq_py | irq_play), .ack(ack_py | ack_play),
        .alarm(alarm), .irq_out(irq_out),
        .start_valid(start_valid), .start_id(start_id), .end_valid(end_valid),
        .end_id(end_id), .stim_out(stim_out), .stim_id(stim_id),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
        .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
        .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
        .s_axil_bready(s_axil_bready),
        .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
        .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready)
    );

    // ---- event recorder ------------------------------------------------------------------

    // The measurement core's outputs, by hierarchical name: the RTL's core_inst, or (with
    // LATMON_CORE defined) the same instance in the synthesized netlist (hw/tb/netlist.py).
`ifndef LATMON_CORE
`define LATMON_CORE dut.core_inst
`endif
    wire sample_valid = `LATMON_CORE.sample_valid;
    wire timeout_pulse = `LATMON_CORE.timeout_pulse;
    wire overrun_pulse = `LATMON_CORE.overrun_pulse;
    wire ignored_pulse = `LATMON_CORE.ignored_pulse;
    wire saturated = `LATMON_CORE.sample_saturated;
    wire [63:0] value = {{(64-CNT_WIDTH){1'b0}}, `LATMON_CORE.sample_latency};
    wire [2:0] kind = sample_valid ? 3'd1 : timeout_pulse ? 3'd2 : overrun_pulse ? 3'd3 :
                      ignored_pulse ? 3'd4 : 3'd0;
    wire [2:0] active = {2'd0, sample_valid} + {2'd0, timeout_pulse} + {2'd0, overrun_pulse} +
                        {2'd0, ignored_pulse};

    always @(posedge clk) begin
        if (active > 3'd1) begin
            event_reg <= {event_reg[163:132] + 32'd1, 3'd7, 1'b0, cycle, 64'd0};
            if (events_fd != 0) $fwrite(events_fd, "%0d 7 0 0\n", cycle);
        end else if (kind != 3'd0) begin
            event_reg <= {event_reg[163:132] + 32'd1, kind, saturated & sample_valid, cycle,
                          kind == 3'd1 ? value : 64'd0};
            if (events_fd != 0)
                $fwrite(events_fd, "%0d %0d %0d %0d\n", cycle, kind,
                        kind == 3'd1 ? value : 64'd0, saturated & sample_valid);
        end
    end

    always @(posedge flush) begin
        if (events_fd != 0) $fclose(events_fd);
        events_fd = 0;
    end

endmodule

`default_nettype wire
