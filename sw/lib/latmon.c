/*
 * liblatmon: attach, configure, arm, read (docs/liblatmon.md). Offsets come from latmon_map.h,
 * field masks from latmon_regs.h — both generated from hw/regs/latmon.rdl.
 */
#include "latmon/latmon.h"

#include "latmon/latmon_map.h"
#include "latmon/latmon_regs.h"
#include "latmon_errno.h"

/* The field of a register value, by its generated mask and bit position. */
#define FIELD(value, reg, field)                              \
	(((value)&LATMON_REGISTERS__##reg##__##field##_bm) >> \
	 LATMON_REGISTERS__##reg##__##field##_bp)
/* A field value placed into its register position. */
#define PLACE(value, reg, field)                                          \
	(((uint32_t)(value) << LATMON_REGISTERS__##reg##__##field##_bp) & \
	 LATMON_REGISTERS__##reg##__##field##_bm)

/* Polls of HIST_STATUS before a snapshot is declared stuck (it takes bins + 3 cycles). */
#define HIST_POLLS 100000u

const char *latmon_strerror(int error)
{
	switch (error) {
	case 0:
		return "success";
	case LATMON_ENOTLATMON:
		return "no latmon core at this address (ID is not 0x4C544D4E \"LTMN\")";
	case LATMON_EVERSION:
		return "the core's register map has a major version this driver does not know";
	case LATMON_ENOFEATURE:
		return "the core was built without this part (see CAPS)";
	case LATMON_EBUSY:
		return "the histogram snapshot did not complete";
	case EINVAL:
		return "invalid argument";
	case ERANGE:
		return "offset or value out of range";
	case ENOTSUP:
		return "not supported by this HAL";
	case ETIMEDOUT:
		return "timed out";
	case EIO:
		return "input/output error";
	case ENOSPC:
		return "the memory given is too small";
	case E2BIG:
		return "line longer than latmon-log allows";
	case EPROTO:
		return "call out of the order the format requires";
	case EALREADY:
		return "already done";
	case EEXIST:
		return "already declared";
	case ENOENT:
		return "not found";
	case EAGAIN:
		return "not ready yet, try again";
	default:
		return "unknown error";
	}
}

static int rd(struct latmon_dev *dev, uint32_t offset, uint32_t *value)
{
	return dev->hal.read32(dev->hal.ctx, offset, value);
}

static int wr(struct latmon_dev *dev, uint32_t offset, uint32_t value)
{
	return dev->hal.write32(dev->hal.ctx, offset, value);
}

int latmon_attach(struct latmon_dev *dev, const struct latmon_hal *hal, uint64_t clock_hz)
{
	uint32_t id, version, caps, caps2;
	int err;

	if (!dev || !hal || !hal->read32 || !hal->write32)
		return EINVAL;
	dev->hal = *hal;
	dev->clock_hz = clock_hz;
	if ((err = rd(dev, LATMON_ID_OFFSET, &id)))
		return err;
	if (id != LATMON_REGISTERS__ID__MAGIC_reset)
		return LATMON_ENOTLATMON;
	if ((err = rd(dev, LATMON_VERSION_OFFSET, &version)))
		return err;
	if (FIELD(version, VERSION, MAJOR) != LATMON_DRIVER_MAJOR)
		return LATMON_EVERSION;
	if ((err = rd(dev, LATMON_CAPS_OFFSET, &caps)))
		return err;
	caps2 = 0;
	/* CAPS2 exists from minor version 1 on, not in the minimal configuration (a bus error
	 * there); CAPS.MINIMAL reads 0 before minor version 3 */
	dev->caps.minimal = FIELD(caps, CAPS, MINIMAL);
	if (FIELD(version, VERSION, MINOR) >= 1 && !dev->caps.minimal &&
	    (err = rd(dev, LATMON_CAPS2_OFFSET, &caps2)))
		return err;
	dev->caps.major = (uint16_t)FIELD(version, VERSION, MAJOR);
	dev->caps.minor = (uint16_t)FIELD(version, VERSION, MINOR);
	dev->caps.cnt_width = FIELD(caps, CAPS, CNT_WIDTH);
	dev->caps.sync_stages = FIELD(caps, CAPS, SYNC_STAGES);
	dev->caps.trace_depth =
	    FIELD(caps, CAPS, TRACE) ? 1u << FIELD(caps, CAPS, TRACE_DEPTH_LOG2) : 0;
	dev->caps.trace_width = FIELD(caps, CAPS, TRACE_WIDTH);
	dev->caps.has_hist = FIELD(caps, CAPS, HIST);
	dev->caps.hist_bins = dev->caps.has_hist ? 1u << FIELD(caps2, CAPS2, HIST_BINS_LOG2) : 0;
	dev->caps.has_stamp = FIELD(caps, CAPS, STAMP);
	dev->caps.stamp_entries = FIELD(caps2, CAPS2, STAMP_ENTRIES);
	dev->caps.has_stim = FIELD(caps, CAPS, STIM);
	dev->caps.id_width = FIELD(caps2, CAPS2, ID_WIDTH);
	/* From minor version 2 on, CAPS says whether these parts are there; before, they always
	 * were */
	if (FIELD(version, VERSION, MINOR) >= 2) {
		dev->caps.has_irq = FIELD(caps, CAPS, IRQ);
		dev->caps.has_timeout = FIELD(caps, CAPS, TIMEOUT);
		dev->caps.has_counters = FIELD(caps, CAPS, COUNTERS);
		dev->caps.has_sum = FIELD(caps, CAPS, SUM);
	} else {
		dev->caps.has_irq = dev->caps.has_timeout = 1;
		dev->caps.has_counters = dev->caps.has_sum = 1;
	}
	return 0;
}

static int read_ctrl_enable(struct latmon_dev *dev, uint32_t *enable)
{
	uint32_t ctrl;
	int err = rd(dev, LATMON_CTRL_OFFSET, &ctrl);

	*enable = ctrl & LATMON_REGISTERS__CTRL__ENABLE_bm;
	return err;
}

int latmon_configure(struct latmon_dev *dev, const struct latmon_config *c)
{
	uint32_t enable;
	int err;

	if (!dev || !c || (unsigned)c->irq_mode > 3u || (unsigned)c->ack_mode > 3u)
		return EINVAL;
	if (c->hist_shift > 31u)
		return EINVAL;
	if ((err = read_ctrl_enable(dev, &enable)))
		return err;
	if ((dev->caps.has_timeout && (err = wr(dev, LATMON_TIMEOUT_OFFSET, c->timeout))) ||
	    (!dev->caps.minimal && (err = wr(dev, LATMON_THRESHOLD_OFFSET, c->threshold))) ||
	    (dev->caps.has_irq && (err = wr(dev, LATMON_IRQ_ENABLE_OFFSET, c->irq_enable))))
		return err;
	err = wr(dev, LATMON_CTRL_OFFSET,
		 enable | PLACE(c->trace_ring ? 1 : 0, CTRL, TRACE_RING) |
		     PLACE(c->irq_mode, CTRL, IRQ_MODE) | PLACE(c->ack_mode, CTRL, ACK_MODE));
	if (err)
		return err;
	if (dev->caps.has_hist && ((err = wr(dev, LATMON_HIST_START_OFFSET, c->hist_start)) ||
				   (err = wr(dev, LATMON_HIST_SHIFT_OFFSET, c->hist_shift))))
		return err;
	if (dev->caps.has_stamp &&
	    ((err = wr(dev, LATMON_STAMP_TIMEOUT_OFFSET, c->stamp_timeout)) ||
	     (err = wr(dev, LATMON_STAMP_CTRL_OFFSET,
		       PLACE(c->stamp_enable ? 1 : 0, STAMP_CTRL, ENABLE)))))
		return err;
	if ((!dev->caps.has_stamp && c->stamp_enable) || (!dev->caps.has_timeout && c->timeout) ||
	    (!dev->caps.has_irq && c->irq_enable) ||
	    (dev->caps.minimal && (c->threshold || c->trace_ring || c->irq_mode || c->ack_mode)))
		return LATMON_ENOFEATURE;
	return 0;
}

static int set_ctrl_bits(struct latmon_dev *dev, uint32_t clear_mask, uint32_t set_mask)
{
	uint32_t ctrl;
	int err = rd(dev, LATMON_CTRL_OFFSET, &ctrl);

	if (err)
		return err;
	return wr(dev, LATMON_CTRL_OFFSET, (ctrl & ~clear_mask) | set_mask);
}

int latmon_clear(struct latmon_dev *dev)
{
	if (!dev)
		return EINVAL;
	return set_ctrl_bits(dev, 0, LATMON_REGISTERS__CTRL__CLEAR_bm);
}

int latmon_arm(struct latmon_dev *dev, int on)
{
	if (!dev)
		return EINVAL;
	return set_ctrl_bits(dev, LATMON_REGISTERS__CTRL__ENABLE_bm,
			     on ? LATMON_REGISTERS__CTRL__ENABLE_bm : 0);
}

int latmon_read_stats(struct latmon_dev *dev, struct latmon_stats *s)
{
	uint32_t sum_lo, sum_hi;
	int err;

	if (!dev || !s)
		return EINVAL;
	/* A part the core lacks (see struct latmon_caps) reads 0 here, and is not accessed */
	sum_lo = sum_hi = 0;
	s->last = s->min = s->max = s->count = 0;
	s->sum_count = s->irq_status = s->violations = s->timeouts = 0;
	s->overruns = s->ignored = s->trace_lost = 0;
	/* SUM_LO first: it latches SUM_HI and SUM_COUNT, the three form one snapshot */
	if ((dev->caps.has_sum && ((err = rd(dev, LATMON_SUM_LO_OFFSET, &sum_lo)) ||
				   (err = rd(dev, LATMON_SUM_HI_OFFSET, &sum_hi)) ||
				   (err = rd(dev, LATMON_SUM_COUNT_OFFSET, &s->sum_count)))) ||
	    (err = rd(dev, LATMON_STATUS_OFFSET, &s->status)) ||
	    (dev->caps.has_irq && (err = rd(dev, LATMON_IRQ_STATUS_OFFSET, &s->irq_status))) ||
	    (!dev->caps.minimal && ((err = rd(dev, LATMON_LAST_OFFSET, &s->last)) ||
				    (err = rd(dev, LATMON_MIN_OFFSET, &s->min)) ||
				    (err = rd(dev, LATMON_MAX_OFFSET, &s->max)) ||
				    (err = rd(dev, LATMON_COUNT_OFFSET, &s->count)))) ||
	    (dev->caps.has_counters &&
	     ((err = rd(dev, LATMON_VIOLATIONS_OFFSET, &s->violations)) ||
	      (err = rd(dev, LATMON_OVERRUNS_OFFSET, &s->overruns)) ||
	      (err = rd(dev, LATMON_IGNORED_OFFSET, &s->ignored)) ||
	      (err = rd(dev, LATMON_TRACE_LOST_OFFSET, &s->trace_lost)))) ||
	    (dev->caps.has_timeout && (err = rd(dev, LATMON_TIMEOUTS_OFFSET, &s->timeouts))) ||
	    (err = rd(dev, LATMON_TRACE_COUNT_OFFSET, &s->trace_count)))
		return err;
	s->sum = ((uint64_t)sum_hi << 32) | sum_lo;
	return 0;
}

int latmon_read_trace(struct latmon_dev *dev, uint32_t *out, size_t max, uint32_t *first, size_t *n)
{
	uint32_t before, after, depth, start, k;
	size_t got = 0;
	int err;

	if (!dev || (!out && max) || !first || !n)
		return EINVAL;
	depth = dev->caps.trace_depth;
	if (!depth)
		return LATMON_ENOFEATURE;
	if ((err = rd(dev, LATMON_TRACE_COUNT_OFFSET, &before)))
		return err;
	/* samples k in [before - depth, before) are in the RAM (all of them when before < depth) */
	start = before > depth ? before - depth : 0;
	for (k = start; k != before && got < max; k++, got++)
		if ((err = rd(dev, LATMON_TRACE_OFFSET + 4u * (k % depth), &out[got])))
			return err;
	if ((err = rd(dev, LATMON_TRACE_COUNT_OFFSET, &after)))
		return err;
	/* ring mode: samples overwritten while reading are dropped from the front */
	if (after - start > depth) {
		uint32_t lost = after - start - depth;
		size_t drop = lost < got ? lost : got;
		for (size_t i = 0; i + drop < got; i++)
			out[i] = out[i + drop];
		got -= drop;
		start += (uint32_t)drop;
	}
	*first = start;
	*n = got;
	return 0;
}

int latmon_hist_snapshot(struct latmon_dev *dev, uint32_t *bins, size_t max,
			 struct latmon_hist_bank *bank)
{
	uint32_t status = 0, lo, hi, polls;
	size_t k, nbins;
	int err;

	if (!dev || !bank || (!bins && max))
		return EINVAL;
	if (!dev->caps.has_hist)
		return LATMON_ENOFEATURE;
	if ((err = wr(dev, LATMON_HIST_CTRL_OFFSET, LATMON_REGISTERS__HIST_CTRL__SNAPSHOT_bm)))
		return err;
	for (polls = 0; polls < HIST_POLLS; polls++) {
		if ((err = rd(dev, LATMON_HIST_STATUS_OFFSET, &status)))
			return err;
		if (!(status & LATMON_REGISTERS__HIST_STATUS__BUSY_bm))
			break;
	}
	if (polls == HIST_POLLS)
		return LATMON_EBUSY;
	nbins = dev->caps.hist_bins < max ? dev->caps.hist_bins : max;
	for (k = 0; k < nbins; k++)
		if ((err = rd(dev, LATMON_HIST_OFFSET + 4u * (uint32_t)k, &bins[k])))
			return err;
	bank->bins = (unsigned)nbins;
	bank->saturated = (status & LATMON_REGISTERS__HIST_STATUS__SATURATED_bm) != 0;
	if ((err = rd(dev, LATMON_HIST_UNDERFLOW_OFFSET, &bank->underflow)) ||
	    (err = rd(dev, LATMON_HIST_OVERFLOW_OFFSET, &bank->overflow)) ||
	    (err = rd(dev, LATMON_HIST_MIN_OFFSET, &bank->min)) ||
	    (err = rd(dev, LATMON_HIST_MAX_OFFSET, &bank->max)))
		return err;
	if ((err = rd(dev, LATMON_HIST_COUNT_LO_OFFSET, &lo)) ||
	    (err = rd(dev, LATMON_HIST_COUNT_HI_OFFSET, &hi)))
		return err;
	bank->count = ((uint64_t)hi << 32) | lo;
	if ((err = rd(dev, LATMON_HIST_SUM_LO_OFFSET, &lo)) ||
	    (err = rd(dev, LATMON_HIST_SUM_HI_OFFSET, &hi)))
		return err;
	bank->sum = ((uint64_t)hi << 32) | lo;
	return 0;
}

int latmon_stim_start(struct latmon_dev *dev, const struct latmon_stim *s)
{
	int err;

	if (!dev || !s || s->mode > 2u)
		return EINVAL;
	if (!dev->caps.has_stim)
		return LATMON_ENOFEATURE;
	if ((err = wr(dev, LATMON_STIM_PERIOD_OFFSET, s->period)) ||
	    (err = wr(dev, LATMON_STIM_MIN_OFFSET, s->interval_min)) ||
	    (err = wr(dev, LATMON_STIM_MAX_OFFSET, s->interval_max)) ||
	    (err = wr(dev, LATMON_STIM_BURST_OFFSET, s->burst_len)) ||
	    (err = wr(dev, LATMON_STIM_PAUSE_OFFSET, s->pause)) ||
	    (err = wr(dev, LATMON_STIM_TOTAL_OFFSET, s->total)) ||
	    (err = wr(dev, LATMON_STIM_SEED_OFFSET, s->seed)))
		return err;
	return wr(dev, LATMON_STIM_CTRL_OFFSET,
		  LATMON_REGISTERS__STIM_CTRL__START_bm | PLACE(s->mode, STIM_CTRL, MODE) |
		      PLACE(s->loop ? 1 : 0, STIM_CTRL, LOOP) |
		      PLACE(s->stamp ? 1 : 0, STIM_CTRL, STAMP));
}

int latmon_stim_stop(struct latmon_dev *dev)
{
	if (!dev)
		return EINVAL;
	if (!dev->caps.has_stim)
		return LATMON_ENOFEATURE;
	return wr(dev, LATMON_STIM_CTRL_OFFSET, LATMON_REGISTERS__STIM_CTRL__STOP_bm);
}

int latmon_irq_ack(struct latmon_dev *dev, uint32_t bits)
{
	if (!dev)
		return EINVAL;
	if (!dev->caps.has_irq)
		return LATMON_ENOFEATURE;
	return wr(dev, LATMON_IRQ_STATUS_OFFSET, bits);
}

int latmon_wait(struct latmon_dev *dev, int timeout_ms)
{
	if (!dev)
		return EINVAL;
	if (!dev->hal.wait_irq)
		return ENOTSUP;
	return dev->hal.wait_irq(dev->hal.ctx, timeout_ms);
}

int latmon_cycles_to_ns(uint64_t cycles, uint64_t clock_hz, uint64_t *ns)
{
	const uint64_t giga = 1000000000u;
	uint64_t whole, rest, frac;

	/* clock_hz up to 18.4 GHz, so that rest * 1e9 (rest < clock_hz) fits 64 bits */
	if (!clock_hz || clock_hz > UINT64_MAX / giga || !ns)
		return EINVAL;
	/* cycles = whole * clock_hz + rest: ns = whole * 1e9 + rest * 1e9 / clock_hz, rounded */
	whole = cycles / clock_hz;
	rest = cycles % clock_hz;
	if (whole > UINT64_MAX / giga)
		return ERANGE;
	frac = (rest * giga + clock_hz / 2) / clock_hz;
	if (whole * giga > UINT64_MAX - frac)
		return ERANGE;
	*ns = whole * giga + frac;
	return 0;
}

/* ---- MMIO HAL ------------------------------------------------------------------------------- */

static int mmio_read32(void *ctx, uint32_t offset, uint32_t *value)
{
	struct latmon_mmio *m = ctx;

	if ((offset & 3u) || offset >= m->size)
		return ERANGE;
	*value = m->base[offset / 4u];
	return 0;
}

static int mmio_write32(void *ctx, uint32_t offset, uint32_t value)
{
	struct latmon_mmio *m = ctx;

	if ((offset & 3u) || offset >= m->size)
		return ERANGE;
	m->base[offset / 4u] = value;
	return 0;
}

void latmon_hal_mmio(struct latmon_hal *hal, struct latmon_mmio *mmio)
{
	hal->read32 = mmio_read32;
	hal->write32 = mmio_write32;
	hal->wait_irq = 0;
	hal->ctx = mmio;
}
