// The AXI4-Lite handshake rules (AMBA AXI and ACE Protocol Specification, ARM IHI 0022, parts
// A3.1-A3.3 and B1), as properties of a slave: what the master must do is assumed, what the
// slave must do is asserted. Bound to a slave's ports in a formal harness (latmon_axil_formal.v).
//
// Master (assumed): VALID low during reset; once VALID is high it stays high with the same
// payload (address, protection, data, strobes) until READY.
// Slave (asserted):
//   - BVALID and RVALID low in the cycle after reset;
//   - once BVALID (RVALID) is high it stays high until BREADY (RREADY), with BRESP (RDATA and
//     RRESP) unchanged;
//   - a write response only for a write whose address and data were both accepted and not yet
//     answered, a read response only for an accepted, unanswered read address;
//   - responses are OKAY or SLVERR (AXI4-Lite has no exclusive access: no EXOKAY);
//   - at most MAX_PENDING accepted and unanswered transactions per channel (this slave: 1);
//   - no deadlock: a write (read) the master offers is accepted within MAX_WAIT cycles of the
//     slave having no response pending that the master has not taken.
`timescale 1ns / 1ps
`default_nettype none

module latmon_axil_props #(
    parameter ADDR_WIDTH = 16,
    // Transactions a channel may have accepted and not answered.
    parameter MAX_PENDING = 1,
    // Cycles a slave with nothing to answer may keep an offered transaction waiting.
    parameter MAX_WAIT = 2
) (
    input wire                  clk,
    input wire                  rst,
    input wire [ADDR_WIDTH-1:0] s_axil_awaddr,
    input wire [2:0]            s_axil_awprot,
    input wire                  s_axil_awvalid,
    input wire                  s_axil_awready,
    input wire [31:0]           s_axil_wdata,
    input wire [3:0]            s_axil_wstrb,
    input wire                  s_axil_wvalid,
    input wire                  s_axil_wready,
    input wire [1:0]            s_axil_bresp,
    input wire                  s_axil_bvalid,
    input wire                  s_axil_bready,
    input wire [ADDR_WIDTH-1:0] s_axil_araddr,
    input wire [2:0]            s_axil_arprot,
    input wire                  s_axil_arvalid,
    input wire                  s_axil_arready,
    input wire [31:0]           s_axil_rdata,
    input wire [1:0]            s_axil_rresp,
    input wire                  s_axil_rvalid,
    input wire                  s_axil_rready,
    // accepted and unanswered transactions, for the harness's invariants
    output wire [1:0]           aw_outstanding,
    output wire [1:0]           w_outstanding,
    output wire [1:0]           ar_outstanding
);

    reg past_valid = 1'b0;
    always @(posedge clk) past_valid <= 1'b1;

    // ---- the master (assumed) ------------------------------------------------------------------
    always @* if (rst) assume(!s_axil_awvalid && !s_axil_wvalid && !s_axil_arvalid);
    always @(posedge clk) begin
        if (past_valid && !$past(rst) && !rst) begin
            if ($past(s_axil_awvalid && !s_axil_awready))
                assume(s_axil_awvalid && $stable(s_axil_awaddr) && $stable(s_axil_awprot));
            if ($past(s_axil_wvalid && !s_axil_wready))
                assume(s_axil_wvalid && $stable(s_axil_wdata) && $stable(s_axil_wstrb));
            if ($past(s_axil_arvalid && !s_axil_arready))
                assume(s_axil_arvalid && $stable(s_axil_araddr) && $stable(s_axil_arprot));
        end
    end

    // ---- what is pending -----------------------------------------------------------------------
    wire aw_go = s_axil_awvalid && s_axil_awready;
    wire w_go = s_axil_wvalid && s_axil_wready;
    wire b_go = s_axil_bvalid && s_axil_bready;
    wire ar_go = s_axil_arvalid && s_axil_arready;
    wire r_go = s_axil_rvalid && s_axil_rready;
    reg [1:0] aw_pending = 2'd0, w_pending = 2'd0, ar_pending = 2'd0;
    assign aw_outstanding = aw_pending;
    assign w_outstanding = w_pending;
    assign ar_outstanding = ar_pending;
    reg [2:0] w_wait = 3'd0, r_wait = 3'd0;  // cycles an offer has waited with nothing to answer
    always @(posedge clk) begin
        aw_pending <= aw_pending + aw_go - b_go;
        w_pending <= w_pending + w_go - b_go;
        ar_pending <= ar_pending + ar_go - r_go;
        w_wait <= s_axil_awvalid && s_axil_wvalid && !aw_go && !s_axil_bvalid &&
                  aw_pending == 0 && w_wait != 3'd7 ? w_wait + 1'b1 : 3'd0;
        r_wait <= s_axil_arvalid && !ar_go && !s_axil_rvalid && ar_pending == 0 &&
                  r_wait != 3'd7 ? r_wait + 1'b1 : 3'd0;
        if (rst) begin
            aw_pending <= 2'd0;
            w_pending <= 2'd0;
            ar_pending <= 2'd0;
            w_wait <= 3'd0;
            r_wait <= 3'd0;
        end
    end

    // ---- the slave (asserted) ------------------------------------------------------------------
    always @(posedge clk) begin
        if (past_valid && $past(rst))
            assert(!s_axil_bvalid && !s_axil_rvalid);
        if (past_valid && !$past(rst) && !rst) begin
            if ($past(s_axil_bvalid && !s_axil_bready))
                assert(s_axil_bvalid && $stable(s_axil_bresp));
            if ($past(s_axil_rvalid && !s_axil_rready))
                assert(s_axil_rvalid && $stable(s_axil_rdata) && $stable(s_axil_rresp));
        end
    end
    always @* begin
        if (past_valid && !rst) begin
            if (s_axil_bvalid)
                assert(aw_pending != 0 && w_pending != 0 && s_axil_bresp != 2'b01);
            if (s_axil_rvalid)
                assert(ar_pending != 0 && s_axil_rresp != 2'b01);
            assert(aw_pending <= MAX_PENDING && w_pending <= MAX_PENDING);
            assert(ar_pending <= MAX_PENDING);
            assert(w_wait <= MAX_WAIT && r_wait <= MAX_WAIT);
        end
    end

endmodule

`default_nettype wire
