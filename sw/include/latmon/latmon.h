/*
 * liblatmon: the driver of the latmon IP core (docs/liblatmon.md).
 *
 * C11, no dynamic allocation, no globals: the caller owns every structure. The core is reached
 * through a HAL (struct latmon_hal: read32, write32, wait-for-interrupt), so the same driver runs
 * bare-metal (latmon_hal_mmio), on Linux through UIO (latmon_hal_uio) and in simulation (a HAL
 * whose functions call into the simulator). Every register address comes from the headers
 * generated from hw/regs/latmon.rdl. Functions return 0 or a positive errno value; see
 * latmon_strerror().
 */
#ifndef LATMON_H
#define LATMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Register-map major version this driver knows (VERSION.MAJOR). */
#define LATMON_DRIVER_MAJOR 1

/** Driver-specific error codes (above the errno range). */
enum {
	LATMON_ENOTLATMON = 1000, /**< ID is not "LTMN": no latmon core at this address */
	LATMON_EVERSION,	  /**< VERSION.MAJOR unknown to this driver */
	LATMON_ENOFEATURE,	  /**< the core was built without this part (CAPS) */
	LATMON_EBUSY,		  /**< the histogram did not become ready */
};

/**
 * Access to one core. read32/write32 take byte offsets within the core's map (multiples of 4);
 * they return 0 or a positive errno value. wait_irq blocks until the core's interrupt output
 * fires (or timeout_ms passes: ETIMEDOUT); it may be NULL when the platform has no interrupt.
 */
struct latmon_hal {
	int (*read32)(void *ctx, uint32_t offset, uint32_t *value);
	int (*write32)(void *ctx, uint32_t offset, uint32_t value);
	int (*wait_irq)(void *ctx, int timeout_ms);
	void *ctx;
};

/** What the core was built with (CAPS, CAPS2). The parts of map version 1.2 (has_irq,
 * has_timeout, has_counters, has_sum) are 1 on older cores, which always have them; a core
 * built without one (the published configuration has none) answers its registers with a bus
 * error, so the driver never touches them. `minimal` (CAPS.MINIMAL, map 1.3): the minimal
 * configuration, which has only ID, VERSION, CAPS, CTRL (ENABLE, CLEAR), STATUS (BUSY,
 * TRACE_FULL), TRACE_COUNT and the trace window (stop mode, rising edges); its other addresses
 * answer a bus error, and the driver reads and writes nothing else (not even CAPS2). */
struct latmon_caps {
	uint16_t major, minor;
	unsigned cnt_width, sync_stages, trace_depth, trace_width;
	unsigned has_hist, hist_bins, has_stamp, stamp_entries, has_stim, id_width;
	unsigned has_irq, has_timeout, has_counters, has_sum;
	unsigned minimal;
};

/** One attached core. */
struct latmon_dev {
	struct latmon_hal hal;
	uint64_t clock_hz;
	struct latmon_caps caps;
};

/** Trigger modes of CTRL.IRQ_MODE / ACK_MODE. */
enum latmon_edge {
	LATMON_RISING = 0,
	LATMON_FALLING = 1,
	LATMON_LEVEL_HIGH = 2,
	LATMON_LEVEL_LOW = 3,
};

/** Run-time configuration (latmon_configure). Cycles unless said otherwise. */
struct latmon_config {
	enum latmon_edge irq_mode, ack_mode;
	uint32_t timeout;   /**< 0: never */
	uint32_t threshold; /**< alarm above this latency; 0: no alarm */
	int trace_ring;	    /**< 1: keep the last samples; 0: stop when full */
	uint32_t irq_enable;
	/* optional parts (ignored when absent) */
	uint32_t hist_start;
	unsigned hist_shift;
	int stamp_enable;
	uint32_t stamp_timeout;
};

/** Status and statistics (one consistent sum snapshot). */
struct latmon_stats {
	uint32_t status, irq_status;
	uint32_t last, min, max, count;
	uint64_t sum;	    /**< exact sum of latencies ... */
	uint32_t sum_count; /**< ... of this many samples (mean = sum / sum_count) */
	uint32_t violations, timeouts, overruns, ignored;
	uint32_t trace_count, trace_lost;
};

/** The frozen histogram bank (latmon_hist_snapshot). */
struct latmon_hist_bank {
	uint32_t underflow, overflow;
	uint64_t count, sum;
	uint32_t min, max;
	int saturated;
	unsigned bins; /**< bins written to the caller's array */
};

