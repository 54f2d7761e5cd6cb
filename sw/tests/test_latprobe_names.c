/*
 * Unit tests of the names used in explanations (sw/probe/latprobe_names.c): tasks by pid with
 * their latest priority, a full table leaving later tasks unnamed, interrupt lines, x86 vector
 * slots, softirq names, priorities as people read them, and kernel symbols from a
 * kallsyms-formatted file (text symbols only; hidden addresses refused).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../probe/latprobe_names.h"

#include "check.h"

static struct latprobe_names names;

static void test_tasks(void)
{
	const char *comm;
	int16_t prio;

	latprobe_names_init(&names);
	latprobe_names_task(&names, 1234, "stress-ng-cpu", 120);
	latprobe_names_task(&names, 99, "ksoftirqd/1", INT16_MIN);
	CHECK(latprobe_names_find_task(&names, 1234, &comm, &prio) &&
	      !strcmp(comm, "stress-ng-cpu") && prio == 120);
	CHECK(latprobe_names_find_task(&names, 99, &comm, &prio) && prio == INT16_MIN);
	/* a later event updates the priority (chrt) and keeps the name when it has none */
	latprobe_names_task(&names, 1234, "", 0);
	CHECK(latprobe_names_find_task(&names, 1234, &comm, &prio) &&
	      !strcmp(comm, "stress-ng-cpu") && prio == 0);
	/* the idle task and unknown pids are not named */
	latprobe_names_task(&names, 0, "swapper/1", 120);
	CHECK(!latprobe_names_find_task(&names, 0, &comm, &prio));
	CHECK(!latprobe_names_find_task(&names, 4321, &comm, &prio));
	/* a full table names no more tasks but still finds the ones it has */
	for (int32_t pid = 10000; pid < 10000 + LATPROBE_TASKS_MAX; pid++)
		latprobe_names_task(&names, pid, "t", 120);
	CHECK(names.ntasks == LATPROBE_TASKS_MAX / 4 * 3);
	CHECK(latprobe_names_find_task(&names, 1234, &comm, &prio));
	CHECK(!latprobe_names_find_task(&names, 10000 + LATPROBE_TASKS_MAX - 1, &comm, &prio));
}

static void test_irqs_vectors_softirqs(void)
{
	latprobe_names_init(&names);
	latprobe_names_irq(&names, 11, "virtio0-input.0");
	CHECK(!strcmp(latprobe_names_find_irq(&names, 11), "virtio0-input.0"));
	CHECK(latprobe_names_find_irq(&names, 12) == NULL);
	CHECK(latprobe_names_find_irq(&names, LATPROBE_IRQS_MAX) == NULL);
	CHECK(latprobe_names_vector(&names, "local_timer") == 0);
	CHECK(latprobe_names_vector(&names, "reschedule") == 1);
	CHECK(latprobe_names_vector(&names, "local_timer") == 0);
	CHECK(!strcmp(latprobe_softirq_name(1), "TIMER") &&
	      !strcmp(latprobe_softirq_name(9), "RCU"));
	CHECK(latprobe_softirq_name(10) == NULL && latprobe_softirq_name(-1) == NULL);
}

static void test_priorities(void)
{
	char buf[24];

	latprobe_prio_text(0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "rt 99"));
	latprobe_prio_text(4, buf, sizeof(buf));
	CHECK(!strcmp(buf, "rt 95"));
	latprobe_prio_text(120, buf, sizeof(buf));
	CHECK(!strcmp(buf, "nice 0"));
	latprobe_prio_text(139, buf, sizeof(buf));
	CHECK(!strcmp(buf, "nice 19"));
	latprobe_prio_text(-1, buf, sizeof(buf));
	CHECK(!strcmp(buf, "deadline"));
	latprobe_prio_text(INT16_MIN, buf, sizeof(buf));
	CHECK(!strcmp(buf, "?"));
}

static int load_kallsyms(const char *text)
{
	FILE *f = tmpfile();
	char path[64];
	int rc;

	if (!f)
		return errno;
	fputs(text, f);
	fflush(f);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(f));
	rc = latprobe_names_kallsyms(&names, path);
	fclose(f);
	return rc;
}

static void test_symbols(void)
{
	latprobe_names_init(&names);
	CHECK(load_kallsyms("ffffffff81170000 T hrtimer_wakeup\n"
			    "ffffffff81160000 t tick_nohz_handler\n"
			    "ffffffff81180000 D jiffies\n"
			    "ffffffffc0001000 t virtnet_poll\t[virtio_net]\n") == 0);
	CHECK(names.nsyms == 3);
	CHECK(!strcmp(latprobe_names_symbol(&names, 0xffffffff81160000ull), "tick_nohz_handler"));
	CHECK(!strcmp(latprobe_names_symbol(&names, 0xffffffff8116ffffull), "tick_nohz_handler"));
	CHECK(!strcmp(latprobe_names_symbol(&names, 0xffffffff81179999ull), "hrtimer_wakeup"));
	CHECK(!strcmp(latprobe_names_symbol(&names, 0xffffffffc0001010ull), "virtnet_poll"));
	CHECK(latprobe_names_symbol(&names, 0xffffffff80000000ull) == NULL);
	CHECK(latprobe_names_symbol(&names, 0) == NULL);
	/* without root every address reads 0: nothing can be named */
	CHECK(load_kallsyms("0000000000000000 T hrtimer_wakeup\n") == ENODATA);
	CHECK(names.nsyms == 3);
	CHECK(latprobe_names_kallsyms(&names, "/nonexistent/kallsyms") == ENOENT);
	latprobe_names_free(&names);
}

int main(void)
{
	test_tasks();
	test_irqs_vectors_softirqs();
	test_priorities();
	test_symbols();
	return check_report("test_latprobe_names");
}
