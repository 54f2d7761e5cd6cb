# Hardware parts: register map generation (hw/regs), synthesis (hw/syn).
# Included by the top-level Makefile. The cocotb testbenches (hw/tb) run under pytest.

RDL := hw/regs/latmon.rdl
# Generated from $(RDL); checked in so that a board user needs no Python. `make test` fails when
# they are stale.
REGS_HEADER := sw/include/latmon/latmon_regs.h
REGS_MAP_HEADER := sw/include/latmon/latmon_map.h
REGS_VERILOG := hw/rtl/generated/latmon_regs.vh
REGS_DOC := docs/hw/latmon_regs.md
REGS_IPXACT := hw/regs/generated/latmon.xml
# The register blocks of the IP, one per part of the map (hw/regs/regblock.py).
REGS_BLOCKS_DIR := hw/rtl/generated
# The IP-XACT component for Vivado's IP catalog: the register map above, hw/latmon.core's
# parameters and files, hw/rtl/latmon.v's ports (hw/vivado/component.py).
REGS_COMPONENT := hw/vivado/ip/latmon/component.xml
REGS_OUTPUTS := $(REGS_HEADER) $(REGS_MAP_HEADER) $(REGS_VERILOG) $(REGS_DOC) $(REGS_IPXACT) \
  $(REGS_COMPONENT)
REGS_CHECK := $(BUILD)/regs-check

.PHONY: regs regs-check synth formal netlist-soak

## regs: regenerate the C header, register docs and IP-XACT from the SystemRDL source
regs: setup
	$(PY) hw/regs/generate.py --rdl $(RDL) --header $(REGS_HEADER) --map-header $(REGS_MAP_HEADER) \
	  --verilog $(REGS_VERILOG) --doc $(REGS_DOC) --ipxact $(REGS_IPXACT) \
	  --regblocks $(REGS_BLOCKS_DIR)
	$(PY) hw/vivado/component.py --regmap $(REGS_IPXACT) --out $(REGS_COMPONENT)

## regs-check: fail when a checked-in generated file differs from what the RDL produces now
regs-check: setup
	@rm -rf $(REGS_CHECK) && mkdir -p $(REGS_CHECK)
	@$(PY) hw/regs/generate.py --rdl $(RDL) --header $(REGS_CHECK)/$(REGS_HEADER) \
	  --map-header $(REGS_CHECK)/$(REGS_MAP_HEADER) --verilog $(REGS_CHECK)/$(REGS_VERILOG) \
	  --doc $(REGS_CHECK)/$(REGS_DOC) --ipxact $(REGS_CHECK)/$(REGS_IPXACT) \
	  --regblocks $(REGS_CHECK)/$(REGS_BLOCKS_DIR)
	@$(PY) hw/vivado/component.py --regmap $(REGS_CHECK)/$(REGS_IPXACT) \
	  --out $(REGS_CHECK)/$(REGS_COMPONENT) --relative-to $(REGS_COMPONENT)
	@blocks=$$(cd $(REGS_CHECK) && ls $(REGS_BLOCKS_DIR)/latmon_regs_*.v); \
	stale=$$(ls $(REGS_BLOCKS_DIR)/latmon_regs_*.v | grep -vxF "$$blocks" || true); \
	[ -z "$$stale" ] || { echo "regs-check: $$stale no longer generated; remove it" >&2; exit 1; }; \
	for f in $(REGS_OUTPUTS) $$blocks; do \
	  diff -u "$$f" "$(REGS_CHECK)/$$f" >/dev/null 2>&1 \
	    || { echo "regs-check: $$f is stale or missing; run 'make regs' and commit the result" >&2; exit 1; }; \
	done; echo "regs-check: generated register files are up to date"

## bitstream: the example LiteX SoC with latmon for BOARD (colorlight_i5), open flow (yowasp);
## build/litex/$(BOARD)/gateware/: the bitstream and nextpnr's report (Fmax, resources); the
## figures recorded in hw/litex/bitstream.json and docs/boards.md's bitstream tables written from them
BOARD ?= colorlight_i5
.PHONY: bitstream
bitstream: setup sw-all
	$(PY) hw/litex/soc.py --board $(BOARD) --output-dir $(BUILD)/litex/$(BOARD) --build
	$(PY) hw/litex/report.py $(BUILD)/litex/$(BOARD) --publish

## litex-sim: the suite's image on the LiteX SoC with latmon's test fabric in LiteX's simulator
## and on the virtual SoC (one hart each), side by side with the bus paths' costs;
## out/litex-sim/compare.md, the recorded figures hw/litex/compare.json and the tables in
## docs/boards.md generated from them
.PHONY: litex-sim
litex-sim: setup sw-all
	$(PY) hw/litex/compare.py --out $(OUT)/litex-sim --rounds 50 --publish

## synth: Yosys synthesis of the cores; build/synth/, and the committed results hw/syn/resources.json
## with the page generated from them, docs/hw/resources.md
synth: setup
	$(PY) hw/syn/synth.py --out $(BUILD)/synth --publish

## formal: the SymbiYosys proofs of the core, the statistics and trace, and the AXI4-Lite slave
## (hw/formal; k-induction, full proofs); build/formal/results.json
formal: setup
	$(PY) hw/formal/formal.py --out $(BUILD)/formal

## netlist-soak: the million-event soak on the RTL and on Yosys's synthesized netlist of it
## (hw/tb/netlist.py), every event and read compared; fails on any mismatch
netlist-soak: setup
	LATMON_NETLIST_SOAK_EVENTS=1000000 LATMON_NETLIST_SOAK_SIM=verilator $(PY) -m pytest -p no:cacheprovider -s \
	  hw/tb/test_latmon.py::test_latmon_netlist_soak