/** Stimulus generator configuration (latmon_stim_start). */
struct latmon_stim {
	unsigned mode; /**< 0 periodic, 1 random, 2 burst */
	uint32_t period, interval_min, interval_max, burst_len, pause, total, seed;
	int loop;  /**< pulses also enter the monitor's irq input */
	int stamp; /**< the pulses are the timestamp mode's starts (start inputs ignored) */
};

/** A message for a value returned by this library (errno values included). */
const char *latmon_strerror(int error);

/**
 * Attach to a core: check ID and VERSION, read CAPS. clock_hz is the core's clock (for
 * latmon_cycles_to_ns); 0 if unknown.
 * @return 0, LATMON_ENOTLATMON, LATMON_EVERSION, EINVAL, or the HAL's error.
 */
int latmon_attach(struct latmon_dev *dev, const struct latmon_hal *hal, uint64_t clock_hz);

/**
 * Write the configuration (CTRL keeps ENABLE as it is).
 * @return 0, EINVAL, LATMON_ENOFEATURE (a timeout, interrupt enable or timestamp mode asked of a
 *         core built without it, or a threshold, ring mode or trigger mode other than rising
 *         edges asked of a minimal core: everything else is written), or the HAL's error.
 */
int latmon_configure(struct latmon_dev *dev, const struct latmon_config *config);
/** Clear statistics, counters, trace and histogram; configuration is kept. */
int latmon_clear(struct latmon_dev *dev);
/** Start (1) or stop (0) starting new measurements. */
int latmon_arm(struct latmon_dev *dev, int on);
/**
 * Read status, statistics and counters; those of parts the core lacks (the sum, the counters,
 * TIMEOUTS, IRQ_STATUS: struct latmon_caps; LAST, MIN, MAX and COUNT on a minimal core) read 0
 * and are not accessed.
 * @return 0, EINVAL or the HAL's error.
 */
int latmon_read_stats(struct latmon_dev *dev, struct latmon_stats *stats);

/**
 * Read the trace samples written since the last clear that are still in the RAM, oldest first,
 * with the consistent-window protocol (TRACE_COUNT before and after): at most @p max samples into
 * @p out; @p first receives the number of the first sample returned, @p n how many.
 */
int latmon_read_trace(struct latmon_dev *dev, uint32_t *out, size_t max, uint32_t *first,
		      size_t *n);

/**
 * Take a histogram snapshot and read the frozen bank: up to @p max bins into @p bins.
 * @return 0, LATMON_ENOFEATURE, LATMON_EBUSY (not ready after many polls), or the HAL's error.
 */
int latmon_hist_snapshot(struct latmon_dev *dev, uint32_t *bins, size_t max,
			 struct latmon_hist_bank *bank);

/** Start the stimulus generator. */
int latmon_stim_start(struct latmon_dev *dev, const struct latmon_stim *stim);
/** Stop it. */
int latmon_stim_stop(struct latmon_dev *dev);

/**
 * Acknowledge interrupt status bits (write 1 to clear).
 * @return 0, EINVAL, LATMON_ENOFEATURE (a core without interrupts), or the HAL's error.
 */
int latmon_irq_ack(struct latmon_dev *dev, uint32_t bits);
/** Wait for the core's interrupt (the HAL's wait_irq; ENOTSUP without one). */
int latmon_wait(struct latmon_dev *dev, int timeout_ms);

/**
 * Cycles to nanoseconds at clock_hz (1 Hz .. 18.4 GHz), rounded to nearest; integer arithmetic
 * without intermediate overflow for any 64-bit cycle count.
 * @return 0, EINVAL (clock_hz 0 or too high, ns NULL), ERANGE (result above 2^64 - 1).
 */
int latmon_cycles_to_ns(uint64_t cycles, uint64_t clock_hz, uint64_t *ns);

/* ---- HAL backends ------------------------------------------------------------------------- */

/** Bare-metal: registers at a physical (or identity-mapped) address. */
struct latmon_mmio {
	volatile uint32_t *base;
	uint32_t size; /**< bytes of the map: offsets at or above are refused (ERANGE) */
};
/** Fill @p hal for MMIO access (wait_irq NULL: poll, or hook your interrupt controller). */
void latmon_hal_mmio(struct latmon_hal *hal, struct latmon_mmio *mmio);

#ifdef __cplusplus
}
#endif

#endif
