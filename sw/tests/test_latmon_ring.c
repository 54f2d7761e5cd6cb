/*
 * The shared-memory log ring (latmon_ring.h): formatting and attaching, wrap-around, a full
 * ring, the end of the stream, damaged headers, and a writer and a reader on two threads
 * moving 8 MiB in chunks of random sizes through a 256-byte ring, every byte checked.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "latmon/latmon_ring.h"

static _Alignas(64) uint8_t mem[LATMON_RING_HEADER_BYTES + 4096];

static void test_init_rounds_down_to_a_power_of_two(void)
{
	struct latmon_ring *r = NULL, *a = NULL;

	CHECK(latmon_ring_init(&r, mem, LATMON_RING_HEADER_BYTES + 1000) == 0);
	CHECK(r->size == 512);
	CHECK(r->magic == LATMON_RING_MAGIC && r->state == LATMON_RING_WRITING);
	CHECK(memcmp(mem, "LMRG", 4) == 0);
	CHECK(latmon_ring_reader_attached(r) == 0);
	CHECK(latmon_ring_attach(&a, mem, LATMON_RING_HEADER_BYTES + 1000) == 0 && a == r);
	CHECK(latmon_ring_reader_attached(r) == 1);
	CHECK(latmon_ring_init(&r, mem, LATMON_RING_HEADER_BYTES + 63) == EINVAL);
	CHECK(latmon_ring_init(NULL, mem, sizeof mem) == EINVAL);
	CHECK(latmon_ring_init(&r, mem, sizeof mem) == 0 && r->size == 4096);
}

static void test_attach_refuses_what_is_not_a_ring(void)
{
	struct latmon_ring *r = NULL, *a = NULL;

	memset(mem, 0, sizeof mem);
	CHECK(latmon_ring_attach(&a, mem, sizeof mem) == EAGAIN); /* not formatted yet */
	memset(mem, 0x5A, sizeof mem);
	CHECK(latmon_ring_attach(&a, mem, sizeof mem) == EPROTO); /* garbage */
	CHECK(latmon_ring_init(&r, mem, sizeof mem) == 0);
	r->version = 2;
	CHECK(latmon_ring_attach(&a, mem, sizeof mem) == EPROTO);
	r->version = LATMON_RING_VERSION;
	CHECK(latmon_ring_attach(&a, mem, 1024) == EINVAL); /* data larger than the map */
	r->size = 1000;
	CHECK(latmon_ring_attach(&a, mem, sizeof mem) == EINVAL); /* not a power of two */
	CHECK(latmon_ring_attach(&a, mem, 16) == EINVAL);
}

static void test_wrap_full_and_drained(void)
{
	struct latmon_ring *r = NULL;
	uint8_t in[200], out[300];
	size_t n = 0, got = 0;
	int i;

	for (i = 0; i < 200; i++)
		in[i] = (uint8_t)i;
	CHECK(latmon_ring_init(&r, mem, LATMON_RING_HEADER_BYTES + 256) == 0 && r->size == 256);
	CHECK(latmon_ring_write(r, in, 200, &n) == 0 && n == 200);
	CHECK(latmon_ring_read(r, out, 150, &got) == 0 && got == 150);
	CHECK(memcmp(out, in, 150) == 0);
	/* 50 unread, 206 free: 200 fit and wrap around the end */
	CHECK(latmon_ring_write(r, in, 200, &n) == 0 && n == 200);
	CHECK(latmon_ring_write(r, in, 200, &n) == 0 && n == 6); /* full now */
	CHECK(latmon_ring_write(r, in, 1, &n) == 0 && n == 0);
	CHECK(latmon_ring_read(r, out, sizeof out, &got) == 0 && got == 256);
	CHECK(memcmp(out, in + 150, 50) == 0 && memcmp(out + 50, in, 200) == 0);
	CHECK(memcmp(out + 250, in, 6) == 0);
	CHECK(latmon_ring_read(r, out, sizeof out, &got) == 0 && got == 0);
	CHECK(latmon_ring_drained(r) == 0); /* empty, but the writer may still write */
	latmon_ring_drop(r, 7);
	latmon_ring_finish(r, 3);
	CHECK(latmon_ring_drained(r) == 1 && r->status == 3 && r->dropped == 7);
	CHECK(latmon_ring_write(NULL, in, 1, &n) == EINVAL);
	CHECK(latmon_ring_read(r, NULL, 1, &got) == EINVAL);
	r->head = r->tail + 257; /* more unread than the ring holds */
	CHECK(latmon_ring_read(r, out, sizeof out, &got) == EPROTO);
}

/* ---- a writer thread and a reader thread ---- */

#define STREAM_BYTES (8u << 20)

static uint8_t stream_byte(uint32_t i)
{
	return (uint8_t)((i * 2654435761u) >> 13);
}

static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void *writer(void *arg)
{
	struct latmon_ring *r = arg;
	uint8_t chunk[97];
	uint32_t sent = 0, seed = 12345;

	while (sent < STREAM_BYTES) {
		uint32_t want = 1 + next_random(&seed) % sizeof chunk, i;
		size_t n = 0;

		if (want > STREAM_BYTES - sent)
			want = STREAM_BYTES - sent;
		for (i = 0; i < want; i++)
			chunk[i] = stream_byte(sent + i);
		latmon_ring_write(r, chunk, want, &n);
		sent += (uint32_t)n;
	}
	latmon_ring_finish(r, 0);
	return NULL;
}

static void test_two_threads_every_byte_in_order(void)
{
	struct latmon_ring *r = NULL, *a = NULL;
	pthread_t t;
	uint8_t buf[61];
	uint32_t seen = 0, wrong = 0;

	CHECK(latmon_ring_init(&r, mem, LATMON_RING_HEADER_BYTES + 256) == 0);
	CHECK(latmon_ring_attach(&a, mem, LATMON_RING_HEADER_BYTES + 256) == 0);
	CHECK(pthread_create(&t, NULL, writer, r) == 0);
	while (!latmon_ring_drained(a)) {
		size_t got = 0, i;

		if (latmon_ring_read(a, buf, sizeof buf, &got) != 0)
			break;
		for (i = 0; i < got; i++)
			wrong += buf[i] != stream_byte(seen + (uint32_t)i);
		seen += (uint32_t)got;
	}
	pthread_join(t, NULL);
	CHECK(seen == STREAM_BYTES);
	CHECK(wrong == 0);
	CHECK(a->dropped == 0 && a->status == 0);
}

int main(void)
{
	test_init_rounds_down_to_a_power_of_two();
	test_attach_refuses_what_is_not_a_ring();
	test_wrap_full_and_drained();
	test_two_threads_every_byte_in_order();
	return check_report("test_latmon_ring");
}
