// Testbench of the Linux SoC (hw/soc/linux/linux_soc_top.v): clock (from the C++ main of
// hw/tb/linux_soc_main.cpp), reset, a terminal on the UART and the simulator's own record of the
// events the latmon IP measures, taken from the bus and the interrupt lines, not from the IP.
//
// Plusargs: +image=FILE  the RAM image ($readmemh with @word-address records: firmware, kernel,
//                        device tree)
//           +uart=FILE   the bytes the UART sent, decoded from the serial line (8N1)
//           +trace=FILE  one line per event, "<cycle> <event> [value]" (docs/hw/linux-soc.md):
//                        L0, L1 irqgen line 0, 1 rises (the level the PLIC sees),
//                        A0, A1 a store to irqgen ACK[0], ACK[1] completes on the shared bus,
//                           with the CPU's privilege at that cycle (0 user, 1 supervisor),
//                        R m a store to irqgen ARM (the arming of the lines in mask m) completes,
//                        and from an arming to the next rise of a line:
//                        W   a wfi enters the CPU's execute stage (the CPU waits for an interrupt),
//                        w   that wfi leaves it (an interrupt woke the CPU),
//                        K the first instruction of the kernel (0x8040_0000) retires,
//                        U the first instruction in user mode retires (/init's first),
//                        and while a line is raised and not yet acknowledged (a window):
//                        S k   an instruction at address k of +syms retires (stage marks),
//                        P p   the privilege of the retiring instruction changes to p
//                        C the checkpoint: /init asked for its parameters (below)
//                        X exit (code)
//           +syms=FILE   up to 16 instruction addresses ($readmemh; 0: unused): the kernel
//                        symbols whose first instruction marks a stage (hw/tb/linux_soc_stages.py)
//           +params=FILE the run's parameters for /init ($readmemh, @word-address records in the
//                        parameter page of RAM, 0x8003_F000), written into RAM when /init asks
//                        for them (its store to the page's word 0), or, in a run restored from a
//                        checkpoint taken there, when the C++ main raises `reload`
//           +save        (read by the C++ main) checkpoint at /init's request: the parameters
//                        are not loaded; the C++ main saves the model and ends the run
//           +max_cycles=N
//           +progress    every 2^24 cycles, print the cycle, the PC and the privilege retiring
// At /init's request and at the end it prints the traps taken to machine mode (the firmware's
// work: SBI calls, emulated counter reads, timer) by cause, with the cycles spent in machine mode.
//
// `reload` (from the C++ main, one clock edge after a restore): the files of a restored model's
// run are opened again (appending: the trace already holds the boot's events), the plusargs read
// again and the parameters written. `ckpt` (to the C++ main): /init asked for its parameters in
// this cycle.
`timescale 1ns / 1ps
`default_nettype none

