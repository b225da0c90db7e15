// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's workload: a tight loop of getpgid(0) system calls,
 * made through syscall() so that no libc cache can skip the kernel.
 *
 *   getpgid_loop [-w WARMUP] [-b BATCHES] CALLS
 *   getpgid_loop -d SECONDS [-s USEC]
 *
 * With CALLS: WARMUP calls first (default 1000), then CALLS calls timed
 * with CLOCK_MONOTONIC, as BATCHES equal batches (default 1). Prints
 * "ns_per_call CALLS_MADE", where ns_per_call is the median over the
 * batches (the whole run's mean with one batch) and CALLS_MADE counts
 * every call, warm-up included (what a probe on the entry sees).
 * With -d: calls for SECONDS, in batches of 100 with a pause of USEC
 * microseconds after each (default none), then prints the number of calls
 * made: a steady source of probe hits at a rate a reader can follow.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void calls(unsigned long n)
{
	while (n--)
		syscall(SYS_getpgid, 0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int bad_args(void)
{
	fprintf(stderr,
		"usage: getpgid_loop [-w WARMUP] [-b BATCHES] CALLS\n"
		"       getpgid_loop -d SECONDS [-s USEC]\n");
	return 2;
}

static int run_for(double secs, unsigned long pause_us)
{
	unsigned long long end = now_ns() + (unsigned long long)(secs * 1e9);
	unsigned long long n = 0;

	while (now_ns() < end) {
		calls(100);
		n += 100;
		if (pause_us)
			usleep(pause_us);
	}
	printf("%llu\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long warmup = 1000, batches = 1, pause_us = 0, n, per, i;
	double *ns, secs = 0;
	int opt;

	while ((opt = getopt(argc, argv, "w:b:d:s:")) != -1) {
		switch (opt) {
		case 'w':
			warmup = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			batches = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			secs = strtod(optarg, NULL);
			break;
		case 's':
			pause_us = strtoul(optarg, NULL, 0);
			break;
		default:
			return bad_args();
		}
	}
	if (secs > 0)
		return run_for(secs, pause_us);
	if (optind != argc - 1 || !batches)
		return bad_args();
	n = strtoul(argv[optind], NULL, 0);
	per = n / batches;
	if (!per)
		return bad_args();
	ns = calloc(batches, sizeof(*ns));
	if (!ns)
		return 1;

	calls(warmup);
	for (i = 0; i < batches; i++) {
		unsigned long long t0 = now_ns();

		calls(per);
		ns[i] = (double)(now_ns() - t0) / per;
	}
	qsort(ns, batches, sizeof(*ns), cmp_double);
	printf("%.1f %lu\n", ns[batches / 2], warmup + per * batches);
	free(ns);
	return 0;
}
