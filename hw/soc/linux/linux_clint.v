// linux_clint: the core-local interruptor of the Linux SoC, the register layout of SiFive's CLINT
// ("riscv,clint0") for one hart: the machine timer and the machine software interrupt.
//
// mtime counts every cycle of the one clock (timebase = CLOCK_HZ). timer_irq is high while
// mtime >= mtimecmp (unsigned, 64 bits); mtimecmp resets to all ones (no interrupt).
//
// Registers (byte offsets, 32-bit accesses):
//   0x0000 MSIP        bit 0 drives soft_irq
//   0x4000 MTIMECMP    low word;  0x4004 high word
//   0xBFF8 MTIME       low word;  0xBFFC high word (read/write)
`timescale 1ns / 1ps
`default_nettype none

module linux_clint (
    input  wire        clk,
    input  wire        rst,
    input  wire        stb,
    input  wire        we,
    input  wire [15:0] adr,  // byte offset
    input  wire [31:0] dat_w,
    output reg  [31:0] dat_r = 32'd0,
    output reg         ack = 1'b0,
    output reg         timer_irq = 1'b0,
    output reg         soft_irq = 1'b0
);

    reg [63:0] mtime = 64'd0;
    reg [63:0] mtimecmp = {64{1'b1}};
    wire start = stb && !ack;

    always @(posedge clk) begin
        ack <= start;
        mtime <= mtime + 64'd1;
        timer_irq <= mtime >= mtimecmp;
        if (start && !we) begin
            case (adr)
                16'h0000: dat_r <= {31'd0, soft_irq};
                16'h4000: dat_r <= mtimecmp[31:0];
                16'h4004: dat_r <= mtimecmp[63:32];
                16'hBFF8: dat_r <= mtime[31:0];
                16'hBFFC: dat_r <= mtime[63:32];
                default: dat_r <= 32'd0;
            endcase
        end
        if (start && we) begin
            case (adr)
                16'h0000: soft_irq <= dat_w[0];
                16'h4000: mtimecmp[31:0] <= dat_w;
                16'h4004: mtimecmp[63:32] <= dat_w;
                16'hBFF8: mtime[31:0] <= dat_w;
                16'hBFFC: mtime[63:32] <= dat_w;
                default: ;
            endcase
        end
        if (rst) begin
            ack <= 1'b0;
            mtime <= 64'd0;
            mtimecmp <= {64{1'b1}};
            timer_irq <= 1'b0;
            soft_irq <= 1'b0;
        end
    end

endmodule

`default_nettype wire
