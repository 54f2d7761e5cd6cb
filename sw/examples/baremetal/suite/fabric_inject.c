/*
 * The broken handlers the watchdog's tests inject (fsuite_config.inject; docs/hw/soc.md, "When a
 * handler is broken"). Linked after everything else: the cases' code and the interrupt path keep
 * their places in the instruction cache whatever is added here.
 */
#include <stdint.h>

#include "suite/fabric_suite.h"

#define STORM_LINE 5u /* the injected second line: test line 5 */

/* The right handlers' contexts begin with their count (t1t2_state, line_state). */
static void count_one(void *ctx)
{
	volatile uint32_t *count = ctx;

	*count = *count + 1u;
}

static void isr_data_no_read(void *ctx)
{
	count_one(ctx); /* DATA is never read: data-ready stays high */
}

static void isr_data_spin(void *ctx)
{
	(void)ctx;
	for (;;) /* never returns; interrupts stay off */
		__asm__ volatile("" ::: "memory");
}

static void isr_data_fault(void *ctx)
{
	(void)ctx;
	__asm__ volatile(".word 0" ::: "memory"); /* an illegal instruction */
}

static void isr_never_acks(void *ctx)
{
	(void)ctx;
}

static void isr_line0_no_ack(void *ctx)
{
	count_one(ctx); /* line 0 is never acknowledged */
}

static void isr_line0_wrong_ack(void *ctx)
{
	board_line_ack(1); /* the other line's ID */
	count_one(ctx);
}

platform_isr_fn fsuite_inject_data_isr(platform_isr_fn right)
{
	switch (fsuite_config.inject) {
	case FSUITE_INJECT_NO_READ:
		return isr_data_no_read;
	case FSUITE_INJECT_SPIN:
		return isr_data_spin;
	case FSUITE_INJECT_FAULT:
		return isr_data_fault;
	default:
		return right;
	}
}

platform_isr_fn fsuite_inject_line0_isr(platform_isr_fn right)
{
	switch (fsuite_config.inject) {
	case FSUITE_INJECT_NO_ACK:
		return isr_line0_no_ack;
	case FSUITE_INJECT_WRONG_ACK:
		return isr_line0_wrong_ack;
	default:
		return right;
	}
}

void fsuite_inject_second_line(int on)
{
	if (fsuite_config.inject != FSUITE_INJECT_SECOND_LINE)
		return;
	if (on) {
		platform_irq_attach(board_line_irq(STORM_LINE), isr_never_acks, 0);
		board_line_raise(1u << STORM_LINE);
	} else {
		platform_irq_detach(board_line_irq(STORM_LINE));
		board_line_ack(STORM_LINE);
	}
}
