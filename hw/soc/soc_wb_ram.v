// soc_wb_ram: the SoC's RAM, a Wishbone (classic) slave of WORDS 32-bit words with byte selects.
//
// Block RAM timing: the word is read (and a write done) in the cycle the strobe is seen, ACK
// follows one cycle later with the data, so one access takes two cycles on the bus:
//
//   cycle      0    1    2    3
//   stb      _/~~~~~~~~~\____/~~     a new access may start in cycle 2
//   ack      ______/~~~~\_______
//   dat_r          [word]
//
// INIT_FILE (hex, one word per line, $readmemh) holds the firmware image at reset.
`timescale 1ns / 1ps
`default_nettype none

module soc_wb_ram #(
    // Words of RAM (a power of two).
    parameter WORDS = 32768,
    // $readmemh image loaded at time 0 ("" leaves the RAM undefined).
    parameter INIT_FILE = ""
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        stb,
    input  wire        we,
    input  wire [29:0] adr,
    input  wire [31:0] dat_w,
    input  wire [3:0]  sel,
    output reg  [31:0] dat_r = 32'd0,
    output reg         ack = 1'b0
);

    localparam AW = $clog2(WORDS);
    initial if (WORDS < 2 || (1 << AW) != WORDS) $fatal(1, "soc_wb_ram: WORDS must be a power of two");

    reg [31:0] mem [0:WORDS-1];
    initial if (INIT_FILE != "") $readmemh(INIT_FILE, mem);

    wire [AW-1:0] index = adr[AW-1:0];
    wire          start = stb && !ack;

    always @(posedge clk) begin
        ack <= start;
        if (start) begin
            dat_r <= mem[index];
            if (we) begin
                if (sel[0]) mem[index][7:0] <= dat_w[7:0];
                if (sel[1]) mem[index][15:8] <= dat_w[15:8];
                if (sel[2]) mem[index][23:16] <= dat_w[23:16];
                if (sel[3]) mem[index][31:24] <= dat_w[31:24];
            end
        end
        if (rst)
            ack <= 1'b0;
    end

endmodule

`default_nettype wire
