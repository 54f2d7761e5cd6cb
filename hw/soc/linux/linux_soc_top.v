// linux_soc_top: the Linux-capable virtual SoC — one VexRiscv_Linux hart (MMU, supervisor mode)
// with a CLINT and a PLIC that the mainline kernel drives, beside the unchanged latmon IP and the
// T1/T2 reference design (docs/hw/linux-soc.md).
//
//   VexRiscv_Linux (I$, D$, MMU) ─┐                      ┌─ RAM (RAM_WORDS words at 0x8000_0000, cached)
//   traffic generator ────────────┴─ shared Wishbone bus ┼─ sysctrl 0xB000_0000, UART 0xB001_0000,
//                                    (round robin)       │  irqgen 0xB002_0000, traffic 0xB003_0000
//                                                        ├─ AXI4-Lite ─> latmon LINE0 + stimulus (0xB004_0000)
//                                                        ├─ AXI4-Lite ─> latmon LINE1 (0xB005_0000)
//                                                        ├─ AXI4-Lite ─> refdesign: T1, T2, timer → FIFO (0xB010_0000)
//                                                        ├─ CLINT 0xF000_0000 (machine timer, software irq)
//                                                        └─ PLIC  0xF0C0_0000 (supervisor external irq)
//
// The core bypasses its data cache only for 0xB…, 0xE… and 0xF…: every device lives there.
// PLIC sources: 1 = irqgen line 0 (raised by the LINE0 monitor's stimulus generator, measured by
// that monitor), 2 = irqgen line 1, 3 = pl_ps_irq (the reference design's data ready),
// 4..9 = irqgen lines 2..7. The PLIC's one context drives bit 0 of the core's external
// interrupt array; the firmware sets that bit in the supervisor mask CSR (0x9C0), so it is the
// supervisor external interrupt (sip.SEIP). The CLINT drives the machine timer and software
// interrupts, which the firmware turns into the supervisor's (SBI).
`timescale 1ns / 1ps
`default_nettype none

