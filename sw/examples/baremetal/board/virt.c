/*
 * A machine described by the device tree the image is started with (docs/target/xen.md): one
 * image for QEMU's virt machine, for a Xen guest (dom0less or xl) and for cores next to Linux
 * (AMP). The device tree (x0 at entry, cpu/a53/start.S) says where the GICv2 and the UART are
 * (QEMU's PL011 or Xen's emulated SBSA UART), how PSCI is called, whether a hypervisor is
 * below, and, in /chosen:
 *
 *   bootargs             the command line (the fault injections of the tests)
 *   latmon,ring          <addr size> (64-bit each): write the log into this shared-memory ring
 *                        (latmon_ring.h) instead of the UART, which then belongs to Linux;
 *                        the distributor is Linux's too (only this core's banked part is used)
 *   latmon,linux         <entry> (64 bit): start Linux there on core latmon,linux-cpu, with
 *                        this device tree, before the suite runs (QEMU cannot start a core at
 *                        an address while Linux boots; on a board the boot loader does)
 *   latmon,linux-cpu     <mpidr> of the core Linux boots on
 *   latmon,second-cpu    <mpidr> of the core the two-core cases use (default: boot core + 1)
 *
 * The program ends with PSCI SYSTEM_OFF (QEMU exits; Xen ends the domain); next to Linux it
 * marks the ring done and parks its core instead.
 */
#include "board/fdt.h"
#include "cpu/a53/a53.h"
#include "cpu/arm/gic.h"
#include "latmon/latmon_ring.h"
#include "latmon_errno.h"
#include "platform.h"

/* QEMU virt's own addresses, for a start without a device tree */
struct a53_board a53_board = {
	.gicd = 0x08000000u,
	.gicc = 0x08010000u,
	.boot_cpu = 0,
	.second_cpu = 1,
	.psci_hvc = 1,
	.gic_shared = 0,
	.phys_timer = 1,
};

extern uint64_t platform_boot_dtb; /* cpu/a53/start.S */

#define PL011_DR      0x00u
#define PL011_FR      0x18u
#define PL011_FR_TXFF 0x20u

/* The reader must come within this time after Linux was started (Linux boots meanwhile). */
#define READER_WAIT_S 900u
/* A full ring nobody empties for this long: the rest of a write is dropped (and counted). */
#define RING_STALL_S 30u

static uintptr_t uart_base = 0x09000000u;
static struct latmon_ring *ring;
static const char *platform_name = "qemu-virt";
static const char *emulated = "yes";
static char hypervisor[40] = "none";
static char bootargs[256];

static uint64_t counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}

