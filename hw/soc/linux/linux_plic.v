// linux_plic: a platform-level interrupt controller with the register layout of the RISC-V PLIC
// specification ("sifive,plic-1.0.0"), which the mainline kernel drives with
// drivers/irqchip/irq-sifive-plic.c. SOURCES level sources (IDs 1..SOURCES), 8 priority levels,
// one context (hart 0's supervisor mode).
//
// Gateway (level-triggered, as the specification's): a source's pending bit is set while its
// line is high and it is not claimed; a claim (read of CLAIM) returns the ID of the highest-
// priority enabled pending source (lowest ID among equals; 0 if none), clears its pending bit
// and marks it in service; a write of the ID to CLAIM (completion) ends its service, and a line
// still high is pending again. eip is high while an enabled pending source has a priority
// above THRESHOLD.
//
// Registers (byte offsets):
//   0x000000 + 4*i  PRIORITY[i] (3 bits; source 0 does not exist)
//   0x001000        PENDING (read only)
//   0x002000        ENABLE of context 0
//   0x200000        THRESHOLD of context 0
//   0x200004        CLAIM / COMPLETE of context 0
`timescale 1ns / 1ps
`default_nettype none

module linux_plic #(
    // Number of interrupt sources (1..31).
    parameter SOURCES = 15
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               stb,
    input  wire               we,
    input  wire [21:0]        adr,  // byte offset
    input  wire [31:0]        dat_w,
    output reg  [31:0]        dat_r = 32'd0,
    output reg                ack = 1'b0,
    input  wire [SOURCES:1]   src,
    output reg                eip = 1'b0
);

    initial if (SOURCES < 1 || SOURCES > 31) $fatal(1, "linux_plic: SOURCES must be 1..31");

    reg [2:0]         prio [1:SOURCES];
    reg [SOURCES:1]   pending = {SOURCES{1'b0}};
    reg [SOURCES:1]   in_service = {SOURCES{1'b0}};
    reg [SOURCES:1]   enable = {SOURCES{1'b0}};
    reg [2:0]         threshold = 3'd0;
    wire start = stb && !ack;

    // the best enabled pending source: highest priority, then lowest ID
    reg [4:0] best_id;
    reg [2:0] best_prio;
    integer i;
    always @(*) begin
        best_id = 5'd0;
        best_prio = 3'd0;
        for (i = SOURCES; i >= 1; i = i - 1)
            if (pending[i] && enable[i] && prio[i] != 3'd0 && prio[i] >= best_prio) begin
                best_id = i[4:0];
                best_prio = prio[i];
            end
    end

    wire claim = start && !we && adr == 22'h200004;
    wire complete = start && we && adr == 22'h200004;

    always @(posedge clk) begin
        ack <= start;
        for (i = 1; i <= SOURCES; i = i + 1) begin
            if (src[i] && !in_service[i]) pending[i] <= 1'b1;
            if (claim && best_id == i[4:0]) begin
                pending[i] <= 1'b0;
                in_service[i] <= 1'b1;
            end
            if (complete && dat_w[4:0] == i[4:0] && enable[i]) in_service[i] <= 1'b0;
        end
        eip <= best_id != 5'd0 && best_prio > threshold;
        if (start && !we) begin
            if (adr[21:12] == 10'd0 && adr[11:2] >= 10'd1 && adr[11:2] <= SOURCES)
                dat_r <= {29'd0, prio[adr[6:2]]};
            else if (adr == 22'h001000)
                dat_r <= {{(31 - SOURCES) {1'b0}}, pending, 1'b0};
            else if (adr == 22'h002000)
                dat_r <= {{(31 - SOURCES) {1'b0}}, enable, 1'b0};
            else if (adr == 22'h200000)
                dat_r <= {29'd0, threshold};
            else if (adr == 22'h200004)
                dat_r <= {27'd0, best_id};
            else
                dat_r <= 32'd0;
        end
        if (start && we) begin
            if (adr[21:12] == 10'd0 && adr[11:2] >= 10'd1 && adr[11:2] <= SOURCES)
                prio[adr[6:2]] <= dat_w[2:0];
            if (adr == 22'h002000) enable <= dat_w[SOURCES:1];
            if (adr == 22'h200000) threshold <= dat_w[2:0];
        end
        if (rst) begin
            ack <= 1'b0;
            pending <= {SOURCES{1'b0}};
            in_service <= {SOURCES{1'b0}};
            enable <= {SOURCES{1'b0}};
            threshold <= 3'd0;
            eip <= 1'b0;
            for (i = 1; i <= SOURCES; i = i + 1) prio[i] <= 3'd0;
        end
    end

endmodule

`default_nettype wire
