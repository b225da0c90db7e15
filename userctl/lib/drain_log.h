/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stream's drain log (stream --drain-log FILE): one line per pass of
 * the reader's loop, kept in memory while the stream runs and written
 * when it ends, so that the log costs the reader no I/O while it races
 * the producers (past RP_DRAIN_LOG_MAX_KEPT passes it writes them out
 * and marks the spot). Says, for a stream that lost records, whether its
 * reader was late (a long poll or a long pass before the loss) or kept
 * up until it was kept off its CPU.
 */
#ifndef RAWPROBE_DRAIN_LOG_H
#define RAWPROBE_DRAIN_LOG_H

#include <stdint.h>
#include <stdio.h>
#include "lib/ring_reader.h"

struct rp_drain_pass {
	uint64_t start_ns;	/* CLOCK_MONOTONIC: the pass began */
	uint32_t poll_ns;	/* in poll() (0: skipped, the reader was behind) */
	uint32_t work_ns;	/* draining, formatting, writing */
	uint32_t records;	/* delivered by this pass */
	uint32_t backlog;	/* written, not yet read, as the drain began */
	uint64_t lost;		/* the rings' lost counters, since the log began */
};

/*
 * At most this many passes are kept (32 MiB); a longer stream writes
 * them out mid-stream and says so in the file.
 */
#define RP_DRAIN_LOG_MAX_KEPT	(1U << 20)

struct rp_drain_log {
	FILE *f;
	struct rp_drain_pass *passes;
	size_t len, cap;
	size_t max_kept;	/* RP_DRAIN_LOG_MAX_KEPT; smaller in tests */
	uint64_t dropped;	/* passes not kept: out of memory */
	uint64_t lost0;
};

/* Returns 0 or a negative errno; the file is created at once. */
int rp_drain_log_open(struct rp_drain_log *log, const char *path,
		      const struct rp_reader *reader, uint32_t nr_records);
void rp_drain_log_add(struct rp_drain_log *log, const struct rp_reader *reader,
		      struct rp_drain_pass *pass);
/* Writes every pass and closes; returns 0 or a negative errno. */
int rp_drain_log_close(struct rp_drain_log *log);

#endif
