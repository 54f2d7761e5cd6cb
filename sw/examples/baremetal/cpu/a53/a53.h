/*
 * What the A53 platform files share beyond platform.h: the board the image runs on (where its
 * GIC is, which cores it owns, how PSCI is called), the MMU descriptors, and the interrupt
 * routing with the counter read on entry (used by the suite).
 *
 * Two boards: the Zynq UltraScale+ APU (board/zcu102.c: fixed addresses, a board or QEMU's
 * ZCU102 model) and a machine described by the device tree it is started with
 * (board/virt.c: QEMU's virt machine, a Xen guest, cores next to Linux; docs/target/xen.md).
 */
#ifndef PLATFORM_A53_H
#define PLATFORM_A53_H

#include <stdint.h>

struct a53_board {
	uintptr_t gicd;	     /* GICv2 distributor */
	uintptr_t gicc;	     /* GICv2 CPU interface */
	unsigned boot_cpu;   /* MPIDR affinity 0 of the core main() runs on */
	unsigned second_cpu; /* the core the two-core cases start */
	int psci_hvc;	     /* PSCI through HVC (virt, Xen guests) instead of SMC */
	int gic_shared; /* another OS owns the distributor: touch only this core's banked part */
	int phys_timer; /* the EL1 physical timer may wake WFI (the suite's watchdog) */
};
extern struct a53_board a53_board;

/* M_AXI_HPM0_FPD and M_AXI_HPM1_FPD: where the PL's cores are on a ZynqMP (docs/hw/refdesign.md) */
#define A53_PL_LOW  0x80000000ull
#define A53_PL_HIGH 0xC0000000ull

/* Call @p isr with the generic timer's virtual counter at exception entry for interrupt @p id. */
void a53_irq_route(unsigned id, void (*isr)(uint64_t entry));

/* Watchdog hooks of the interrupt dispatch (weak: the suite defines them; cpu/a53/platform.c). */
int a53_irq_admit(unsigned id);
void a53_irq_done(unsigned id);

/* A word read at a misaligned PL address with alignment checks on: a data abort. */
void a53_misaligned_pl_read(void);

/* Apply the fault injections the command line asks for (cpu/a53/platform.c; the tests use them). */
void a53_apply_cmdline(void);

/* The tests' second-line storm: enable a device interrupt that stays asserted until its
 * handler clears it (ZCU102: UART0's TX-empty); @return its ID, or 0 (no such device). */
unsigned a53_board_storm_line(void);

/* Board hook of the fault report: a line on what a fault at @p far means there (or nothing). */
void a53_board_fault_hint(uint64_t far);

/* ---- MMU: an identity map of 4 GiB, 4 KiB granule, walk from level 1 (T0SZ = 32) ---- */
#define A53_ATTR_DEVICE	  0u /* MAIR index 0: 0x00 device-nGnRnE */
#define A53_ATTR_NORMAL	  1u /* MAIR index 1: 0xFF normal, inner/outer write-back */
#define A53_ATTR_UNCACHED 2u /* MAIR index 2: 0x44 normal, non-cacheable (shared with Linux) */
#define A53_MAIR	  0x44FF00ull
#define A53_DESC_BLOCK(pa, attr) \
	((pa) | (1ull << 10) /* AF */ | (3ull << 8) /* inner shareable */ | ((attr) << 2) | 1u)
#define A53_DESC_TABLE(pa) ((pa) | 3u)

/* Fill the level-1 table and the one level-2 table (2 MiB blocks) the board needs. */
void a53_board_mmu_map(uint64_t *l1, uint64_t *l2);

/* PSCI: CPU_ON and SYSTEM_OFF through the board's conduit; PSCI status (0 = success). */
int64_t a53_psci_cpu_on(uint64_t mpidr, uint64_t entry, uint64_t context);
void a53_psci_system_off(void);

#endif
