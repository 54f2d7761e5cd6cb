# latmon — top-level commands. `make help` lists them.
#
# Every target that needs tools depends on `setup` (idempotent; a few seconds when done).
# Part-specific rules live beside the part: hw/hw.mk (RTL, registers, synthesis) and sw/sw.mk (C).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

VENV ?= $(CURDIR)/.venv
PY := $(VENV)/bin/python
BUILD := $(CURDIR)/build
OUT := $(CURDIR)/out
# Parallel pytest workers (xdist). CI machines have 2 cores.
JOBS ?= 2
export PATH := $(VENV)/bin:$(PATH)

include sw/sw.mk
include hw/hw.mk
include target/target.mk

.PHONY: help setup test test-pytest demo bench lint format lock clean fuzz soc-soak soc-figures linux-soc linux-soc-checkpoint

help:
	@echo "make setup   install system packages (apt) and the Python venv ($(VENV)); idempotent"
	@echo "make demo    simulate the reference design, measure this machine idle and under load,"
	@echo "             write out/demo/report.html"
	@echo "make test    the whole test suite (C, Python, cocotb simulations, CLI) — what CI runs"
	@echo "             (.ci/run; .ci/run-targets, -hw, -linux-soc, -bitstream: the longer ones below)"
	@echo "make bench   the benchmarks; results in build/bench/ (QUICK=1: small sizes, as CI runs them)"
	@echo "make synth   size (Yosys, UltraScale+) and Fmax (ECP5 place and route) of every"
	@echo "             configuration beside a reference; docs/hw/resources.md"
	@echo "make bitstream BOARD=colorlight_i5  the example LiteX SoC with latmon, open flow;"
	@echo "             timing and resources in build/litex/BOARD/bitstream.md, recorded in"
	@echo "             hw/litex/bitstream.json with docs/boards.md's tables written from them"
	@echo "make litex-sim  the suite's firmware on the LiteX SoC in LiteX's simulator beside the"
	@echo "             virtual SoC, T1/T2 side by side; out/litex-sim/compare.md, docs/boards.md's tables"
	@echo "make formal  the SymbiYosys proofs of the IP (core, statistics and trace, AXI4-Lite)"
	@echo "make netlist-soak  the million-event soak on the synthesized netlist, compared with the RTL"
	@echo "make regs    regenerate the C header, docs and IP-XACT from hw/regs/latmon.rdl"
	@echo "make lint    RTL lint (Verilator -Wall, Yosys check), ruff, mypy, the host package's layers"
	@echo "             and import cycles (import-linter) and clang-format checks"
	@echo "make fuzz    fuzz every input reader with 150,000 inputs"
	@echo "make soc-soak  the suite's firmware on the virtual SoC, >10,000 interrupts, each sample"
	@echo "             cross-checked with the simulator's trace (build/soc-soak)"
	@echo "make soc-figures  run the suite on the virtual SoC and write docs/hw/soc_figures.md"
	@echo "             (make test fails when that page is stale)"
	@echo "make linux-soc  Linux 6.1 on the virtual SoC (VexRiscv_Linux): irq -> ack by the kernel's"
	@echo "             handler and by a SCHED_FIFO UIO process, per preemption model, idle and"
	@echo "             loaded, each sample cross-checked; out/linux-soc/report.html"
	@echo "make linux-soc-checkpoint  build and boot the PREEMPT_NONE kernel once and save the"
	@echo "             simulator there (make test's smoke test restores it; cached)"
	@echo "make target-test  the ARM targets on QEMU: A53 suite (ZCU102), arm64 guests with the"
	@echo "             standard and PREEMPT_RT kernels, the preemption-model report (36-60 min)"
	@echo "make hv-campaign  bare metal, Linux, Xen Dom0/DomU (each idle and with the other domain"
	@echo "             stressed), the suite as a Xen guest, AMP on QEMU; out/target/hv/report.html"

setup:
	@scripts/setup.sh

