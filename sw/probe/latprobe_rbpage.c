/* Trace ring-buffer pages; see latprobe_rbpage.h. */
#include "latprobe_rbpage.h"

#include <errno.h>
#include <string.h>

#define RB_MISSED_EVENTS (1ull << 31)
#define RB_MISSED_STORED (1ull << 30)
#define TYPE_PADDING	 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP	 31
#define TS_SHIFT	 27
#define ABS_TS_BITS	 59

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

int latprobe_page_walk(const struct latprobe_page_layout *layout, const unsigned char *page,
		       size_t len, latprobe_record_fn fn, void *ctx, bool *lost)
{
	uint64_t ts, commit = 0;
	size_t pos, end;

	*lost = false;
	if (len < layout->data_offset || layout->commit_offset + layout->commit_size > len ||
	    (layout->commit_size != 4 && layout->commit_size != 8))
		return EBADMSG;
	memcpy(&ts, page, 8);
	memcpy(&commit, page + layout->commit_offset, layout->commit_size);
	*lost = (commit & RB_MISSED_EVENTS) != 0;
	commit &= ~(RB_MISSED_EVENTS | RB_MISSED_STORED);
	if (layout->commit_size == 8)
		commit &= 0xffffffffull; /* the flags live in the low word's top bits */
	pos = layout->data_offset;
	end = pos + commit;
	if (end > len)
		return EBADMSG;
	while (pos + 4 <= end) {
		uint32_t header = u32_at(page + pos);
		unsigned type_len = header & 0x1f;
		uint32_t delta = header >> 5;
		size_t data, size;

		if (type_len == TYPE_PADDING) {
			if (delta == 0)
				break; /* the rest of the page is padding */
			if (pos + 8 > end)
				return EBADMSG;
			size = 4 + (size_t)u32_at(page + pos + 4); /* a discarded record */
			if (size < 8 || pos + size > end)
				return EBADMSG;
			pos += size;
			continue;
		}
		if (type_len == TYPE_TIME_EXTEND || type_len == TYPE_TIME_STAMP) {
			uint64_t value;

			if (pos + 8 > end)
				return EBADMSG;
			value = ((uint64_t)u32_at(page + pos + 4) << TS_SHIFT) | delta;
			if (type_len == TYPE_TIME_EXTEND)
				ts += value;
			else
				ts = value | (ts & ~((1ull << ABS_TS_BITS) - 1));
			pos += 8;
			continue;
		}
		if (type_len == 0) {
			uint32_t length;

			if (pos + 8 > end)
				return EBADMSG;
			length = u32_at(page + pos + 4);
			if (length < 4)
				return EBADMSG;
			data = pos + 8;
			size = 4 + (size_t)length;
		} else {
			data = pos + 4;
			size = 4 + 4 * (size_t)type_len;
		}
		if (pos + size > end)
			return EBADMSG;
		ts += delta;
		{
			int rc = fn(ctx, ts, page + data, pos + size - data);

			if (rc)
				return rc;
		}
		pos += size;
	}
	return 0;
}
