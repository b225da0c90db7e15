// SPDX-License-Identifier: GPL-2.0
/*
 * The drain log's file:
 *   # rawprobectl drain log: RINGS rings of RECORDS records
 *   # start_ns poll_ns work_ns records backlog lost
 *   one line per pass, in the order the passes ran
 *   # written mid-stream (after every RP_DRAIN_LOG_MAX_KEPT passes)
 *   # end NS
 * NS is CLOCK_MONOTONIC read just before that last line is written on
 * its own: the file's modification time is then the same instant on
 * another clock, which lines the log up with what a host saw of a guest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/drain_log.h"

int rp_drain_log_open(struct rp_drain_log *log, const char *path,
		      const struct rp_reader *reader, uint32_t nr_records)
{
	log->f = fopen(path, "w");
	if (!log->f)
		return -errno;
	/*
	 * 65,536 passes (2 MiB; a second to minutes of a stream, as busy as
	 * it is), faulted in now, before the probes fire; it doubles after.
	 */
	log->cap = 65536;
	log->passes = malloc(log->cap * sizeof(*log->passes));
	if (log->passes)
		memset(log->passes, 0, log->cap * sizeof(*log->passes));
	else
		log->cap = 0;
	log->len = 0;
	log->max_kept = RP_DRAIN_LOG_MAX_KEPT;
	log->dropped = 0;
	log->lost0 = rp_reader_ring_lost(reader);
	fprintf(log->f, "# rawprobectl drain log: %u rings of %" PRIu32
		" records\n# start_ns poll_ns work_ns records backlog lost\n",
		rp_reader_nr_rings(reader), nr_records);
	return 0;
}

static void rp_drain_log_write_kept(struct rp_drain_log *log)
{
	size_t i;

	for (i = 0; i < log->len; i++) {
		const struct rp_drain_pass *p = &log->passes[i];

		fprintf(log->f, "%" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32
			" %" PRIu32 " %" PRIu64 "\n", p->start_ns, p->poll_ns,
			p->work_ns, p->records, p->backlog, p->lost);
	}
	log->len = 0;
}

/* Room for one more pass: the array doubles, up to max_kept. */
static bool rp_drain_log_room(struct rp_drain_log *log)
{
	struct rp_drain_pass *p;
	size_t cap;

	if (log->len >= log->max_kept) {
		/* The next pass's time includes this write. */
		rp_drain_log_write_kept(log);
		fputs("# written mid-stream\n", log->f);
		return true;
	}
	if (log->len < log->cap)
		return true;
	cap = log->cap ? log->cap * 2 : 65536;
	if (cap > log->max_kept)
		cap = log->max_kept;
	p = realloc(log->passes, cap * sizeof(*p));
	if (!p)
		return false;
	log->passes = p;
	log->cap = cap;
	return true;
}

void rp_drain_log_add(struct rp_drain_log *log, const struct rp_reader *reader,
		      struct rp_drain_pass *pass)
{
	if (!rp_drain_log_room(log)) {
		log->dropped++;
		return;
	}
	pass->lost = rp_reader_ring_lost(reader) - log->lost0;
	log->passes[log->len++] = *pass;
}

int rp_drain_log_close(struct rp_drain_log *log)
{
	struct timespec now;
	int err;

	rp_drain_log_write_kept(log);
	if (log->dropped)
		fprintf(log->f, "# %" PRIu64 " passes not kept: out of memory\n",
			log->dropped);
	free(log->passes);
	log->passes = NULL;
	fflush(log->f);
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(log->f, "# end %llu\n",
		(unsigned long long)now.tv_sec * 1000000000ULL +
		(unsigned long long)now.tv_nsec);
	err = ferror(log->f);
	if (fclose(log->f) || err)
		return -EIO;
	return 0;
}
