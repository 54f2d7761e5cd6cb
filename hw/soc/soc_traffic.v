// soc_traffic: a DMA-like Wishbone master that loads the shared bus with random memory traffic
// (the "background random memory traffic" interrupt test case).
//
// While enabled it performs single-word accesses to random words of a RAM window, reads or
// (when WRITES is set) half reads and half writes, with a random idle gap of 0..GAP_MAX cycles
// after each. Addresses, directions and gaps come from a 32-bit xorshift generator (seed SEED).
// The writes store the generator's value into a window the firmware leaves to the generator.
//
// Registers (byte offsets):
//   0x00 CTRL     bit 0 ENABLE, bit 1 WRITES
//   0x04 BASE     byte address of the window (word aligned)
//   0x08 MASK     word-index mask: word = BASE/4 + (x & MASK)
//   0x0C GAP_MAX  longest idle gap in cycles (0..65535)
//   0x10 SEED     xorshift seed (nonzero); written: restarts the sequence
//   0x14 COUNT    read: accesses completed since reset
`timescale 1ns / 1ps
`default_nettype none

module soc_traffic (
    input  wire        clk,
    input  wire        rst,
    // register slave
    input  wire        stb,
    input  wire        we,
    input  wire [4:0]  adr,
    input  wire [31:0] dat_w,
    output reg  [31:0] dat_r = 32'd0,
    output reg         ack = 1'b0,
    // bus master
    output reg         m_cyc = 1'b0,
    output wire        m_stb,
    output reg         m_we = 1'b0,
    output reg  [29:0] m_adr = 30'd0,
    output reg  [31:0] m_dat_w = 32'd0,
    output wire [3:0]  m_sel,
    input  wire        m_ack,
    input  wire        m_err
);

    reg        enable = 1'b0, writes = 1'b0;
    reg [29:0] base = 30'd0;
    reg [29:0] mask = 30'd0;
    reg [15:0] gap_max = 16'd0;
    reg [31:0] x = 32'h12345678;
    reg [31:0] count = 32'd0;
    reg [15:0] gap = 16'd0;

    assign m_stb = m_cyc;
    assign m_sel = 4'hF;

    wire [31:0] x1 = x ^ (x << 13);
    wire [31:0] x2 = x1 ^ (x1 >> 17);
    wire [31:0] x_next = x2 ^ (x2 << 5);

    wire start = stb && !ack;
    wire wr = start && we;

    always @(posedge clk) begin
        ack <= start;
        if (start && !we) begin
            case (adr)
                5'h00: dat_r <= {30'd0, writes, enable};
                5'h04: dat_r <= {base, 2'b00};
                5'h08: dat_r <= {2'b00, mask};
                5'h0C: dat_r <= {16'd0, gap_max};
                5'h10: dat_r <= x;
                5'h14: dat_r <= count;
                default: dat_r <= 32'd0;
            endcase
        end
        if (wr) begin
            case (adr)
                5'h00: begin
                    enable <= dat_w[0];
                    writes <= dat_w[1];
                end
                5'h04: base <= dat_w[31:2];
                5'h08: mask <= dat_w[29:0];
                5'h0C: gap_max <= dat_w[15:0];
                5'h10: x <= dat_w == 32'd0 ? 32'h12345678 : dat_w;
                default: ;
            endcase
        end
        // the master: idle gap, then one access
        if (m_cyc) begin
            if (m_ack || m_err) begin
                m_cyc <= 1'b0;
                count <= count + 32'd1;
                // gap uniform in 0..gap_max: multiply-high of 16 random bits
                gap <= ({16'd0, x[31:16]} * ({16'd0, gap_max} + 32'd1)) >> 16;
            end
        end else if (gap != 16'd0) begin
            gap <= gap - 16'd1;
        end else if (enable && !(wr && adr == 5'h10)) begin
            m_cyc <= 1'b1;
            m_we <= writes && x[0];
            m_adr <= base + (x[31:2] & mask);
            m_dat_w <= x;
            x <= x_next;
        end
        if (rst) begin
            ack <= 1'b0;
            enable <= 1'b0;
            m_cyc <= 1'b0;
            gap <= 16'd0;
            count <= 32'd0;
        end
    end

endmodule

`default_nettype wire