module linux_soc_top #(
    // RAM size in 32-bit words (a power of two).
    parameter RAM_WORDS = 8388608,
    // Reset vector: the machine-mode firmware at the start of RAM.
    parameter RESET_VECTOR = 32'h80000000,
    // Nominal clock of CPU and fabric, in Hz (one clock domain; also the CLINT's timebase).
    parameter CLOCK_HZ = 100000000,
    // UART cycles per bit after reset.
    parameter UART_DIVISOR = 16
) (
    input  wire        clk,
    input  wire        rst,
    output wire        uart_tx,
    output wire        done,
    output wire [31:0] exit_code
);

    localparam MASTERS = 3;  // cpu i, cpu d, traffic

    // ---- interrupts ----------------------------------------------------------------------------

    wire        pl_ps_irq, timer_irq, data_read, monitor_irq;
    wire [7:0]  lines, line_raised, line_ack;
    wire        stim0, mtip, msip, seip;
    wire [15:1] plic_src = {6'd0, lines[7:2], pl_ps_irq, lines[1], lines[0]};

    // ---- masters -------------------------------------------------------------------------------

    wire [MASTERS-1:0]    m_cyc, m_stb, m_we, m_ack, m_err;
    wire [MASTERS*30-1:0] m_adr;
    wire [MASTERS*32-1:0] m_dat_w, m_dat_r;
    wire [MASTERS*4-1:0]  m_sel;

    VexRiscv cpu (
        .clk(clk), .reset(rst),
        .externalResetVector(RESET_VECTOR),
        .timerInterrupt(mtip), .softwareInterrupt(msip),
        .externalInterruptArray({31'd0, seip}),
        .iBusWishbone_CYC(m_cyc[0]), .iBusWishbone_STB(m_stb[0]),
        .iBusWishbone_ACK(m_ack[0]), .iBusWishbone_WE(m_we[0]),
        .iBusWishbone_ADR(m_adr[0 +: 30]),
        .iBusWishbone_DAT_MISO(m_dat_r[0 +: 32]),
        .iBusWishbone_DAT_MOSI(m_dat_w[0 +: 32]),
        .iBusWishbone_SEL(m_sel[0 +: 4]), .iBusWishbone_ERR(m_err[0]),
        .iBusWishbone_CTI(), .iBusWishbone_BTE(),
        .dBusWishbone_CYC(m_cyc[1]), .dBusWishbone_STB(m_stb[1]),
        .dBusWishbone_ACK(m_ack[1]), .dBusWishbone_WE(m_we[1]),
        .dBusWishbone_ADR(m_adr[30 +: 30]),
        .dBusWishbone_DAT_MISO(m_dat_r[32 +: 32]),
        .dBusWishbone_DAT_MOSI(m_dat_w[32 +: 32]),
        .dBusWishbone_SEL(m_sel[4 +: 4]), .dBusWishbone_ERR(m_err[1]),
        .dBusWishbone_CTI(), .dBusWishbone_BTE()
    );

    // ---- the shared bus ------------------------------------------------------------------------

    wire        s_cyc, s_stb, s_we;
    wire [29:0] s_adr;
    wire [31:0] s_dat_w;
    wire [3:0]  s_sel;
    reg  [31:0] s_dat_r;
    reg         s_ack, s_err;
    wire [2:0]  bus_owner;
    wire        bus_busy;

    soc_wb_arbiter #(.MASTERS(MASTERS)) arbiter (
        .clk(clk), .rst(rst),
        .m_cyc(m_cyc), .m_stb(m_stb), .m_we(m_we), .m_adr(m_adr), .m_dat_w(m_dat_w),
        .m_sel(m_sel), .m_dat_r(m_dat_r), .m_ack(m_ack), .m_err(m_err),
        .s_cyc(s_cyc), .s_stb(s_stb), .s_we(s_we), .s_adr(s_adr), .s_dat_w(s_dat_w),
        .s_sel(s_sel), .s_dat_r(s_dat_r), .s_ack(s_ack), .s_err(s_err),
        .owner(bus_owner), .busy(bus_busy)
    );

    // address decode (byte address = {s_adr, 2'b00})
    wire [15:0] page = s_adr[29:14];  // byte address bits 31:16
    localparam N_SLAVES = 12;
    localparam S_RAM = 0, S_REF = 1, S_LINE0 = 2, S_LINE1 = 3, S_SYS = 4, S_UART = 5,
               S_IRQGEN = 6, S_TRAFFIC = 7, S_CLINT = 8, S_PLIC = 9, S_NONE = 10;
    localparam RAM_PAGES_LOG2 = $clog2(RAM_WORDS) - 14;  // 64 KiB pages of RAM
    reg [3:0] slave;
    always @(*) begin
        if (page[15:12] == 4'h8 && (page[11:0] >> RAM_PAGES_LOG2) == 12'd0) slave = S_RAM;
        else if (page[15:2] == 14'h2C04) slave = S_REF;  // 0xB010_0000 .. 0xB013_FFFF
        else if (page == 16'hB004) slave = S_LINE0;
        else if (page == 16'hB005) slave = S_LINE1;
        else if (page == 16'hB000) slave = S_SYS;
        else if (page == 16'hB001) slave = S_UART;
        else if (page == 16'hB002) slave = S_IRQGEN;
        else if (page == 16'hB003) slave = S_TRAFFIC;
        else if (page == 16'hF000) slave = S_CLINT;
        else if (page[15:6] == 10'h3C3) slave = S_PLIC;  // 0xF0C0_0000 .. 0xF0FF_FFFF
        else slave = S_NONE;
    end

    wire [N_SLAVES-1:0] sel_stb;
    genvar s;
    generate
        for (s = 0; s < N_SLAVES; s = s + 1) begin : g_sel
            assign sel_stb[s] = s_stb && slave == s;
        end
    endgenerate

    wire [31:0] ram_dat, ref_dat, line0_dat, line1_dat, sys_dat, uart_dat, irqgen_dat,
                traffic_dat, clint_dat, plic_dat;
    wire ram_ack, ref_ack, ref_err, line0_ack, line0_err, line1_ack, line1_err, sys_ack, uart_ack,
         irqgen_ack, traffic_ack, clint_ack, plic_ack;
    reg none_ack = 1'b0;
    always @(posedge clk) none_ack <= sel_stb[S_NONE] && !none_ack && !rst;

    always @(*) begin
        case (slave)
            S_RAM: s_dat_r = ram_dat;
            S_REF: s_dat_r = ref_dat;
            S_LINE0: s_dat_r = line0_dat;
            S_LINE1: s_dat_r = line1_dat;
            S_SYS: s_dat_r = sys_dat;
            S_UART: s_dat_r = uart_dat;
            S_IRQGEN: s_dat_r = irqgen_dat;
            S_TRAFFIC: s_dat_r = traffic_dat;
            S_CLINT: s_dat_r = clint_dat;
            S_PLIC: s_dat_r = plic_dat;
            default: s_dat_r = 32'd0;
        endcase
        s_ack = ram_ack | ref_ack | line0_ack | line1_ack | sys_ack | uart_ack | irqgen_ack |
                traffic_ack | clint_ack | plic_ack;
        s_err = ref_err | line0_err | line1_err | none_ack;
    end

    // ---- slaves -------------------------------------------------------------------------------

    soc_wb_ram #(.WORDS(RAM_WORDS), .INIT_FILE("")) ram (
        .clk(clk), .rst(rst), .stb(sel_stb[S_RAM]), .we(s_we), .adr(s_adr), .dat_w(s_dat_w),
        .sel(s_sel), .dat_r(ram_dat), .ack(ram_ack)
    );

    linux_clint clint (
        .clk(clk), .rst(rst), .stb(sel_stb[S_CLINT]), .we(s_we), .adr({s_adr[13:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(clint_dat), .ack(clint_ack), .timer_irq(mtip), .soft_irq(msip)
    );

    linux_plic #(.SOURCES(15)) plic (
        .clk(clk), .rst(rst), .stb(sel_stb[S_PLIC]), .we(s_we), .adr({s_adr[19:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(plic_dat), .ack(plic_ack), .src(plic_src), .eip(seip)
    );

    // AXI4-Lite port of the reference design
    wire [17:0] ref_awaddr, ref_araddr;
    wire [2:0]  ref_awprot, ref_arprot;
    wire        ref_awvalid, ref_awready, ref_wvalid, ref_wready, ref_bvalid, ref_bready;
    wire        ref_arvalid, ref_arready, ref_rvalid, ref_rready;
    wire [31:0] ref_wdata, ref_rdata;
    wire [3:0]  ref_wstrb;
    wire [1:0]  ref_bresp, ref_rresp;

    soc_wb_axil #(.ADDR_WIDTH(18)) ref_bridge (
        .clk(clk), .rst(rst), .stb(sel_stb[S_REF]), .we(s_we), .adr(s_adr), .dat_w(s_dat_w),
        .sel(s_sel), .dat_r(ref_dat), .ack(ref_ack), .err(ref_err),
        .m_axil_awaddr(ref_awaddr), .m_axil_awprot(ref_awprot), .m_axil_awvalid(ref_awvalid),
        .m_axil_awready(ref_awready), .m_axil_wdata(ref_wdata), .m_axil_wstrb(ref_wstrb),
        .m_axil_wvalid(ref_wvalid), .m_axil_wready(ref_wready), .m_axil_bresp(ref_bresp),
        .m_axil_bvalid(ref_bvalid), .m_axil_bready(ref_bready), .m_axil_araddr(ref_araddr),
        .m_axil_arprot(ref_arprot), .m_axil_arvalid(ref_arvalid), .m_axil_arready(ref_arready),
        .m_axil_rdata(ref_rdata), .m_axil_rresp(ref_rresp), .m_axil_rvalid(ref_rvalid),
        .m_axil_rready(ref_rready)
    );

    refdesign #(.ADDR_WIDTH(18), .HAS_HIST(0)) ref_inst (
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
                .clk(clk), .rst(rst), .stb(sel_stb[S_LINE0 + s]), .we(s_we), .adr(s_adr),
                .dat_w(s_dat_w), .sel(s_sel), .dat_r(dat), .ack(ack), .err(err),
                .m_axil_awaddr(awaddr), .m_axil_awprot(awprot), .m_axil_awvalid(awvalid),
                .m_axil_awready(awready), .m_axil_wdata(wdata), .m_axil_wstrb(wstrb),
                .m_axil_wvalid(wvalid), .m_axil_wready(wready), .m_axil_bresp(bresp),
                .m_axil_bvalid(bvalid), .m_axil_bready(bready), .m_axil_araddr(araddr),
                .m_axil_arprot(arprot), .m_axil_arvalid(arvalid), .m_axil_arready(arready),
                .m_axil_rdata(rdata), .m_axil_rresp(rresp), .m_axil_rvalid(rvalid),
                .m_axil_rready(rready)
            );

            // the monitor of irqgen line s: irq = each raise of the line, ack = the write of
            // ACK[s] (by the kernel's handler or the user-space thread through the mapping)
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

    soc_sysctrl #(.HARTS(1), .CLOCK_HZ(CLOCK_HZ)) sysctrl (
        .clk(clk), .rst(rst), .stb(sel_stb[S_SYS]), .we(s_we), .adr({s_adr[2:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(sys_dat), .ack(sys_ack), .done(done), .exit_code(exit_code)
    );

    soc_uart #(.DEFAULT_DIVISOR(UART_DIVISOR)) uart (
        .clk(clk), .rst(rst), .stb(sel_stb[S_UART]), .we(s_we), .adr({s_adr[1:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(uart_dat), .ack(uart_ack), .tx(uart_tx)
    );

    soc_irqgen #(.LINES(8)) irqgen (
        .clk(clk), .rst(rst), .stb(sel_stb[S_IRQGEN]), .we(s_we), .adr({s_adr[4:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(irqgen_dat), .ack(irqgen_ack),
        .trigger({7'd0, stim0}), .lines(lines), .raised(line_raised), .ack_pulse(line_ack)
    );

    soc_traffic traffic (
        .clk(clk), .rst(rst), .stb(sel_stb[S_TRAFFIC]), .we(s_we), .adr({s_adr[2:0], 2'b00}),
        .dat_w(s_dat_w), .dat_r(traffic_dat), .ack(traffic_ack),
        .m_cyc(m_cyc[2]), .m_stb(m_stb[2]), .m_we(m_we[2]), .m_adr(m_adr[2*30 +: 30]),
        .m_dat_w(m_dat_w[2*32 +: 32]), .m_sel(m_sel[2*4 +: 4]), .m_ack(m_ack[2]), .m_err(m_err[2])
    );

    wire unused = ^{timer_irq, data_read, monitor_irq, bus_owner, bus_busy, s_cyc, line_raised[7:2]};

endmodule

`default_nettype wire
