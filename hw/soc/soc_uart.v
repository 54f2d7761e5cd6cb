// soc_uart: the SoC's serial console, transmit only (8N1), with a 16-byte FIFO.
//
// Registers (byte offsets):
//   0x00 TXDATA   write: queue one byte (dropped when the FIFO is full: poll STATUS first)
//   0x04 STATUS   bit 0 TX_FULL, bit 1 TX_IDLE (FIFO empty and the last stop bit sent)
//   0x08 DIVISOR  clock cycles per bit (>= 4; reset value DEFAULT_DIVISOR)
//
// The line idles high; each byte is a low start bit, eight data bits LSB first and a high stop
// bit, DIVISOR cycles each. The testbench decodes the line like any terminal would.
`timescale 1ns / 1ps
`default_nettype none

module soc_uart #(
    // Cycles per bit after reset.
    parameter DEFAULT_DIVISOR = 16
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        stb,
    input  wire        we,
    input  wire [3:0]  adr,      // byte offset 3:0 of the register
    input  wire [31:0] dat_w,
    output reg  [31:0] dat_r = 32'd0,
    output reg         ack = 1'b0,
    output wire        tx
);

    initial if (DEFAULT_DIVISOR < 4) $fatal(1, "soc_uart: DEFAULT_DIVISOR must be >= 4");

    reg [7:0]  fifo [0:15];
    reg [4:0]  wr_ptr = 5'd0, rd_ptr = 5'd0;
    wire [4:0] level = wr_ptr - rd_ptr;
    wire       full = level[4];
    wire       empty = level == 5'd0;

    reg [15:0] divisor = DEFAULT_DIVISOR[15:0];
    reg [15:0] bit_timer = 16'd0;
    reg [3:0]  bits_left = 4'd0;      // 0: idle
    reg [9:0]  shifter = 10'h3FF;
    assign tx = shifter[0];

    wire start = stb && !ack;
    wire push = start && we && adr == 4'h0 && !full;

    always @(posedge clk) begin
        ack <= start;
        if (start && !we) begin
            case (adr)
                4'h4: dat_r <= {30'd0, empty && bits_left == 4'd0, full};
                4'h8: dat_r <= {16'd0, divisor};
                default: dat_r <= 32'd0;
            endcase
        end
        if (start && we && adr == 4'h8)
            divisor <= dat_w[15:0] < 16'd4 ? 16'd4 : dat_w[15:0];
        if (push) begin
            fifo[wr_ptr[3:0]] <= dat_w[7:0];
            wr_ptr <= wr_ptr + 5'd1;
        end
        // transmitter
        if (bits_left == 4'd0) begin
            if (!empty) begin
                shifter <= {1'b1, fifo[rd_ptr[3:0]], 1'b0};
                rd_ptr <= rd_ptr + 5'd1;
                bits_left <= 4'd10;
                bit_timer <= divisor - 16'd1;
            end
        end else if (bit_timer == 16'd0) begin
            bit_timer <= divisor - 16'd1;
            bits_left <= bits_left - 4'd1;
            shifter <= {1'b1, shifter[9:1]};
        end else begin
            bit_timer <= bit_timer - 16'd1;
        end
        if (rst) begin
            ack <= 1'b0;
            wr_ptr <= 5'd0;
            rd_ptr <= 5'd0;
            bits_left <= 4'd0;
            shifter <= 10'h3FF;
            divisor <= DEFAULT_DIVISOR[15:0];
        end
    end

endmodule

`default_nettype wire
