/* poll.h of the Linux SoC's freestanding C layer (sw/linux-soc/libc): ppoll_time64 below. */
#ifndef LSOC_POLL_H
#define LSOC_POLL_H
struct pollfd {
	int fd;
	short events;
	short revents;
};
#define POLLIN	0x001
#define POLLOUT 0x004
#define POLLERR 0x008
typedef unsigned int nfds_t;
int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms);
#endif
