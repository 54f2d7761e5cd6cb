// soc_irqgen: LINES test interrupt sources for the interrupt test-case suite.
//
// Each line is a level interrupt: it rises when software sets it (SET), when the free-running
// cycle counter NOW reaches the line's compare value while the line is armed (one shot), or on
// a pulse of its `trigger` input (the stimulus generator of a latmon core); it stays high until
// software writes the line's ACK register. A latmon core measures a line with irq = `raised`
// (one cycle per raise event, in the cycle the line rises) and ack = `ack_pulse` (one cycle, the
// ACK write). A raise while the line is already high is an interrupt lost — the core counts it
// as an overrun. A raise in the same cycle as the ACK write wins (the line stays high: the new
// interrupt is pending, as the core's new measurement is).
//
// Registers (byte offsets):
//   0x00 NOW      read: cycle counter (32 bits, wraps)
//   0x04 PENDING  read: the lines' levels
//   0x08 SET      write: raise the lines whose bits are 1
//   0x0C ARM      write: arm the compare of the lines whose bits are 1; read: armed lines
//   0x10 + 4*i    ACK[i]: write (any value) to lower line i
//   0x40 + 4*i    CMP[i]: line i rises in the cycle after NOW == CMP[i] while armed
`timescale 1ns / 1ps
`default_nettype none

module soc_irqgen #(
    // Number of lines (1..8).
    parameter LINES = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             stb,
    input  wire             we,
    input  wire [6:0]       adr,        // byte offset 6:0
    input  wire [31:0]      dat_w,
    output reg  [31:0]      dat_r = 32'd0,
    output reg              ack = 1'b0,

    input  wire [LINES-1:0] trigger,
    output reg  [LINES-1:0] lines = {LINES{1'b0}},
    output reg  [LINES-1:0] raised = {LINES{1'b0}},
    output reg  [LINES-1:0] ack_pulse = {LINES{1'b0}}
);

    initial if (LINES < 1 || LINES > 8) $fatal(1, "soc_irqgen: LINES must be 1..8");

    reg [31:0]      now = 32'd0;
    reg [LINES-1:0] armed = {LINES{1'b0}};
    reg [31:0]      cmp [0:LINES-1];

    wire start = stb && !ack;
    wire wr = start && we;

    reg [LINES-1:0] match, set_now, ack_now;
    integer i;
    always @(*) begin
        for (i = 0; i < LINES; i = i + 1) begin
            match[i] = armed[i] && now == cmp[i];
            set_now[i] = wr && adr == 7'h08 && dat_w[i];
            ack_now[i] = wr && adr == 7'h10 + 4 * i;
        end
    end

    always @(posedge clk) begin
        now <= now + 32'd1;
        ack <= start;
        ack_pulse <= ack_now;
        raised <= match | set_now | trigger;
        lines <= (lines & ~ack_now) | match | set_now | trigger;
        armed <= (armed & ~match) | (wr && adr == 7'h0C ? dat_w[LINES-1:0] : {LINES{1'b0}});
        for (i = 0; i < LINES; i = i + 1)
            if (wr && adr == 7'h40 + 4 * i)
                cmp[i] <= dat_w;
        if (start && !we) begin
            dat_r <= 32'd0;
            if (adr == 7'h00) dat_r <= now;
            if (adr == 7'h04) dat_r[LINES-1:0] <= lines;
            if (adr == 7'h0C) dat_r[LINES-1:0] <= armed;
            for (i = 0; i < LINES; i = i + 1)
                if (adr == 7'h40 + 4 * i)
                    dat_r <= cmp[i];
        end
        if (rst) begin
            now <= 32'd0;
            ack <= 1'b0;
            ack_pulse <= {LINES{1'b0}};
            raised <= {LINES{1'b0}};
            lines <= {LINES{1'b0}};
            armed <= {LINES{1'b0}};
        end
    end

endmodule

`default_nettype wire
