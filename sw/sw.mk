# C parts: liblatmon (sw/lib), latprobe (sw/probe), latctl (sw/tools/latctl), unit tests (sw/tests).
# Included by the top-level Makefile; all outputs go to build/sw/.

SW_BUILD := $(BUILD)/sw
CC ?= gcc
SW_WARN := -Wall -Wextra -Wshadow -Wpedantic -Werror
SW_CFLAGS := -std=c11 -O2 -g $(SW_WARN) -Isw/include -Isw/lib -MMD -MP
SW_LDLIBS := -lpthread

SW_LIB_SRCS := $(wildcard sw/lib/*.c)
SW_LIB_OBJS := $(SW_LIB_SRCS:%.c=$(SW_BUILD)/obj/%.o)
SW_LIB := $(SW_BUILD)/liblatmon.a

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
sw-all: $(SW_LIB) $(SW_PROBE_LIB) $(SW_PROBE) $(SW_LATCTL) $(SW_TESTS) sw-examples

## sw-test: run every C unit test; stops at the first failing one
sw-test: $(SW_TESTS)
	@for t in $(SW_TESTS); do echo "== $$(basename $$t)"; $$t || { echo "C unit test failed: $$t" >&2; exit 1; }; done

$(SW_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SW_CFLAGS) -c $< -o $@

$(SW_LIB): $(SW_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SW_PROBE_LIB): $(SW_PROBE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SW_BUILD)/latprobe: $(SW_BUILD)/obj/$(SW_PROBE_MAIN:.c=.o) $(SW_PROBE_LIB) $(SW_LIB)
	$(CC) $(SW_CFLAGS) -o $@ $^ $(SW_LDLIBS) -lm

$(SW_BUILD)/latctl: $(SW_LATCTL_OBJS) $(SW_LIB)
	$(CC) $(SW_CFLAGS) -o $@ $(SW_LATCTL_OBJS) $(SW_LIB) $(SW_LDLIBS)

$(SW_BUILD)/tests/%: $(SW_BUILD)/obj/sw/tests/%.o $(SW_PROBE_LIB) $(SW_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SW_CFLAGS) -o $@ $^ $(SW_LDLIBS) -lm

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
EX_COMMON_SRCS := $(EX_DIR)/example.c $(EX_DIR)/support.c sw/lib/latmon.c sw/lib/latmon_log.c \
	sw/lib/latmon_crc32.c
EX_CFLAGS := -std=c11 -O2 -g $(SW_WARN) -ffreestanding -nostdinc -fno-stack-protector \
	-fno-tree-loop-distribute-patterns -Isw/include -Isw/lib -I$(EX_DIR)
EX_LDFLAGS := -nostdlib -static -Wl,--build-id=none -Wl,--no-warn-rwx-segments

# One image: $(1) name (objects in $(EX_BUILD)/$(1)/), $(2) compiler, $(3) CPU flags, $(4) the
# platform's sources (start code, platform file); optional: $(5) the program's sources (default:
# the example), $(6) the linker script (default $(EX_DIR)/$(1).ld), $(7) the image's file name
# (default example-$(1)).
define EX_IMAGE
EX_OBJS_$(1) := $$(patsubst %,$(EX_BUILD)/$(1)/%.o,$(or $(5),$(EX_COMMON_SRCS)) $(4))
EX_ELF_$(1) := $(EX_BUILD)/$(or $(7),example-$(1)).elf

$(EX_BUILD)/$(1)/%.o: %
	@mkdir -p $$(dir $$@)
	$(2) $(3) $$(EX_CFLAGS) -isystem "$$$$($(2) -print-file-name=include)" -MD -MP -c $$< -o $$@

$$(EX_ELF_$(1)): $$(EX_OBJS_$(1)) $(or $(6),$(EX_DIR)/$(1).ld)
	$(2) $(3) $$(EX_LDFLAGS) -T $(or $(6),$(EX_DIR)/$(1).ld) \
	  -Wl,-Map=$$(basename $$@).map -o $$@ $$(EX_OBJS_$(1)) -lgcc

-include $$(EX_OBJS_$(1):.o=.d)
endef

$(eval $(call EX_IMAGE,a53,aarch64-linux-gnu-gcc,-mcpu=cortex-a53 -mgeneral-regs-only,\
	$(EX_DIR)/start_a53.S $(EX_DIR)/platform_a53.c))
$(eval $(call EX_IMAGE,r5,arm-none-eabi-gcc,-mcpu=cortex-r5 -mfloat-abi=hard -mfpu=vfpv3-d16 -marm,\
	$(EX_DIR)/start_r5.S $(EX_DIR)/platform_r5.c))

# The virtual SoC's VexRiscv harts (hw/soc, docs/hw/soc.md): RV32IM with the CSR and fence.i
# extensions. Debian's GCC 12 picks its multilib by the base ISA only, so the rv32im/ilp32 libgcc
# is named by its directory (-L).
RV32_CC := riscv64-unknown-elf-gcc
RV32_LIBGCC_DIR := $(dir $(shell $(RV32_CC) -march=rv32im -mabi=ilp32 -print-libgcc-file-name 2>/dev/null))
RV32_FLAGS := -march=rv32im_zicsr_zifencei -mabi=ilp32 -DPLATFORM_FABRIC_IRQ=0u -L$(RV32_LIBGCC_DIR)
RV32_PLATFORM_SRCS := $(EX_DIR)/start_rv32.S $(EX_DIR)/platform_rv32.c $(EX_DIR)/fabric_suite_soc.c
SUITE_SRCS := $(EX_DIR)/fabric_suite.c $(EX_DIR)/fabric_suite_cases.c $(EX_DIR)/support.c sw/lib/latmon.c \
	sw/lib/latmon_log.c sw/lib/latmon_crc32.c

$(eval $(call EX_IMAGE,rv32,$(RV32_CC),$(RV32_FLAGS),$(RV32_PLATFORM_SRCS)))
# the interrupt test-case suite, the firmware the virtual SoC runs
$(eval $(call EX_IMAGE,fabric-suite-rv32,$(RV32_CC),$(RV32_FLAGS),$(RV32_PLATFORM_SRCS),\
	$(SUITE_SRCS),$(EX_DIR)/rv32.ld,fabric-suite-rv32))

## sw-examples: the bare-metal example for Cortex-A53, Cortex-R5 and the virtual SoC's RV32IM
## harts, and the interrupt test-case suite for the virtual SoC
.PHONY: sw-examples
sw-examples: $(EX_ELF_a53) $(EX_ELF_r5) $(EX_ELF_rv32) $(EX_ELF_fabric-suite-rv32)
