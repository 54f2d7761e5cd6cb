/*
 * /init of the Linux SoC's initramfs (docs/hw/linux-soc.md): a static program over the
 * freestanding system-call layer (sw/linux-soc/libc), with liblatmon and its Linux UIO HAL
 * compiled from the same sources as on a board.
 *
 * It mounts devtmpfs, sysfs and proc and finds three UIO devices by name (docs/hw/linux-soc.md):
 * "latmon" (map0: the latmon core of irqgen line 0; map1: the irqgen; map2: the traffic master;
 * map3: the parameter page; its interrupt: line 0), "latmon-kernel" (map0: the latmon core of
 * irqgen line 1) and "latmon-kack" (no map; its interrupt: line 1, acknowledged by the kernel).
 * When everything is set up it asks the simulator for the run's parameters with a store to the
 * parameter page's word 0: the simulator's checkpoint (a run restored from it starts here with its
 * own parameters, hw/tb/linux_soc.py). It measures two paths, ROUNDS interrupts each, each raised
 * by the irqgen's compare GAP cycles after this process arms it:
 * - kernel-ack: line 1, acknowledged by the kernel's hard-IRQ handler (latmon_kack.c, the UIO
 *   device "latmon-kack"'s handler hook) while this process sleeps in poll() on that device;
 * - user-ack: line 0; this process (SCHED_FIFO, memory locked) wakes from poll() on the UIO
 *   device, runs NOPS no-ops and acknowledges with one store to ACK[0] through the mapping.
 * The latmon cores measure raise -> acknowledge; the samples, read from their traces, go to the
 * console as one latmon-log, with the console's output processing off (no CR before each LF). With
 * latmon.load=1 a SCHED_OTHER child spins on the CPU and the traffic master reads RAM meanwhile.
 * Then init powers off (SBI system reset: the simulation ends with exit code 0).
 *
 * The parameter page (words; written by the testbench, hw/tb/hdl/tb_linux_soc.v): 0 the request,
 * 1 PARAM_MAGIC, 2 rounds, 3 no-ops before the user-space ack (the rest of NOPS_AFTER_MAX run after
 * it), 4 gap in cycles, 5 load (0|1), 6 kernel path (0|1), 7 the kernel's tracepoints (0|1: irq
 * and sched events traced during the measurement and printed after it), 8..15 the scenario's
 * name (NUL-ended).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "latmon_uio.h"
#include "lsoc.h"

#define IRQGEN_NOW     0x00u
#define IRQGEN_PENDING 0x04u
#define IRQGEN_ARM     0x0Cu
#define IRQGEN_ACK0    0x10u
#define IRQGEN_CMP0    0x40u
#define IRQGEN_CMP1    0x44u
#define TRAFFIC_CTRL   0x00u
#define TRAFFIC_BASE   0x04u
#define TRAFFIC_MASK   0x08u
#define TRAFFIC_GAP    0x0Cu
#define TRAFFIC_SEED   0x10u
#define BATCH	       1000u
#define CONSOLE_BUF    4096u
#define MAX_NOPS       255u
#define PARAM_REQUEST  0x434B5054u /* "CKPT" */
#define PARAM_MAGIC    0x4C4D5052u /* "LMPR" */

struct params {
	unsigned rounds, nops, gap, load, kernel, trace;
	char config[32];
};

struct run {
	struct latmon_uio uio, kuio;
	struct latmon_dev dev, kdev;
	int kack_fd; /* "latmon-kack": an event per kernel-path acknowledge */
	volatile uint32_t *irqgen, *traffic;
	uint32_t trace[BATCH];
	uint64_t writer_mem[2048]; /* latmon_log_writer_size(2), checked below */
	struct console_buf {
		size_t len;
		char data[CONSOLE_BUF];
	} out;
};

static int write_all(const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(1, data, len);

		if (n <= 0)
			return EIO;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The log's lines go to the console CONSOLE_BUF bytes per write(): a write() per line (about 25
 * bytes) cost about 10,000 cycles more than its bytes (docs/hw/linux-soc.md). The log is written
 * after the measurement of a batch, never inside a measured window; console_flush() ends each
 * batch's output. */
