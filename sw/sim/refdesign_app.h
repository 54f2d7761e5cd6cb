/*
 * The processor side of the reference design (docs/hw/refdesign.md), written against liblatmon
 * only: it runs wherever a HAL reaches the design's AXI4-Lite port — in simulation, through the
 * cocotb HAL of hw/tb/latmon_driver.py; on a board, through MMIO. No allocation: the caller
 * provides refdesign_app_size() bytes of state.
 */
#ifndef REFDESIGN_APP_H
#define REFDESIGN_APP_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon.h"

/* The design's address map (hw/rtl/refdesign/refdesign.v: address bits 17:16). */
#define REFDESIGN_T1_BASE      0x00000u
#define REFDESIGN_T2_BASE      0x10000u
#define REFDESIGN_DATA	       0x20000u
#define REFDESIGN_TIMER_PERIOD 0x20004u
#define REFDESIGN_GEN_DELAY    0x20008u
#define REFDESIGN_CTRL	       0x2000Cu
#define REFDESIGN_DROPPED      0x20014u

struct refdesign_app;

size_t refdesign_app_size(void);
/**
 * Attach to both cores behind @p bus, configure them (rising edges, the histogram from 0 in
 * 16-cycle bins), clear, arm, and start the timer. @p state: refdesign_app_size() bytes.
 */
int refdesign_app_start(void *state, const struct latmon_hal *bus, uint64_t clock_hz,
			uint32_t timer_period, uint32_t gen_delay);
/** The interrupt service routine: read the data word (the read T2 measures to). */
int refdesign_app_isr(void *state, uint32_t *data);
/** Stop the timer and both cores. */
int refdesign_app_stop(void *state);
/**
 * Write both traces as latmon-log (series T1 and T2, cycles at clock_hz) with the cores'
 * counters; @p scenario becomes the log's scenario=.
 */
int refdesign_app_write_log(void *state, const char *path, const char *scenario);

#endif
