/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where stream, trace and hist send the records they read: one sink per
 * output format. A sink sees every record that passed the filters, with
 * the description of its probe (NULL: a probe that is gone).
 */
#ifndef RAWPROBECTL_SINK_H
#define RAWPROBECTL_SINK_H

#include <stdio.h>
#include "out/format.h"
#include "lib/json.h"
#include "lib/outbuf.h"

enum rp_format {
	RP_FMT_TEXT,		/* one human line per record */
	RP_FMT_JSON,		/* JSON lines */
	RP_FMT_CSV,		/* a header, then one row per record */
	RP_FMT_PERFETTO,	/* Chrome trace-event JSON (ui.perfetto.dev) */
	RP_FMT_RAW,		/* capture file: replay with --input */
	RP_FMT_CTF,		/* CTF 1.8 trace directory (ctf.h) */
	RP_FMT_FOLDED,		/* a folded stack per record (flamegraph.pl) */
	RP_FMT_HIST,		/* histograms, printed at the end */
};

struct rp_sink;

/* end writes to out directly: rp_sink_flush() comes first. */
struct rp_sink_ops {
	void (*begin)(struct rp_sink *s);
	void (*record)(struct rp_sink *s, const struct rawprobe_record *r,
		       const struct rp_probe_desc *d);
	void (*end)(struct rp_sink *s);
	void (*free)(struct rp_sink *s);
};

struct rp_template;

struct rp_sink {
	const struct rp_sink_ops *ops;
	FILE *out;
	struct json json;
	struct rp_outbuf ob;	/* text and JSON lines: what is not written yet */
	void *priv;
	const struct rp_template *tmpl;	/* text: --template's lines */
	uint64_t n;		/* records written */
	int err;		/* -errno the sink reported: exit 1 */
};

/* Write r through s: :ip6 addresses as text, except to a capture. */
void rp_sink_record(struct rp_sink *s, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d);
/* "text", "json", ... -> enum rp_format; -1 if unknown. */
int rp_format_parse(const char *s);
const char *rp_format_name(int fmt);
/* Set up a sink of format fmt (not hist) writing to out. 0 or -errno. */
int rp_sink_init(struct rp_sink *s, int fmt, FILE *out, bool pretty);
/*
 * Hand what the sink buffered to its FILE (then fflush that): after each
 * drain of the rings, and before ops->end.
 */
void rp_sink_flush(struct rp_sink *s);

/* Capture files (--format raw / --input) */
#define RP_CAPTURE_MAGIC "RPCAP001"
/*
 * Read path record by record; fn gets each with its probe's description.
 * types, if not NULL, types a description the capture kept no types of
 * (rp_btf_desc_types()), before its first record.
 */
typedef int (*rp_capture_fn)(const struct rawprobe_record *r,
			     const struct rp_probe_desc *d, void *ctx);
typedef void (*rp_desc_types_fn)(struct rp_probe_desc *d);
int rp_capture_read(const char *path, rp_capture_fn fn,
		    rp_desc_types_fn types, void *ctx);

#endif
