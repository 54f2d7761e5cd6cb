// tb_uart_rx: the test benches' terminal on the SoC's UART — decodes its serial line (8N1, at the
// divisor the firmware programmed) into bytes, each bit sampled in its middle, as a terminal on
// the board would capture them.
`timescale 1ns / 1ps
`default_nettype none

module tb_uart_rx (
    input  wire        clk,
    input  wire        rx,       // the UART's tx line
    input  wire [15:0] divisor,  // cycles per bit (the UART's register)
    output wire        valid,    // a byte is received in this cycle (the middle of its stop bit)
    output reg  [7:0]  data = 8'd0
);

    reg [15:0] timer = 16'd0;
    reg [3:0]  bit_no = 4'd0;  // 0 idle, 1 start, 2..9 data, 10 stop
    reg        rx_d = 1'b1;
    assign valid = bit_no == 4'd10 && timer == 16'd0;
    always @(posedge clk) begin
        rx_d <= rx;
        if (bit_no == 4'd0) begin
            if (rx_d && !rx) begin  // start bit edge: sample in the middle of each bit
                bit_no <= 4'd1;
                timer <= divisor / 16'd2;
            end
        end else if (timer != 16'd0) begin
            timer <= timer - 16'd1;
        end else begin
            timer <= divisor - 16'd1;
            if (bit_no >= 4'd2 && bit_no <= 4'd9)
                data <= {rx, data[7:1]};
            if (bit_no == 4'd1 && rx)
                bit_no <= 4'd0;  // a glitch, not a start bit
            else if (bit_no == 4'd10)
                bit_no <= 4'd0;
            else
                bit_no <= bit_no + 4'd1;
        end
    end

endmodule

`default_nettype wire
