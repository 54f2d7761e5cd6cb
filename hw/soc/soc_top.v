// soc_top: the virtual SoC — one or two VexRiscv RISC-V cores executing the bare-metal firmware
// against the latmon IP, cycle-accurately (docs/hw/soc.md).
//
//   VexRiscv 0 (I$, D$) ─┐                        ┌─ RAM (firmware; cached at 0x0, uncached alias 0x8000_0000)
//   VexRiscv 1 (I$, D$) ─┼─ shared Wishbone bus ──┼─ AXI4-Lite ─> refdesign: T1 core, T2 core, timer → FIFO (0xA000_0000)
//   traffic generator  ──┘   (round robin)        ├─ AXI4-Lite ─> latmon LINE0 monitor + stimulus (0xA004_0000)
//                                                 ├─ AXI4-Lite ─> latmon LINE1 monitor (0xA005_0000)
//                                                 └─ sysctrl 0xB000_0000, UART 0xB001_0000,
//                                                    irqgen 0xB002_0000, traffic 0xB003_0000
//
// Interrupts, the same on every hart (each masks what it does not serve): external interrupt
// array bit 0 = pl_ps_irq of the reference design (data ready, the T2 path), bits 1..8 = the
// irqgen lines 0..7. The stimulus generator of the LINE0 monitor raises line 0.
//
// The cores come from the pythondata-cpu-vexriscv package (CPU_FILE selects the variant at
// build time; the default is VexRiscv_Full: RV32IM, 5 stages, 4 KiB I$ and 4 KiB D$, 32-byte
// lines, machine-mode CSRs). Their address space above 0x8000_0000 bypasses the data cache.
`timescale 1ns / 1ps
`default_nettype none

