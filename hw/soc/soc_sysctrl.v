// soc_sysctrl: identification of the virtual SoC and the end of a simulated run.
//
// Registers (byte offsets):
//   0x00 ID        read: 0x534F4331 ("SOC1")
//   0x04 HARTS     read: number of CPUs
//   0x08 CLOCK_HZ  read: the nominal clock of CPUs and fabric (one clock domain)
//   0x0C EXIT      write: the firmware is done; `done` rises and `exit_code` holds the value
//                  (a testbench ends the simulation; on a board nothing is connected)
//   0x10 SCRATCH   read/write: a word for start-up handshakes between the harts
`timescale 1ns / 1ps
`default_nettype none

module soc_sysctrl #(
    // Number of CPUs.
    parameter HARTS = 1,
    // Nominal clock frequency in Hz.
    parameter CLOCK_HZ = 100000000
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        stb,
    input  wire        we,
    input  wire [4:0]  adr,
    input  wire [31:0] dat_w,
    output reg  [31:0] dat_r = 32'd0,
    output reg         ack = 1'b0,
    output reg         done = 1'b0,
    output reg  [31:0] exit_code = 32'd0
);

    reg [31:0] scratch = 32'd0;
    wire start = stb && !ack;

    always @(posedge clk) begin
        ack <= start;
        if (start && !we) begin
            case (adr)
                5'h00: dat_r <= 32'h534F4331;
                5'h04: dat_r <= HARTS;
                5'h08: dat_r <= CLOCK_HZ;
                5'h0C: dat_r <= exit_code;
                5'h10: dat_r <= scratch;
                default: dat_r <= 32'd0;
            endcase
        end
        if (start && we && adr == 5'h0C) begin
            done <= 1'b1;
            exit_code <= dat_w;
        end
        if (start && we && adr == 5'h10)
            scratch <= dat_w;
        if (rst) begin
            ack <= 1'b0;
            done <= 1'b0;
            scratch <= 32'd0;
        end
    end

endmodule

`default_nettype wire
