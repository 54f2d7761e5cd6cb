/*
 * liblatmon against a register-level fake of the core: a HAL over an array of registers that
 * records the order of accesses and plays the core's side effects the driver relies on
 * (SUM_LO latching SUM_HI/SUM_COUNT, TRACE_COUNT moving during a read, HIST_STATUS.BUSY).
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "latmon/latmon.h"
#include "latmon/latmon_map.h"
#include "latmon/latmon_regs.h"

#define WORDS (LATMON_MAP_SIZE / 4u)

struct fake {
	uint32_t reg[WORDS];
	uint32_t log[4096]; /* offsets accessed, in order (bit 31: a write) */
	unsigned nlog;
	uint32_t trace_count_after; /* TRACE_COUNT from its second read on (0: unchanged) */
	unsigned trace_count_reads;
	int hist_stuck;
	uint64_t sum; /* the core's 48-bit sum: SUM_LO read latches the high word */
};

static int fake_read(void *ctx, uint32_t offset, uint32_t *value)
{
	struct fake *f = ctx;

	if (offset % 4u || offset >= LATMON_MAP_SIZE)
		return ERANGE;
	if (f->nlog < 4096)
		f->log[f->nlog++] = offset;
	if (offset == LATMON_SUM_LO_OFFSET) {
		f->reg[LATMON_SUM_HI_OFFSET / 4] = (uint32_t)(f->sum >> 32);
		f->reg[LATMON_SUM_COUNT_OFFSET / 4] = f->reg[LATMON_COUNT_OFFSET / 4];
		*value = (uint32_t)f->sum;
		return 0;
	}
	if (offset == LATMON_TRACE_COUNT_OFFSET && f->trace_count_after &&
	    f->trace_count_reads++ > 0)
		f->reg[offset / 4] = f->trace_count_after;
	if (offset == LATMON_HIST_STATUS_OFFSET)
		f->reg[offset / 4] = f->hist_stuck ? LATMON_REGISTERS__HIST_STATUS__BUSY_bm : 0;
	*value = f->reg[offset / 4];
	return 0;
}

static int fake_write(void *ctx, uint32_t offset, uint32_t value)
{
	struct fake *f = ctx;

	if (offset % 4u || offset >= LATMON_MAP_SIZE)
		return ERANGE;
	if (f->nlog < 4096)
		f->log[f->nlog++] = offset | 0x80000000u;
	f->reg[offset / 4] = value;
	return 0;
}

static void fake_core(struct fake *f, uint32_t caps_extra)
{
	memset(f, 0, sizeof *f);
	f->reg[LATMON_ID_OFFSET / 4] = LATMON_REGISTERS__ID__MAGIC_reset;
	f->reg[LATMON_VERSION_OFFSET / 4] = (1u << 16) | 1u;
	f->reg[LATMON_CAPS_OFFSET / 4] = LATMON_REGISTERS__CAPS__TRACE_bm | (32u << 8) |
					 (4u << 16) /* 16 deep */ | (2u << 21) | (32u << 24) |
					 caps_extra;
	f->reg[LATMON_CAPS2_OFFSET / 4] = 3u /* 8 bins */ | (16u << 8) | (16u << 16);
}

static struct latmon_hal hal_for(struct fake *f)
{
	struct latmon_hal h = { fake_read, fake_write, NULL, f };
	return h;
}

static void test_attach(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);

	fake_core(&f, LATMON_REGISTERS__CAPS__HIST_bm | LATMON_REGISTERS__CAPS__STAMP_bm);
	CHECK(latmon_attach(&dev, &h, 100000000u) == 0);
	CHECK(dev.caps.cnt_width == 32 && dev.caps.trace_depth == 16 && dev.caps.sync_stages == 2);
	CHECK(dev.caps.has_hist && dev.caps.hist_bins == 8 && dev.caps.has_stamp);
	CHECK(!dev.caps.has_stim && dev.caps.stamp_entries == 16 && dev.caps.id_width == 16);
	CHECK(f.log[0] == LATMON_ID_OFFSET); /* the ID is checked before anything else */

	f.reg[LATMON_ID_OFFSET / 4] = 0xDEADBEEF;
	CHECK(latmon_attach(&dev, &h, 0) == LATMON_ENOTLATMON);
	fake_core(&f, 0);
	f.reg[LATMON_VERSION_OFFSET / 4] = 2u << 16;
	CHECK(latmon_attach(&dev, &h, 0) == LATMON_EVERSION);
	CHECK(latmon_attach(NULL, &h, 0) == EINVAL);
	CHECK(strstr(latmon_strerror(LATMON_ENOTLATMON), "LTMN") != NULL);
}

/* A core of map version 1.2 built without interrupts, timeout, counters and sum (the published
 * configuration): the driver reads CAPS and never touches their registers. */
