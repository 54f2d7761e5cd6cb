/*
 * Unit tests of the trace ring-buffer page walker (sw/probe/latprobe_rbpage.c) on pages built
 * record by record in the layout of kernel/trace/ring_buffer.c: short and long records, time
 * extends, absolute time stamps, discarded records, end-of-page padding, the lost-events flag,
 * partial pages and damaged pages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../probe/latprobe_rbpage.h"

#include "check.h"

#define PAGE 4096
#define DATA 16

static const struct latprobe_page_layout layout = { 8, 8, DATA };

struct builder {
	unsigned char page[PAGE];
	size_t pos;
};

static void begin(struct builder *b, uint64_t ts)
{
	memset(b->page, 0, sizeof(b->page));
	memcpy(b->page, &ts, 8);
	b->pos = DATA;
}

static void word(struct builder *b, uint32_t w)
{
	memcpy(b->page + b->pos, &w, 4);
	b->pos += 4;
}

static uint32_t header(unsigned type_len, uint32_t delta)
{
	return (delta << 5) | type_len;
}

/* A data record of len bytes (a multiple of 4), each byte = fill; long form if asked. */
static void record(struct builder *b, uint32_t delta, size_t len, unsigned char fill, int longf)
{
	if (longf || len > 28 * 4) {
		word(b, header(0, delta));
		word(b, (uint32_t)len + 4);
	} else {
		word(b, header((unsigned)(len / 4), delta));
	}
	memset(b->page + b->pos, fill, len);
	b->pos += len;
}

static void commit(struct builder *b, uint64_t flags)
{
	uint64_t c = (b->pos - DATA) | flags;

	memcpy(b->page + 8, &c, 8);
}

struct seen {
	uint64_t ts[16];
	size_t len[16];
	unsigned char fill[16];
	size_t n;
};

static int collect(void *ctx, uint64_t ts, const unsigned char *data, size_t len)
{
	struct seen *s = ctx;

	if (s->n == 16)
		return ENOSPC;
	s->ts[s->n] = ts;
	s->len[s->n] = len;
	s->fill[s->n] = data[0];
	for (size_t i = 0; i < len; i++)
		if (data[i] != data[0])
			return EILSEQ; /* the walker gave the wrong bytes */
	s->n++;
	return 0;
}

static void test_records_and_time(void)
{
	struct builder b;
	struct seen s = { 0 };
	bool lost = true;

	begin(&b, 1000000);
	record(&b, 5, 12, 0xa1, 0);  /* 1000005 */
	record(&b, 7, 200, 0xa2, 0); /* long form forced by size: 1000012 */
	record(&b, 3, 8, 0xa3, 1);   /* long form asked for: 1000015 */
	word(&b, header(30, 0x10));  /* time extend: + (2 << 27) + 0x10 */
	word(&b, 2);
	record(&b, 1, 4, 0xa4, 0); /* 1000015 + 268435456 + 16 + 1 */
	word(&b, header(29, 1));   /* a discarded record of 12 bytes of data */
	word(&b, 12);
	memset(b.page + b.pos, 0xee, 8);
	b.pos += 8;
	word(&b, header(31, 0x123)); /* absolute: (5 << 27) | 0x123 */
	word(&b, 5);
	record(&b, 2, 16, 0xa5, 0);
	commit(&b, 0);
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == 0);
	CHECK(!lost);
	CHECK(s.n == 5);
	CHECK(s.ts[0] == 1000005 && s.len[0] == 12 && s.fill[0] == 0xa1);
	CHECK(s.ts[1] == 1000012 && s.len[1] == 200 && s.fill[1] == 0xa2);
	CHECK(s.ts[2] == 1000015 && s.len[2] == 8 && s.fill[2] == 0xa3);
	CHECK(s.ts[3] == 1000015 + (2ull << 27) + 0x10 + 1 && s.fill[3] == 0xa4);
	CHECK(s.ts[4] == ((5ull << 27) | 0x123) + 2 && s.len[4] == 16 && s.fill[4] == 0xa5);
}

static void test_padding_and_flags(void)
{
	struct builder b;
	struct seen s = { 0 };
	bool lost = false;

	begin(&b, 50);
	record(&b, 1, 8, 0xb1, 0);
	word(&b, header(29, 0)); /* the rest of the page is padding */
	word(&b, 0xdeadbeef);
	commit(&b, 1ull << 31 | 1ull << 30);
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == 0);
	CHECK(lost && s.n == 1 && s.ts[0] == 51);

	/* a partial page: only the committed bytes count, what follows is never read */
	memset(&s, 0, sizeof(s));
	begin(&b, 7);
	record(&b, 1, 4, 0xc1, 0);
	commit(&b, 0);
	record(&b, 1, 4, 0xc2, 0); /* written after the commit: not part of the page */
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == 0);
	CHECK(s.n == 1 && s.fill[0] == 0xc1);

	/* an empty page */
	memset(&s, 0, sizeof(s));
	begin(&b, 7);
	commit(&b, 0);
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == 0 && s.n == 0);
}

static void test_damage(void)
{
	struct builder b;
	struct seen s = { 0 };
	bool lost;

	/* a record that runs past the commit */
	begin(&b, 0);
	record(&b, 1, 40, 0xd1, 0);
	b.pos -= 8;
	commit(&b, 0);
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == EBADMSG);
	/* a commit larger than what was read */
	begin(&b, 0);
	record(&b, 1, 40, 0xd1, 0);
	commit(&b, 0);
	CHECK(latprobe_page_walk(&layout, b.page, 32, collect, &s, &lost) == EBADMSG);
	/* a long record whose length is impossible */
	begin(&b, 0);
	word(&b, header(0, 1));
	word(&b, 2);
	commit(&b, 0);
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == EBADMSG);
	/* too short for the header */
	CHECK(latprobe_page_walk(&layout, b.page, 8, collect, &s, &lost) == EBADMSG);
	/* the callback's error stops the walk and is returned */
	memset(&s, 0, sizeof(s));
	s.n = 16;
	begin(&b, 0);
	record(&b, 1, 4, 0xd2, 0);
	commit(&b, 0);
	CHECK(latprobe_page_walk(&layout, b.page, PAGE, collect, &s, &lost) == ENOSPC);
}

int main(void)
{
	test_records_and_time();
	test_padding_and_flags();
	test_damage();
	return check_report("test_latprobe_rbpage");
}
