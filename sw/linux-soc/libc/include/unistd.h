/* unistd.h of the Linux SoC's freestanding C layer (sw/linux-soc/libc). */
#ifndef LSOC_UNISTD_H
#define LSOC_UNISTD_H
#include <stddef.h>
#include <stdint.h>
typedef int ssize_t;
typedef int64_t off_t;
typedef int pid_t;
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
pid_t getpid(void);
#endif