static int console_flush(struct console_buf *b)
{
	int err = write_all(b->data, b->len);

	b->len = 0;
	return err;
}

static int console_sink(void *ctx, const char *data, size_t len)
{
	struct console_buf *b = ctx;
	int err;

	if (b->len + len > sizeof b->data && (err = console_flush(b)))
		return err;
	if (len > sizeof b->data)
		return write_all(data, len);
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

/* Ask the simulator for the run's parameters (the checkpoint) and read them from the page. The
 * page is never read before the request, so the data cache holds none of it. */
static int read_params(struct params *prm, volatile uint32_t *page, volatile uint32_t *irqgen)
{
	size_t i;

	page[0] = PARAM_REQUEST;
	(void)irqgen[IRQGEN_NOW / 4]; /* a read on the bus after the request's store */
	if (page[1] != PARAM_MAGIC)
		return EPROTO;
	prm->rounds = page[2];
	prm->nops = page[3];
	prm->gap = page[4];
	prm->load = page[5];
	prm->kernel = page[6];
	prm->trace = page[7];
	if (prm->nops > MAX_NOPS)
		return EINVAL;
	for (i = 0; i + 1 < sizeof prm->config; i++) {
		uint32_t w = page[8 + i / 4];
		char c = (char)(w >> (8 * (i % 4)));

		if (!c)
			break;
		prm->config[i] = c;
	}
	prm->config[i] = '\0';
	return 0;
}

/* NOPS no-ops, then the acknowledging store: a jump into a straight run of no-ops that ends with
 * the store in the last slot of a 32-byte line (the I$ line). The code's layout is the same for
 * every NOPS; up to 7 no-ops share the store's line, which is fetched in any case, so they add
 * their issue cycles alone (more no-ops add the fetch of their lines). */
static void nops_then_ack(unsigned nops, volatile uint32_t *ack)
{
	__asm__ volatile("la t0, 2f\n\t"
			 "slli t1, %0, 2\n\t"
			 "sub t0, t0, t1\n\t"
			 "jr t0\n\t"
			 ".balign 32\n\t"
			 ".rept 255\n\t"
			 "nop\n\t"
			 ".endr\n"
			 "2:\n\t"
			 "sw zero, 0(%1)"
			 :
			 : "r"(nops), "r"(ack)
			 : "t0", "t1", "memory");
}

static int log_batch(struct run *r, struct latmon_dev *dev, struct latmon_log_writer *w,
		     unsigned id, unsigned batch)
{
	struct latmon_stats st;
	uint32_t first;
	size_t n, i;
	int err;

	if ((err = latmon_read_trace(dev, r->trace, batch, &first, &n)))
		return err;
	for (i = 0; i < n; i++) {
		int64_t v = r->trace[i];

		if ((err = latmon_log_sample(w, id, &v, 1)))
			return err;
	}
	if ((err = latmon_read_stats(dev, &st)))
		return err;
	{
		struct latmon_log_counter c[] = { { "events", st.count },
						  { "overruns", st.overruns },
						  { "timeouts", st.timeouts },
						  { "ignored", st.ignored },
						  { "trace_lost", st.trace_lost } };

		if ((err = latmon_log_counters(w, id, c, sizeof c / sizeof c[0])))
			return err;
	}
	return console_flush(&r->out);
}

static int start_core(struct latmon_dev *dev)
{
	struct latmon_config cfg = { LATMON_RISING, LATMON_RISING, 0, 0, 0, 0, 0, 0, 0, 0 };
	int err;

	if ((err = latmon_configure(dev, &cfg)) || (err = latmon_clear(dev)) ||
	    (err = latmon_arm(dev, 1)))
		return err;
	return 0;
}

/* Line 1, acknowledged by the kernel's handler: wait in poll() on its UIO device, whose event
 * the UIO core counts after the handler's store; the next round starts with the line low. */
static int measure_kernel(struct run *r, const struct params *prm, struct latmon_log_writer *w)
{
	unsigned done = 0;
	int err;

	if ((err = start_core(&r->kdev)))
		return err;
	while (done < prm->rounds) {
		unsigned batch = prm->rounds - done < BATCH ? prm->rounds - done : BATCH, i;

		if ((err = latmon_clear(&r->kdev)))
			return err;
		for (i = 0; i < batch; i++) {
			struct pollfd pfd = { r->kack_fd, POLLIN, 0 };
			uint32_t count;

			r->irqgen[IRQGEN_CMP1 / 4] = r->irqgen[IRQGEN_NOW / 4] + prm->gap;
			r->irqgen[IRQGEN_ARM / 4] = 2u;
			if (poll(&pfd, 1, 10000) != 1)
				return errno ? errno : ETIMEDOUT;
			if (read(r->kack_fd, &count, sizeof count) != (ssize_t)sizeof count)
				return errno;
			if (r->irqgen[IRQGEN_PENDING / 4] & 2u)
				return EPROTO; /* an event without the handler's acknowledge */
		}
		if ((err = log_batch(r, &r->kdev, w, 0, batch)))
			return err;
		done += batch;
	}
	return latmon_arm(&r->kdev, 0);
}

/* Line 0, acknowledged by this process after poll() on the UIO device returns. */
static int measure_user(struct run *r, const struct params *prm, struct latmon_log_writer *w)
{
	unsigned done = 0;
	int err;

	if ((err = start_core(&r->dev)))
		return err;
	while (done < prm->rounds) {
		unsigned batch = prm->rounds - done < BATCH ? prm->rounds - done : BATCH, i;

		if ((err = latmon_clear(&r->dev)))
			return err;
		for (i = 0; i < batch; i++) {
			uint32_t enable = 1, count;
			struct pollfd pfd = { r->uio.fd, POLLIN, 0 };

			/* The PLIC latched line 0 again when the kernel completed the previous
			 * interrupt, before this process acknowledged it (UIO's handler masks the
			 * line, the process acknowledges later). Unmasking delivers that request at
			 * once, during write(); it finds the line low, so the kernel's completion
			 * latches nothing more. Consume it here, before arming, so that the raise
			 * finds this process asleep in poll(); unmask again if it came. */
			if (write(r->uio.fd, &enable, sizeof enable) != (ssize_t)sizeof enable)
				return errno;
			if (poll(&pfd, 1, 0) == 1 &&
			    (read(r->uio.fd, &count, sizeof count) != (ssize_t)sizeof count ||
			     write(r->uio.fd, &enable, sizeof enable) != (ssize_t)sizeof enable))
				return errno;
			/* Arm just before poll(): the gap runs from here, so that the raise finds
			 * this process asleep. A wake-up that finds the line low (PENDING bit 0
			 * clear) unmasks and waits again, as a driver checks its status. */
			r->irqgen[IRQGEN_CMP0 / 4] = r->irqgen[IRQGEN_NOW / 4] + prm->gap;
			r->irqgen[IRQGEN_ARM / 4] = 1u;
			for (;;) {
				if (poll(&pfd, 1, 10000) != 1)
					return errno ? errno : ETIMEDOUT;
				if (read(r->uio.fd, &count, sizeof count) != (ssize_t)sizeof count)
					return errno;
				if (r->irqgen[IRQGEN_PENDING / 4] & 1u)
					break;
				if (write(r->uio.fd, &enable, sizeof enable) !=
				    (ssize_t)sizeof enable)
					return errno;
			}
			nops_then_ack(prm->nops, &r->irqgen[IRQGEN_ACK0 / 4]);
		}
		if ((err = log_batch(r, &r->dev, w, 1, batch)))
			return err;
		done += batch;
	}
	return latmon_arm(&r->dev, 0);
}

/* The kernel's own tracepoints (ftrace events), for a run that cross-checks the stages with
 * them (docs/hw/linux-soc.md): enabled before the measurement, printed to the console after it
 * between two marker lines. */
#define TRACEFS "/sys/kernel/tracing/"

static int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, text, len);
	close(fd);
	return n == (ssize_t)len ? 0 : (errno ? errno : EIO);
}

