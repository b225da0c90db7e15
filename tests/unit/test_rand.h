/* SPDX-License-Identifier: GPL-2.0 */
/* Reproducible pseudo-random numbers for the host tests and benchmarks. */
#ifndef RAWPROBE_TEST_RAND_H
#define RAWPROBE_TEST_RAND_H

#include <stdint.h>

/* splitmix64: one 64-bit state, good enough mixing for test data. */
static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t x = *state += 0x9e3779b97f4a7c15ull;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#endif
