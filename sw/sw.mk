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

EX_DIR := sw/examples/baremetal
EX_BUILD := $(SW_BUILD)/examples
EX_LIB_SRCS := sw/lib/latmon.c sw/lib/latmon_log.c sw/lib/latmon_crc32.c
EX_SRCS := $(EX_DIR)/example.c $(EX_LIB_SRCS)
EX_WARN := -std=c11 -O2 -g $(SW_WARN) -Isw/include -I$(EX_DIR)

## sw-examples: the bare-metal example for Cortex-A53 (aarch64) and Cortex-R5 (arm-none-eabi)
.PHONY: sw-examples
sw-examples: $(EX_BUILD)/example-a53.elf $(EX_BUILD)/example-r5.elf

$(EX_BUILD)/example-a53.elf: $(EX_SRCS) $(EX_DIR)/platform_a53.c $(EX_DIR)/support.c \
		$(EX_DIR)/start_a53.S $(EX_DIR)/a53.ld $(wildcard $(EX_DIR)/*.h sw/include/latmon/*.h)
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc $(EX_WARN) -mcpu=cortex-a53 -mgeneral-regs-only -ffreestanding \
	  -fno-stack-protector -nostdlib -static -Wl,--build-id=none -Wl,--no-warn-rwx-segments -T $(EX_DIR)/a53.ld -o $@ \
	  $(EX_DIR)/start_a53.S $(EX_SRCS) $(EX_DIR)/platform_a53.c $(EX_DIR)/support.c -lgcc

$(EX_BUILD)/example-r5.elf: $(EX_SRCS) $(EX_DIR)/platform_r5.c $(EX_DIR)/start_r5.S \
		$(EX_DIR)/r5.ld $(wildcard $(EX_DIR)/*.h sw/include/latmon/*.h)
	@mkdir -p $(dir $@)
	arm-none-eabi-gcc $(EX_WARN) -mcpu=cortex-r5 -mfloat-abi=hard -mfpu=vfpv3-d16 -marm \
	  --specs=nosys.specs -Wl,--no-warn-rwx-segments -T $(EX_DIR)/r5.ld -o $@ \
	  $(EX_DIR)/start_r5.S $(EX_SRCS) $(EX_DIR)/platform_r5.c
