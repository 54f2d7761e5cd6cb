/*
 * Flattened device tree reader (fdt.h). The structure block is a sequence of big-endian
 * 32-bit tokens: BEGIN_NODE (name, NUL, padding), PROP (length, name offset, value, padding),
 * END_NODE, NOP, END. Only the root's direct children are searched: the devices this image
 * needs sit there on every machine it supports (QEMU virt, a Xen guest), which also makes the
 * root's #address-cells and #size-cells the right ones for their "reg".
 */
#include "fdt.h"

#include "latmon_errno.h"

#define FDT_MAGIC      0xD00DFEEDu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE   2u
#define FDT_PROP       3u
#define FDT_NOP	       4u
#define FDT_END	       9u

static uint32_t be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

uint64_t fdt_cells(const uint8_t *p, unsigned cells)
{
	return cells == 2 ? ((uint64_t)be32(p) << 32) | be32(p + 4) : be32(p);
}

struct blob {
	const uint8_t *base;
	uint32_t struct_off, struct_size, strings_off, strings_size;
};

static int open_blob(const void *blob, struct blob *b)
{
	const uint8_t *p = blob;
	uint32_t total;

	if (!p || be32(p) != FDT_MAGIC)
		return EINVAL;
	total = be32(p + 4);
	b->base = p;
	b->struct_off = be32(p + 8);
	b->strings_off = be32(p + 12);
	b->strings_size = be32(p + 32);
	b->struct_size = be32(p + 36);
	if (be32(p + 20) < 16 || total < 40 || b->struct_off > total ||
	    b->struct_size > total - b->struct_off || b->strings_off > total ||
	    b->strings_size > total - b->strings_off || (b->struct_off & 3u))
		return EINVAL;
	return 0;
}

int fdt_check(const void *blob)
{
	struct blob b;

	return open_blob(blob, &b);
}

static size_t str_len(const uint8_t *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

static int str_eq(const uint8_t *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen; i++)
		if (!b[i] || a[i] != (uint8_t)b[i])
			return 0;
	return b[alen] == 0;
}

/* Token at @p off of the structure block; @p next is the offset after it and its payload. */
static uint32_t token(const struct blob *b, uint32_t off, uint32_t *next)
{
	const uint8_t *s = b->base + b->struct_off;
	uint32_t tag;

	if (off + 4u > b->struct_size)
		return FDT_END;
	tag = be32(s + off);
	off += 4u;
	if (tag == FDT_BEGIN_NODE) {
		off += (uint32_t)str_len(s + off, b->struct_size - off) + 1u;
	} else if (tag == FDT_PROP) {
		if (off + 8u > b->struct_size)
			return FDT_END;
		off += 8u + be32(s + off);
	} else if (tag != FDT_END_NODE && tag != FDT_NOP) {
		return FDT_END;
	}
	*next = (off + 3u) & ~3u;
	return *next > b->struct_size ? FDT_END : tag;
}

/* Find property @p name directly inside the node that begins at @p node. */
static int node_prop(const struct blob *b, uint32_t node, const char *name, struct fdt_prop *out)
{
	const uint8_t *s = b->base + b->struct_off;
	uint32_t off = node, next = 0, tag;

	if (token(b, off, &next) != FDT_BEGIN_NODE)
		return EINVAL;
	for (off = next; (tag = token(b, off, &next)) == FDT_PROP || tag == FDT_NOP; off = next) {
		uint32_t len, nameoff;
		const uint8_t *pname;

		if (tag == FDT_NOP)
			continue;
		len = be32(s + off + 4u);
		nameoff = be32(s + off + 8u);
		if (nameoff >= b->strings_size)
			return EINVAL;
		pname = b->base + b->strings_off + nameoff;
		if (str_eq(pname, str_len(pname, b->strings_size - nameoff), name)) {
			out->data = s + off + 12u;
			out->len = len;
			return 0;
		}
	}
	return ENOENT;
}

int fdt_get_prop(const void *blob, uint32_t node, const char *name, struct fdt_prop *prop)
{
	struct blob b;
	int err = open_blob(blob, &b);

	return err ? err : node_prop(&b, node, name, prop);
}

static int compatible_has(const struct fdt_prop *p, const char *compat)
{
	uint32_t i = 0;

	while (i < p->len) {
		size_t n = str_len(p->data + i, p->len - i);

		if (str_eq(p->data + i, n, compat))
			return 1;
		i += (uint32_t)n + 1u;
	}
	return 0;
}

int fdt_find_child(const void *blob, const char *compat, const char *name, uint32_t *node)
{
	struct blob b;
	uint32_t off = 0, next = 0, tag;
	int depth = 0, err = open_blob(blob, &b);

	if (err)
		return err;
	while ((tag = token(&b, off, &next)) != FDT_END) {
		if (tag == FDT_BEGIN_NODE) {
			depth++;
			if (depth == 2) {
				const uint8_t *n = b.base + b.struct_off + off + 4u;
				size_t len = str_len(n, b.struct_size - off - 4u), base = 0;
				struct fdt_prop p;

				while (base < len && n[base] != '@')
					base++;
				if (compat ? node_prop(&b, off, "compatible", &p) == 0 &&
						 compatible_has(&p, compat)
					   : str_eq(n, base, name)) {
					*node = off;
					return 0;
				}
			}
		} else if (tag == FDT_END_NODE) {
			if (--depth <= 0)
				break;
		}
		off = next;
	}
	return ENOENT;
}

int fdt_reg(const void *blob, uint32_t node, unsigned index, uint64_t *addr, uint64_t *size)
{
	struct blob b;
	struct fdt_prop ac, sc, reg;
	unsigned acells = 2, scells = 1, entry;
	int err = open_blob(blob, &b);

	if (err)
		return err;
	if (node_prop(&b, 0, "#address-cells", &ac) == 0 && ac.len == 4)
		acells = (unsigned)fdt_cells(ac.data, 1);
	if (node_prop(&b, 0, "#size-cells", &sc) == 0 && sc.len == 4)
		scells = (unsigned)fdt_cells(sc.data, 1);
	if (acells < 1 || acells > 2 || scells > 2)
		return EINVAL;
	if ((err = node_prop(&b, node, "reg", &reg)))
		return err;
	entry = 4u * (acells + scells);
	if ((uint64_t)(index + 1u) * entry > reg.len)
		return ERANGE;
	*addr = fdt_cells(reg.data + index * entry, acells);
	*size = scells ? fdt_cells(reg.data + index * entry + 4u * acells, scells) : 0;
	return 0;
}
