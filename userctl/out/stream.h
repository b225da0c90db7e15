/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream, trace and hist: one record path (out/stream.c) and one command
 * line (out/stream_opts.c) with other defaults; each command's file
 * (cmd/stream.c, cmd/trace.c, cmd/hist.c) names its mode, and hist
 * brings its in-kernel counting.
 */
#ifndef RAWPROBECTL_OUT_STREAM_H
#define RAWPROBECTL_OUT_STREAM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/desc.h"
#include "lib/nl.h"
#include "lib/probe_nl.h"
#include "lib/ring_nl.h"
#include "lib/rings_map.h"
#include "resolve/probe_req.h"
#include "out/histogram.h"
#include "out/sink.h"

struct rp_drain_log;

#define RP_MAX_STREAM_PROBES 64
#define RP_MAX_IDS RP_MAX_STREAM_PROBES
#define RP_DURATION_MAX 31536000	/* --duration: at most a year */

enum rp_stream_mode {
	RP_MODE_STREAM, RP_MODE_TRACE, RP_MODE_HIST,
	RP_MODE_LATENCY,	/* hist of a pair's latency (cmd/hist.c) */
};

/* The command line of stream, trace and hist. */
struct rp_template;

struct rp_stream_cfg {
	int mode;
	/* RP_MAX_STREAM_PROBES as given; a glob's expanded (up to max_probes) */
	struct rp_probe_req *reqs;
	size_t nreqs;
	size_t max_probes;		/* --max-probes */
	bool dry_run;
	struct rp_task_filter filter;
	uint32_t id_opts[RP_MAX_IDS];	/* --id: only these probes */
	/* sorted, searched per record: --id's, or trace's own probes' */
	uint32_t *ids;
	size_t nids;
	double duration;
	uint64_t max_count;
	const char *output, *input;
	const char *drain_log;		/* --drain-log: a diagnosis */
	int format;
	struct rp_template *tmpl;	/* --template: text's lines */
	bool quiet;
	struct rp_hist_opts hist;
	bool hist_opts;			/* a hist option was given */
	bool hist_value;		/* --arg or --retval */
	bool hist_stack;		/* --stack */
	double interval;		/* hist -i: seconds; 0: at the end */
	bool in_kernel;			/* hist counts in its own probes */
	struct rp_pair_opts pair;	/* latency: --key, --expire, ... */
	/*
	 * The session read: --ring's (ring_set), else, with probes of its
	 * own, one of the command's (--ring-records, --ring-mode: -1 for
	 * the module's default), else the default session.
	 */
	bool ring_set;
	struct rp_session_ref ring;
	uint32_t ring_records;
	int ring_mode;
};


struct rp_stream {
	const struct rp_stream_cfg *cfg;
	struct rp_nl nl;
	struct rp_rings_map map;
	struct rp_sink sink;
	FILE *out;
	uint64_t count, filtered;
	uint64_t lost0;		/* rings' lost counters when we started */
	/* what stream prints per probe id; refreshed on unknown ids */
	struct rp_probe_info *probes;
	struct rp_probe_desc *descs;	/* of probes[i], made at refresh */
	size_t nr_probes;
	size_t last;		/* descs[] index of the last lookup */
	uint32_t max_known_id;	/* highest id at the last refresh */
	uint32_t *owned;	/* the probes added here, nr_owned of them */
	size_t nr_owned;
	uint64_t *seen;		/* records per probe id seen here */
	uint32_t seen_len;
	struct rp_drain_log *drain_log;	/* NULL: none asked for */
	struct rp_session session;	/* the session read */
	bool own_session;		/* made here: the socket's, gone with it */
};

/*
 * hist's in-kernel counting, its probes added by none of the rings' path
 * (rp_stream_add(), rp_stream_ready()...): an exit code. stop is set by
 * a signal.
 */
typedef int (*rp_stream_run_fn)(struct rp_stream *s, struct rp_stream_cfg *c,
				volatile sig_atomic_t *stop);

/* mode's command: parse, prepare, then the rings' path or in_kernel */
int rp_stream_main(int mode, int argc, char **argv,
		   rp_stream_run_fn in_kernel);
/* Add the command's own probes (s->owned): 0 or -errno, errors said */
int rp_stream_add(struct rp_stream *s, struct rp_probe_req *reqs,
		  size_t n);
void rp_stream_owned_del(struct rp_stream *s);
/* The format's sink, begun: 0 or RP_EXIT_FAIL */
int rp_stream_sink(struct rp_stream *s);
/* The probes' descriptions, read again */
void rp_stream_refresh(struct rp_stream *s);
/* The readiness line, once the probes are armed */
void rp_stream_ready(const struct rp_stream *s);

/* out/stream_opts.c: the command line */
int rp_id_cmp(const void *a, const void *b);
/* Parse argv into c (c->mode set): 0, -1 after a help, or an exit code */
int rp_stream_parse(int argc, char **argv, struct rp_stream_cfg *c);
/* hist --arg of a string: records are read, not the kernel's counts */
int rp_hist_strings(struct rp_stream_cfg *c);

#endif
