/*
 * Linux UIO HAL: the core's registers mapped from /dev/uioN (docs/uio.md).
 *
 * The map size comes from sysfs (/sys/class/uio/uioN/maps/map0/size); every access is checked
 * against it. The interrupt is waited for with the UIO protocol: write 1 to re-enable it, then a
 * blocking read() returns the interrupt count (poll() gives the timeout). For tests and offline
 * use, latmon_uio_open_file() maps a regular file of a given size in place of the device (no
 * interrupt).
 */
#define _POSIX_C_SOURCE 200809L
#include "latmon_uio.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int uio_read32(void *ctx, uint32_t offset, uint32_t *value)
{
	struct latmon_uio *u = ctx;

	if ((offset & 3u) || (size_t)offset + 4u > u->size)
		return ERANGE;
	*value = ((volatile uint32_t *)u->map)[offset / 4u];
	return 0;
}

static int uio_write32(void *ctx, uint32_t offset, uint32_t value)
{
	struct latmon_uio *u = ctx;

	if ((offset & 3u) || (size_t)offset + 4u > u->size)
		return ERANGE;
	((volatile uint32_t *)u->map)[offset / 4u] = value;
	return 0;
}

static int uio_wait(void *ctx, int timeout_ms)
{
	struct latmon_uio *u = ctx;
	uint32_t enable = 1, count;
	struct pollfd pfd;
	int r;

	if (!u->is_device)
		return ENOTSUP;
	if (write(u->fd, &enable, sizeof enable) != (ssize_t)sizeof enable)
		return errno ? errno : EIO;
	pfd.fd = u->fd;
	pfd.events = POLLIN;
	r = poll(&pfd, 1, timeout_ms);
	if (r < 0)
		return errno;
	if (r == 0)
		return ETIMEDOUT;
	if (read(u->fd, &count, sizeof count) != (ssize_t)sizeof count)
		return errno ? errno : EIO;
	u->irq_count = count;
	return 0;
}

static void fill_hal(struct latmon_uio *u)
{
	u->hal.read32 = uio_read32;
	u->hal.write32 = uio_write32;
	u->hal.wait_irq = uio_wait;
	u->hal.ctx = u;
}

static int map(struct latmon_uio *u, int fd, size_t size, int is_device)
{
	void *p;

	if (size < 4u || size > LATMON_UIO_MAX_MAP)
		return ERANGE;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return errno;
	u->fd = fd;
	u->map = p;
	u->size = size;
	u->is_device = is_device;
	u->irq_count = 0;
	fill_hal(u);
	return 0;
}

int latmon_uio_map_size(const char *uio_name, size_t *size)
{
	char path[128];
	unsigned long long value;
	FILE *f;
	int n;

	n = snprintf(path, sizeof path, "/sys/class/uio/%s/maps/map0/size", uio_name);
	if (n < 0 || (size_t)n >= sizeof path)
		return EINVAL;
	f = fopen(path, "r");
	if (!f)
		return errno;
	n = fscanf(f, "%llx", &value);
	fclose(f);
	if (n != 1)
		return EIO;
	*size = (size_t)value;
	return 0;
}

int latmon_uio_open(struct latmon_uio *u, const char *device)
{
	const char *name;
	size_t size;
	int fd, err;

	if (!u || !device)
		return EINVAL;
	name = strrchr(device, '/');
	name = name ? name + 1 : device;
	if (strncmp(name, "uio", 3) != 0)
		return EINVAL;
	if ((err = latmon_uio_map_size(name, &size)))
		return err;
	fd = open(device, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if ((err = map(u, fd, size, 1)))
		close(fd);
	return err;
}

int latmon_uio_open_file(struct latmon_uio *u, const char *path, size_t size)
{
	struct stat st;
	int fd, err;

	if (!u || !path)
		return EINVAL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) != 0) {
		err = errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size < size) {
		close(fd);
		return ERANGE;
	}
	if ((err = map(u, fd, size, 0)))
		close(fd);
	return err;
}

void latmon_uio_close(struct latmon_uio *u)
{
	if (!u || !u->map)
		return;
	munmap(u->map, u->size);
	close(u->fd);
	u->map = NULL;
	u->fd = -1;
}
