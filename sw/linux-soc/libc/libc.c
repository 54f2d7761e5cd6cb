/*
 * The Linux SoC's freestanding C layer (docs/hw/linux-soc.md): raw rv32 Linux system calls and
 * the few C library functions liblatmon's UIO HAL and the init program use. No C library exists
 * in the initramfs; this is all of it. Single-threaded (errno is one variable).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lsoc.h"

/* asm-generic/unistd.h, 32-bit with 64-bit time */
#define NR_ioctl	      29
#define NR_mkdirat	      34
#define NR_mount	      40
#define NR_openat	      56
#define NR_close	      57
#define NR_read		      63
#define NR_write	      64
#define NR_exit		      93
#define NR_sched_setscheduler 119
#define NR_reboot	      142
#define NR_getpid	      172
#define NR_munmap	      215
#define NR_clone	      220
#define NR_mmap2	      222
#define NR_mlockall	      230
#define NR_statx	      291
#define NR_ppoll_time64	      414

int errno;

long lsoc_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long r_a0 __asm__("a0") = a0;
	register long r_a1 __asm__("a1") = a1;
	register long r_a2 __asm__("a2") = a2;
	register long r_a3 __asm__("a3") = a3;
	register long r_a4 __asm__("a4") = a4;
	register long r_a5 __asm__("a5") = a5;
	register long r_a7 __asm__("a7") = nr;

	__asm__ volatile("ecall"
			 : "+r"(r_a0)
			 : "r"(r_a1), "r"(r_a2), "r"(r_a3), "r"(r_a4), "r"(r_a5), "r"(r_a7)
			 : "memory");
	return r_a0;
}

static long ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#define SC(nr, a, b, c, d, e, f) \
	ret(lsoc_syscall(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f)))

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	return (int)SC(NR_openat, AT_FDCWD, path, flags, mode, 0, 0);
}

int close(int fd)
{
	return (int)SC(NR_close, fd, 0, 0, 0, 0, 0);
}

ssize_t read(int fd, void *buf, size_t n)
{
	return (ssize_t)SC(NR_read, fd, buf, n, 0, 0, 0);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	return (ssize_t)SC(NR_write, fd, buf, n, 0, 0, 0);
}

pid_t getpid(void)
{
	return (pid_t)SC(NR_getpid, 0, 0, 0, 0, 0, 0);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	struct {
		int64_t sec;
		int64_t nsec;
	} ts;

	if (timeout_ms < 0)
		return (int)SC(NR_ppoll_time64, fds, nfds, 0, 0, 0, 0);
	ts.sec = timeout_ms / 1000;
	ts.nsec = (int64_t)(timeout_ms % 1000) * 1000000;
	return (int)SC(NR_ppoll_time64, fds, nfds, &ts, 0, 0, 0);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	long r;

	if (offset & 4095) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	r = lsoc_syscall(NR_mmap2, (long)addr, (long)len, prot, flags, fd, (long)(offset >> 12));
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return MAP_FAILED;
	}
	return (void *)r;
}

int munmap(void *addr, size_t len)
{
	return (int)SC(NR_munmap, addr, len, 0, 0, 0, 0);
}

int mlockall(int flags)
{
	return (int)SC(NR_mlockall, flags, 0, 0, 0, 0, 0);
}

int fstat(int fd, struct stat *st)
{
	/* struct statx: stx_mode at 28 (u16), stx_size at 40 (u64); 256 bytes in all */
	uint8_t buf[256];
	uint16_t mode;
	uint64_t size;

	if (SC(NR_statx, fd, "", 0x1000 /* AT_EMPTY_PATH */, 0x7ff, buf, 0) < 0)
		return -1;
	memcpy(&mode, buf + 28, sizeof mode);
	memcpy(&size, buf + 40, sizeof size);
	st->st_mode = mode;
	st->st_size = (off_t)size;
	return 0;
}

int lsoc_mount(const char *src, const char *target, const char *type)
{
	return (int)SC(NR_mount, src, target, type, 0, 0, 0);
}

int lsoc_mkdir(const char *path)
{
	return (int)SC(NR_mkdirat, AT_FDCWD, path, 0755, 0, 0, 0);
}

int lsoc_sched_fifo(int pid, int priority)
{
	int param = priority;

	return (int)SC(NR_sched_setscheduler, pid, 1 /* SCHED_FIFO */, &param, 0, 0, 0);
}

int lsoc_sched_other(int pid)
{
	int param = 0;

	return (int)SC(NR_sched_setscheduler, pid, 0 /* SCHED_OTHER */, &param, 0, 0, 0);
}