module soc_top #(
    // Number of CPUs (1 or 2).
    parameter HARTS = 2,
    // RAM size in 32-bit words (a power of two).
    parameter RAM_WORDS = 32768,
    // Firmware image ($readmemh) loaded into RAM at time 0.
    parameter RAM_INIT = "",
    // Reset vector of hart 0; hart h starts at RESET_VECTOR + 8*h.
    parameter RESET_VECTOR = 32'h00000000,
    // Nominal clock of CPUs and fabric, in Hz (one clock domain).
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

    initial if (HARTS < 1 || HARTS > 2) $fatal(1, "soc_top: HARTS must be 1 or 2");

    localparam MASTERS = 5;  // cpu0 i, cpu0 d, cpu1 i, cpu1 d, traffic

    // ---- interrupts ------------------------------------------------------------------------

    wire       pl_ps_irq, timer_irq, data_read, monitor_irq;
    wire [7:0] lines, line_raised, line_ack;
    wire [31:0] ext_irq = {23'd0, lines, pl_ps_irq};

    // ---- masters -------------------------------------------------------------------------------

    wire [MASTERS-1:0]    m_cyc, m_stb, m_we, m_ack, m_err;
    wire [MASTERS*30-1:0] m_adr;
    wire [MASTERS*32-1:0] m_dat_w, m_dat_r;
    wire [MASTERS*4-1:0]  m_sel;

    genvar h;
    generate
        for (h = 0; h < 2; h = h + 1) begin : g_cpu
            if (h < HARTS) begin : g_on
                localparam [31:0] VECTOR = RESET_VECTOR + 8 * h;
                VexRiscv cpu (
                    .clk(clk), .reset(rst),
                    .externalResetVector(VECTOR),
                    .timerInterrupt(1'b0), .softwareInterrupt(1'b0),
                    .externalInterruptArray(ext_irq),
                    .iBusWishbone_CYC(m_cyc[2*h]), .iBusWishbone_STB(m_stb[2*h]),
                    .iBusWishbone_ACK(m_ack[2*h]), .iBusWishbone_WE(m_we[2*h]),
                    .iBusWishbone_ADR(m_adr[60*h +: 30]),
                    .iBusWishbone_DAT_MISO(m_dat_r[64*h +: 32]),
                    .iBusWishbone_DAT_MOSI(m_dat_w[64*h +: 32]),
                    .iBusWishbone_SEL(m_sel[8*h +: 4]), .iBusWishbone_ERR(m_err[2*h]),
                    .iBusWishbone_CTI(), .iBusWishbone_BTE(),
                    .dBusWishbone_CYC(m_cyc[2*h+1]), .dBusWishbone_STB(m_stb[2*h+1]),
                    .dBusWishbone_ACK(m_ack[2*h+1]), .dBusWishbone_WE(m_we[2*h+1]),
                    .dBusWishbone_ADR(m_adr[60*h+30 +: 30]),
                    .dBusWishbone_DAT_MISO(m_dat_r[64*h+32 +: 32]),
                    .dBusWishbone_DAT_MOSI(m_dat_w[64*h+32 +: 32]),
                    .dBusWishbone_SEL(m_sel[8*h+4 +: 4]), .dBusWishbone_ERR(m_err[2*h+1]),
                    .dBusWishbone_CTI(), .dBusWishbone_BTE()
                );
            end else begin : g_off
                assign m_cyc[2*h +: 2] = 2'b00;
                assign m_stb[2*h +: 2] = 2'b00;
                assign m_we[2*h +: 2] = 2'b00;
                assign m_adr[60*h +: 60] = 60'd0;
                assign m_dat_w[64*h +: 64] = 64'd0;
                assign m_sel[8*h +: 8] = 8'd0;
            end
        end
    endgenerate

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
    localparam N_SLAVES = 9;
    localparam S_RAM = 0, S_REF = 1, S_LINE0 = 2, S_LINE1 = 3, S_SYS = 4, S_UART = 5,
               S_IRQGEN = 6, S_TRAFFIC = 7, S_NONE = 8;
    reg [3:0] slave;
    always @(*) begin
        if (page[14:12] == 3'd0) slave = S_RAM;  // 0x0xxx_xxxx and its alias 0x8xxx_xxxx
        else if (page[15:2] == 14'h2800) slave = S_REF;  // 0xA000_0000 .. 0xA003_FFFF
        else if (page == 16'hA004) slave = S_LINE0;
        else if (page == 16'hA005) slave = S_LINE1;
        else if (page == 16'hB000) slave = S_SYS;
        else if (page == 16'hB001) slave = S_UART;
        else if (page == 16'hB002) slave = S_IRQGEN;
        else if (page == 16'hB003) slave = S_TRAFFIC;
        else slave = S_NONE;
    end

    wire [N_SLAVES-1:0] sel_stb;
    genvar s;
    generate
        for (s = 0; s < N_SLAVES; s = s + 1) begin : g_sel
            assign sel_stb[s] = s_stb && slave == s;
        end
    endgenerate

    wire [31:0] ram_dat, ref_dat, line0_dat, line1_dat, sys_dat, uart_dat, irqgen_dat, traffic_dat;
    wire ram_ack, ref_ack, ref_err, line0_ack, line0_err, line1_ack, line1_err, sys_ack, uart_ack,
         irqgen_ack, traffic_ack;
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
            default: s_dat_r = 32'd0;
        endcase
        s_ack = ram_ack | ref_ack | line0_ack | line1_ack | sys_ack | uart_ack | irqgen_ack |
                traffic_ack;
        s_err = ref_err | line0_err | line1_err | none_ack;
    end

    // ---- slaves -------------------------------------------------------------------------------

    soc_wb_ram #(.WORDS(RAM_WORDS), .INIT_FILE(RAM_INIT)) ram (
        .clk(clk), .rst(rst), .stb(sel_stb[S_RAM]), .we(s_we), .adr(s_adr), .dat_w(s_dat_w),
        .sel(s_sel), .dat_r(ram_dat), .ack(ram_ack)
    );

    soc_devices #(
        .HARTS(HARTS), .CLOCK_HZ(CLOCK_HZ), .UART_DIVISOR(UART_DIVISOR), .REF_HAS_HIST(1)
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
        .m_cyc(m_cyc[4]), .m_stb(m_stb[4]), .m_we(m_we[4]), .m_adr(m_adr[4*30 +: 30]),
        .m_dat_w(m_dat_w[4*32 +: 32]), .m_sel(m_sel[4*4 +: 4]), .m_ack(m_ack[4]),
        .m_err(m_err[4]),
        .pl_ps_irq(pl_ps_irq), .timer_irq(timer_irq), .data_read(data_read),
        .monitor_irq(monitor_irq), .lines(lines), .line_raised(line_raised), .line_ack(line_ack),
        .uart_tx(uart_tx), .done(done), .exit_code(exit_code)
    );

    wire unused = ^{timer_irq, data_read, monitor_irq, bus_owner, bus_busy, s_cyc, s_sel};

endmodule

`default_nettype wire
