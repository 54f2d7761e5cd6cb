/*
 * What the A53 platform files share beyond platform.h: the GIC-400 of the APU, the PL's address
 * window, and the interrupt routing with the counter read on entry (used by the suite).
 */
#ifndef PLATFORM_A53_H
#define PLATFORM_A53_H

#include <stdint.h>

#define A53_GICD_BASE 0xF9010000u
#define A53_GICC_BASE 0xF9020000u
/* M_AXI_HPM0_FPD and M_AXI_HPM1_FPD: where the PL's cores are (docs/hw/refdesign.md) */
#define A53_PL_LOW  0x80000000ull
#define A53_PL_HIGH 0xC0000000ull

/* Call @p isr with the generic timer's virtual counter at exception entry for interrupt @p id. */
void a53_irq_route(unsigned id, void (*isr)(uint64_t entry));

#endif
