# C parts: liblatmon (sw/lib), the metrics exporter (sw/exporter), latprobe (sw/probe), latctl
# (sw/tools/latctl), unit tests (sw/tests).
# Included by the top-level Makefile; all outputs go to build/sw/.

SW_BUILD := $(BUILD)/sw
CC ?= gcc
SW_WARN := -Wall -Wextra -Wshadow -Wpedantic -Werror
# CFLAGS and LDFLAGS from the environment or the command line come last (a Yocto build's
# hardening, debug-prefix and hash-style flags: meta-latmon); unset here, they change nothing.
SW_CFLAGS := -std=c11 -O2 -g $(SW_WARN) -Isw/include -Isw/lib -MMD -MP $(CFLAGS)
SW_LDLIBS := -lpthread

SW_LIB_SRCS := $(wildcard sw/lib/*.c)
SW_LIB_OBJS := $(SW_LIB_SRCS:%.c=$(SW_BUILD)/obj/%.o)
SW_LIB := $(SW_BUILD)/liblatmon.a

# The metrics exporter (Linux: sockets, threads): meters, exposition formats, HTTP responder.
SW_EXPORTER_SRCS := $(wildcard sw/exporter/*.c)
SW_EXPORTER_OBJS := $(SW_EXPORTER_SRCS:%.c=$(SW_BUILD)/obj/%.o)
SW_EXPORTER_LIB := $(SW_BUILD)/liblatmon_exporter.a

# latprobe: main() in latprobe.c; everything else also goes into liblatprobe.a so that the C
# unit tests can link the pure parts (option parsing, histogram, statistics).
SW_PROBE_MAIN := sw/probe/latprobe.c
SW_PROBE_SRCS := $(filter-out $(SW_PROBE_MAIN),$(wildcard sw/probe/*.c))
SW_PROBE_OBJS := $(SW_PROBE_SRCS:%.c=$(SW_BUILD)/obj/%.o)
SW_PROBE_LIB := $(SW_BUILD)/liblatprobe.a
SW_PROBE := $(if $(wildcard $(SW_PROBE_MAIN)),$(SW_BUILD)/latprobe)

SW_LATCTL_SRCS := $(wildcard sw/tools/latctl/*.c)
SW_LATCTL_OBJS := $(SW_LATCTL_SRCS:%.c=$(SW_BUILD)/obj/%.o)
SW_LATCTL := $(if $(SW_LATCTL_SRCS),$(SW_BUILD)/latctl)

SW_TEST_SRCS := $(wildcard sw/tests/test_*.c)
SW_TESTS := $(SW_TEST_SRCS:sw/tests/%.c=$(SW_BUILD)/tests/%)

.PHONY: sw-all sw-test sw-clean

## sw-all: build liblatmon, latprobe, latctl and the C unit tests (warnings are errors)
sw-all: $(SW_LIB) $(SW_EXPORTER_LIB) $(SW_PROBE_LIB) $(SW_PROBE) $(SW_LATCTL) $(SW_TESTS) sw-examples

## sw-test: run every C unit test; stops at the first failing one
sw-test: $(SW_TESTS)
	@for t in $(SW_TESTS); do echo "== $$(basename $$t)"; $$t || { echo "C unit test failed: $$t" >&2; exit 1; }; done

$(SW_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SW_CFLAGS) -c $< -o $@

$(SW_LIB): $(SW_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SW_EXPORTER_LIB): $(SW_EXPORTER_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SW_PROBE_LIB): $(SW_PROBE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SW_BUILD)/latprobe: $(SW_BUILD)/obj/$(SW_PROBE_MAIN:.c=.o) $(SW_PROBE_LIB) $(SW_EXPORTER_LIB) $(SW_LIB)
	$(CC) $(SW_CFLAGS) $(LDFLAGS) -o $@ $^ $(SW_LDLIBS) -lm

$(SW_BUILD)/latctl: $(SW_LATCTL_OBJS) $(SW_EXPORTER_LIB) $(SW_LIB)
	$(CC) $(SW_CFLAGS) $(LDFLAGS) -o $@ $(SW_LATCTL_OBJS) $(SW_EXPORTER_LIB) $(SW_LIB) $(SW_LDLIBS) -lm

$(SW_BUILD)/tests/%: $(SW_BUILD)/obj/sw/tests/%.o $(SW_PROBE_LIB) $(SW_EXPORTER_LIB) $(SW_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SW_CFLAGS) -o $@ $^ $(SW_LDLIBS) -lm

# ---- latprobe for arm64 Linux guests (docs/target/qemu.md): static, so the guest needs no libc ----
SW_ARM64 := $(SW_BUILD)/arm64
SW_ARM64_CC := aarch64-linux-gnu-gcc
SW_ARM64_OBJS := $(patsubst %.c,$(SW_ARM64)/obj/%.o,$(SW_PROBE_MAIN) $(SW_PROBE_SRCS) \
	$(SW_EXPORTER_SRCS) $(SW_LIB_SRCS))
SW_ARM64_LATCTL_OBJS := $(patsubst %.c,$(SW_ARM64)/obj/%.o,$(SW_LATCTL_SRCS) \
	$(SW_EXPORTER_SRCS) $(SW_LIB_SRCS))

$(SW_ARM64)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(SW_ARM64_CC) $(SW_CFLAGS) -c $< -o $@

## sw-arm64: latprobe cross-built for arm64, statically linked (build/sw/arm64/latprobe)
$(SW_ARM64)/latprobe: $(SW_ARM64_OBJS)
	$(SW_ARM64_CC) $(SW_CFLAGS) -static -o $@ $^ $(SW_LDLIBS) -lm

## latctl for arm64 guests (the AMP ring reader, docs/amp.md), static too
$(SW_ARM64)/latctl: $(SW_ARM64_LATCTL_OBJS)
	$(SW_ARM64_CC) $(SW_CFLAGS) -static -o $@ $^ $(SW_LDLIBS) -lm

.PHONY: sw-arm64
sw-arm64: $(SW_ARM64)/latprobe $(SW_ARM64)/latctl

sw-clean:
	rm -rf $(SW_BUILD)

.SECONDARY:

-include $(shell find $(SW_BUILD)/obj -name '*.d' 2>/dev/null)

# ---- bare-metal example (sw/examples/baremetal): cross builds, build only (it runs on a board) ----
#
# Freestanding: -nostdinc leaves only the cross compiler's own headers (stddef.h, stdint.h, ...) and
# sw/; -nostdlib links no C library, only libgcc. So an image never sees the build machine's
# /usr/include, and nothing depends on which libc packages happen to be installed. Each object
# gets a full dependency file (-MD: system headers too) and each image a link map; the build test
# reads both to prove where every header and every linked object came from.

EX_DIR := sw/examples/baremetal
EX_BUILD := $(SW_BUILD)/examples
EX_LIB_SRCS := sw/lib/latmon.c sw/lib/latmon_log.c sw/lib/latmon_crc32.c $(EX_DIR)/support.c
EX_CFLAGS := -std=c11 -O2 -g $(SW_WARN) -ffreestanding -nostdinc -fno-stack-protector \
	-fno-tree-loop-distribute-patterns -Isw/include -Isw/lib -I$(EX_DIR)
EX_LDFLAGS := -nostdlib -static -Wl,--build-id=none -Wl,--no-warn-rwx-segments

# One image: $(1) name ($(EX_BUILD)/$(1).elf, objects in $(EX_BUILD)/$(1)/), $(2) compiler,
# $(3) CPU flags and defines, $(4) sources (program, start code, platform files), $(5) linker script.
define EX_IMAGE
EX_OBJS_$(1) := $$(patsubst %,$(EX_BUILD)/$(1)/%.o,$(EX_LIB_SRCS) $(4))

$(EX_BUILD)/$(1)/%.o: %
	@mkdir -p $$(dir $$@)
	$(2) $(3) $$(EX_CFLAGS) -isystem "$$$$($(2) -print-file-name=include)" -MD -MP -c $$< -o $$@

$(EX_BUILD)/$(1).elf: $$(EX_OBJS_$(1)) $(5)
	$(2) $(3) $$(EX_LDFLAGS) -T $(5) -Wl,-Map=$(EX_BUILD)/$(1).map -o $$@ $$(EX_OBJS_$(1)) -lgcc

-include $$(EX_OBJS_$(1):.o=.d)
endef

EX_A53 := aarch64-linux-gnu-gcc
EX_A53_FLAGS := -mcpu=cortex-a53 -mgeneral-regs-only
EX_A53_SRCS := $(EX_DIR)/cpu/a53/start.S $(EX_DIR)/cpu/a53/platform.c $(EX_DIR)/board/zcu102.c
# the machine described by its device tree: QEMU virt, a Xen guest, cores next to Linux
EX_VIRT_SRCS := $(EX_DIR)/cpu/a53/start.S $(EX_DIR)/cpu/a53/platform.c $(EX_DIR)/board/virt.c \
	$(EX_DIR)/board/fdt.c sw/lib/latmon_ring.c
EX_R5_SRCS := $(EX_DIR)/cpu/r5/start.S $(EX_DIR)/cpu/r5/platform.c
# the suite runner with a case file (docs/baremetal.md): the timer cases, the fabric cases
EX_SUITE_SRCS := $(EX_DIR)/suite/runner.c $(EX_DIR)/suite/timer_cases.c $(EX_DIR)/suite/timer_watch.c \
	$(EX_DIR)/cpu/a53/timer.c

# The example for a board (A53 and R5), and the A53 images for QEMU's ZCU102 model
# (-DPLATFORM_SEMIHOSTING: exit through semihosting with main's status; docs/target/qemu.md).
$(eval $(call EX_IMAGE,example-a53,$(EX_A53),$(EX_A53_FLAGS),\
	$(EX_DIR)/example/example.c $(EX_A53_SRCS),$(EX_DIR)/cpu/a53/a53.ld))
$(eval $(call EX_IMAGE,example-r5,arm-none-eabi-gcc,\
	-mcpu=cortex-r5 -mfloat-abi=hard -mfpu=vfpv3-d16 -marm,\
	$(EX_DIR)/example/example.c $(EX_R5_SRCS),$(EX_DIR)/cpu/r5/r5.ld))
$(eval $(call EX_IMAGE,example-a53-qemu,$(EX_A53),$(EX_A53_FLAGS) -DPLATFORM_SEMIHOSTING,\
	$(EX_DIR)/example/example.c $(EX_A53_SRCS),$(EX_DIR)/cpu/a53/a53.ld))
$(eval $(call EX_IMAGE,suite-a53,$(EX_A53),$(EX_A53_FLAGS),\
	$(EX_SUITE_SRCS) $(EX_A53_SRCS),$(EX_DIR)/cpu/a53/a53.ld))
$(eval $(call EX_IMAGE,suite-a53-qemu,$(EX_A53),$(EX_A53_FLAGS) -DPLATFORM_SEMIHOSTING,\
	$(EX_SUITE_SRCS) $(EX_A53_SRCS),$(EX_DIR)/cpu/a53/a53.ld))
# The suite as an arm64 Image (docs/target/xen.md): QEMU virt, Xen guest, next to Linux (AMP)
$(eval $(call EX_IMAGE,suite-a53-virt,$(EX_A53),$(EX_A53_FLAGS) -DPLATFORM_VIRT,\
	$(EX_SUITE_SRCS) $(EX_VIRT_SRCS),$(EX_DIR)/cpu/a53/a53-virt.ld))

# The virtual SoC's VexRiscv harts (hw/soc, docs/hw/soc.md): RV32IM with the CSR and fence.i
# extensions. Debian's GCC 12 picks its multilib by the base ISA only, so the rv32im/ilp32 libgcc
# is named by its directory (-L).
EX_RV32 := riscv64-unknown-elf-gcc
# The directory is asked for when the recipe runs (the shell's $$(...)), not when make reads this
# file: on a fresh machine `make demo` installs the compiler after reading it.
EX_RV32_FLAGS := -march=rv32im_zicsr_zifencei -mabi=ilp32 -DPLATFORM_FABRIC_IRQ=0u \
	-L"$$$$(dirname "$$$$($(EX_RV32) -march=rv32im -mabi=ilp32 -print-libgcc-file-name)")"
EX_RV32_SRCS := $(EX_DIR)/cpu/rv32/start.S $(EX_DIR)/cpu/rv32/platform.c $(EX_DIR)/board/soc.c
EX_FABRIC_SUITE_SRCS := $(EX_DIR)/suite/runner.c $(EX_DIR)/suite/fabric_cases.c

# The example on the SoC's platform, and the fabric-measured suite, the firmware the SoC runs
$(eval $(call EX_IMAGE,example-rv32,$(EX_RV32),$(EX_RV32_FLAGS),\
	$(EX_DIR)/example/example.c $(EX_RV32_SRCS),$(EX_DIR)/cpu/rv32/rv32.ld))
$(eval $(call EX_IMAGE,fabric-suite-rv32,$(EX_RV32),$(EX_RV32_FLAGS),\
	$(EX_FABRIC_SUITE_SRCS) $(EX_RV32_SRCS) $(EX_DIR)/suite/fabric_inject.c,$(EX_DIR)/cpu/rv32/rv32.ld))

$(EX_BUILD)/%.img: $(EX_BUILD)/%.elf
	aarch64-linux-gnu-objcopy -O binary $< $@

EX_IMAGES := example-a53 example-r5 example-a53-qemu suite-a53 suite-a53-qemu suite-a53-virt \
	example-rv32 fabric-suite-rv32

## sw-examples: the bare-metal example (A53, R5, RV32), the A53 interrupt suite (board, QEMU
## and device-tree builds: the latter also as an arm64 Image) and the fabric suite for the
## virtual SoC
.PHONY: sw-examples
sw-examples: $(EX_IMAGES:%=$(EX_BUILD)/%.elf) $(EX_BUILD)/suite-a53-virt.img
-include $(SW_ARM64_OBJS:.o=.d) $(SW_ARM64_LATCTL_OBJS:.o=.d)
