/*
 * Walking one page of the kernel's trace ring buffer as read from
 * per_cpu/cpuN/trace_pipe_raw (layout of kernel/trace/ring_buffer.c, described by
 * events/header_page and events/header_event):
 *
 *   page:   u64 timestamp | local_t commit (data bytes; bit 31: events were lost before this
 *           page, bit 30: the count of lost events is stored after the data) | data
 *   record: u32 header (type_len:5, time_delta:27), then
 *           type_len 1..28: type_len * 4 bytes of data
 *           type_len 0:     u32 length (of itself plus the data), then the data
 *           type_len 29:    padding (time_delta 0: the rest of the page; else u32 length)
 *           type_len 30:    time extend: time_delta + (u32 << 27) added to the time
 *           type_len 31:    absolute time stamp: time_delta + (u32 << 27), top bits kept
 *
 * The time of a record is the page's timestamp plus every delta up to and including its own.
 */
#ifndef LATPROBE_RBPAGE_H
#define LATPROBE_RBPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct latprobe_page_layout {
	unsigned commit_offset; /**< 8 on 64-bit kernels */
	unsigned commit_size;	/**< sizeof(local_t): 8 or 4 */
	unsigned data_offset;	/**< 16 on 64-bit kernels */
};

/** Called for each data record with its time and data (the event, from common_type on). */
typedef int (*latprobe_record_fn)(void *ctx, uint64_t ts, const unsigned char *data, size_t len);

/**
 * Walk the records of one page of @p len bytes (a full or partial page).
 * @param lost set to true when the page says events were lost before it.
 * @return 0; EBADMSG when the page is damaged (a length running past the commit); or what
 *         @p fn returned when it was not 0 (the walk stops).
 */
int latprobe_page_walk(const struct latprobe_page_layout *layout, const unsigned char *page,
		       size_t len, latprobe_record_fn fn, void *ctx, bool *lost);

#endif /* LATPROBE_RBPAGE_H */