static int start_tracing(void)
{
	static const char *const events[] = { "irq/irq_handler_entry", "irq/irq_handler_exit",
					      "sched/sched_wakeup", "sched/sched_switch" };
	char path[96];
	size_t i;
	int err;

	if (lsoc_mount("tracefs", "/sys/kernel/tracing", "tracefs"))
		return errno;
	if ((err = write_file(TRACEFS "buffer_size_kb", "512")))
		return err;
	for (i = 0; i < sizeof events / sizeof events[0]; i++) {
		snprintf(path, sizeof path, TRACEFS "events/%s/enable", events[i]);
		if ((err = write_file(path, "1")))
			return err;
	}
	return write_file(TRACEFS "tracing_on", "1");
}

static int dump_tracing(void)
{
	char buf[256];
	ssize_t n;
	int fd, err;

	if ((err = write_file(TRACEFS "tracing_on", "0")))
		return err;
	fd = open(TRACEFS "trace", O_RDONLY);
	if (fd < 0)
		return errno;
	printf("latmon-ftrace-begin\n");
	while ((n = read(fd, buf, sizeof buf)) > 0)
		if ((err = write_all(buf, (size_t)n)))
			break;
	close(fd);
	printf("latmon-ftrace-end\n");
	return n < 0 ? errno : 0;
}

