/* fcntl.h of the Linux SoC's freestanding C layer (sw/linux-soc/libc). */
#ifndef LSOC_FCNTL_H
#define LSOC_FCNTL_H
#define O_RDONLY  0
#define O_WRONLY  1
#define O_RDWR	  2
#define O_CREAT	  0100
#define O_TRUNC	  01000
#define O_CLOEXEC 02000000
#define AT_FDCWD  (-100)
int open(const char *path, int flags, ...);
#endif
