/*
 * latmon ring: a byte ring in shared memory that carries a latmon-log from one side of an AMP
 * system to the other (docs/amp.md). Bare-metal firmware on one core writes the log into it;
 * a Linux program (latctl ring) on another core reads it out. It plays the part of the data
 * path OpenAMP's RPMsg provides on a board, with one writer and one reader and nothing else:
 * no interrupts (both sides poll), no allocation, no C library.
 *
 * Layout (little-endian, every field 32 bits; the same for a 32-bit R5 and a 64-bit A53):
 *
 *   offset   0  magic "LMRG", version, data size (a power of two), header size (256)
 *   offset  16  state (written by the writer: 0 not ready, 1 writing, 2 done), final status
 *   offset  64  head: bytes written so far (mod 2^32), dropped: bytes the writer gave up on
 *   offset 128  tail: bytes read so far (mod 2^32), reader: 1 once a reader is attached
 *   offset 256  the data: byte i of the stream is at data[i mod size]
 *
 * head and tail live on cache lines of their own, each written by one side only. A side
 * publishes with a release store and observes with an acquire load, so the bytes a head
 * value covers are visible before the head is. On hardware with caches both sides map the
 * region non-cacheable (or clean/invalidate it); the reader copies byte by byte, which is
 * allowed on device memory.
 */
#ifndef LATMON_RING_H
#define LATMON_RING_H

#include <stddef.h>
#include <stdint.h>

#define LATMON_RING_MAGIC	   0x47524D4Cu /* "LMRG" in memory order */
#define LATMON_RING_VERSION	   1u
#define LATMON_RING_HEADER_BYTES   256u
#define LATMON_RING_MIN_DATA_BYTES 64u

enum latmon_ring_state {
	LATMON_RING_NOT_READY = 0,
	LATMON_RING_WRITING = 1,
	LATMON_RING_DONE = 2,
};

struct latmon_ring {
	uint32_t magic;
	uint32_t version;
	uint32_t size; /* data bytes */
	uint32_t header_bytes;
	uint32_t state;	 /* enum latmon_ring_state, by the writer */
	uint32_t status; /* the writer's final status (its main's return value) */
	uint32_t reserved0[10];
	uint32_t head;	  /* by the writer */
	uint32_t dropped; /* by the writer */
	uint32_t reserved1[14];
	uint32_t tail;	 /* by the reader */
	uint32_t reader; /* by the reader: 1 attached */
	uint32_t reserved2[30];
	uint8_t data[];
};

/**
 * Format @p mem (@p mem_size bytes) as an empty ring whose data part fills it (rounded down to
 * a power of two). Called by the writer before anyone reads.
 * @return 0, or EINVAL (NULL, or too small for a header and LATMON_RING_MIN_DATA_BYTES).
 */
int latmon_ring_init(struct latmon_ring **ring, void *mem, size_t mem_size);

/**
 * Check that @p mem (@p mem_size bytes) holds a ring formatted by a writer and mark a reader
 * attached.
 * @return 0; EAGAIN when the writer has not formatted it yet (try again later); EPROTO when
 * the magic or version is not this one's; EINVAL when the sizes do not fit @p mem_size.
 */
int latmon_ring_attach(struct latmon_ring **ring, void *mem, size_t mem_size);

/**
 * Copy as much of @p data (@p len bytes) as there is room for; *written says how much
 * (0 when the ring is full). Never waits.
 * @return 0, or EINVAL.
 */
int latmon_ring_write(struct latmon_ring *ring, const void *data, size_t len, size_t *written);

/** Count @p len bytes the writer gave up on (a full ring nobody read); the reader reports them. */
void latmon_ring_drop(struct latmon_ring *ring, uint32_t len);

/** The writer is done: no more bytes will come; @p status is its result. */
void latmon_ring_finish(struct latmon_ring *ring, uint32_t status);

/**
 * Copy up to @p cap unread bytes into @p buf; *got says how many (0: nothing new).
 * @return 0; EINVAL; EPROTO when the head is further ahead than the ring holds (the memory
 * is not, or no longer, a ring).
 */
int latmon_ring_read(struct latmon_ring *ring, void *buf, size_t cap, size_t *got);

/** 1 when the writer has finished and every byte it wrote has been read, else 0. */
int latmon_ring_drained(const struct latmon_ring *ring);

/** 1 once a reader has attached, else 0 (the writer may wait for it before it starts). */
int latmon_ring_reader_attached(const struct latmon_ring *ring);

#endif
