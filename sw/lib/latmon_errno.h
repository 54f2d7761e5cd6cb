/*
 * The errno values liblatmon's portable part returns (docs/liblatmon.md, "Error codes").
 *
 * With a C library (__STDC_HOSTED__ == 1: Linux, or a bare-metal build linked with newlib or
 * picolibc) they are that library's own, so callers compare them with <errno.h> and print them with
 * strerror(). In a freestanding build (-ffreestanding, no C library at all, as the bare-metal
 * example is built) there is no <errno.h> to include: the numbers are then Linux's
 * (asm-generic/errno-base.h and errno.h, the same on every architecture latmon targets), so a log
 * or a debugger shows the values a Linux user knows. latmon_strerror() names each of them.
 */
#ifndef LATMON_ERRNO_H
#define LATMON_ERRNO_H

#if __STDC_HOSTED__
#include <errno.h>
#else
#define ENOENT	  2
#define EIO	  5
#define EAGAIN	  11
#define E2BIG	  7
#define EEXIST	  17
#define EINVAL	  22
#define ENOSPC	  28
#define ERANGE	  34
#define EPROTO	  71
#define ENOTSUP	  95
#define ETIMEDOUT 110
#define EALREADY  114
#endif

#ifndef EPROTO
#define EPROTO EINVAL
#endif

#endif