/* /dev/uioN of the UIO device whose sysfs name is @name. */
static int find_uio(const char *name, char *dev, size_t size)
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		char path[64], text[32];
		ssize_t n;
		int fd;

		snprintf(path, sizeof path, "/sys/class/uio/uio%u/name", i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, text, sizeof text - 1);
		close(fd);
		if (n <= 0)
			continue;
		text[n] = '\0';
		if (text[n - 1] == '\n')
			text[n - 1] = '\0';
		if (strcmp(text, name) == 0) {
			snprintf(dev, size, "/dev/uio%u", i);
			return 0;
		}
	}
	return ENOENT;
}

/* A CPU hog at SCHED_OTHER (the child of a fork): spins until killed by the power-off. */
static void start_load(struct run *r)
{
	pid_t pid = lsoc_fork();

	if (pid == 0) {
		volatile uint32_t spin = 0;

		/* a child inherits SCHED_FIFO: at /init's priority it would never yield to it */
		if (lsoc_sched_other(0))
			lsoc_exit(1);
		for (;;)
			spin++;
	}
	if (pid < 0)
		printf("init: fork: errno %d\n", errno);
	/* the traffic master: random single-word reads of the firmware's reserved RAM */
	r->traffic[TRAFFIC_BASE / 4] = 0x80000000u;
	r->traffic[TRAFFIC_MASK / 4] = 0xFFFFu;
	r->traffic[TRAFFIC_GAP / 4] = 8u;
	r->traffic[TRAFFIC_SEED / 4] = 0x2545F491u;
	r->traffic[TRAFFIC_CTRL / 4] = 1u;
}

