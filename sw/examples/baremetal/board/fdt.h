/*
 * A minimal reader of flattened device trees (the DTB a boot loader, QEMU or Xen hands over in
 * x0): enough to find the interrupt controller, the UART, PSCI and /chosen of the machine the
 * image was started on, so that one image runs on QEMU's virt machine, as a Xen guest and next
 * to Linux (docs/target/xen.md). Read only, bounds-checked against the blob's own size, no
 * allocation. Format: the Devicetree Specification, chapter 5 ("Flattened Devicetree Format").
 */
#ifndef FDT_H
#define FDT_H

#include <stddef.h>
#include <stdint.h>

struct fdt_prop {
	const uint8_t *data;
	uint32_t len;
};

/** @return 0 when @p blob starts with a valid header (magic, version >= 16, sane offsets),
 * else EINVAL. Every other function expects a checked blob. */
int fdt_check(const void *blob);

/**
 * The first child of the root whose "compatible" list holds @p compat, or the child named
 * @p name (without its @unit-address) when @p compat is NULL; *node is its offset.
 * @return 0, or ENOENT when there is none.
 */
int fdt_find_child(const void *blob, const char *compat, const char *name, uint32_t *node);

/** Property @p name of the node at @p node. @return 0, or ENOENT. */
int fdt_get_prop(const void *blob, uint32_t node, const char *name, struct fdt_prop *prop);

/**
 * Entry @p index of the "reg" of a child of the root (cells sized by the root's
 * #address-cells and #size-cells). @return 0, ENOENT, or ERANGE (no such entry).
 */
int fdt_reg(const void *blob, uint32_t node, unsigned index, uint64_t *addr, uint64_t *size);

/** A big-endian number of @p cells 32-bit cells (1 or 2) at @p p. */
uint64_t fdt_cells(const uint8_t *p, unsigned cells);

#endif