static void test_published_configuration(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);
	struct latmon_config c = { 0 };
	struct latmon_stats s;
	unsigned i;

	fake_core(&f, 0);
	f.reg[LATMON_VERSION_OFFSET / 4] = (1u << 16) | 2u;
	f.reg[LATMON_COUNT_OFFSET / 4] = 7;
	f.sum = 12345;
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	CHECK(!dev.caps.has_irq && !dev.caps.has_timeout && !dev.caps.has_counters &&
	      !dev.caps.has_sum);
	f.nlog = 0;
	c.threshold = 100;
	CHECK(latmon_configure(&dev, &c) == 0);
	CHECK(latmon_read_stats(&dev, &s) == 0);
	CHECK(s.count == 7 && s.sum == 0 && s.sum_count == 0 && s.violations == 0);
	for (i = 0; i < f.nlog; i++) {
		uint32_t off = f.log[i] & 0x7FFFFFFFu;
		CHECK(off != LATMON_SUM_LO_OFFSET && off != LATMON_SUM_HI_OFFSET &&
		      off != LATMON_SUM_COUNT_OFFSET && off != LATMON_TIMEOUT_OFFSET &&
		      off != LATMON_TIMEOUTS_OFFSET && off != LATMON_IRQ_ENABLE_OFFSET &&
		      off != LATMON_IRQ_STATUS_OFFSET && off != LATMON_VIOLATIONS_OFFSET &&
		      off != LATMON_OVERRUNS_OFFSET && off != LATMON_IGNORED_OFFSET &&
		      off != LATMON_TRACE_LOST_OFFSET);
	}
	CHECK(f.reg[LATMON_THRESHOLD_OFFSET / 4] == 100);
	c.timeout = 50;
	CHECK(latmon_configure(&dev, &c) == LATMON_ENOFEATURE);
	CHECK(latmon_irq_ack(&dev, 1) == LATMON_ENOFEATURE);
	/* a version 1.1 core has every part, whatever CAPS bits 7:4 read */
	f.reg[LATMON_VERSION_OFFSET / 4] = (1u << 16) | 1u;
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	CHECK(dev.caps.has_irq && dev.caps.has_timeout && dev.caps.has_counters &&
	      dev.caps.has_sum);
}

/* The minimal configuration (CAPS.MINIMAL, map 1.3): only ID, VERSION, CAPS, CTRL, STATUS,
 * TRACE_COUNT and the trace window exist and every other address answers SLVERR, so the
 * driver accesses nothing else - CAPS2 included. */
static void test_minimal_configuration(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);
	struct latmon_config c = { 0 };
	struct latmon_stats s;
	uint32_t out[16], first;
	size_t n;
	unsigned i;

	fake_core(&f, LATMON_REGISTERS__CAPS__MINIMAL_bm);
	f.reg[LATMON_VERSION_OFFSET / 4] = (1u << 16) | 3u;
	f.reg[LATMON_CAPS2_OFFSET / 4] = 5; /* TRACE_COUNT would read here: never taken as CAPS2 */
	f.reg[LATMON_TRACE_COUNT_OFFSET / 4] = 5;
	f.reg[LATMON_STATUS_OFFSET / 4] = LATMON_REGISTERS__STATUS__BUSY_bm;
	for (i = 0; i < 5; i++)
		f.reg[LATMON_TRACE_OFFSET / 4 + i] = 10 + i;
	f.reg[LATMON_COUNT_OFFSET / 4] = 99; /* absent: must not be read */
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	CHECK(dev.caps.minimal && dev.caps.trace_depth == 16 && dev.caps.cnt_width == 32);
	CHECK(!dev.caps.has_hist && !dev.caps.has_stamp && !dev.caps.has_stim &&
	      !dev.caps.has_irq && !dev.caps.has_timeout && !dev.caps.has_counters &&
	      !dev.caps.has_sum);
	CHECK(dev.caps.hist_bins == 0 && dev.caps.stamp_entries == 0 && dev.caps.id_width == 0);
	CHECK(latmon_configure(&dev, &c) == 0);
	CHECK(latmon_arm(&dev, 1) == 0);
	CHECK(latmon_read_stats(&dev, &s) == 0);
	CHECK(s.status == LATMON_REGISTERS__STATUS__BUSY_bm && s.trace_count == 5);
	CHECK(s.count == 0 && s.last == 0 && s.min == 0 && s.max == 0);
	CHECK(latmon_read_trace(&dev, out, 16, &first, &n) == 0);
	CHECK(first == 0 && n == 5 && out[0] == 10 && out[4] == 14);
	CHECK(latmon_clear(&dev) == 0);
	for (i = 0; i < f.nlog; i++) {
		uint32_t off = f.log[i] & 0x7FFFFFFFu;
		int write = (f.log[i] & 0x80000000u) != 0;
		CHECK(off == LATMON_ID_OFFSET || off == LATMON_VERSION_OFFSET ||
		      off == LATMON_CAPS_OFFSET || off == LATMON_CTRL_OFFSET ||
		      off == LATMON_STATUS_OFFSET || off == LATMON_TRACE_COUNT_OFFSET ||
		      (off >= LATMON_TRACE_OFFSET && off < LATMON_TRACE_OFFSET + 4u * 16u));
		CHECK(!write || off == LATMON_CTRL_OFFSET);
	}
	/* what the minimal configuration cannot do is refused after the rest is written */
	c.threshold = 100;
	CHECK(latmon_configure(&dev, &c) == LATMON_ENOFEATURE);
	c.threshold = 0;
	c.trace_ring = 1;
	CHECK(latmon_configure(&dev, &c) == LATMON_ENOFEATURE);
	c.trace_ring = 0;
	c.ack_mode = LATMON_FALLING;
	CHECK(latmon_configure(&dev, &c) == LATMON_ENOFEATURE);
	CHECK(f.reg[LATMON_THRESHOLD_OFFSET / 4] == 0);
	/* a core of map 1.2 reads CAPS bit 15 as 0: not minimal, CAPS2 read */
	fake_core(&f, 0);
	f.reg[LATMON_VERSION_OFFSET / 4] = (1u << 16) | 2u;
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	CHECK(!dev.caps.minimal && dev.caps.stamp_entries == 16);
}

