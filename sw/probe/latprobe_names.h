/*
 * Names for what a spike explanation mentions: tasks (pid → command name and kernel priority, as
 * the trace last showed them), interrupt lines (irq → handler name), x86 system vectors (slot →
 * "local_timer", "reschedule", ...), softirqs (number → "TIMER", "NET_RX", ...) and kernel
 * functions (hrtimer callbacks, from /proc/kallsyms).
 *
 * The tables are filled from the trace events as they are decoded; lookups never allocate.
 */
#ifndef LATPROBE_NAMES_H
#define LATPROBE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LATPROBE_COMM_LEN    16 /**< TASK_COMM_LEN */
#define LATPROBE_NAME_LEN    32 /**< room for any name latprobe prints */
#define LATPROBE_TASKS_MAX   8192
#define LATPROBE_IRQS_MAX    1024
#define LATPROBE_VECTORS_MAX 32

struct latprobe_task_name {
	int32_t pid; /**< 0: free slot (pid 0, the idle task, is never stored) */
	int16_t prio;
	char comm[LATPROBE_COMM_LEN];
};

struct latprobe_kallsym {
	uint64_t addr;
	char name[LATPROBE_NAME_LEN];
};

struct latprobe_names {
	struct latprobe_task_name tasks[LATPROBE_TASKS_MAX]; /**< open addressing by pid */
	unsigned ntasks;
	char irqs[LATPROBE_IRQS_MAX][LATPROBE_NAME_LEN];
	char vectors[LATPROBE_VECTORS_MAX][LATPROBE_NAME_LEN];
	unsigned nvectors;
	struct latprobe_kallsym
	    *syms; /**< text symbols sorted by address (latprobe_names_kallsyms) */
	size_t nsyms;
};

/** Empty tables. */
void latprobe_names_init(struct latprobe_names *n);

/** Free the symbol table. */
void latprobe_names_free(struct latprobe_names *n);

/** Remember @p comm (and kernel priority @p prio, or INT16_MIN to keep the known one). */
void latprobe_names_task(struct latprobe_names *n, int32_t pid, const char *comm, int16_t prio);

/** The task's command name and priority; false when the trace never named it. */
bool latprobe_names_find_task(const struct latprobe_names *n, int32_t pid, const char **comm,
			      int16_t *prio);

/** Remember the handler name of an interrupt line. */
void latprobe_names_irq(struct latprobe_names *n, int32_t irq, const char *name);

/** The handler name of an interrupt line, or NULL. */
const char *latprobe_names_find_irq(const struct latprobe_names *n, int32_t irq);

/** Register an x86 system vector by name ("local_timer"); @return its slot, or -1 if full. */
int latprobe_names_vector(struct latprobe_names *n, const char *name);

/** The softirq's name ("TIMER", "NET_RX", ...), or NULL beyond the known ones. */
const char *latprobe_softirq_name(int32_t vec);

/**
 * Load the text symbols of /proc/kallsyms-formatted @p path (root sees the addresses).
 * @return 0, or an errno value (ENODATA when every address is hidden).
 */
int latprobe_names_kallsyms(struct latprobe_names *n, const char *path);

/** The symbol containing @p addr (the nearest at or below it), or NULL. */
const char *latprobe_names_symbol(const struct latprobe_names *n, uint64_t addr);

/**
 * A priority as people read it: kernel priorities 0..98 are real-time (fifo/rr) 99..1, 100..139
 * normal tasks with nice -20..19, -1 deadline. Writes e.g. "rt 99", "nice 0", "deadline".
 */
void latprobe_prio_text(int16_t prio, char *buf, size_t len);

#endif /* LATPROBE_NAMES_H */
