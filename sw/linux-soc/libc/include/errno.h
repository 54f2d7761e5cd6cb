/* errno of the Linux SoC's freestanding C layer (sw/linux-soc/libc): Linux's numbers. */
#ifndef LSOC_ERRNO_H
#define LSOC_ERRNO_H
extern int errno;
#define EPERM	  1
#define ENOENT	  2
#define EINTR	  4
#define EIO	  5
#define E2BIG	  7
#define EBADF	  9
#define EAGAIN	  11
#define ENOMEM	  12
#define EACCES	  13
#define EFAULT	  14
#define EBUSY	  16
#define EEXIST	  17
#define ENODEV	  19
#define ENOTDIR	  20
#define EINVAL	  22
#define ENOSPC	  28
#define ERANGE	  34
#define ENOSYS	  38
#define EPROTO	  71
#define ENOTSUP	  95
#define ETIMEDOUT 110
#define EALREADY  114
#endif
