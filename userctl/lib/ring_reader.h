/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobe ring reader: the user-space side of the per-CPU ring contract
 * in uapi/rawprobe.h.
 *
 * The library works on memory that is already mapped: the caller opens
 * /dev/rawprobe, reads RAWPROBE_IOC_INFO and mmaps the control pages and
 * record arrays, then hands the reader one struct rp_reader_ring per ring.
 * Nothing here does I/O, so the library runs as well on malloc'd rings
 * (tests/unit/test_ring.c).
 *
 * Records are copied out of the ring before the callback sees them: the
 * callback never looks at memory the kernel may be overwriting, and may
 * keep the pointer only until it returns.
 *
 * One reader per ring at a time (the contract has a single consumer); a
 * struct rp_reader is not thread-safe.
 */
#ifndef RAWPROBE_RING_READER_H
#define RAWPROBE_RING_READER_H

#include <linux/types.h>
#include "rawprobe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One mapped ring. */
struct rp_reader_ring {
	struct rawprobe_ring_ctrl *ctrl;	/* control page, read-write */
	const struct rawprobe_record *recs;	/* record array, read-only */
	__u32 nr_records;			/* a power of two, >= 2 */
	__u32 mode;				/* enum rawprobe_ring_mode */
};

/* rp_reader_new() flags */
#define RP_READER_MERGE	(1U << 0)	/* drain_all delivers in ts_ns order */

struct rp_reader;

/*
 * Called once per record, in ring (position) order for one ring, or in
 * (ts_ns, cpu, seq) order for a merged drain. cpu is the ring's index in
 * the array given to rp_reader_new(). Return 0 to go on, anything else to
 * stop the drain after this record (which counts as consumed).
 */
typedef int (*rp_reader_fn)(unsigned int cpu,
			    const struct rawprobe_record *rec, void *ctx);

/*
 * Per-ring counters, cumulative since rp_reader_new().
 *
 * Every position the reader passed is exactly one of: records, discarded
 * (RAWPROBE_REC_DISCARD: never delivered), torn, overwritten. Every write
 * attempt on the ring is a position or counted in ring_lost (discard:
 * ring full; overwrite: the slot's previous record was still being
 * written by an interrupted writer). The sequence numbers give the same
 * answer from the records alone:
 * seq_lost = (seq_max - seq_min + 1) - records - discarded, which
 * counts attempts lost between the first and the last record seen,
 * whatever the cause (ring full, overwritten, torn). Nested writers may
 * commit out of sequence order, so seq_lost can be briefly too high while
 * an interrupted writer has not committed yet; it never counts a record
 * twice.
 */
struct rp_reader_cpu_stats {
	__u64 records;		/* records copied out intact */
	__u64 discarded;	/* abandoned by their writer, skipped */
	__u64 torn;		/* copies dropped: overwritten while copying */
	__u64 overwritten;	/* positions skipped: the writer lapped us */
	__u64 seq_min;		/* lowest seq seen (0: no record yet) */
	__u64 seq_max;		/* highest seq seen (0: no record yet) */
	__u64 seq_lost;		/* attempts missing in [seq_min, seq_max] */
	__u64 ring_lost;	/* ctrl->lost now: attempts given up */
	__u64 position;		/* next position to read (= ctrl->consumer) */
	__u64 head;		/* ctrl->head now */
};

/*
 * Create a reader over nr_rings rings (ring i is "cpu" i). The array is
 * copied. Reading starts at each ring's ctrl->consumer. Returns NULL with
 * errno set (EINVAL, ENOMEM) on failure.
 */
struct rp_reader *rp_reader_new(const struct rp_reader_ring *rings,
				unsigned int nr_rings, unsigned int flags);
void rp_reader_free(struct rp_reader *reader);
unsigned int rp_reader_nr_rings(const struct rp_reader *reader);

/*
 * Most records taken from one ring per drain call; 0 means the ring's
 * size. Bounds the time spent in one call when the writers are faster
 * than the callback, and a merging reader's copies: it holds a batch of
 * records per ring that has had any, so its default is
 * RP_READER_MERGE_BATCH (256 KiB a ring) and not the ring's size (a
 * reader of 64 rings of 4 MiB kept up to 256 MiB of copies). A drain that
 * returns a batch or more was cut short: call it again at once.
 */
