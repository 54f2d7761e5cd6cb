// refdesign: the published T1/T2 measurement set-up around two latmon cores (docs/hw/refdesign.md).
//
//   timer ──timer_irq──> data generator ──> FIFO ──pl_ps_irq (not empty)──> the CPU's ISR
//                                             ^                                  │
//                                             └────── AXI read of DATA (pop) <───┘
//
//   T1 = timer interrupt -> data ready (pl_ps_irq rises): the fabric's own processing time;
//   T2 = data ready -> the ISR's AXI read of the data word: the interrupt latency of the CPU.
//
// A periodic timer (TIMER_PERIOD cycles, run-time) starts each round; the generator waits
// GEN_DELAY cycles, then pushes the next word of a 32-bit xorshift sequence into a 16-deep FIFO;
// pl_ps_irq is high while the FIFO holds data; reading DATA pops it. One AXI4-Lite slave port
// reaches everything (address bits 17:16): 0 the T1 core, 1 the T2 core, 2 the design's own
// registers (DATA 0x20000, TIMER_PERIOD 0x20004, GEN_DELAY 0x20008, CTRL 0x2000C bit 0: timer on,
// FIFO_LEVEL 0x20010, DROPPED 0x20014: words lost to a full FIFO).
`timescale 1ns / 1ps
`default_nettype none

