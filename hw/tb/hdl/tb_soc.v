// Testbench of the virtual SoC (hw/soc/soc_top.v): clock, reset, a terminal on the UART and the
// simulator's own record of every event the latmon cores measure. Nothing here drives the
// firmware: the CPUs run the image of +firmware, and the run ends when the firmware writes
// sysctrl EXIT (or after +max_cycles=N cycles: exit code 124).
//
// Plusargs: +firmware=FILE the firmware image ($readmemh, one 32-bit word per line) for the RAM
//           +uart=FILE  the bytes the UART sent, decoded from the serial line (8N1, the divisor
//                       the firmware programmed) — what a terminal on the board would capture
//           +trace=FILE one line per event, "<cycle> <event> [value]" (docs/hw/soc.md):
//                       T timer pulse, R data ready rises (pl_ps_irq), D the ISR reads DATA,
//                       L0/L1 a raise of irqgen line 0/1, A0/A1 the ACK write of line 0/1,
//                       J<h> hart h takes an interrupt,
//                       I<h> hart h retires the first instruction of its trap vector,
//                       F<h> hart h's instruction cache starts a line refill, X exit (code)
//           +max_cycles=N
`timescale 1ns / 1ps
`default_nettype none

module tb_soc #(
    parameter HARTS = 2,
    parameter RAM_WORDS = 32768,
    parameter UART_DIVISOR = 16
) (
`ifdef TB_SOC_CLOCK_INPUT
    // with the C++ main of hw/tb/soc_main.cpp the clock is an input (no timing engine needed)
    input wire clk
`endif
);

`ifndef TB_SOC_CLOCK_INPUT
    reg clk = 1'b0;
    always #5 clk = ~clk;
`endif
    reg rst = 1'b1;
    reg [63:0] cycle = 64'd0;
    wire uart_tx, done;
    wire [31:0] exit_code;

    soc_top #(
        .HARTS(HARTS), .RAM_WORDS(RAM_WORDS), .RAM_INIT(""), .UART_DIVISOR(UART_DIVISOR)
    ) dut (
        .clk(clk), .rst(rst), .uart_tx(uart_tx), .done(done), .exit_code(exit_code)
    );

    integer uart_fd = 0, trace_fd = 0;
    reg [63:0] max_cycles = 64'd0;
    reg [1023:0] path;
    initial begin
        if ($value$plusargs("firmware=%s", path)) $readmemh(path, dut.ram.mem);
        else $display("tb_soc: no +firmware=FILE given; the RAM is empty");
        if ($value$plusargs("uart=%s", path)) uart_fd = $fopen(path, "w");
        if ($value$plusargs("trace=%s", path)) trace_fd = $fopen(path, "w");
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 64'd0;
    end

    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        if (cycle == 64'd4) rst <= 1'b0;
    end

    // ---- terminal: decode the serial line --------------------------------------------------

    wire       rx_valid;
    wire [7:0] rx_data;
    tb_uart_rx terminal (
        .clk(clk), .rx(uart_tx), .divisor(dut.devices.uart.divisor), .valid(rx_valid),
        .data(rx_data)
    );
    always @(posedge clk)
        if (rx_valid && uart_fd != 0) $fwrite(uart_fd, "%c", rx_data);

    // ---- the simulator's record of events --------------------------------------------------

    reg ready_d = 1'b0;
    always @(posedge clk) begin
        ready_d <= dut.pl_ps_irq;
        if (trace_fd != 0 && !rst) begin
            if (dut.timer_irq) $fwrite(trace_fd, "%0d T\n", cycle);
            if (dut.pl_ps_irq && !ready_d) $fwrite(trace_fd, "%0d R\n", cycle);
            if (dut.data_read) $fwrite(trace_fd, "%0d D\n", cycle);
            if (dut.line_raised[0]) $fwrite(trace_fd, "%0d L0\n", cycle);
            if (dut.line_raised[1]) $fwrite(trace_fd, "%0d L1\n", cycle);
            if (dut.line_ack[0]) $fwrite(trace_fd, "%0d A0\n", cycle);
            if (dut.line_ack[1]) $fwrite(trace_fd, "%0d A1\n", cycle);
        end
    end

    genvar h;
    generate
        for (h = 0; h < HARTS; h = h + 1) begin : g_hart
            wire        jump = dut.g_cpu[h].g_on.cpu.CsrPlugin_interruptJump;
            wire        retire = dut.g_cpu[h].g_on.cpu.lastStageIsFiring;
            wire [31:0] pc = dut.g_cpu[h].g_on.cpu.writeBack_PC;
            wire [31:0] mtvec = {dut.g_cpu[h].g_on.cpu.CsrPlugin_mtvec_base, 2'b00};
            wire        ibus_cyc = dut.g_cpu[h].g_on.cpu.iBusWishbone_CYC;
            reg         ibus_d = 1'b0;
            reg         in_trap = 1'b0;
            always @(posedge clk) begin
                ibus_d <= ibus_cyc;
                if (trace_fd != 0 && !rst) begin
                    if (jump) $fwrite(trace_fd, "%0d J%0d\n", cycle, h);
                    if (retire && pc == mtvec && mtvec != 32'd0) $fwrite(trace_fd, "%0d I%0d\n", cycle, h);
                    if (ibus_cyc && !ibus_d) $fwrite(trace_fd, "%0d F%0d\n", cycle, h);
                end
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (!rst && (done || (max_cycles != 64'd0 && cycle >= max_cycles))) begin
            if (trace_fd != 0) $fwrite(trace_fd, "%0d X %0d\n", cycle, done ? exit_code : 124);
            if (uart_fd != 0) $fclose(uart_fd);
            if (trace_fd != 0) $fclose(trace_fd);
            $display("tb_soc: %s after %0d cycles, exit code %0d",
                     done ? "firmware done" : "cycle limit reached", cycle,
                     done ? exit_code : 124);
            $finish;
        end
    end

endmodule

`default_nettype wire
