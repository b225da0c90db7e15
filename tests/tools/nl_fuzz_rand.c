// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's raw material: the seeded randomness (a stream
 * per message, so that any message replays alone) and the bump allocator
 * a message's attribute tree lives in, reset per message. Apart because
 * every other part of the generator draws on these two, and they on
 * nothing of the fuzzer's (the declarations: nl_fuzz.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nl_fuzz.h"

/* --- deterministic randomness: splitmix64 --- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Message i of a seed has its own stream: any message can be replayed. */
void rng_init(struct rng *r, uint64_t seed, uint64_t index)
{
	uint64_t x = seed;

	r->s = splitmix64(&x) ^ (index * 0xd1342543de82ef95ULL);
	splitmix64(&r->s);
}

uint64_t rnd(struct rng *r)
{
	return splitmix64(&r->s);
}

uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

int chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

/* --- a bump allocator, reset per message --- */

unsigned char *arena;
size_t arena_used;

void *zalloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (arena_used + n > ARENA_SIZE) {
		fprintf(stderr, "nl_fuzz: generator arena exhausted\n");
		exit(2);
	}
	p = arena + arena_used;
	arena_used += n;
	memset(p, 0, n);
	return p;
}
