// soc_wb_arbiter: MASTERS Wishbone (classic, B4) masters share one bus, round robin.
//
// The virtual SoC has one shared bus, as a small soft-core system does: every instruction-cache
// refill, data access, and access of the traffic generator takes its turn. A master keeps the
// bus while it holds CYC (a cache-line burst is one tenure); when it drops CYC the next
// requesting master after it (in index order, wrapping) gets the bus in the following cycle.
//
//   cycle        0    1    2    3    4
//   m_cyc[k]   __/~~~~~~~~~~~~~~~~~~\___     master k asks in cycle 0
//   grant           k    k    k    k         granted from cycle 1 (one cycle of arbitration)
//   s_stb      _______/~~~~~~~~~\_______     its strobes reach the bus while granted
//   m_ack[k]   ____________/~~\_/~~\____     acks go back to the granted master only
//
// Masters' signals are packed: master k uses bits [k*W +: W] of each vector.
`timescale 1ns / 1ps
`default_nettype none

module soc_wb_arbiter #(
    // Number of masters (1..8).
    parameter MASTERS = 5
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [MASTERS-1:0]    m_cyc,
    input  wire [MASTERS-1:0]    m_stb,
    input  wire [MASTERS-1:0]    m_we,
    input  wire [MASTERS*30-1:0] m_adr,
    input  wire [MASTERS*32-1:0] m_dat_w,
    input  wire [MASTERS*4-1:0]  m_sel,
    output wire [MASTERS*32-1:0] m_dat_r,
    output wire [MASTERS-1:0]    m_ack,
    output wire [MASTERS-1:0]    m_err,

    output wire                  s_cyc,
    output wire                  s_stb,
    output wire                  s_we,
    output wire [29:0]           s_adr,
    output wire [31:0]           s_dat_w,
    output wire [3:0]            s_sel,
    input  wire [31:0]           s_dat_r,
    input  wire                  s_ack,
    input  wire                  s_err,

    output wire [2:0]            owner,   // the granted master (valid while busy)
    output wire                  busy
);

    initial if (MASTERS < 1 || MASTERS > 8) $fatal(1, "soc_wb_arbiter: MASTERS must be 1..8");

    reg [2:0] owner_reg = 3'd0;
    reg       busy_reg = 1'b0;

    // the first requesting master after the current owner, wrapping (round robin)
    reg [2:0] next_owner;
    reg       next_found;
    integer i;
    always @(*) begin
        next_owner = owner_reg;
        next_found = 1'b0;
        for (i = 1; i <= MASTERS; i = i + 1) begin
            if (!next_found && m_cyc[(owner_reg + i) % MASTERS]) begin
                next_owner = (owner_reg + i) % MASTERS;
                next_found = 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        if (busy_reg) begin
            if (!m_cyc[owner_reg])
                busy_reg <= 1'b0;
        end else if (next_found) begin
            owner_reg <= next_owner;
            busy_reg <= 1'b1;
        end
        if (rst) begin
            busy_reg <= 1'b0;
            owner_reg <= 3'd0;
        end
    end

    wire granted = busy_reg && m_cyc[owner_reg];
    assign s_cyc = granted;
    assign s_stb = granted && m_stb[owner_reg];
    assign s_we = m_we[owner_reg];
    assign s_adr = m_adr[owner_reg*30 +: 30];
    assign s_dat_w = m_dat_w[owner_reg*32 +: 32];
    assign s_sel = m_sel[owner_reg*4 +: 4];

    genvar g;
    generate
        for (g = 0; g < MASTERS; g = g + 1) begin : g_m
            assign m_ack[g] = granted && owner_reg == g && s_ack;
            assign m_err[g] = granted && owner_reg == g && s_err;
            assign m_dat_r[g*32 +: 32] = s_dat_r;
        end
    endgenerate

    assign owner = owner_reg;
    assign busy = busy_reg;

endmodule

`default_nettype wire
