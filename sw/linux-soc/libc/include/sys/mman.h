/* sys/mman.h of the Linux SoC's freestanding C layer (sw/linux-soc/libc): mmap2 below. */
#ifndef LSOC_SYS_MMAN_H
#define LSOC_SYS_MMAN_H
#include <stddef.h>
#include <unistd.h>
#define PROT_READ     1
#define PROT_WRITE    2
#define MAP_SHARED    1
#define MAP_PRIVATE   2
#define MAP_ANONYMOUS 0x20
#define MAP_FAILED    ((void *)-1)
#define MCL_CURRENT   1
#define MCL_FUTURE    2
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);
int mlockall(int flags);
#endif