module tb_linux_soc #(
    parameter RAM_WORDS = 8388608,
    parameter UART_DIVISOR = 16
) (
    input wire clk,
    input wire reload,
    output reg ckpt = 1'b0
);

    // /init's parameter page (in the firmware's reserved RAM, never mapped by the kernel; a map
    // of /init's UIO device): word 0 /init's request, word 1.. the parameters (init.c)
    localparam [29:0] PARAM_WORD = 30'h2000FC00;  // 0x8003_F000 >> 2

    reg rst = 1'b1;
    reg [63:0] cycle = 64'd0;
    wire uart_tx, done;
    wire [31:0] exit_code;

    linux_soc_top #(.RAM_WORDS(RAM_WORDS), .UART_DIVISOR(UART_DIVISOR)) dut (
        .clk(clk), .rst(rst), .uart_tx(uart_tx), .done(done), .exit_code(exit_code)
    );

    integer uart_fd = 0, trace_fd = 0;
    reg [63:0] max_cycles = 64'd0;
    reg [1023:0] path;
    reg [31:0] syms [0:15];
    integer k;
    reg progress = 1'b0, save = 1'b0;
    task automatic read_plusargs;
        begin
            progress = $test$plusargs("progress") != 0;
            save = $test$plusargs("save") != 0;
            for (k = 0; k < 16; k = k + 1) syms[k] = 32'd0;
            if ($value$plusargs("syms=%s", path)) $readmemh(path, syms);
            if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 64'd0;
        end
    endtask
    task automatic load_params;
        begin
            if ($value$plusargs("params=%s", path)) $readmemh(path, dut.ram.mem);
            else $display("tb_linux_soc: /init asks for its parameters; no +params=FILE given");
        end
    endtask
    initial begin
        read_plusargs();
        if ($value$plusargs("image=%s", path)) $readmemh(path, dut.ram.mem);
        else $display("tb_linux_soc: no +image=FILE given; the RAM is empty");
        if ($value$plusargs("uart=%s", path)) uart_fd = $fopen(path, "w");
        if ($value$plusargs("trace=%s", path)) trace_fd = $fopen(path, "w");
    end

    // the checkpoint: /init's store to word 0 of the parameter page, as the bus completes it
    wire param_request = dut.s_stb && dut.s_we && dut.ram_ack && dut.s_adr == PARAM_WORD;
    always @(posedge clk) begin
        ckpt <= 1'b0;
        if (reload) begin
            uart_fd = 0;
            trace_fd = 0;
            read_plusargs();
            if ($value$plusargs("uart=%s", path)) uart_fd = $fopen(path, "a");
            if ($value$plusargs("trace=%s", path)) trace_fd = $fopen(path, "a");
            load_params();
        end else if (param_request && !rst) begin
            ckpt <= 1'b1;
            if (trace_fd != 0) begin
                $fwrite(trace_fd, "%0d C\n", cycle);
                $fflush(trace_fd);
            end
            if (!save) load_params();
        end
    end

    always @(posedge clk) begin
        cycle <= cycle + 64'd1;
        if (cycle == 64'd4) rst <= 1'b0;
    end

    // ---- terminal: decode the serial line ------------------------------------------------------

    wire       rx_valid;
    wire [7:0] rx_data;
    tb_uart_rx terminal (
        .clk(clk), .rx(uart_tx), .divisor(dut.devices.uart.divisor), .valid(rx_valid),
        .data(rx_data)
    );
    always @(posedge clk)
        if (rx_valid && uart_fd != 0) begin
            $fwrite(uart_fd, "%c", rx_data);
            $fflush(uart_fd);
        end

    // ---- the simulator's record of events ------------------------------------------------------

    wire        retire = dut.cpu.lastStageIsFiring;
    wire [31:0] pc = dut.cpu.writeBack_PC;
    wire [1:0]  priv = dut.cpu.CsrPlugin_privilege;
    reg         line0_d = 1'b0, line1_d = 1'b0, kernel_seen = 1'b0, user_seen = 1'b0;
    // the stores to irqgen ACK[0], ACK[1] (byte addresses 0xB002_0010, 0xB002_0014) as the
    // shared bus completes them
    wire        ack0_store = dut.s_stb && dut.s_we && dut.irqgen_ack && dut.s_adr == 30'h2C008004;
    wire        ack1_store = dut.s_stb && dut.s_we && dut.irqgen_ack && dut.s_adr == 30'h2C008005;
    // the store to irqgen ARM (0xB002_000C), and whether the CPU waits in wfi
    wire        arm_store = dut.s_stb && dut.s_we && dut.irqgen_ack && dut.s_adr == 30'h2C008003;
    wire        in_wfi = dut.cpu.CsrPlugin_inWfi;
    wire        rise = (dut.lines[0] && !line0_d) || (dut.lines[1] && !line1_d);
    reg         armed = 1'b0, in_wfi_d = 1'b0;
    // a window: from a line's rise to the store that acknowledges it
    reg        window = 1'b0;
    integer    j;
    reg [1:0]  last_priv = 2'd3;
    always @(posedge clk) begin
        if (retire) last_priv <= priv;
        if (rise) window <= 1'b1;
        else if (ack0_store || ack1_store) window <= 1'b0;
        in_wfi_d <= in_wfi;
        if (rise) armed <= 1'b0;
        else if (arm_store) armed <= 1'b1;
    end

    always @(posedge clk) begin
        line0_d <= dut.lines[0];
        line1_d <= dut.lines[1];
        if (trace_fd != 0 && !rst) begin
            if (dut.lines[0] && !line0_d) $fwrite(trace_fd, "%0d L0\n", cycle);
            if (dut.lines[1] && !line1_d) $fwrite(trace_fd, "%0d L1\n", cycle);
            if (ack0_store) $fwrite(trace_fd, "%0d A0 %0d\n", cycle, priv);
            if (ack1_store) $fwrite(trace_fd, "%0d A1 %0d\n", cycle, priv);
            if (arm_store) $fwrite(trace_fd, "%0d R %0d\n", cycle, dut.s_dat_w);
            if (armed && !rise && in_wfi && !in_wfi_d) $fwrite(trace_fd, "%0d W\n", cycle);
            if (armed && !rise && !in_wfi && in_wfi_d) $fwrite(trace_fd, "%0d w\n", cycle);
            if (retire && pc == 32'h80400000 && !kernel_seen) begin
                $fwrite(trace_fd, "%0d K\n", cycle);
                $fflush(trace_fd);
                kernel_seen <= 1'b1;
            end
            if (retire && priv == 2'd0 && !user_seen) begin
                $fwrite(trace_fd, "%0d U\n", cycle);
                $fflush(trace_fd);
                user_seen <= 1'b1;
            end
            if (window && retire) begin
                for (j = 0; j < 16; j = j + 1)
                    if (syms[j] != 32'd0 && pc == syms[j]) $fwrite(trace_fd, "%0d S %0d\n", cycle, j);
                if (priv != last_priv) $fwrite(trace_fd, "%0d P %0d\n", cycle, priv);
            end
        end
    end

    // the machine-mode firmware's work: traps taken to machine mode (after the firmware started
    // the kernel) by cause, and the cycles the CPU spent in machine mode for each, printed at
    // /init's request and at the end ("mtraps <cause> <traps> <cycles>"; interrupts as 16 + code)
    wire [4:0]  m_cause_now = {dut.cpu.CsrPlugin_mcause_interrupt, dut.cpu.CsrPlugin_mcause_exceptionCode};
    reg  [1:0]  priv_d = 2'd3;
    reg  [4:0]  m_cause = 5'd0;
    reg  [31:0] m_traps [0:31];
    reg  [63:0] m_cycles [0:31];
    integer     kt;
    initial for (kt = 0; kt < 32; kt = kt + 1) begin
        m_traps[kt] = 32'd0;
        m_cycles[kt] = 64'd0;
    end
    always @(posedge clk) begin
        priv_d <= priv;
        if (!rst && priv == 2'd3 && priv_d != 2'd3) begin
            m_cause <= m_cause_now;
            m_traps[m_cause_now] <= m_traps[m_cause_now] + 32'd1;
            m_cycles[m_cause_now] <= m_cycles[m_cause_now] + 64'd1;
        end else if (!rst && priv == 2'd3 && kernel_seen) begin
            m_cycles[m_cause] <= m_cycles[m_cause] + 64'd1;
        end
    end
    task automatic print_mtraps;
        for (kt = 0; kt < 32; kt = kt + 1)
            if (m_traps[kt] != 32'd0)
                $display("tb_linux_soc: mtraps %0d %0d %0d", kt, m_traps[kt], m_cycles[kt]);
    endtask
    always @(posedge clk)
        if (param_request && !rst) print_mtraps();

    always @(posedge clk)
        if (progress && cycle[23:0] == 24'd0)
            $display("tb_linux_soc: cycle %0d pc %08x privilege %0d", cycle, pc, priv);

    always @(posedge clk) begin
        if (!rst && (done || (max_cycles != 64'd0 && cycle >= max_cycles))) begin
            if (trace_fd != 0) $fwrite(trace_fd, "%0d X %0d\n", cycle, done ? exit_code : 124);
            if (uart_fd != 0) $fclose(uart_fd);
            if (trace_fd != 0) $fclose(trace_fd);
            $display("tb_linux_soc: %s after %0d cycles, exit code %0d",
                     done ? "firmware done" : "cycle limit reached", cycle,
                     done ? exit_code : 124);
            print_mtraps();
            $finish;
        end
    end

endmodule

`default_nettype wire
