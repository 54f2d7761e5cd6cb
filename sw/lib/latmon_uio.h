/* Linux UIO HAL of liblatmon (sw/lib/latmon_hal_uio.c, docs/uio.md). */
#ifndef LATMON_UIO_H
#define LATMON_UIO_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest map accepted (the core's map is 48 KiB; a UIO map is page-rounded). */
#define LATMON_UIO_MAX_MAP (16u << 20)

struct latmon_uio {
	struct latmon_hal hal; /**< pass &u->hal to latmon_attach */
	int fd;
	void *map;
	size_t size;
	int is_device;
	uint32_t irq_count;
};

/** Size of a UIO device's first map, from sysfs (uio_name: "uio0"). */
int latmon_uio_map_size(const char *uio_name, size_t *size);
/** Open and map /dev/uioN (or "uioN"). */
int latmon_uio_open(struct latmon_uio *u, const char *device);
/** Map a regular file of at least @p size bytes instead of a device (tests, offline). */
int latmon_uio_open_file(struct latmon_uio *u, const char *path, size_t size);
void latmon_uio_close(struct latmon_uio *u);

#ifdef __cplusplus
}
#endif

#endif