static void test_configure_keeps_enable(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);
	struct latmon_config c;

	fake_core(&f, LATMON_REGISTERS__CAPS__HIST_bm);
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	CHECK(latmon_arm(&dev, 1) == 0);
	memset(&c, 0, sizeof c);
	c.irq_mode = LATMON_FALLING;
	c.ack_mode = LATMON_LEVEL_HIGH;
	c.timeout = 300;
	c.threshold = 60;
	c.trace_ring = 1;
	c.hist_start = 1000;
	c.hist_shift = 4;
	CHECK(latmon_configure(&dev, &c) == 0);
	CHECK(f.reg[LATMON_TIMEOUT_OFFSET / 4] == 300 && f.reg[LATMON_THRESHOLD_OFFSET / 4] == 60);
	CHECK(f.reg[LATMON_CTRL_OFFSET / 4] ==
	      (LATMON_REGISTERS__CTRL__ENABLE_bm | LATMON_REGISTERS__CTRL__TRACE_RING_bm |
	       (1u << LATMON_REGISTERS__CTRL__IRQ_MODE_bp) |
	       (2u << LATMON_REGISTERS__CTRL__ACK_MODE_bp)));
	CHECK(f.reg[LATMON_HIST_START_OFFSET / 4] == 1000 &&
	      f.reg[LATMON_HIST_SHIFT_OFFSET / 4] == 4);
	c.stamp_enable = 1; /* no timestamp mode in this core */
	CHECK(latmon_configure(&dev, &c) == LATMON_ENOFEATURE);
	c.stamp_enable = 0;
	c.hist_shift = 32;
	CHECK(latmon_configure(&dev, &c) == EINVAL);
	CHECK(latmon_arm(&dev, 0) == 0);
	CHECK((f.reg[LATMON_CTRL_OFFSET / 4] & LATMON_REGISTERS__CTRL__ENABLE_bm) == 0);
	CHECK(latmon_clear(&dev) == 0);
	CHECK(f.reg[LATMON_CTRL_OFFSET / 4] & LATMON_REGISTERS__CTRL__CLEAR_bm);
}

static void test_stats_sum_snapshot(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);
	struct latmon_stats s;
	unsigned i, lo_at = 0, hi_at = 0;

	fake_core(&f, 0);
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	f.sum = 0x0000123456789ABCull;
	f.reg[LATMON_COUNT_OFFSET / 4] = 77;
	f.nlog = 0;
	CHECK(latmon_read_stats(&dev, &s) == 0);
	CHECK(s.sum == 0x0000123456789ABCull && s.sum_count == 77 && s.count == 77);
	for (i = 0; i < f.nlog; i++) {
		if (f.log[i] == LATMON_SUM_LO_OFFSET)
			lo_at = i + 1;
		if (f.log[i] == LATMON_SUM_HI_OFFSET)
			hi_at = i + 1;
	}
	CHECK(lo_at && hi_at && lo_at < hi_at); /* SUM_LO first: it latches the rest */
}

