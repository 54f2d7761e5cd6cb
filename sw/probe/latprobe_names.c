/* Names for spike explanations; see latprobe_names.h. */
#include "latprobe_names.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const softirq_names[] = {
	"HI",	    "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
	"IRQ_POLL", "TASKLET", "SCHED",	 "HRTIMER", "RCU",
};

void latprobe_names_init(struct latprobe_names *n)
{
	memset(n, 0, sizeof(*n));
}

void latprobe_names_free(struct latprobe_names *n)
{
	free(n->syms);
	n->syms = NULL;
	n->nsyms = 0;
}

static size_t task_slot(const struct latprobe_names *n, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) % LATPROBE_TASKS_MAX;

	/* linear probing; the table keeps a quarter free (see latprobe_names_task) */
	while (n->tasks[i].pid && n->tasks[i].pid != pid)
		i = (i + 1) % LATPROBE_TASKS_MAX;
	return i;
}

void latprobe_names_task(struct latprobe_names *n, int32_t pid, const char *comm, int16_t prio)
{
	struct latprobe_task_name *t;

	if (pid <= 0)
		return;
	t = &n->tasks[task_slot(n, pid)];
	if (!t->pid) {
		if (n->ntasks >= LATPROBE_TASKS_MAX / 4 * 3)
			return; /* full: later tasks stay unnamed (pid only) */
		n->ntasks++;
		t->pid = pid;
		t->prio = INT16_MIN;
	}
	if (comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	if (prio != INT16_MIN)
		t->prio = prio;
}

bool latprobe_names_find_task(const struct latprobe_names *n, int32_t pid, const char **comm,
			      int16_t *prio)
{
	const struct latprobe_task_name *t;

	if (pid <= 0)
		return false;
	t = &n->tasks[task_slot(n, pid)];
	if (!t->pid)
		return false;
	*comm = t->comm;
	*prio = t->prio;
	return true;
}

void latprobe_names_irq(struct latprobe_names *n, int32_t irq, const char *name)
{
	if (irq >= 0 && irq < LATPROBE_IRQS_MAX && name && *name)
		snprintf(n->irqs[irq], sizeof(n->irqs[irq]), "%s", name);
}

const char *latprobe_names_find_irq(const struct latprobe_names *n, int32_t irq)
{
	if (irq < 0 || irq >= LATPROBE_IRQS_MAX || !n->irqs[irq][0])
		return NULL;
	return n->irqs[irq];
}

int latprobe_names_vector(struct latprobe_names *n, const char *name)
{
	for (unsigned i = 0; i < n->nvectors; i++)
		if (!strcmp(n->vectors[i], name))
			return (int)i;
	if (n->nvectors == LATPROBE_VECTORS_MAX)
		return -1;
	snprintf(n->vectors[n->nvectors], sizeof(n->vectors[0]), "%s", name);
	return (int)n->nvectors++;
}

const char *latprobe_softirq_name(int32_t vec)
{
	if (vec < 0 || (size_t)vec >= sizeof(softirq_names) / sizeof(softirq_names[0]))
		return NULL;
	return softirq_names[vec];
}

static int by_addr(const void *a, const void *b)
{
	const struct latprobe_kallsym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int latprobe_names_kallsyms(struct latprobe_names *n, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];
	size_t cap = 0, count = 0;
	struct latprobe_kallsym *syms = NULL;
	bool any_address = false;

	if (!f)
		return errno;
	while (fgets(line, sizeof(line), f)) {
		char type, name[256];
		uint64_t addr;

		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (addr)
			any_address = true;
		if (count == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			struct latprobe_kallsym *s = realloc(syms, ncap * sizeof(*s));

			if (!s) {
				free(syms);
				fclose(f);
				return ENOMEM;
			}
			syms = s;
			cap = ncap;
		}
		syms[count].addr = addr;
		snprintf(syms[count].name, sizeof(syms[count].name), "%.*s",
			 (int)sizeof(syms[count].name) - 1, name);
		count++;
	}
	fclose(f);
	if (!any_address) {
		free(syms);
		return ENODATA;
	}
	qsort(syms, count, sizeof(*syms), by_addr);
	free(n->syms);
	n->syms = syms;
	n->nsyms = count;
	return 0;
}

const char *latprobe_names_symbol(const struct latprobe_names *n, uint64_t addr)
{
	size_t lo = 0, hi = n->nsyms;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (n->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || !addr)
		return NULL;
	return n->syms[lo - 1].name;
}

void latprobe_prio_text(int16_t prio, char *buf, size_t len)
{
	if (prio == INT16_MIN)
		snprintf(buf, len, "?");
	else if (prio < 0)
		snprintf(buf, len, "deadline");
	else if (prio < 100)
		snprintf(buf, len, "rt %d", 99 - prio);
	else
		snprintf(buf, len, "nice %d", prio - 120);
}
