/*
 * The virtual SoC's memory map (hw/soc/soc_top.v; a test checks these against its decoder).
 * The reference design sits where it sits on the Zynq UltraScale+ (platform.h).
 */
#ifndef SOC_MAP_H
#define SOC_MAP_H

#define SOC_RAM_UNCACHED  0x80000000u /* alias of the RAM at 0 without the data cache */
#define SOC_REFDESIGN	  0xA0000000u /* T1 core, T2 core (+0x10000), design registers (+0x20000) */
#define SOC_LINE0_MONITOR 0xA0040000u /* latmon core of irqgen line 0, with stimulus generator */
#define SOC_LINE1_MONITOR 0xA0050000u /* latmon core of irqgen line 1 */
#define SOC_SYSCTRL	  0xB0000000u
#define SOC_UART	  0xB0010000u
#define SOC_IRQGEN	  0xB0020000u
#define SOC_TRAFFIC	  0xB0030000u

/* the reference design's own registers (docs/hw/refdesign.md) */
#define SOC_REF_DATA	     (SOC_REFDESIGN + 0x20000u)
#define SOC_REF_TIMER_PERIOD (SOC_REFDESIGN + 0x20004u)
#define SOC_REF_GEN_DELAY    (SOC_REFDESIGN + 0x20008u)
#define SOC_REF_CTRL	     (SOC_REFDESIGN + 0x2000Cu)
#define SOC_REF_FIFO_LEVEL   (SOC_REFDESIGN + 0x20010u)
#define SOC_REF_DROPPED	     (SOC_REFDESIGN + 0x20014u)

/* external interrupt array bits of every hart */
#define SOC_IRQ_DATA_READY 0u /* pl_ps_irq */
#define SOC_IRQ_LINE0	   1u /* irqgen line i is bit 1 + i */

#endif