module refdesign #(
    parameter ADDR_WIDTH = 18,
    // 1: the T1 and T2 cores with their histogram engines; 0: without (for a SoC whose software
    // never addresses the design: docs/hw/linux-soc.md)
    parameter HAS_HIST = 1
) (
    input  wire                  clk,
    input  wire                  rst,

    output wire                  pl_ps_irq,     // to the CPU: data ready
    output wire                  monitor_irq,   // irq_out of both cores, ORed
    output wire                  timer_irq,     // for the testbench's recorder
    output wire                  data_read,     // one cycle: the ISR read DATA (T2's ack)

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

    localparam FIFO_LOG2 = 4;

    // ---- the design's registers ---------------------------------------------------------------

    reg [31:0] timer_period = 32'd1000;
    reg [31:0] gen_delay = 32'd20;
    reg        timer_on = 1'b0;
    reg [31:0] dropped = 32'd0;

    // ---- timer and data generator -----------------------------------------------------------------

    reg [31:0] timer_count = 32'd0;
    reg        timer_pulse = 1'b0;
    always @(posedge clk) begin
        timer_pulse <= 1'b0;
        if (timer_on) begin
            if (timer_count + 32'd1 >= timer_period) begin
                timer_count <= 32'd0;
                timer_pulse <= 1'b1;
            end else begin
                timer_count <= timer_count + 32'd1;
            end
        end else begin
            timer_count <= 32'd0;
        end
        if (rst) begin
            timer_count <= 32'd0;
            timer_pulse <= 1'b0;
        end
    end
    assign timer_irq = timer_pulse;

    reg [31:0] gen_left = 32'd0;
    reg        gen_busy = 1'b0;
    reg [31:0] x = 32'h2545F491;
    reg        push = 1'b0;
    always @(posedge clk) begin
        push <= 1'b0;
        if (timer_pulse && !gen_busy) begin
            gen_busy <= 1'b1;
            gen_left <= gen_delay;
        end else if (gen_busy) begin
            if (gen_left <= 32'd1) begin
                gen_busy <= 1'b0;
                push <= 1'b1;
                x <= (x ^ (x << 13)) ^ ((x ^ (x << 13)) >> 17) ^
                     (((x ^ (x << 13)) ^ ((x ^ (x << 13)) >> 17)) << 5);
            end else begin
                gen_left <= gen_left - 32'd1;
            end
        end
        if (rst) begin
            gen_busy <= 1'b0;
            push <= 1'b0;
        end
    end

    // ---- FIFO -----------------------------------------------------------------------------

    reg [31:0]        fifo [0:(1 << FIFO_LOG2) - 1];
    reg [FIFO_LOG2:0] wr_ptr = 0, rd_ptr = 0;
    wire [FIFO_LOG2:0] level = wr_ptr - rd_ptr;
    wire              empty = level == 0;
    wire              full = level[FIFO_LOG2];
    wire              pop;

    always @(posedge clk) begin
        if (push && !full) begin
            fifo[wr_ptr[FIFO_LOG2-1:0]] <= x;
            wr_ptr <= wr_ptr + 1'b1;
        end
        if (push && full && dropped != 32'hFFFFFFFF)
            dropped <= dropped + 32'd1;
        if (pop && !empty)
            rd_ptr <= rd_ptr + 1'b1;
        if (rst) begin
            wr_ptr <= 0;
            rd_ptr <= 0;
            dropped <= 32'd0;
        end
    end
    assign pl_ps_irq = !empty;

    // ---- AXI4-Lite: route by address bits 17:16 ------------------------------------------------

    // One transaction at a time per direction; the response comes from the slave that took it.
    wire [1:0] ar_sel = s_axil_araddr[17:16];
    wire [1:0] aw_sel = s_axil_awaddr[17:16];
    reg  [1:0] r_sel = 2'd0, b_sel = 2'd0;
    reg        r_busy = 1'b0, b_busy = 1'b0;

    wire [1:0]  m_awready, m_wready, m_bvalid, m_arready, m_rvalid;
    wire [3:0]  m_bresp, m_rresp;
    wire [63:0] m_rdata;

    genvar g;
    generate
        for (g = 0; g < 2; g = g + 1) begin : g_core
            wire irq_in = g == 0 ? timer_pulse : pl_ps_irq;
            wire ack_in = g == 0 ? pl_ps_irq : data_read;
            latmon #(.HAS_HIST(HAS_HIST), .HAS_STAMP(0), .HAS_STIM(0), .TRACE_DEPTH(1024)) core (
                .clk(clk), .rst(rst), .irq(irq_in), .ack(ack_in), .alarm(), .irq_out(),
                .start_valid(1'b0), .start_id(16'd0), .end_valid(1'b0), .end_id(16'd0),
                .stim_out(), .stim_id(),
                .s_axil_awaddr(s_axil_awaddr[15:0]), .s_axil_awprot(s_axil_awprot),
                .s_axil_awvalid(s_axil_awvalid && aw_sel == g && !b_busy),
                .s_axil_awready(m_awready[g]),
                .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
                .s_axil_wvalid(s_axil_wvalid && aw_sel == g && !b_busy),
                .s_axil_wready(m_wready[g]),
                .s_axil_bresp(m_bresp[2*g +: 2]), .s_axil_bvalid(m_bvalid[g]),
                .s_axil_bready(s_axil_bready && b_sel == g),
                .s_axil_araddr(s_axil_araddr[15:0]), .s_axil_arprot(s_axil_arprot),
                .s_axil_arvalid(s_axil_arvalid && ar_sel == g && !r_busy),
                .s_axil_arready(m_arready[g]),
                .s_axil_rdata(m_rdata[32*g +: 32]), .s_axil_rresp(m_rresp[2*g +: 2]),
                .s_axil_rvalid(m_rvalid[g]), .s_axil_rready(s_axil_rready && r_sel == g)
            );
        end
    endgenerate
    assign monitor_irq = g_core[0].core.irq_out | g_core[1].core.irq_out;

    // The design's own registers (select 2; 3 answers SLVERR): accepted at once.
    wire own_aw = s_axil_awvalid && s_axil_wvalid && aw_sel[1] && !b_busy;
    wire own_ar = s_axil_arvalid && ar_sel[1] && !r_busy;
    reg  [31:0] own_rdata = 32'd0;
    reg  [1:0]  own_rresp = 2'b00, own_bresp = 2'b00;
    reg         own_rvalid = 1'b0, own_bvalid = 1'b0;
    wire [7:0]  own_r = s_axil_araddr[7:0];
    wire [7:0]  own_w = s_axil_awaddr[7:0];

    assign pop = own_ar && ar_sel == 2'd2 && own_r == 8'h00;
    assign data_read = pop;

    always @(posedge clk) begin
        if (own_ar) begin
            own_rvalid <= 1'b1;
            own_rresp <= ar_sel == 2'd2 && own_r <= 8'h14 && own_r[1:0] == 2'b00 ? 2'b00 : 2'b10;
            case (own_r)
                8'h00: own_rdata <= empty ? 32'd0 : fifo[rd_ptr[FIFO_LOG2-1:0]];
                8'h04: own_rdata <= timer_period;
                8'h08: own_rdata <= gen_delay;
                8'h0C: own_rdata <= {31'd0, timer_on};
                8'h10: own_rdata <= {{(31-FIFO_LOG2){1'b0}}, level};
                8'h14: own_rdata <= dropped;
                default: own_rdata <= 32'd0;
            endcase
        end else if (own_rvalid && s_axil_rready) begin
            own_rvalid <= 1'b0;
        end
        if (own_aw) begin
            own_bvalid <= 1'b1;
            own_bresp <= aw_sel == 2'd2 && own_w >= 8'h04 && own_w <= 8'h0C && own_w[1:0] == 2'b00
                         ? 2'b00 : 2'b10;
            if (aw_sel == 2'd2) begin
                case (own_w)
                    8'h04: timer_period <= s_axil_wdata;
                    8'h08: gen_delay <= s_axil_wdata;
                    8'h0C: timer_on <= s_axil_wdata[0];
                    default: ;
                endcase
            end
        end else if (own_bvalid && s_axil_bready) begin
            own_bvalid <= 1'b0;
        end
        if (rst) begin
            own_rvalid <= 1'b0;
            own_bvalid <= 1'b0;
            timer_on <= 1'b0;
            timer_period <= 32'd1000;
            gen_delay <= 32'd20;
        end
    end

    // channel bookkeeping: which slave owns the outstanding read / write
    wire ar_hs = s_axil_arvalid && s_axil_arready;
    wire aw_hs = s_axil_awvalid && s_axil_awready;
    always @(posedge clk) begin
        if (ar_hs) begin
            r_busy <= 1'b1;
            r_sel <= ar_sel;
        end else if (s_axil_rvalid && s_axil_rready) begin
            r_busy <= 1'b0;
        end
        if (aw_hs) begin
            b_busy <= 1'b1;
            b_sel <= aw_sel;
        end else if (s_axil_bvalid && s_axil_bready) begin
            b_busy <= 1'b0;
        end
        if (rst) begin
            r_busy <= 1'b0;
            b_busy <= 1'b0;
        end
    end

    // Readies only with their valid: the address is not decoded (and may be X) without it.
    assign s_axil_arready = !r_busy && s_axil_arvalid && (ar_sel[1] ? 1'b1 : m_arready[ar_sel[0]]);
    assign s_axil_rvalid = r_sel[1] ? own_rvalid : m_rvalid[r_sel[0]];
    assign s_axil_rdata = r_sel[1] ? own_rdata : m_rdata[32*r_sel[0] +: 32];
    assign s_axil_rresp = r_sel[1] ? own_rresp : m_rresp[2*r_sel[0] +: 2];
    assign s_axil_awready = !b_busy && s_axil_awvalid && s_axil_wvalid &&
                            (aw_sel[1] ? 1'b1 : m_awready[aw_sel[0]]);
    assign s_axil_wready = !b_busy && s_axil_awvalid && s_axil_wvalid &&
                           (aw_sel[1] ? 1'b1 : m_wready[aw_sel[0]]);
    assign s_axil_bvalid = b_sel[1] ? own_bvalid : m_bvalid[b_sel[0]];
    assign s_axil_bresp = b_sel[1] ? own_bresp : m_bresp[2*b_sel[0] +: 2];

    wire unused = ^{s_axil_awaddr, s_axil_araddr};

endmodule

`default_nettype wire