int lsoc_ioctl(int fd, unsigned long request, void *arg)
{
	return (int)SC(NR_ioctl, fd, request, arg, 0, 0, 0);
}

pid_t lsoc_fork(void)
{
	return (pid_t)SC(NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0, 0);
}

int lsoc_reboot_power_off(void)
{
	return (int)SC(NR_reboot, 0xfee1dead, 672274793, 0x4321FEDC, 0, 0, 0);
}

void lsoc_exit(int code)
{
	for (;;)
		lsoc_syscall(NR_exit, code, 0, 0, 0, 0, 0);
}

/* ---- strings ------------------------------------------------------------------------------ */

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

/* ---- formatted output ---------------------------------------------------------------------- */

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		char digits[24], pad = ' ';
		int width = 0, longs = 0, n = 0, neg = 0;
		unsigned long long v;
		unsigned base = 10;
		const char *s;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l') {
			longs++;
			fmt++;
		}
		if (*fmt == 'z')
			fmt++;
		switch (*fmt) {
		case 's':
			s = va_arg(ap, const char *);
			for (n = (int)strlen(s); n < width; n++)
				put(&o, ' ');
			while (*s)
				put(&o, *s++);
			continue;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			continue;
		case '%':
			put(&o, '%');
			continue;
		case 'd': {
			long long x = longs >= 2 ? va_arg(ap, long long)
				      : longs	 ? va_arg(ap, long)
						 : va_arg(ap, int);

			neg = x < 0;
			v = neg ? (unsigned long long)-x : (unsigned long long)x;
			break;
		}
		case 'x':
			base = 16;
			/* fall through */
		case 'u':
			v = longs >= 2 ? va_arg(ap, unsigned long long)
			    : longs    ? va_arg(ap, unsigned long)
				       : va_arg(ap, unsigned);
			break;
		default:
			put(&o, '?');
			continue;
		}
		do {
			unsigned d = (unsigned)(v % base);

			digits[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
			v /= base;
		} while (v);
		if (neg)
			digits[n++] = '-';
		for (; n < width; width--)
			put(&o, pad);
		while (n)
			put(&o, digits[--n]);
	}
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	write(1, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
	return n;
}

/* ---- files: unbuffered, read only -------------------------------------------------------- */

struct lsoc_file {
	int fd;
	int used;
};

static struct lsoc_file files[4];

FILE *fopen(const char *path, const char *mode)
{
	int i, fd;

	if (mode[0] != 'r') {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < 4 && files[i].used; i++)
		;
	if (i == 4) {
		errno = ENOMEM;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	files[i].fd = fd;
	files[i].used = 1;
	return &files[i];
}

int fclose(FILE *f)
{
	f->used = 0;
	return close(f->fd);
}

/* Reads the whole (small: sysfs) file; the conversions %x %u %d with l/ll. */
int fscanf(FILE *f, const char *fmt, ...)
{
	char text[128], *p = text;
	ssize_t n = read(f->fd, text, sizeof text - 1);
	va_list ap;
	int count = 0;

	if (n <= 0)
		return EOF;
	text[n] = '\0';
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		int longs = 0, neg = 0, any = 0;
		unsigned base = 10;
		unsigned long long v = 0;

		if (*fmt == ' ') {
			while (*p == ' ' || *p == '\n' || *p == '\t')
				p++;
			continue;
		}
		if (*fmt != '%') {
			if (*p != *fmt)
				break;
			p++;
			continue;
		}
		fmt++;
		while (*fmt == 'l') {
			longs++;
			fmt++;
		}
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (*fmt == 'x') {
			base = 16;
			if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
				p += 2;
		} else if (*fmt == 'd' && *p == '-') {
			neg = 1;
			p++;
		}
		for (;; p++, any = 1) {
			unsigned d;

			if (*p >= '0' && *p <= '9')
				d = (unsigned)(*p - '0');
			else if (base == 16 && *p >= 'a' && *p <= 'f')
				d = (unsigned)(*p - 'a' + 10);
			else if (base == 16 && *p >= 'A' && *p <= 'F')
				d = (unsigned)(*p - 'A' + 10);
			else
				break;
			v = v * base + d;
		}
		if (!any)
			break;
		if (neg)
			v = (unsigned long long)-(long long)v;
		if (longs >= 2)
			*va_arg(ap, unsigned long long *) = v;
		else if (longs)
			*va_arg(ap, unsigned long *) = (unsigned long)v;
		else
			*va_arg(ap, unsigned *) = (unsigned)v;
		count++;
	}
	va_end(ap);
	return count;
}
