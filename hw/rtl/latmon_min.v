// latmon_min: the minimal configuration of the latmon IP — the measurement and the trace RAM
// behind one AXI4-Lite slave, with the fewest registers software needs to use them.
//
// What the published Latencies IP is at heart: a counter started by irq and stopped by ack, each
// latency written into a block RAM at the next address, software reads the RAM. The measurement
// is latmon_core's (the same latency definition, corner cases and pipeline as the full IP, so
// the same models apply), with rising-edge triggers and no timeout. The trace is stop mode only:
// the first TRACE_DEPTH samples since the last clear are kept, later ones are dropped, so
// TRACE_COUNT never exceeds TRACE_DEPTH and needs log2(TRACE_DEPTH) + 1 bits, not 32.
//
// Registers, at the offsets of the full map (hw/regs/latmon.rdl via latmon_regs.vh):
//   ID, VERSION, CAPS (constants; CAPS.MINIMAL = 1), CTRL (ENABLE, CLEAR), STATUS (BUSY,
//   TRACE_FULL), TRACE_COUNT, and the trace window. Everything else of the map is absent.
// The read multiplexer looks only at the address bits that tell these apart (WINDOW_BIT,
// GROUP_BIT, PAIR_BIT and bits 3:2, found from the offsets below): a multiplexer over fewer
// inputs is most of what makes this top small. Whether the address is one of them is decoded in
// full beside it, registered in the AR (AW) cycle as the full IP's hits are: any other address
// answers SLVERR and writes nothing, as an absent register of the full IP does; the trace window
// is its TRACE_DEPTH words (the full IP answers the rest of its 16 KiB window with 0, OKAY).
// `alarm` and `irq_out` are kept so that latmon_min drops into a latmon instantiation; without a
// threshold or interrupts they are 0.
//
// Bus timing is the full IP's (latmon_axil_rd.v, latmon_axil_wr.v): read data two cycles after
// AR, a write acts from the cycle B is valid on (CTRL.CLEAR clears then).
`timescale 1ns / 1ps
`default_nettype none

