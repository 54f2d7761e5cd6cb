/* The Linux SoC's freestanding system-call layer (sw/linux-soc/libc): what the init program
 * needs beyond the POSIX subset in the other headers. rv32 Linux, the asm-generic numbers. */
#ifndef LSOC_H
#define LSOC_H
#include <stdint.h>
#include <unistd.h>

long lsoc_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
int lsoc_mount(const char *src, const char *target, const char *type);
int lsoc_mkdir(const char *path);
int lsoc_sched_fifo(int pid, int priority);
int lsoc_sched_other(int pid);
pid_t lsoc_fork(void);
int lsoc_reboot_power_off(void);
__attribute__((noreturn)) void lsoc_exit(int code);

/* The kernel's struct termios (asm-generic/termbits.h) and what /init does with it: the console's
 * output processing (OPOST) off. */
struct lsoc_termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line, c_cc[19];
};
#define LSOC_TCGETS 0x5401
#define LSOC_TCSETS 0x5402
#define LSOC_OPOST  0x1u
int lsoc_ioctl(int fd, unsigned long request, void *arg);
#endif