int main(int argc, char **argv)
{
	struct run run_state, *r = &run_state;
	struct params prm;
	struct latmon_log_writer *w;
	char text[LATMON_LOG_U64_TEXT], nops[LATMON_LOG_U64_TEXT], dev[16], kdev[16], kack[16];
	struct lsoc_termios tio;
	void *map1, *map2, *map3;
	int err;

	(void)argc;
	(void)argv;
	lsoc_mkdir("/dev");
	lsoc_mkdir("/sys");
	lsoc_mkdir("/proc");
	if (lsoc_mount("devtmpfs", "/dev", "devtmpfs") || lsoc_mount("sysfs", "/sys", "sysfs") ||
	    lsoc_mount("proc", "/proc", "proc")) {
		printf("init: mount failed: errno %d\n", errno);
		lsoc_reboot_power_off();
	}
	if ((err = find_uio("latmon", dev, sizeof dev)) || (err = latmon_uio_open(&r->uio, dev)) ||
	    (err = find_uio("latmon-kernel", kdev, sizeof kdev)) ||
	    (err = latmon_uio_open(&r->kuio, kdev)) ||
	    (err = find_uio("latmon-kack", kack, sizeof kack))) {
		printf("init: the UIO devices: %s\n", latmon_strerror(err));
		goto out;
	}
	r->kack_fd = open(kack, O_RDWR);
	if (r->kack_fd < 0) {
		printf("init: %s: errno %d\n", kack, errno);
		goto out;
	}
	/* The console's output processing off: the tty layer hands the console driver whole runs
	 * of the log instead of each line's text apart from its CR LF (docs/hw/linux-soc.md). */
	if (lsoc_ioctl(1, LSOC_TCGETS, &tio) == 0) {
		tio.c_oflag &= ~LSOC_OPOST;
		lsoc_ioctl(1, LSOC_TCSETS, &tio);
	}
	map1 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r->uio.fd, 4096);
	map2 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r->uio.fd, 2 * 4096);
	map3 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r->uio.fd, 3 * 4096);
	if (map1 == MAP_FAILED || map2 == MAP_FAILED || map3 == MAP_FAILED) {
		printf("init: map1..map3 of %s: errno %d\n", dev, errno);
		goto out;
	}
	r->irqgen = map1;
	r->traffic = map2;
	if ((err = latmon_attach(&r->dev, &r->uio.hal, 100000000u)) ||
	    (err = latmon_attach(&r->kdev, &r->kuio.hal, 100000000u))) {
		printf("init: latmon_attach: %s\n", latmon_strerror(err));
		goto out;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE) || lsoc_sched_fifo(0, 50))
		printf("init: mlockall/SCHED_FIFO: errno %d\n", errno);
	if ((err = read_params(&prm, map3, r->irqgen))) {
		printf("init: no parameters from the simulator: %s\n", latmon_strerror(err));
		goto out;
	}
	printf("init: up; config=%s rounds=%u nops=%u gap=%u load=%u kernel=%u trace=%u\n",
	       prm.config, prm.rounds, prm.nops, prm.gap, prm.load, prm.kernel, prm.trace);
	if (prm.trace && (err = start_tracing())) {
		printf("init: tracing: %s\n", latmon_strerror(err));
		goto out;
	}
	if (prm.load)
		start_load(r);
	r->out.len = 0;
	err = latmon_log_writer_init(&w, r->writer_mem, sizeof r->writer_mem, 2, console_sink,
				     &r->out);
	if (!err) {
		struct latmon_log_kv header[] = {
			{ "source", "latmon-linux-soc" },
			{ "unit", "cycles" },
			{ "clock_hz", latmon_log_format_u64(text, 100000000u) },
			{ "scenario", prm.config },
			{ "load", prm.load ? "cpu-hog+traffic" : "idle" },
		};
		struct latmon_log_kv extra[] = { { "nops",
						   latmon_log_format_u64(nops, prm.nops) } };

		err = latmon_log_begin(w, header, sizeof header / sizeof header[0]);
		if (!err)
			err = latmon_log_series(w, 0, "kernel-ack", "latency", 0, 0);
		if (!err)
			err = latmon_log_series(w, 1, "user-ack", "latency", extra, 1);
		if (!err && prm.kernel)
			err = measure_kernel(r, &prm, w);
		if (!err)
			err = measure_user(r, &prm, w);
		if (!err)
			err = latmon_log_end(w);
		if (console_flush(&r->out) && !err)
			err = EIO;
	}
	if (!err && prm.trace && (err = dump_tracing()))
		printf("init: the trace: %s\n", latmon_strerror(err));
	if (err)
		printf("init: measurement failed: %s (log writer: %u of %u bytes)\n",
		       latmon_strerror(err), (unsigned)latmon_log_writer_size(2),
		       (unsigned)sizeof r->writer_mem);
	else
		printf("init: done\n");
out:
	lsoc_reboot_power_off();
	lsoc_exit(1);
}
