/*
 * The tracefs directory that latprobe's tracing (latprobe_tracefs.c) and --timerlat
 * (latprobe_timerlat.c) work in: found in /proc/mounts or mounted for the run, its small
 * files read and written whole, and the trace instances that killed latprobes left behind
 * removed.
 */
#ifndef LATPROBE_TRACEDIR_H
#define LATPROBE_TRACEDIR_H

#include <stdbool.h>
#include <stddef.h>

/** Where tracefs is mounted when it is not yet (as the kernel's tools mount it). */
#define LATPROBE_TRACEFS_MOUNT "/sys/kernel/tracing"

/**
 * Find where tracefs is mounted (the first tracefs line of /proc/mounts) and write it into
 * @p root; if it is mounted nowhere, mount it on LATPROBE_TRACEFS_MOUNT, which @p root then
 * holds, and set *@p mounted (the caller unmounts it after the run).
 * @return 0, or the mount's errno value (@p root names where it was tried).
 */
int latprobe_tracedir_find(char *root, size_t len, bool *mounted);

/**
 * Read the whole (small) file @p path into @p buf as a NUL-terminated string.
 * @return 0; EFBIG when it does not fit @p len bytes with its NUL; or the errno of open/read.
 */
int latprobe_read_text(const char *path, char *buf, size_t len);

/** Write @p text into @p path (truncated first). @return 0 or an errno value (EIO: short write). */
int latprobe_write_text(const char *path, const char *text);

/**
 * Remove the trace instances under @p root named @p prefix followed by the PID of a process
 * that no longer exists (a latprobe killed with SIGKILL leaves its instance): each has its
 * tracer stopped (current_tracer nop), so that no tracer thread keeps running, then is
 * removed and reported on stderr. An instance of a latprobe that still runs is left alone.
 */
void latprobe_tracedir_remove_stale(const char *root, const char *prefix);

#endif
