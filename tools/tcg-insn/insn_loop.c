// SPDX-License-Identifier: GPL-2.0
/*
 * The TCG instruction counter's test program, and an example of the
 * markers in use (rpmark.h): ROUNDS intervals, each K turns of a loop
 * of known length between START and STOP (insn_loop.S).
 *
 *   insn_loop ROUNDS K       K turns of rp_region's loop per interval
 *   insn_loop -f ROUNDS N    N faulting loads per interval (N >= 1),
 *                            each skipped by the SIGSEGV handler
 *
 * Linked static and non-PIE, with .rpmark at a fixed address (make
 * tcg-plugin), so the markers' addresses come from nm.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "rpmark.h"

void rp_region(unsigned long k);
void rp_fault_region(unsigned long n);
extern char rp_fault_next[];

static void skip_load(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)rp_fault_next;
}

static int bad_args(void)
{
	fprintf(stderr, "usage: insn_loop [-f] ROUNDS K\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = skip_load, .sa_flags = SA_SIGINFO };
	unsigned long rounds, k, r;
	int fault = argc > 1 && !strcmp(argv[1], "-f");
	char *end1, *end2;

	if (argc != 3 + fault)
		return bad_args();
	rounds = strtoul(argv[1 + fault], &end1, 0);
	k = strtoul(argv[2 + fault], &end2, 0);
	if (*end1 || *end2 || (fault && !k))
		return bad_args();
	if (fault && sigaction(SIGSEGV, &sa, NULL))
		return 1;
	for (r = 0; r < rounds; r++) {
		if (fault)
			rp_fault_region(k);
		else
			rp_region(k);
	}
	return 0;
}