module latmon_min #(
    // Width of the cycle counter, of every latency and of the trace samples (2..32).
    parameter CNT_WIDTH = 16,
    // Synchronizer flip-flops per input: 2 (default) .. 4, or 0 when irq and ack are already
    // synchronous to clk.
    parameter SYNC_STAGES = 2,
    // Samples in the trace RAM (a power of two, 2..4096).
    parameter TRACE_DEPTH = 512,
    // Width of the AXI4-Lite address (16..32; bits above 15 are not decoded).
    parameter ADDR_WIDTH = 16
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  irq,
    input  wire                  ack,
    output wire                  alarm,
    output wire                  irq_out,

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

    /* verilator lint_off UNUSEDPARAM */
    `include "latmon_regs.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam TRACE_AW = $clog2(TRACE_DEPTH);

    // The lowest set bit of a 16-bit offset (16 when none is set).
    function integer lowest_bit(input [15:0] value);
        integer k;
        begin
            lowest_bit = 16;
            for (k = 15; k >= 0; k = k - 1)
                if (value[k])
                    lowest_bit = k;
        end
    endfunction

    // The address bits a read decodes: the trace window's (no register has it), the bit that
    // puts STATUS and TRACE_COUNT apart from ID, VERSION, CAPS and CTRL (these four are told
    // apart by bits 3:2), and the bit between STATUS and TRACE_COUNT.
    localparam integer WINDOW_BIT = lowest_bit(LATMON_TRACE_OFFSET);
    localparam integer GROUP_BIT = lowest_bit(LATMON_STATUS_OFFSET);
    localparam integer PAIR_BIT = lowest_bit(LATMON_STATUS_OFFSET ^ LATMON_TRACE_COUNT_OFFSET);

    // CAPS: what this instance is.
    localparam integer CNT_WIDTH_I = CNT_WIDTH;
    localparam integer SYNC_STAGES_I = SYNC_STAGES;
    localparam integer TRACE_AW_I = TRACE_AW;
    localparam [6:0] CAPS_CNT_WIDTH = CNT_WIDTH_I[6:0];
    localparam [4:0] CAPS_TRACE_DEPTH_LOG2 = TRACE_AW_I[4:0];
    localparam [2:0] CAPS_SYNC_STAGES = SYNC_STAGES_I[2:0];
    localparam [5:0] CAPS_TRACE_WIDTH = CNT_WIDTH_I[5:0];
    wire [31:0] caps_word = (32'd1 << LATMON_CAPS_TRACE_LSB) |
                            (32'd1 << LATMON_CAPS_MINIMAL_LSB) |
                            ({25'd0, CAPS_CNT_WIDTH} << LATMON_CAPS_CNT_WIDTH_LSB) |
                            ({27'd0, CAPS_TRACE_DEPTH_LOG2} << LATMON_CAPS_TRACE_DEPTH_LOG2_LSB) |
                            ({29'd0, CAPS_SYNC_STAGES} << LATMON_CAPS_SYNC_STAGES_LSB) |
                            ({26'd0, CAPS_TRACE_WIDTH} << LATMON_CAPS_TRACE_WIDTH_LSB);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_min: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
        if (CNT_WIDTH < 2 || CNT_WIDTH > 32)
            $fatal(1, "latmon_min: CNT_WIDTH must be 2..32, not %0d", CNT_WIDTH);
        if (TRACE_DEPTH < 2 || TRACE_DEPTH > LATMON_TRACE_ENTRIES || (1 << TRACE_AW) != TRACE_DEPTH)
            $fatal(1, "latmon_min: TRACE_DEPTH must be a power of two, 2..%0d, not %0d",
                   LATMON_TRACE_ENTRIES, TRACE_DEPTH);
        // The decode above relies on this layout of the map; a map that breaks it stops here.
        if (LATMON_ID_OFFSET[15:4] != 0 || LATMON_VERSION_OFFSET[15:4] != 0 ||
            LATMON_CAPS_OFFSET[15:4] != 0 || LATMON_CTRL_OFFSET[15:4] != 0 ||
            GROUP_BIT < 4 || GROUP_BIT >= WINDOW_BIT || PAIR_BIT >= WINDOW_BIT ||
            !LATMON_TRACE_COUNT_OFFSET[GROUP_BIT] || LATMON_STATUS_OFFSET[PAIR_BIT] ||
            LATMON_TRACE_OFFSET[WINDOW_BIT-1:0] != 0 || WINDOW_BIT < TRACE_AW + 2 ||
            ((LATMON_ID_OFFSET | LATMON_VERSION_OFFSET | LATMON_CAPS_OFFSET | LATMON_CTRL_OFFSET |
              LATMON_STATUS_OFFSET | LATMON_TRACE_COUNT_OFFSET) >> WINDOW_BIT) != 0)
            $fatal(1, "latmon_min: the register map no longer fits this top's address decode");
    end

    // ---- the measurement -------------------------------------------------------------------

    wire enable, clear;
    wire busy, sample_valid;
    wire [CNT_WIDTH-1:0] sample_latency;
    // The core's other reports have no register here.
    wire sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse;

    latmon_core #(.CNT_WIDTH(CNT_WIDTH), .SYNC_STAGES(SYNC_STAGES)) core_inst (
        .clk(clk), .rst(rst), .enable(enable), .clear(clear),
        .irq_mode(2'd0), .ack_mode(2'd0), .timeout({CNT_WIDTH{1'b0}}),
        .irq(irq), .ack(ack),
        .busy(busy), .sample_valid(sample_valid), .sample_latency(sample_latency),
        .sample_saturated(sample_saturated), .timeout_pulse(timeout_pulse),
        .overrun_pulse(overrun_pulse), .ignored_pulse(ignored_pulse)
    );

    assign alarm = 1'b0;
    assign irq_out = 1'b0;

    // ---- the trace RAM (stop mode) -----------------------------------------------------------

    // Sample k since the last clear goes to word k while k < TRACE_DEPTH; trace_count_reg is
    // the number written, its top bit says the RAM is full (TRACE_FULL) and stops the writes.
    reg [CNT_WIDTH-1:0] trace_mem [0:TRACE_DEPTH-1];
    reg [TRACE_AW:0]    trace_count_reg = {(TRACE_AW+1){1'b0}};
    wire                trace_full = trace_count_reg[TRACE_AW];
    wire                trace_write = sample_valid && !trace_full;

    integer i;
    initial begin
        for (i = 0; i < TRACE_DEPTH; i = i + 1)
            trace_mem[i] = {CNT_WIDTH{1'b0}};
    end

    always @(posedge clk) begin
        if (trace_write)
            trace_mem[trace_count_reg[TRACE_AW-1:0]] <= sample_latency;
        if (trace_write)
            trace_count_reg <= trace_count_reg + 1'b1;
        if (rst || clear)
            trace_count_reg <= {(TRACE_AW+1){1'b0}};
    end

    // ---- reads -------------------------------------------------------------------------------

    wire                  rd_req, rd_load, rd_open_next;
    wire [ADDR_WIDTH-1:0] rd_addr;
    wire [31:0]           rd_data;

    latmon_axil_rd #(.ADDR_WIDTH(ADDR_WIDTH)) axil_rd_inst (
        .clk(clk), .rst(rst),
        .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
        .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
        .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
        .rd_req(rd_req), .rd_addr(rd_addr), .rd_load(rd_load), .rd_open_next(rd_open_next),
        .rd_data(rd_data), .rd_hit(rd_hit_reg)
    );

    // Whether a bus address is one of the six registers or a word of the trace (the full
    // address: bits above 15 must be zero, bits 1:0 are ignored as in the full IP).
    localparam integer TRACE_WB = TRACE_AW + 2;
    function known_address(input [ADDR_WIDTH-1:0] addr);
        begin
            known_address = (addr >> 16) == 0 &&
                (addr[15:TRACE_WB] == LATMON_TRACE_OFFSET[15:TRACE_WB] ||
                 addr[15:2] == LATMON_ID_OFFSET[15:2] ||
                 addr[15:2] == LATMON_VERSION_OFFSET[15:2] ||
                 addr[15:2] == LATMON_CAPS_OFFSET[15:2] ||
                 addr[15:2] == LATMON_CTRL_OFFSET[15:2] ||
                 addr[15:2] == LATMON_STATUS_OFFSET[15:2] ||
                 addr[15:2] == LATMON_TRACE_COUNT_OFFSET[15:2]);
        end
    endfunction

    // The AR cycle registers the decoded address bits, the hit, and reads the RAM word (the
    // RAM's read latch: the trace window's answer); the next cycle takes a snapshot of the
    // register the address names, so that R's data holds still however long RREADY waits. The
    // data of an SLVERR is whatever the multiplexer picks (AXI leaves it undefined), so the
    // RAM's output register is not gated by the decode.
    reg [CNT_WIDTH-1:0] trace_word_reg = {CNT_WIDTH{1'b0}};
    reg                 rd_hit_reg = 1'b0;
    reg                 rd_window_reg = 1'b0;
    reg                 rd_group_reg = 1'b0;
    reg                 rd_pair_reg = 1'b0;
    reg [1:0]           rd_word_reg = 2'd0;
    always @(posedge clk) begin
        if (rd_req) begin
            trace_word_reg <= trace_mem[rd_addr[2 +: TRACE_AW]];
            rd_hit_reg <= known_address(rd_addr);
            rd_window_reg <= rd_addr[WINDOW_BIT];
            rd_group_reg <= rd_addr[GROUP_BIT];
            rd_pair_reg <= rd_addr[PAIR_BIT];
            rd_word_reg <= rd_addr[3:2];
        end
    end

    wire [31:0] status_word = ({31'd0, busy} << LATMON_STATUS_BUSY_LSB) |
                              ({31'd0, trace_full} << LATMON_STATUS_TRACE_FULL_LSB);
    wire [31:0] ctrl_word = {31'd0, enable} << LATMON_CTRL_ENABLE_LSB;
    wire [31:0] trace_count_word = {{(31-TRACE_AW){1'b0}}, trace_count_reg};
    reg  [31:0] snapshot_reg = 32'd0;
    always @(posedge clk) begin
        if (rd_load)
            snapshot_reg <= rd_group_reg ? (rd_pair_reg ? trace_count_word : status_word)
                                         : ctrl_word;
    end

    // The constant registers, by address bits 3:2.
    reg [31:0] constant_word;
    always @* begin
        constant_word = 32'd0;
        if (rd_word_reg == LATMON_ID_OFFSET[3:2])
            constant_word = LATMON_ID_RESET;
        if (rd_word_reg == LATMON_VERSION_OFFSET[3:2])
            constant_word = LATMON_VERSION_RESET;
        if (rd_word_reg == LATMON_CAPS_OFFSET[3:2])
            constant_word = caps_word;
    end
    wire rd_snapshot = rd_group_reg || rd_word_reg == LATMON_CTRL_OFFSET[3:2];

    assign rd_data = rd_window_reg ? {{(32-CNT_WIDTH){1'b0}}, trace_word_reg}
                   : rd_snapshot ? snapshot_reg : constant_word;

    // ---- writes: CTRL only -------------------------------------------------------------------

    wire                  wr_req;
    wire [ADDR_WIDTH-1:0] wr_addr;
    wire [31:0]           wr_data;
    wire [3:0]            wr_strb;

    latmon_axil_wr #(.ADDR_WIDTH(ADDR_WIDTH)) axil_wr_inst (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
        .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
        .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
        .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
        .s_axil_bready(s_axil_bready),
        .wr_req(wr_req), .wr_addr(wr_addr), .wr_data(wr_data), .wr_strb(wr_strb),
        .wr_hit(wr_hit_reg)
    );

    // Whether the address is CTRL's (bits 1:0 ignored, as in the full IP), registered in the
    // cycle AW and W are valid (wr_req) and used in the next, when AW/W are accepted
    // (s_axil_awready) and WDATA/WSTRB are still on the bus.
    reg ctrl_sel_reg = 1'b0;
    reg wr_hit_reg = 1'b0;  // OKAY for the six registers (read-only ones ignore it) and the window
    reg enable_reg = 1'b0;
    reg clear_reg = 1'b0;
    wire ctrl_write = s_axil_awready && ctrl_sel_reg && wr_strb[0];
    always @(posedge clk) begin
        ctrl_sel_reg <= wr_addr[ADDR_WIDTH-1:2] ==
                        {{(ADDR_WIDTH-16){1'b0}}, LATMON_CTRL_OFFSET[15:2]};
        wr_hit_reg <= known_address(wr_addr);
        if (ctrl_write)
            enable_reg <= wr_data[LATMON_CTRL_ENABLE_LSB];
        // a pulse in the cycle B is valid
        clear_reg <= ctrl_write && wr_data[LATMON_CTRL_CLEAR_LSB];
        if (rst) begin
            enable_reg <= 1'b0;
            clear_reg <= 1'b0;
        end
    end
    assign enable = enable_reg;
    assign clear = clear_reg;

    wire unused = ^{sample_saturated, timeout_pulse, overrun_pulse, ignored_pulse, wr_req, wr_data,
                    wr_strb[3:1], wr_addr[1:0], rd_addr, rd_open_next};

endmodule

`default_nettype wire