# The Linux SoC's checkpoint (its kernel built and booted once in the simulator: minutes, the
# boot on one core) holds one of the -j$(JOBS) jobs from the start; the other builds and checks
# the C (-Werror, unit tests), lints, builds the QEMU guest images (Xen's smoke tests boot them),
# each step's output in one piece, then runs one pytest that holds the Python, cocotb and CLI
# tests, beside the boot, its output as it comes. The tests that start from the checkpoint wait
# for it (hw/tb/linux_soc.py locks each checkpoint while it boots), so pytest's summary line is
# the last thing printed.
test: setup
	@$(MAKE) --no-print-directory -j$(JOBS) linux-soc-checkpoint test-pytest

test-pytest: setup
	@$(MAKE) --no-print-directory --output-sync=target regs-check sw-all sw-test lint target-images
	$(PY) -m pytest -n $(JOBS) -p no:cacheprovider

# Hand-written C (generated headers are left as their generator writes them).
C_STYLE_FILES = $(shell find sw src -name '*.[ch]' ! -name 'latmon_regs.h' ! -name 'latmon_map.h' | sort)
PY_DIRS := src tests hw bench scripts target

lint: setup
	$(PY) hw/lint.py
	$(VENV)/bin/ruff check $(PY_DIRS)
	$(VENV)/bin/ruff format --check $(PY_DIRS)
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	clang-format --dry-run --Werror $(C_STYLE_FILES)

format: setup
	$(VENV)/bin/ruff format $(PY_DIRS)
	$(VENV)/bin/ruff check --fix $(PY_DIRS)
	clang-format -i $(C_STYLE_FILES)

demo: setup sw-all
	$(PY) scripts/demo.py --out $(OUT)/demo

# QUICK=1: every benchmark with small sizes, to prove it runs (what CI does; bench/run.py --quick)
bench: setup sw-all
	$(PY) bench/run.py --out $(BUILD)/bench $(if $(QUICK),--quick)

# Every reader fuzzed with 15,000 inputs per test (10 tests: 150,000 inputs); make test runs 150.
fuzz: setup
	LATMON_FUZZ_EXAMPLES=15000 $(PY) -m pytest -n $(JOBS) -p no:cacheprovider tests/test_reader_fuzz.py

# The interrupt test-case suite on the virtual SoC: 1,200 rounds of six cases (10,800 interrupts),
# every sample compared with the simulator's own trace; fails on any mismatch.
soc-soak: setup sw-all
	$(PY) hw/tb/soc_sim.py --out $(BUILD)/soc-soak --rounds 1200 --check \
	  --cases baseline,cache-invalidate,priority,nested-on,parallel,bus-traffic

# The SoC page's figures (docs/hw/soc_figures.md), written by the run that measures them, as
# `make regs` writes the register map; hw/tb/test_soc.py fails when the page is stale.
soc-figures: setup sw-all
	$(PY) hw/tb/soc_figures.py --out docs/hw/soc_figures.md

# Linux on the virtual SoC (docs/hw/linux-soc.md): kernels, firmware, initramfs, the simulator
# and each kernel's checkpoint after the boot are built once and cached under build/linux-soc
# and hw/tb/sim_build. A run of every model writes the figures of docs/hw/linux-soc.md and
# their results file hw/tb/linux_soc_figures.json; hw/tb/test_linux_soc.py fails when they are
# stale.
LINUX_SOC_MODELS ?= none,voluntary,full
linux-soc: setup
	$(PY) hw/tb/linux_soc_campaign.py --out $(OUT)/linux-soc --models $(LINUX_SOC_MODELS) --publish

linux-soc-checkpoint: setup
	$(PY) hw/tb/linux_soc.py --checkpoint-only --preempt none

# Regenerate requirements.lock from pyproject.toml in a scratch venv.
lock:
	rm -rf $(BUILD)/lockenv && python3 -m venv $(BUILD)/lockenv
	$(BUILD)/lockenv/bin/pip install -q -e ".[dev]"
	{ echo "# Full pinned dependency tree for the virtual environment (pip install -c requirements.lock -e .[dev])."; \
	  echo "# Regenerate after changing pyproject.toml: make lock"; \
	  $(BUILD)/lockenv/bin/pip freeze --exclude-editable | grep -v '^-e'; } > requirements.lock

clean:
	rm -rf $(BUILD) $(OUT) hw/tb/sim_build
