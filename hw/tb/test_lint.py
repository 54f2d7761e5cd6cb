"""hw/lint.py: the RTL lint finds each class of defect it gates on, and passes clean RTL."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from lint import lint_verilator, lint_yosys, xcheck_icarus

CLEAN = """
module clean (input wire clk, input wire a, output reg q);
    initial q = 1'b0;
    always @(posedge clk) q <= a;
endmodule
"""

# one register assigned from two always blocks on the same clock (the histogram's `k` once)
MULTI_DRIVEN = """
module multi_driven (input wire clk, input wire a, input wire b, output reg q);
    initial q = 1'b0;
    always @(posedge clk) if (a) q <= 1'b1;
    always @(posedge clk) if (b) q <= 1'b0;
endmodule
"""

# a loop variable of an always @* block assigned only under a condition (a latch)
LATCH = """
module with_latch (input wire [1:0] sel, output reg [3:0] y);
    integer i;
    always @* begin
        y = 4'd0;
        if (sel != 2'd0)
            for (i = 0; i < 4; i = i + 1)
                y[i] = i < sel;
    end
endmodule
"""

# an `always @*` block whose only input is a register that keeps its power-up value: Icarus never
# evaluates it, synthesis does (the histogram's bin mask at its reset settings, once)
STATIC_COMB = """
module static_comb (input wire clk, input wire rst, input wire [1:0] a, output reg [3:0] q);
    reg [1:0] setting = 2'd0;  // a register that software has not written yet
    reg [3:0] mask;
    integer t;
    always @* begin
        mask = 4'd0;
        for (t = 0; t < 4; t = t + 1)
            if ({30'd0, setting} == t)
                mask = 4'hF >> t;
    end
    initial q = 4'd0;
    always @(posedge clk) q <= rst ? 4'd0 : mask & {2'b00, a};
endmodule
"""

# the same table as a function in a continuous assignment: evaluated at time 0
STATIC_COMB_FIXED = STATIC_COMB.replace(
    """    reg [3:0] mask;
    integer t;
    always @* begin
        mask = 4'd0;
        for (t = 0; t < 4; t = t + 1)
            if ({30'd0, setting} == t)
                mask = 4'hF >> t;
    end""",
    """    function [3:0] mask_of(input [1:0] s);
        mask_of = 4'hF >> s;
    endfunction
    wire [3:0] mask = mask_of(setting);""",
)


def write(tmp_path: Path, name: str, text: str) -> list[Path]:
    path = tmp_path / f"{name}.v"
    path.write_text(text)
    return [path]


def test_clean_module_passes(tmp_path: Path) -> None:
    sources = write(tmp_path, "clean", CLEAN)
    assert lint_yosys("clean", {}, sources) == ""
    assert lint_verilator("clean", {}, sources) == ""


def test_multiple_drivers_fail(tmp_path: Path) -> None:
    sources = write(tmp_path, "multi_driven", MULTI_DRIVEN)
    messages = lint_yosys("multi_driven", {}, sources)
    assert "multiple conflicting drivers" in messages
    assert "multi_driven" in messages  # the message names the module


def test_latch_fails(tmp_path: Path) -> None:
    sources = write(tmp_path, "with_latch", LATCH)
    messages = lint_yosys("with_latch", {}, sources)
    assert "dlatch" in messages
    assert "with_latch" in messages  # the message names the module


def test_static_always_comb_fails(tmp_path: Path) -> None:
    sources = write(tmp_path, "static_comb", STATIC_COMB)
    assert lint_yosys("static_comb", {}, sources) == ""  # the other checks do not see it
    messages = xcheck_icarus("static_comb", {}, sources)
    assert "X or Z after reset" in messages
    assert "lint_xcheck.dut.mask" in messages  # names the signal
    assert "static_comb" in messages


def test_static_table_as_function_passes(tmp_path: Path) -> None:
    assert STATIC_COMB_FIXED != STATIC_COMB
    sources = write(tmp_path, "static_comb", STATIC_COMB_FIXED)
    assert xcheck_icarus("static_comb", {}, sources) == ""


# a synthesis attribute on a net declaration assignment: Icarus warns and discards it
ATTRIBUTE_ON_ASSIGNMENT = """
module kept_net (input wire clk, input wire rst, input wire a, input wire b, output reg q);
    (* keep *) wire both = a && b;
    initial q = 1'b0;
    always @(posedge clk) q <= !rst && both;
endmodule
"""


def test_icarus_warning_fails(tmp_path: Path) -> None:
    sources = write(tmp_path, "kept_net", ATTRIBUTE_ON_ASSIGNMENT)
    assert lint_yosys("kept_net", {}, sources) == ""  # the other checks do not see it
    assert lint_verilator("kept_net", {}, sources) == ""
    messages = xcheck_icarus("kept_net", {}, sources)
    assert "Icarus warns" in messages
    assert "Attributes are not supported on net declaration assignments" in messages
    assert "kept_net.v:3" in messages  # names the file and line


def test_attribute_on_its_own_declaration_passes(tmp_path: Path) -> None:
    fixed = ATTRIBUTE_ON_ASSIGNMENT.replace(
        "(* keep *) wire both = a && b;", "(* keep *) wire both;\n    assign both = a && b;"
    )
    assert fixed != ATTRIBUTE_ON_ASSIGNMENT
    sources = write(tmp_path, "kept_net", fixed)
    assert xcheck_icarus("kept_net", {}, sources) == ""
