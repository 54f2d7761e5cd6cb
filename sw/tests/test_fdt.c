/*
 * The bare-metal images' device-tree reader (../examples/baremetal/board/fdt.c), compiled for the
 * host, against blobs the real dtc (device-tree-compiler) makes from sources written here:
 * nodes found by compatible and by name, "reg" with the root's 2/2 and 1/1 cells, /chosen
 * strings and numbers, nodes below the root's children not taken, and damaged headers refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/baremetal/board/fdt.c"
#include "check.h"

/* dts source -> blob (malloc'd), through dtc; NULL when dtc is missing or fails. */
static uint8_t *compile(const char *source, size_t *size)
{
	char dts[] = "/tmp/latmon-fdt-XXXXXX";
	char cmd[128];
	uint8_t *blob = NULL;
	FILE *f, *p;
	int fd = mkstemp(dts);

	if (fd < 0 || !(f = fdopen(fd, "w")))
		return NULL;
	fputs(source, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "dtc -q -I dts -O dtb %s", dts);
	if ((p = popen(cmd, "r"))) {
		blob = malloc(1 << 16);
		*size = blob ? fread(blob, 1, 1 << 16, p) : 0;
		if (pclose(p) != 0 || *size == 0) {
			free(blob);
			blob = NULL;
		}
	}
	remove(dts);
	return blob;
}

static const char VIRT[] =
    "/dts-v1/;\n"
    "/ {\n"
    "  #address-cells = <2>; #size-cells = <2>;\n"
    "  compatible = \"linux,dummy-virt\";\n"
    "  psci { compatible = \"arm,psci-1.0\"; method = \"hvc\"; };\n"
    "  pl011@9000000 { compatible = \"arm,pl011\", \"arm,primecell\";\n"
    "    reg = <0x0 0x9000000 0x0 0x1000>; };\n"
    "  intc@8000000 { compatible = \"arm,cortex-a15-gic\";\n"
    "    reg = <0x0 0x8000000 0x0 0x10000 0x0 0x8010000 0x0 0x10000>;\n"
    "    v2m@8020000 { compatible = \"arm,gic-v2m-frame\"; reg = <0x0 0x8020000 0x0 0x1000>; };\n"
    "  };\n"
    "  chosen { bootargs = \"cases=nested timeout-ms=2000\";\n"
    "    latmon,ring = <0x0 0x40400000 0x0 0x100000>; latmon,linux-cpu = <1>; };\n"
    "};\n";

static void test_virt_tree(void)
{
	size_t size = 0;
	uint8_t *blob = compile(VIRT, &size);
	uint32_t node = 0, other = 0;
	uint64_t addr = 0, len = 0;
	struct fdt_prop p;

	CHECK(blob != NULL);
	if (!blob)
		return;
	CHECK(fdt_check(blob) == 0);
	CHECK(fdt_find_child(blob, "arm,cortex-a15-gic", NULL, &node) == 0);
	CHECK(fdt_reg(blob, node, 0, &addr, &len) == 0 && addr == 0x8000000u && len == 0x10000u);
	CHECK(fdt_reg(blob, node, 1, &addr, &len) == 0 && addr == 0x8010000u);
	CHECK(fdt_reg(blob, node, 2, &addr, &len) == ERANGE);
	/* the second compatible string counts too; a grandchild of the root does not */
	CHECK(fdt_find_child(blob, "arm,primecell", NULL, &other) == 0);
	CHECK(fdt_reg(blob, other, 0, &addr, &len) == 0 && addr == 0x9000000u);
	CHECK(fdt_find_child(blob, "arm,gic-v2m-frame", NULL, &other) == ENOENT);
	CHECK(fdt_find_child(blob, "arm,gic-400", NULL, &other) == ENOENT);
	/* by name, without the unit address */
	CHECK(fdt_find_child(blob, NULL, "psci", &node) == 0);
	CHECK(fdt_get_prop(blob, node, "method", &p) == 0 && p.len == 4 &&
	      memcmp(p.data, "hvc", 4) == 0);
	CHECK(fdt_find_child(blob, NULL, "intc", &node) == 0);
	CHECK(fdt_find_child(blob, NULL, "chosen", &node) == 0);
	CHECK(fdt_get_prop(blob, node, "bootargs", &p) == 0 &&
	      strcmp((const char *)p.data, "cases=nested timeout-ms=2000") == 0);
	CHECK(fdt_get_prop(blob, node, "latmon,ring", &p) == 0 && p.len == 16);
	CHECK(fdt_cells(p.data, 2) == 0x40400000u && fdt_cells(p.data + 8, 2) == 0x100000u);
	CHECK(fdt_get_prop(blob, node, "latmon,linux-cpu", &p) == 0 && fdt_cells(p.data, 1) == 1);
	CHECK(fdt_get_prop(blob, node, "latmon,linux", &p) == ENOENT);
	CHECK(fdt_get_prop(blob, 0, "compatible", &p) == 0 &&
	      strcmp((const char *)p.data, "linux,dummy-virt") == 0);
	/* damaged headers */
	blob[0] ^= 0xFF;
	CHECK(fdt_check(blob) == EINVAL);
	CHECK(fdt_find_child(blob, NULL, "chosen", &node) == EINVAL);
	blob[0] ^= 0xFF;
	blob[4] = 0; /* totalsize below the offsets it holds */
	blob[5] = 0;
	blob[6] = 0;
	blob[7] = 8;
	CHECK(fdt_check(blob) == EINVAL);
	CHECK(fdt_check(NULL) == EINVAL);
	free(blob);
}

/* A root with one address and one size cell (as a 32-bit board's tree may have). */
static void test_one_cell_root(void)
{
	size_t size = 0;
	uint8_t *blob = compile("/dts-v1/;\n/ { #address-cells = <1>; #size-cells = <1>;\n"
				"  uart@ff000000 { compatible = \"cdns,uart-r1p12\";\n"
				"    reg = <0xff000000 0x1000>; }; };\n",
				&size);
	uint32_t node = 0;
	uint64_t addr = 0, len = 0;

	CHECK(blob != NULL);
	if (!blob)
		return;
	CHECK(fdt_find_child(blob, "cdns,uart-r1p12", NULL, &node) == 0);
	CHECK(fdt_reg(blob, node, 0, &addr, &len) == 0 && addr == 0xff000000u && len == 0x1000u);
	free(blob);
}

int main(void)
{
	test_virt_tree();
	test_one_cell_root();
	return check_report("test_fdt");
}