static uint64_t counter_hz(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

static int str_eq(const uint8_t *a, uint32_t alen, const char *b)
{
	uint32_t i = 0;

	while (i < alen && a[i] && b[i] && a[i] == (uint8_t)b[i])
		i++;
	return b[i] == 0 && (i == alen || a[i] == 0);
}

/* Xen's guest memory map and its xen_version hypercall (HVC #0xEA1, number in x16) */
#define XEN_GUEST_GICD_BASE	   0x03001000u
#define XEN_HYPERVISOR_xen_version 17u
#define XENVER_version		   0u

static uint64_t xen_version(void)
{
	register uint64_t x0 __asm__("x0") = XENVER_version;
	register uint64_t x1 __asm__("x1") = 0;
	register uint64_t x16 __asm__("x16") = XEN_HYPERVISOR_xen_version;

	__asm__ volatile("hvc #0xea1" : "+r"(x0), "+r"(x1) : "r"(x16) : "memory");
	return x0;
}

static char *put_dec(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v && n < 20);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static int find_any(const void *dtb, const char *const *compat, uint32_t *node)
{
	for (; *compat; compat++)
		if (fdt_find_child(dtb, *compat, 0, node) == 0)
			return 0;
	return ENOENT;
}

static int chosen_u64(const void *dtb, uint32_t chosen, const char *name, unsigned index,
		      uint64_t *v)
{
	struct fdt_prop p;

	if (fdt_get_prop(dtb, chosen, name, &p) || p.len < 8u * (index + 1u))
		return ENOENT;
	*v = fdt_cells(p.data + 8u * index, 2);
	return 0;
}

static int chosen_u32(const void *dtb, uint32_t chosen, const char *name, uint32_t *v)
{
	struct fdt_prop p;

	if (fdt_get_prop(dtb, chosen, name, &p) || p.len != 4u)
		return ENOENT;
	*v = (uint32_t)fdt_cells(p.data, 1);
	return 0;
}

/* Where the hardware is, from the device tree; what is not there keeps QEMU virt's value. */
static void read_device_tree(const void *dtb, uint64_t *ring_addr, uint64_t *ring_size,
			     uint64_t *linux_entry, uint32_t *linux_cpu)
{
	static const char *const gics[] = { "arm,cortex-a15-gic", "arm,gic-400", 0 };
	static const char *const uarts[] = { "arm,pl011", "arm,sbsa-uart", 0 };
	uint64_t addr, size;
	uint32_t node, v;
	struct fdt_prop p;

	if (find_any(dtb, gics, &node) == 0) {
		if (fdt_reg(dtb, node, 0, &addr, &size) == 0)
			a53_board.gicd = (uintptr_t)addr;
		if (fdt_reg(dtb, node, 1, &addr, &size) == 0)
			a53_board.gicc = (uintptr_t)addr;
	}
	if (find_any(dtb, uarts, &node) == 0 && fdt_reg(dtb, node, 0, &addr, &size) == 0)
		uart_base = (uintptr_t)addr;
	if (fdt_find_child(dtb, 0, "psci", &node) == 0 &&
	    fdt_get_prop(dtb, node, "method", &p) == 0)
		a53_board.psci_hvc = !str_eq(p.data, p.len, "smc");
	/*
	 * A Xen guest: its vGIC sits where Xen's guest memory map puts it (GUEST_GICD_BASE in
	 * xen/include/public/arch-arm.h, the same on every board), and then the xen_version
	 * hypercall, harmless there, says which Xen it is.
	 */
	if (a53_board.gicd == XEN_GUEST_GICD_BASE) {
		uint64_t version = xen_version();
		char *h = hypervisor;

		*h++ = 'x', *h++ = 'e', *h++ = 'n', *h++ = '-';
		h = put_dec(h, version >> 16);
		*h++ = '.';
		h = put_dec(h, version & 0xFFFFu);
		*h = 0;
		platform_name = "xen-guest";
		emulated = "unknown"; /* the same image runs as a guest of Xen on a board */
				      /*
				       * Xen emulates the EL1 physical timer for its guests (PPI 30, a timer of Xen
				       * that injects it): the watchdog uses it as on bare metal (docs/target/xen.md).
				       */
	}
	if (fdt_find_child(dtb, 0, "chosen", &node) != 0)
		return;
	if (fdt_get_prop(dtb, node, "bootargs", &p) == 0) {
		uint32_t i;

		for (i = 0; i + 1u < sizeof bootargs && i < p.len && p.data[i]; i++)
			bootargs[i] = (char)p.data[i];
		bootargs[i] = 0;
	}
	if (chosen_u64(dtb, node, "latmon,ring", 0, ring_addr) == 0)
		chosen_u64(dtb, node, "latmon,ring", 1, ring_size);
	if (chosen_u64(dtb, node, "latmon,linux", 0, linux_entry) == 0 &&
	    chosen_u32(dtb, node, "latmon,linux-cpu", linux_cpu) != 0)
		*linux_entry = 0;
	if (chosen_u32(dtb, node, "latmon,second-cpu", &v) == 0)
		a53_board.second_cpu = v;
}

void platform_init(void)
{
	const void *dtb = (const void *)(uintptr_t)platform_boot_dtb;
	uint64_t mpidr, ring_addr = 0, ring_size = 0, linux_entry = 0;
	uint32_t linux_cpu = 0;

	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(mpidr));
	a53_board.boot_cpu = (unsigned)(mpidr & 0xFFu);
	a53_board.second_cpu = a53_board.boot_cpu + 1u;
	if (dtb && fdt_check(dtb) == 0)
		read_device_tree(dtb, &ring_addr, &ring_size, &linux_entry, &linux_cpu);
	if (ring_addr && latmon_ring_init(&ring, (void *)(uintptr_t)ring_addr, ring_size) == 0) {
		a53_board.gic_shared = 1;
		platform_name = "qemu-virt-amp";
	}
	if (linux_entry) {
		int64_t err = a53_psci_cpu_on(linux_cpu, linux_entry, (uint64_t)(uintptr_t)dtb);

		if (err)
			platform_uart_puts("board: Linux was not started (PSCI CPU_ON failed)\n");
	}
	if (ring) { /* wait for the reader, so that Linux has set up the GIC before we measure */
		uint64_t end = counter() + READER_WAIT_S * counter_hz();

		while (!latmon_ring_reader_attached(ring) && counter() < end)
			__asm__ volatile("yield");
	}
	a53_apply_cmdline();
}

