// Generated from hw/regs/latmon.rdl by hw/regs/generate.py (make regs). Do not edit.
// latmon_regs_timeout: the registers of part "timeout" of the latmon IP:
//   TIMEOUT, TIMEOUTS
// Register interface and field behaviour: hw/regs/regblock.py.
`timescale 1ns / 1ps
`default_nettype none

module latmon_regs_timeout #(
    // Width of the AXI4-Lite byte address (16..32).
    parameter ADDR_WIDTH = 16,
    // Bits the hardware keeps of the fields sized by CNT_WIDTH (1..32).
    parameter CNT_WIDTH = 32,
    // Bits the hardware keeps of the fields sized by COUNTER_WIDTH (1..32).
    parameter COUNTER_WIDTH = 32
) (
    input  wire                  clk,
    input  wire                  rst,

    // register interface: a write in this cycle
    input  wire                  wr_req,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [31:0]           wr_data,
    input  wire [3:0]            wr_strb,
    output wire                  wr_hit,
    // a read accepted in this cycle; its data from the next cycle on
    input  wire                  rd_req,
    input  wire [ADDR_WIDTH-1:0] rd_addr,
    input  wire                  rd_load,
    output reg  [31:0]           rd_data = 32'd0,
    output wire                  rd_hit,

    // TIMEOUT (0x01C)
    output wire [CNT_WIDTH-1:0]  timeout_cycles,

    // TIMEOUTS (0x044)
    input  wire [COUNTER_WIDTH-1:0] timeouts_value
);

    initial begin
        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)
            $fatal(1, "latmon_regs_timeout: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);
        if (CNT_WIDTH < 1 || CNT_WIDTH > 32)
            $fatal(1, "latmon_regs_timeout: CNT_WIDTH must be 1..32, not %0d", CNT_WIDTH);
        if (COUNTER_WIDTH < 1 || COUNTER_WIDTH > 32)
            $fatal(1, "latmon_regs_timeout: COUNTER_WIDTH must be 1..32, not %0d", COUNTER_WIDTH);
    end

    // The byte address is of the word `word` (bits 1:0 ignored, bits above 15 zero).
    function at;
        input [ADDR_WIDTH-1:0] addr;
        input [13:0]           word;
        begin
            at = addr[15:2] == word && (addr >> 16) == 0;
        end
    endfunction

    // The bytes a write changes.
    wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, {8{wr_strb[0]}}};

    // ---- address decode ------------------------------------------------------

    wire wr_timeout = at(wr_addr, 14'h0007);  // 0x01C
    wire wr_timeouts = at(wr_addr, 14'h0011);  // 0x044
    wire rd_timeout = at(rd_addr, 14'h0007);
    wire rd_timeouts = at(rd_addr, 14'h0011);
    assign wr_hit = wr_timeout || wr_timeouts;

    // ---- TIMEOUT -------------------------------------------------------------------------

    wire        timeout_we = wr_req && wr_timeout;
    reg [CNT_WIDTH-1:0] timeout_cycles_reg = {CNT_WIDTH{1'b0}};
    wire [31:0] timeout_cycles_ext;
    generate
        if (CNT_WIDTH < 32) begin : g_timeout_cycles_ext
            assign timeout_cycles_ext = {{(32-CNT_WIDTH){1'b0}}, timeout_cycles_reg};
        end else begin : g_timeout_cycles_full
            assign timeout_cycles_ext = timeout_cycles_reg;
        end
    endgenerate
    // the written bytes of the field, the others as they are
    wire [31:0] timeout_cycles_new = (wr_data[31:0] & wr_mask[31:0]) |
        (timeout_cycles_ext & ~wr_mask[31:0]);
    // saturate: a value that does not fit CNT_WIDTH bits is stored as all ones
    wire timeout_cycles_sat = (timeout_cycles_new >> CNT_WIDTH) != 0;
    assign timeout_cycles = timeout_cycles_reg;
    always @(posedge clk) begin
        if (timeout_we)
            timeout_cycles_reg <= timeout_cycles_sat ? {CNT_WIDTH{1'b1}} : timeout_cycles_new[CNT_WIDTH-1:0];
        if (rst)
            timeout_cycles_reg <= {CNT_WIDTH{1'b0}};
    end

    // ---- TIMEOUTS ------------------------------------------------------------------------

    wire [31:0] timeouts_value_ext;
    generate
        if (COUNTER_WIDTH < 32) begin : g_timeouts_value_ext
            assign timeouts_value_ext = {{(32-COUNTER_WIDTH){1'b0}}, timeouts_value};
        end else begin : g_timeouts_value_full
            assign timeouts_value_ext = timeouts_value;
        end
    endgenerate

    // ---- read ------------------------------------------------------------------

    wire [31:0] read_timeout =
        {timeout_cycles_ext};
    wire [31:0] read_timeouts =
        {timeouts_value_ext};
    // Which register a read is of: its index here, 3 none (step 1, rd_req).
    localparam [1:0] RD_NONE = 2'd3;
    reg [1:0] rd_sel = RD_NONE;
    always @(posedge clk) begin
        if (rd_req) begin
            rd_sel <= RD_NONE;
            if (rd_timeout)
                rd_sel <= 2'd0;
            if (rd_timeouts)
                rd_sel <= 2'd1;
        end
        if (rst)
            rd_sel <= RD_NONE;
    end
    assign rd_hit = rd_sel != RD_NONE;

    // Step 2 (rd_load): the value of that register.
    always @(posedge clk) begin
        if (rd_load) begin
            case (rd_sel)
                2'd0: rd_data <= read_timeout;
                2'd1: rd_data <= read_timeouts;
                default: rd_data <= 32'd0;
            endcase
        end
    end

    wire unused_inputs = ^{wr_data, wr_strb, wr_addr[1:0], rd_addr[1:0], wr_mask};

endmodule

`default_nettype wire
