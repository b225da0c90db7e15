// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction count's workload: getpgid(0) system calls between the
 * TCG instruction counter's markers (tools/tcg-insn), one interval per
 * batch of calls, so that the plugin counts what one batch costs, user
 * and kernel alike.
 *
 *   getpgid_marked [-w WARMUP] INTERVALS CALLS
 *
 * WARMUP calls first (default 1000: the pages and the probe's first-hit
 * costs), then INTERVALS intervals of CALLS calls each. Prints the calls
 * made, warm-up included (what a probe on the entry sees).
 *
 * The system call is a bare `syscall` instruction: the user-space part
 * of a call is a handful of instructions, the same for every probe
 * configuration. Static and non-PIE, with .rpmark at a fixed address
 * (Makefile), so that the markers' addresses come from nm.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "rpmark.h"

static inline void getpgid0(void)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_getpgid), "D"(0L)
			 : "rcx", "r11", "memory");
	(void)ret;
}

static void calls(unsigned long n)
{
	while (n--)
		getpgid0();
}

int main(int argc, char **argv)
{
	unsigned long warmup = 1000, intervals, n, i;
	int opt;

	while ((opt = getopt(argc, argv, "w:")) != -1) {
		if (opt != 'w')
			goto usage;
		warmup = strtoul(optarg, NULL, 0);
	}
	if (optind != argc - 2)
		goto usage;
	intervals = strtoul(argv[optind], NULL, 0);
	n = strtoul(argv[optind + 1], NULL, 0);
	if (!intervals || !n)
		goto usage;

	calls(warmup);
	for (i = 0; i < intervals; i++) {
		rp_mark_start();
		calls(n);
		rp_mark_stop();
	}
	printf("%lu\n", warmup + intervals * n);
	return 0;
usage:
	fprintf(stderr, "usage: getpgid_marked [-w WARMUP] INTERVALS CALLS\n");
	return 2;
}