#define RP_READER_MERGE_BATCH	1024U
int rp_reader_set_batch(struct rp_reader *reader, unsigned int max_records);

/*
 * A merging reader's copies, allocated and faulted in now (a batch of
 * records per ring: 256 KiB a ring at the default batch) rather than in
 * the first drains, when a stream that has just been woken is furthest
 * behind; the first rings' up to RP_READER_PREPARE_MAX in all (64 rings),
 * the others' at their first records, as without it. Returns 0, or
 * -ENOMEM (the drains then allocate as they go).
 */
#define RP_READER_PREPARE_MAX	(16U << 20)
int rp_reader_prepare(struct rp_reader *reader);

/*
 * Start at the rings' current position: every record written so far
 * (committed or still being written) is left unread, and the consumer
 * positions published, so the writers have the whole rings. For a reader
 * that brings its own probes: records of probes deleted before it came
 * are nobody's. Call before the first drain. Returns how many positions
 * were passed over (they are counted nowhere else).
 */
__u64 rp_reader_skip_to_head(struct rp_reader *reader);

/*
 * Records written with the tsc clock (RAWPROBE_REC_TSC: ts_ns and
 * latency_ns in TSC cycles) are converted to CLOCK_MONOTONIC ns before
 * anyone sees them, flag cleared, as uapi enum rawprobe_clock says: at
 * rate tsc_khz (rawprobe_info), against a pair of rdtsc and
 * clock_gettime(CLOCK_MONOTONIC) read at the start of every drain. 0
 * (the default) delivers them unconverted. Returns 0, -EINVAL, or
 * -EOPNOTSUPP where the reader cannot read a TSC.
 */
int rp_reader_set_tsc(struct rp_reader *reader, __u32 tsc_khz);
/* Tests: convert against this anchor, never re-read. */
int rp_reader_set_tsc_anchor(struct rp_reader *reader, __u64 tsc, __u64 ns);
/*
 * How far off the last anchor may be, in ns (the window between its
 * two rdtsc): a record converted against it may read up to that much
 * later than it was written. 0 without conversion.
 */
__u64 rp_reader_tsc_window_ns(const struct rp_reader *reader);

/*
 * Read the committed records of one ring, in position order, up to the
 * first record that is not committed yet, and hand copies to fn. Then
 * publish the new consumer position (store-release) so that the writer
 * can reuse the slots. Returns the number of records delivered, or
 * -EINVAL (bad cpu, or a merging reader: use rp_reader_drain_all()).
 */
long rp_reader_drain_cpu(struct rp_reader *reader, unsigned int cpu,
			 rp_reader_fn fn, void *ctx);

/*
 * Drain every ring. Without RP_READER_MERGE this is rp_reader_drain_cpu()
 * for each ring in turn. With it, the records read from all rings in this
 * call are delivered sorted by (ts_ns, cpu, seq). The order is exact
 * within one call; a record committed on one CPU after that ring was
 * read is delivered by the next call, possibly after later records of
 * other CPUs, so callers that need a global order across calls must hold
 * back the newest records themselves. If fn stops the drain, the records
 * not delivered yet are kept and sorted in with those of the next call.
 * Returns the number of records delivered, or -ENOMEM.
 */
long rp_reader_drain_all(struct rp_reader *reader, rp_reader_fn fn,
			 void *ctx);

/* Counters of one ring. Returns 0, or -EINVAL for a bad cpu. */
int rp_reader_stats(const struct rp_reader *reader, unsigned int cpu,
		    struct rp_reader_cpu_stats *stats);

/*
 * Over every ring: the lost counters now (ctrl->lost: attempts given up
 * since the module loaded), and the records written but not read yet
 * (ctrl->head against where this reader stands; in overwrite mode it
 * can exceed what the rings still hold).
 */
__u64 rp_reader_ring_lost(const struct rp_reader *reader);
__u64 rp_reader_unread(const struct rp_reader *reader);

#ifdef __cplusplus
}
#endif

#endif /* RAWPROBE_RING_READER_H */
