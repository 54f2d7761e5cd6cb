/* sys/stat.h of the Linux SoC's freestanding C layer (sw/linux-soc/libc): fstat from statx. */
#ifndef LSOC_SYS_STAT_H
#define LSOC_SYS_STAT_H
#include <stdint.h>
#include <unistd.h>
struct stat {
	uint32_t st_mode;
	off_t st_size;
};
#define S_IFMT	   0170000
#define S_IFREG	   0100000
#define S_IFCHR	   0020000
#define S_ISREG(m) (((m)&S_IFMT) == S_IFREG)
int fstat(int fd, struct stat *st);
#endif
