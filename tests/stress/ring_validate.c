// SPDX-License-Identifier: GPL-2.0
/*
 * The validating reader of the stress runs: drains every ring through
 * rawprobectl's reader library until SIGINT or SIGTERM, then drains what
 * is left, and checks every record on the way:
 *   - cpu is the ring's, kind and flags are known, nargs <= 6,
 *     RETVAL only on a kretprobe, a string NUL-terminated at str_len,
 *     comm NUL-terminated, 0 < ts_ns <= now, and 0 < seq <= the ring's
 *     seq read after the drain (a writer takes its seq before it commits);
 *   - discard mode: every sequence gap is an attempt the ring counted as
 *     lost (gaps == ctrl->lost since the start), no record torn.
 * Prints "delivered ID N" per probe, then "records N", "corrupt N",
 * "torn N", "overwritten N", "gaps N", "ring_lost N" and the first
 * corrupt records. Exit 0 when nothing was corrupt, 1 otherwise, 2 when
 * the rings could not be read.
 *   ring_validate [SESSION]   the default session's rings, or SESSION's
 *                             (an id: RAWPROBE_IOC_ATTACH before the mmap)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/rings_map.h"

#define MAX_ID		65536
#define SHOW_CORRUPT	10

static volatile sig_atomic_t stop;
static unsigned long long delivered[MAX_ID], corrupt, other_ids;
static unsigned long long drain_max_seq;	/* of the ring being drained */
static unsigned long long anchor_window_ns;	/* of the drain's tsc anchor */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static const char *record_fault(unsigned int cpu,
				const struct rawprobe_record *r)
{
	const unsigned int known = RAWPROBE_REC_ARGS | RAWPROBE_REC_RETVAL |
		RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC |
		RAWPROBE_REC_STR_FAULT;

	if (r->cpu != cpu)
		return "cpu is not the ring's";
	if (r->kind < RAWPROBE_KIND_KPROBE || r->kind >= __RAWPROBE_KIND_MAX)
		return "unknown kind";
	if (r->flags & ~known)
		return "unknown flags";
	if (r->nargs > RAWPROBE_MAX_ARGS)
		return "nargs > 6";
	if ((r->flags & RAWPROBE_REC_RETVAL) &&
	    r->kind != RAWPROBE_KIND_KRETPROBE && r->kind != RAWPROBE_KIND_CUSTOM)
		return "a return value on an entry probe";
	if ((r->flags & RAWPROBE_REC_STR) &&
	    (r->str_len >= RAWPROBE_STR_LEN || r->str[r->str_len] ||
	     r->str_arg >= r->nargs))
		return "string not terminated at str_len";
	if (!(r->flags & (RAWPROBE_REC_STR | RAWPROBE_REC_STR_FAULT)) &&
	    r->str_len)
		return "str_len without a string";
	if (!memchr(r->comm, 0, sizeof(r->comm)))
		return "comm not terminated";
	/* (a tsc record converted against an anchor that far off, no more) */
	if (!r->ts_ns || r->ts_ns > now_ns() + anchor_window_ns)
		return "timestamp in the future";
	if (!r->seq)
		return "sequence 0";
	if (r->seq > drain_max_seq)
		drain_max_seq = r->seq;
	return NULL;
}

static int on_record(unsigned int cpu, const struct rawprobe_record *r,
		     void *ctx)
{
	const char *why;

	anchor_window_ns = rp_reader_tsc_window_ns(ctx);
	why = record_fault(cpu, r);
	if (why) {
		if (corrupt++ < SHOW_CORRUPT)
			printf("corrupt cpu %u seq %llu probe %u kind %u flags %#x: %s\n",
			       cpu, (unsigned long long)r->seq, r->probe_id,
			       r->kind, r->flags, why);
		return 0;
	}
	if (r->probe_id < MAX_ID)
		delivered[r->probe_id]++;
	else
		other_ids++;
	return 0;
}