static void ring_write(const char *data, size_t len)
{
	uint64_t stall_end = counter() + RING_STALL_S * counter_hz();

	while (len) {
		size_t n = 0;

		latmon_ring_write(ring, data, len, &n);
		data += n;
		len -= n;
		if (n)
			stall_end = counter() + RING_STALL_S * counter_hz();
		else if (counter() > stall_end) {
			latmon_ring_drop(ring, (uint32_t)len);
			return;
		}
	}
}

void platform_uart_write(const char *data, size_t len)
{
	size_t i;

	if (ring) {
		ring_write(data, len);
		return;
	}
	for (i = 0; i < len; i++) {
		while (mmio_r32(uart_base + PL011_FR) & PL011_FR_TXFF) {
		}
		mmio_w32(uart_base + PL011_DR, (uint8_t)data[i]);
	}
}

void platform_exit(int status)
{
	if (ring) {
		latmon_ring_finish(ring,
				   (uint32_t)status); /* Linux goes on: only this core stops */
	} else {
		/* SYSTEM_OFF carries no status: the last line says it (the host reads it) */
		char line[] = "board: exit status 0\n";

		line[sizeof line - 3] = (char)('0' + (status & 7));
		platform_uart_puts(line);
		a53_psci_system_off();
	}
	__asm__ volatile("msr daifset, #0xf");
	for (;;)
		__asm__ volatile("wfe");
}

int platform_cmdline(char *buf, size_t size)
{
	size_t i;

	if (!size || !bootargs[0])
		return 1;
	for (i = 0; i + 1u < size && bootargs[i]; i++)
		buf[i] = bootargs[i];
	buf[i] = 0;
	return 0;
}

void a53_board_fault_hint(uint64_t far)
{
	(void)far;
}

unsigned a53_board_storm_line(void)
{
	return 0; /* not on this board */
}

/*
 * Devices below 1 GiB (GIC, UART, virtio; a Xen guest's vGIC and vPL011), RAM from 1 GiB
 * (QEMU virt and Xen guests alike) normal write-back in 2 MiB blocks, except the blocks of the
 * ring shared with Linux: normal non-cacheable, so that both sides see the same bytes on
 * hardware with caches.
 */
void a53_board_mmu_map(uint64_t *l1, uint64_t *l2)
{
	uint64_t lo = ring ? (uint64_t)(uintptr_t)ring : 0;
	uint64_t hi = ring ? lo + LATMON_RING_HEADER_BYTES + ring->size : 0;

	l1[0] = A53_DESC_BLOCK(0x00000000ull, A53_ATTR_DEVICE);
	for (unsigned i = 0; i < 512u; i++) {
		uint64_t pa = 0x40000000ull + ((uint64_t)i << 21);
		int shared = pa < hi && pa + (1ull << 21) > lo;

		l2[i] = A53_DESC_BLOCK(pa, shared ? A53_ATTR_UNCACHED : A53_ATTR_NORMAL);
	}
	l1[1] = A53_DESC_TABLE((uint64_t)(uintptr_t)l2);
	l1[2] = A53_DESC_BLOCK(0x80000000ull, A53_ATTR_NORMAL);
	l1[3] = A53_DESC_BLOCK(0xC0000000ull, A53_ATTR_NORMAL);
}

const char *platform_board_name(void)
{
	return platform_name;
}

const char *platform_emulated(void)
{
	return emulated;
}

const char *platform_hypervisor(void)
{
	return hypervisor;
}
