// soc_devices: the devices both virtual SoCs (soc_top, linux_soc_top) put on their shared Wishbone
// bus: the T1/T2 reference design and the two latmon line monitors, each behind an AXI4-Lite
// bridge; sysctrl, the UART, the test interrupt lines (irqgen) and the traffic generator, whose
// master port joins the bus's arbiter. The top decodes the address into one strobe per device
// and returns the selected device's answer; the interrupt lines and the events the test benches
// record leave here.
`timescale 1ns / 1ps
`default_nettype none

module soc_devices #(
    // CPUs that sysctrl reports (1 or 2).
    parameter HARTS = 2,
    // Nominal clock of CPUs and fabric, in Hz (one clock domain).
    parameter CLOCK_HZ = 100000000,
    // UART cycles per bit after reset.
    parameter UART_DIVISOR = 16,
    // The reference design's histogram engines (its HAS_HIST).
    parameter REF_HAS_HIST = 1
) (
    input  wire        clk,
    input  wire        rst,

    // the bus as the devices see it, and one strobe per device
    input  wire        s_we,
    input  wire [29:0] s_adr,
    input  wire [31:0] s_dat_w,
    input  wire [3:0]  s_sel,
    input  wire        ref_stb,
    input  wire        line0_stb,
    input  wire        line1_stb,
    input  wire        sys_stb,
    input  wire        uart_stb,
    input  wire        irqgen_stb,
    input  wire        traffic_stb,
    // each device's answer
    output wire [31:0] ref_dat,
    output wire        ref_ack,
    output wire        ref_err,
    output wire [31:0] line0_dat,
    output wire        line0_ack,
    output wire        line0_err,
    output wire [31:0] line1_dat,
    output wire        line1_ack,
    output wire        line1_err,
    output wire [31:0] sys_dat,
    output wire        sys_ack,
    output wire [31:0] uart_dat,
    output wire        uart_ack,
    output wire [31:0] irqgen_dat,
    output wire        irqgen_ack,
    output wire [31:0] traffic_dat,
    output wire        traffic_ack,

    // the traffic generator's master port
    output wire        m_cyc,
    output wire        m_stb,
    output wire        m_we,
    output wire [29:0] m_adr,
    output wire [31:0] m_dat_w,
    output wire [3:0]  m_sel,
    input  wire        m_ack,
    input  wire        m_err,

    // the reference design's interrupt and events (refdesign.v)
    output wire        pl_ps_irq,
    output wire        timer_irq,
    output wire        data_read,
    output wire        monitor_irq,
    // the test interrupt lines, each raise and each ACK write (one-cycle pulses)
    output wire [7:0]  lines,
    output wire [7:0]  line_raised,
    output wire [7:0]  line_ack,

    output wire        uart_tx,
    output wire        done,
    output wire [31:0] exit_code
);

    wire stim0;

    // AXI4-Lite port of the reference design
    wire [17:0] ref_awaddr, ref_araddr;
    wire [2:0]  ref_awprot, ref_arprot;
    wire        ref_awvalid, ref_awready, ref_wvalid, ref_wready, ref_bvalid, ref_bready;
    wire        ref_arvalid, ref_arready, ref_rvalid, ref_rready;
    wire [31:0] ref_wdata, ref_rdata;
    wire [3:0]  ref_wstrb;
    wire [1:0]  ref_bresp, ref_rresp;

    soc_wb_axil #(.ADDR_WIDTH(18)) ref_bridge (
        .clk(clk), .rst(rst), .stb(ref_stb), .we(s_we), .adr(s_adr), .dat_w(s_dat_w),
        .sel(s_sel), .dat_r(ref_dat), .ack(ref_ack), .err(ref_err),
        .m_axil_awaddr(ref_awaddr), .m_axil_awprot(ref_awprot), .m_axil_awvalid(ref_awvalid),
        .m_axil_awready(ref_awready), .m_axil_wdata(ref_wdata), .m_axil_wstrb(ref_wstrb),
        .m_axil_wvalid(ref_wvalid), .m_axil_wready(ref_wready), .m_axil_bresp(ref_bresp),
        .m_axil_bvalid(ref_bvalid), .m_axil_bready(ref_bready), .m_axil_araddr(ref_araddr),
        .m_axil_arprot(ref_arprot), .m_axil_arvalid(ref_arvalid), .m_axil_arready(ref_arready),
        .m_axil_rdata(ref_rdata), .m_axil_rresp(ref_rresp), .m_axil_rvalid(ref_rvalid),
        .m_axil_rready(ref_rready)
    );

    refdesign #(.ADDR_WIDTH(18), .HAS_HIST(REF_HAS_HIST)) ref_inst (
        .clk(clk), .rst(rst), .pl_ps_irq(pl_ps_irq), .monitor_irq(monitor_irq),
        .timer_irq(timer_irq), .data_read(data_read),
        .s_axil_awaddr(ref_awaddr), .s_axil_awprot(ref_awprot), .s_axil_awvalid(ref_awvalid),
        .s_axil_awready(ref_awready), .s_axil_wdata(ref_wdata), .s_axil_wstrb(ref_wstrb),
        .s_axil_wvalid(ref_wvalid), .s_axil_wready(ref_wready), .s_axil_bresp(ref_bresp),
        .s_axil_bvalid(ref_bvalid), .s_axil_bready(ref_bready), .s_axil_araddr(ref_araddr),
        .s_axil_arprot(ref_arprot), .s_axil_arvalid(ref_arvalid), .s_axil_arready(ref_arready),
        .s_axil_rdata(ref_rdata), .s_axil_rresp(ref_rresp), .s_axil_rvalid(ref_rvalid),
        .s_axil_rready(ref_rready)
    );

    wire [1:0] line_stb = {line1_stb, line0_stb};
    genvar s;
    generate
        for (s = 0; s < 2; s = s + 1) begin : g_line
            wire [15:0] awaddr, araddr;
            wire [2:0]  awprot, arprot;
            wire        awvalid, awready, wvalid, wready, bvalid, bready;
            wire        arvalid, arready, rvalid, rready;
            wire [31:0] wdata, rdata, dat;
            wire [3:0]  wstrb;
            wire [1:0]  bresp, rresp;
            wire        ack, err, stim_out;

            soc_wb_axil #(.ADDR_WIDTH(16)) bridge (
                .clk(clk), .rst(rst), .stb(line_stb[s]), .we(s_we), .adr(s_adr),
                .dat_w(s_dat_w), .sel(s_sel), .dat_r(dat), .ack(ack), .err(err),
                .m_axil_awaddr(awaddr), .m_axil_awprot(awprot), .m_axil_awvalid(awvalid),
                .m_axil_awready(awready), .m_axil_wdata(wdata), .m_axil_wstrb(wstrb),
                .m_axil_wvalid(wvalid), .m_axil_wready(wready), .m_axil_bresp(bresp),
                .m_axil_bvalid(bvalid), .m_axil_bready(bready), .m_axil_araddr(araddr),
                .m_axil_arprot(arprot), .m_axil_arvalid(arvalid), .m_axil_arready(arready),
                .m_axil_rdata(rdata), .m_axil_rresp(rresp), .m_axil_rvalid(rvalid),
                .m_axil_rready(rready)
            );

            // the monitor of irqgen line s: irq = each raise of the line (a raise while it is
            // still pending is a lost interrupt: an overrun), ack = the write of ACK[s] (by the
            // bare-metal ISR, the kernel's handler or a user-space thread through the mapping)
            latmon #(
                .TRACE_DEPTH(1024), .HAS_HIST(0), .HAS_STAMP(0), .HAS_STIM(s == 0 ? 1 : 0)
            ) monitor (
                .clk(clk), .rst(rst), .irq(line_raised[s]), .ack(line_ack[s]), .alarm(), .irq_out(),
                .start_valid(1'b0), .start_id(16'd0), .end_valid(1'b0), .end_id(16'd0),
                .stim_out(stim_out), .stim_id(),
                .s_axil_awaddr(awaddr), .s_axil_awprot(awprot), .s_axil_awvalid(awvalid),
                .s_axil_awready(awready), .s_axil_wdata(wdata), .s_axil_wstrb(wstrb),
                .s_axil_wvalid(wvalid), .s_axil_wready(wready), .s_axil_bresp(bresp),
                .s_axil_bvalid(bvalid), .s_axil_bready(bready), .s_axil_araddr(araddr),
                .s_axil_arprot(arprot), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
                .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid),
                .s_axil_rready(rready)
            );
        end
    endgenerate
    assign line0_dat = g_line[0].dat;
    assign line0_ack = g_line[0].ack;
    assign line0_err = g_line[0].err;
    assign line1_dat = g_line[1].dat;
    assign line1_ack = g_line[1].ack;
    assign line1_err = g_line[1].err;
    assign stim0 = g_line[0].stim_out;

    soc_sysctrl #(.HARTS(HARTS), .CLOCK_HZ(CLOCK_HZ)) sysctrl (
        .clk(clk), .rst(rst), .stb(sys_stb), .we(s_we), .adr({s_adr[2:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(sys_dat), .ack(sys_ack), .done(done), .exit_code(exit_code)
    );

    soc_uart #(.DEFAULT_DIVISOR(UART_DIVISOR)) uart (
        .clk(clk), .rst(rst), .stb(uart_stb), .we(s_we), .adr({s_adr[1:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(uart_dat), .ack(uart_ack), .tx(uart_tx)
    );

    soc_irqgen #(.LINES(8)) irqgen (
        .clk(clk), .rst(rst), .stb(irqgen_stb), .we(s_we), .adr({s_adr[4:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(irqgen_dat), .ack(irqgen_ack),
        .trigger({7'd0, stim0}), .lines(lines), .raised(line_raised), .ack_pulse(line_ack)
    );

    soc_traffic traffic (
        .clk(clk), .rst(rst), .stb(traffic_stb), .we(s_we), .adr({s_adr[2:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(traffic_dat), .ack(traffic_ack),
        .m_cyc(m_cyc), .m_stb(m_stb), .m_we(m_we), .m_adr(m_adr), .m_dat_w(m_dat_w),
        .m_sel(m_sel), .m_ack(m_ack), .m_err(m_err)
    );

endmodule

`default_nettype wire