static void test_trace_window(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);
	uint32_t out[32], first, k;
	size_t n;

	fake_core(&f, 0);
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	/* stop mode, 5 samples */
	for (k = 0; k < 16; k++)
		f.reg[LATMON_TRACE_OFFSET / 4 + k] = 100 + k;
	f.reg[LATMON_TRACE_COUNT_OFFSET / 4] = 5;
	CHECK(latmon_read_trace(&dev, out, 32, &first, &n) == 0);
	CHECK(first == 0 && n == 5 && out[0] == 100 && out[4] == 104);
	/* ring mode: 40 written, the last 16 are samples 24..39 at words 8..15, 0..7 */
	for (k = 24; k < 40; k++)
		f.reg[LATMON_TRACE_OFFSET / 4 + k % 16] = 1000 + k;
	f.reg[LATMON_TRACE_COUNT_OFFSET / 4] = 40;
	CHECK(latmon_read_trace(&dev, out, 32, &first, &n) == 0);
	CHECK(first == 24 && n == 16 && out[0] == 1024 && out[15] == 1039);
	/* three more samples arrive while reading: the three oldest read may be overwritten */
	f.trace_count_after = 43;
	f.trace_count_reads = 0;
	CHECK(latmon_read_trace(&dev, out, 32, &first, &n) == 0);
	CHECK(first == 27 && n == 13 && out[0] == 1027 && out[12] == 1039);
	CHECK(latmon_read_trace(&dev, out, 32, NULL, &n) == EINVAL);
}

static void test_hist(void)
{
	static struct fake f;
	struct latmon_dev dev;
	struct latmon_hal h = hal_for(&f);
	struct latmon_hist_bank bank;
	uint32_t bins[8], k;

	fake_core(&f, 0);
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	CHECK(latmon_hist_snapshot(&dev, bins, 8, &bank) == LATMON_ENOFEATURE);
	fake_core(&f, LATMON_REGISTERS__CAPS__HIST_bm);
	CHECK(latmon_attach(&dev, &h, 0) == 0);
	for (k = 0; k < 8; k++)
		f.reg[LATMON_HIST_OFFSET / 4 + k] = k * k;
	f.reg[LATMON_HIST_COUNT_LO_OFFSET / 4] = 5;
	f.reg[LATMON_HIST_COUNT_HI_OFFSET / 4] = 1;
	f.reg[LATMON_HIST_SUM_HI_OFFSET / 4] = 2;
	f.reg[LATMON_HIST_UNDERFLOW_OFFSET / 4] = 3;
	CHECK(latmon_hist_snapshot(&dev, bins, 8, &bank) == 0);
	CHECK(bank.bins == 8 && bins[7] == 49 && bank.count == ((1ull << 32) | 5));
	CHECK(bank.sum == (2ull << 32) && bank.underflow == 3);
	CHECK(f.reg[LATMON_HIST_CTRL_OFFSET / 4] == LATMON_REGISTERS__HIST_CTRL__SNAPSHOT_bm);
	f.hist_stuck = 1;
	CHECK(latmon_hist_snapshot(&dev, bins, 8, &bank) == LATMON_EBUSY);
}

static void test_cycles_to_ns(void)
{
	uint64_t ns;

	CHECK(latmon_cycles_to_ns(3, 100000000u, &ns) == 0 && ns == 30);
	CHECK(latmon_cycles_to_ns(1, 300000000u, &ns) == 0 && ns == 3); /* 3.33 -> 3 */
	CHECK(latmon_cycles_to_ns(2, 300000000u, &ns) == 0 && ns == 7); /* 6.67 -> 7 */
	CHECK(latmon_cycles_to_ns(UINT64_MAX, 100000000u, &ns) == ERANGE);
	CHECK(latmon_cycles_to_ns(UINT64_MAX, 18000000000ull, &ns) == 0 &&
	      ns == 1024819115206086201ull); /* 2^64-1 / 18 GHz = 1.0248e18 ns */
	CHECK(latmon_cycles_to_ns(1, 0, &ns) == EINVAL);
}

static void test_mmio_bounds(void)
{
	uint32_t regs[4] = { LATMON_REGISTERS__ID__MAGIC_reset, 1u << 16, 0, 0 };
	struct latmon_mmio m = { regs, sizeof regs };
	struct latmon_hal h;
	uint32_t v;

	latmon_hal_mmio(&h, &m);
	CHECK(h.read32(h.ctx, 0, &v) == 0 && v == LATMON_REGISTERS__ID__MAGIC_reset);
	CHECK(h.read32(h.ctx, 16, &v) == ERANGE); /* outside the map: refused */
	CHECK(h.write32(h.ctx, 2, 1) == ERANGE);  /* misaligned */
}

int main(void)
{
	test_attach();
	test_published_configuration();
	test_minimal_configuration();
	test_configure_keeps_enable();
	test_stats_sum_snapshot();
	test_trace_window();
	test_hist();
	test_cycles_to_ns();
	test_mmio_bounds();
	return check_report("test_latmon_driver");
}
