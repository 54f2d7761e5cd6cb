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
    wire        mtip, msip, seip;
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

    soc_devices #(
        .HARTS(1), .CLOCK_HZ(CLOCK_HZ), .UART_DIVISOR(UART_DIVISOR), .REF_HAS_HIST(0)
    ) devices (
        .clk(clk), .rst(rst),
        .s_we(s_we), .s_adr(s_adr), .s_dat_w(s_dat_w), .s_sel(s_sel),
        .ref_stb(sel_stb[S_REF]), .line0_stb(sel_stb[S_LINE0]), .line1_stb(sel_stb[S_LINE1]),
        .sys_stb(sel_stb[S_SYS]), .uart_stb(sel_stb[S_UART]), .irqgen_stb(sel_stb[S_IRQGEN]),
        .traffic_stb(sel_stb[S_TRAFFIC]),
        .ref_dat(ref_dat), .ref_ack(ref_ack), .ref_err(ref_err),
        .line0_dat(line0_dat), .line0_ack(line0_ack), .line0_err(line0_err),
        .line1_dat(line1_dat), .line1_ack(line1_ack), .line1_err(line1_err),
        .sys_dat(sys_dat), .sys_ack(sys_ack), .uart_dat(uart_dat), .uart_ack(uart_ack),
        .irqgen_dat(irqgen_dat), .irqgen_ack(irqgen_ack),
        .traffic_dat(traffic_dat), .traffic_ack(traffic_ack),
        .m_cyc(m_cyc[2]), .m_stb(m_stb[2]), .m_we(m_we[2]), .m_adr(m_adr[2*30 +: 30]),
        .m_dat_w(m_dat_w[2*32 +: 32]), .m_sel(m_sel[2*4 +: 4]), .m_ack(m_ack[2]),
        .m_err(m_err[2]),
        .pl_ps_irq(pl_ps_irq), .timer_irq(timer_irq), .data_read(data_read),
        .monitor_irq(monitor_irq), .lines(lines), .line_raised(line_raised), .line_ack(line_ack),
        .uart_tx(uart_tx), .done(done), .exit_code(exit_code)
    );

    wire unused = ^{timer_irq, data_read, monitor_irq, bus_owner, bus_busy, s_cyc, line_raised[7:2]};

endmodule

`default_nettype wire