static long drain(struct rp_rings_map *m)
{
	const struct rawprobe_ring_ctrl *c;
	unsigned int cpu;
	long n, total = 0;

	for (cpu = 0; cpu < m->info.nr_rings; cpu++) {
		c = (const void *)((char *)m->ctrl +
				   (size_t)cpu * m->info.page_size);
		drain_max_seq = 0;
		n = rp_reader_drain_cpu(m->reader, cpu, on_record, m->reader);
		if (n < 0)
			return n;
		/* every record drained took its seq before this load */
		if (drain_max_seq > __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) &&
		    corrupt++ < SHOW_CORRUPT)
			printf("corrupt cpu %u: seq %llu beyond the ring's\n",
			       cpu, drain_max_seq);
		total += n;
	}
	return total;
}

/*
 * After the final drain the reader should be at every ring's head. Where
 * it is not, say what holds it: the slot it stops at, uncommitted.
 */
static void show_unread(struct rp_rings_map *m)
{
	const struct rawprobe_ring_ctrl *c;
	const struct rawprobe_record *r;
	struct rp_reader_cpu_stats st;
	unsigned long long head;
	unsigned int cpu;

	for (cpu = 0; cpu < m->info.nr_rings; cpu++) {
		c = (const void *)((char *)m->ctrl +
				   (size_t)cpu * m->info.page_size);
		head = __atomic_load_n(&c->head, __ATOMIC_ACQUIRE);
		if (rp_reader_stats(m->reader, cpu, &st) ||
		    st.position == head)
			continue;
		r = (const void *)((char *)m->data +
				   (size_t)cpu * m->info.ring_bytes +
				   (size_t)(st.position & (c->nr_records - 1)) *
				   RAWPROBE_RECORD_SIZE);
		printf("unread cpu %u: position %llu, head %llu; the slot holds commit %u (want %u), seq %llu, probe %u, kind %u\n",
		       cpu, (unsigned long long)st.position, head,
		       __atomic_load_n(&r->commit, __ATOMIC_ACQUIRE),
		       (unsigned int)(st.position + 1),
		       (unsigned long long)r->seq, r->probe_id, r->kind);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	uint32_t session = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) :
			   RAWPROBE_SESSION_DEFAULT;
	struct rp_rings_map m = { .fd = -1 };
	unsigned long long lost0 = 0, records = 0, torn = 0, over = 0;
	unsigned long long gaps = 0, lost = 0;
	struct rp_reader_cpu_stats st;
	struct pollfd pfd;
	unsigned int cpu, quiet = 0;
	int err;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	err = rp_rings_open(&m, session, 0);
	if (err) {
		fprintf(stderr, "ring_validate: /dev/rawprobe: %s\n",
			strerror(-err));
		return 2;
	}
	for (cpu = 0; cpu < m.info.nr_rings; cpu++)
		if (!rp_reader_stats(m.reader, cpu, &st))
			lost0 += st.ring_lost;
	printf("ready\n");
	fflush(stdout);
	pfd.fd = m.fd;
	pfd.events = POLLIN;
	while (!stop) {
		poll(&pfd, 1, 100);
		if (drain(&m) < 0)
			return 2;
	}
	/* the writers have stopped: take what is left, until twice nothing */
	while (quiet < 2)
		quiet = drain(&m) ? 0 : quiet + 1;

	for (cpu = 0; cpu < m.info.nr_rings; cpu++) {
		if (rp_reader_stats(m.reader, cpu, &st))
			continue;
		records += st.records;
		torn += st.torn;
		over += st.overwritten;
		gaps += st.seq_lost;
		lost += st.ring_lost;
	}
	show_unread(&m);
	for (err = 0; err < MAX_ID; err++)
		if (delivered[err])
			printf("delivered %d %llu\n", err, delivered[err]);
	printf("records %llu\ncorrupt %llu\ntorn %llu\noverwritten %llu\n"
	       "gaps %llu\nring_lost %llu\nother_ids %llu\nmode %u\n",
	       records, corrupt, torn, over, gaps, lost - lost0, other_ids,
	       m.info.mode);
	rp_rings_close(&m);
	return corrupt || other_ids ? 1 : 0;
}
