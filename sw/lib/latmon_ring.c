/*
 * latmon ring (latmon_ring.h): one writer, one reader, shared memory, no C library.
 *
 * Indices are free-running 32-bit byte counts; head - tail (mod 2^32) is the number of unread
 * bytes and never exceeds size, a power of two, so byte n of the stream sits at
 * data[n & (size - 1)]. Each index is written by one side only and published with a release
 * store; the other side reads it with an acquire load before it touches the bytes it covers.
 * Data bytes are copied one at a time through volatile pointers: the reader may map the
 * region as device memory, where wider or unaligned accesses are not allowed.
 */
#include "latmon/latmon_ring.h"

#include "latmon_errno.h"

_Static_assert(__builtin_offsetof(struct latmon_ring, state) == 16, "ring layout");
_Static_assert(__builtin_offsetof(struct latmon_ring, head) == 64, "ring layout");
_Static_assert(__builtin_offsetof(struct latmon_ring, tail) == 128, "ring layout");
_Static_assert(__builtin_offsetof(struct latmon_ring, data) == LATMON_RING_HEADER_BYTES,
	       "ring layout");

static uint32_t load_acquire(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_release(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

int latmon_ring_init(struct latmon_ring **ring, void *mem, size_t mem_size)
{
	struct latmon_ring *r = mem;
	size_t room, size = LATMON_RING_MIN_DATA_BYTES;

	if (!ring || !mem || mem_size < LATMON_RING_HEADER_BYTES + LATMON_RING_MIN_DATA_BYTES)
		return EINVAL;
	room = mem_size - LATMON_RING_HEADER_BYTES;
	while (size <= room / 2u && size < UINT32_C(0x80000000))
		size *= 2u;
	/* not ready until every field is set: a reader that attaches early waits (EAGAIN) */
	store_release(&r->state, LATMON_RING_NOT_READY);
	r->version = LATMON_RING_VERSION;
	r->size = (uint32_t)size;
	r->header_bytes = LATMON_RING_HEADER_BYTES;
	r->status = 0;
	r->head = 0;
	r->dropped = 0;
	r->tail = 0;
	r->reader = 0;
	store_release(&r->magic, LATMON_RING_MAGIC);
	store_release(&r->state, LATMON_RING_WRITING);
	*ring = r;
	return 0;
}

int latmon_ring_attach(struct latmon_ring **ring, void *mem, size_t mem_size)
{
	struct latmon_ring *r = mem;
	uint32_t size;

	if (!ring || !mem || mem_size < LATMON_RING_HEADER_BYTES)
		return EINVAL;
	if (load_acquire(&r->state) == LATMON_RING_NOT_READY)
		return EAGAIN;
	if (load_acquire(&r->magic) != LATMON_RING_MAGIC || r->version != LATMON_RING_VERSION ||
	    r->header_bytes != LATMON_RING_HEADER_BYTES)
		return EPROTO;
	size = r->size;
	if (size < LATMON_RING_MIN_DATA_BYTES || (size & (size - 1u)) ||
	    size > mem_size - LATMON_RING_HEADER_BYTES)
		return EINVAL;
	store_release(&r->reader, 1u);
	*ring = r;
	return 0;
}

int latmon_ring_write(struct latmon_ring *ring, const void *data, size_t len, size_t *written)
{
	const uint8_t *src = data;
	volatile uint8_t *dst;
	uint32_t head, free_bytes, mask, n, i;

	if (!ring || !written || (len && !data))
		return EINVAL;
	head = ring->head; /* only this side writes it */
	free_bytes = ring->size - (head - load_acquire(&ring->tail));
	n = len < free_bytes ? (uint32_t)len : free_bytes;
	mask = ring->size - 1u;
	dst = ring->data;
	for (i = 0; i < n; i++)
		dst[(head + i) & mask] = src[i];
	store_release(&ring->head, head + n);
	*written = n;
	return 0;
}

void latmon_ring_drop(struct latmon_ring *ring, uint32_t len)
{
	store_release(&ring->dropped, ring->dropped + len);
}

void latmon_ring_finish(struct latmon_ring *ring, uint32_t status)
{
	ring->status = status;
	store_release(&ring->state, LATMON_RING_DONE);
}

int latmon_ring_read(struct latmon_ring *ring, void *buf, size_t cap, size_t *got)
{
	const volatile uint8_t *src;
	uint8_t *dst = buf;
	uint32_t tail, avail, mask, n, i;

	if (!ring || !got || (cap && !buf))
		return EINVAL;
	tail = ring->tail; /* only this side writes it */
	avail = load_acquire(&ring->head) - tail;
	if (avail > ring->size)
		return EPROTO; /* a head the writer cannot have written: the memory is not a ring */
	n = cap < avail ? (uint32_t)cap : avail;
	mask = ring->size - 1u;
	src = ring->data;
	for (i = 0; i < n; i++)
		dst[i] = src[(tail + i) & mask];
	store_release(&ring->tail, tail + n);
	*got = n;
	return 0;
}

int latmon_ring_drained(const struct latmon_ring *ring)
{
	/* state first: a DONE seen with acquire makes the final head visible */
	return load_acquire(&ring->state) == LATMON_RING_DONE &&
	       load_acquire(&ring->head) == ring->tail;
}

int latmon_ring_reader_attached(const struct latmon_ring *ring)
{
	return load_acquire(&ring->reader) != 0;
}
