// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl stream | trace | hist: map the per-CPU rings (or read a
 * capture file), filter the records and hand them to an output sink.
 *
 * Probes given with -e (or, for trace and hist, as arguments) belong to
 * this command's netlink socket: they go away when it exits, is
 * interrupted or is killed (the kernel reaps them when the socket
 * closes). At exit the command prints, per probe, hits, records
 * delivered, lost and filtered, and per CPU any sequence gap.
 */
#define _GNU_SOURCE	/* strerrorname_np */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <netlink/attr.h>
#include "resolve/btf.h"
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "out/ctf.h"
#include "lib/drain_log.h"
#include "out/histogram.h"
#include "cmd/hist_agg.h"
#include "lib/probe_nl.h"
#include "out/probe.h"
#include "lib/ring_reader.h"
#include "lib/rings_map.h"
#include "out/sink.h"
#include "lib/symbols.h"
#include "resolve/glob.h"

#define RP_MAX_STREAM_PROBES 64
#define RP_MAX_IDS RP_MAX_STREAM_PROBES
#define RP_DURATION_MAX 31536000	/* --duration: at most a year */

enum rp_stream_mode { RP_MODE_STREAM, RP_MODE_TRACE, RP_MODE_HIST };

/* The command line of stream, trace and hist. */
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
	bool quiet;
	struct rp_hist_opts hist;
	bool hist_opts;			/* a hist option was given */
	bool hist_value;		/* --arg or --retval */
	bool hist_stack;		/* --stack */
	double interval;		/* hist -i: seconds; 0: at the end */
	bool in_kernel;			/* hist counts in its own probes */
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
};

static volatile sig_atomic_t rp_stop;

static void rp_on_signal(int sig)
{
	(void)sig;
	rp_stop = 1;
}

static unsigned long long rp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* --- probe descriptions --- */

static void rp_stream_refresh(struct rp_stream *s)
{
	size_t i;

	free(s->probes);
	free(s->descs);
	s->probes = NULL;
	s->nr_probes = 0;
	rp_probe_dump(&s->nl, &s->probes, &s->nr_probes);
	/* Names are made here once, not for every record. */
	s->descs = calloc(s->nr_probes ? s->nr_probes : 1, sizeof(*s->descs));
	if (!s->descs)
		s->nr_probes = 0;
	for (i = 0; i < s->nr_probes; i++) {
		rp_probe_desc(&s->probes[i], &s->descs[i]);
		if (s->probes[i].id > s->max_known_id)
			s->max_known_id = s->probes[i].id;
	}
	s->last = 0;
}

/*
 * Text names bools and enums, and types return values, from BTF, which a
 * probe's first record would look up: done before the reading starts.
 * (At the first record, BTF's parse and the lookup stalled a kretprobe
 * stream's first drain for 0.4 s under TCG while the loop it traced
 * filled the rings ten times over.)
 */
static bool rp_stream_labels(const struct rp_stream_cfg *c)
{
	return !c->quiet && c->format == RP_FMT_TEXT;
}

static void rp_stream_labels_prepare(struct rp_stream *s)
{
	size_t i;

	if (rp_stream_labels(s->cfg))
		for (i = 0; i < s->nr_probes; i++)
			rp_btf_labels_prepare(&s->descs[i]);
}

static const struct rp_probe_desc *rp_stream_lookup(struct rp_stream *s,
						   uint32_t id, bool refresh)
{
	size_t i;

	/* Records come in runs of one probe. */
	if (s->last < s->nr_probes && s->descs[s->last].id == id)
		return &s->descs[s->last];
	for (i = 0; i < s->nr_probes; i++) {
		if (s->descs[i].id == id) {
			s->last = i;
			return &s->descs[i];
		}
	}
	/*
	 * Ids are handed out in increasing order: one not above the highest
	 * known belongs to a deleted probe (its records outlive it), and
	 * asking the kernel again for each of them would cost a dump per
	 * record.
	 */
	if (!refresh || id <= s->max_known_id)
		return NULL;
	rp_stream_refresh(s);
	return rp_stream_lookup(s, id, false);
}

static void rp_stream_count(struct rp_stream *s, uint32_t id)
{
	if (id >= s->seen_len) {
		uint32_t len = id + 64;
		uint64_t *v = realloc(s->seen, len * sizeof(*v));

		if (!v)
			return;
		memset(v + s->seen_len, 0, (len - s->seen_len) * sizeof(*v));
		s->seen = v;
		s->seen_len = len;
	}
	s->seen[id]++;
}

/* --- every record, live or replayed --- */

static int rp_id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* A glob's thousand probes: a search per record, not a walk. */
static bool rp_stream_wanted(const struct rp_stream_cfg *c,
			     const struct rawprobe_record *r)
{
	if (c->filter.set && !rp_task_filter_match(&c->filter, r))
		return false;
	return !c->nids || bsearch(&r->probe_id, c->ids, c->nids,
				   sizeof(*c->ids), rp_id_cmp);
}

/* Returns 1 once --count records went out: the drain stops there. */
static int rp_stream_emit(struct rp_stream *s, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	if (!rp_stream_wanted(s->cfg, r)) {
		s->filtered++;
		return 0;
	}
	rp_stream_count(s, r->probe_id);
	if (!s->cfg->quiet)
		rp_sink_record(&s->sink, r, d);
	s->count++;
	/* an output error (disk full) ends the stream: the rest would be lost */
	if (s->sink.err ||
	    (s->cfg->max_count && s->count >= s->cfg->max_count)) {
		rp_stop = 1;
		return 1;
	}
	return 0;
}

static int rp_stream_record(unsigned int cpu, const struct rawprobe_record *r,
			    void *ctx)
{
	struct rp_stream *s = ctx;

	(void)cpu;
	return rp_stream_emit(s, r, rp_stream_lookup(s, r->probe_id, true));
}

static int rp_stream_replayed(const struct rawprobe_record *r,
			      const struct rp_probe_desc *d, void *ctx)
{
	struct rp_stream *s = ctx;

	return rp_stop ? 1 : rp_stream_emit(s, r, d);
}

/* --- summary --- */

static void rp_stream_summary(struct rp_stream *s)
{
	struct rp_reader_cpu_stats st;
	uint64_t gaps = 0;
	uint64_t ring_lost = rp_reader_ring_lost(s->map.reader) - s->lost0;
	char name[RP_ESCAPED_MAX(RP_PROBE_NAME_MAX) + 1];
	unsigned int cpu;
	size_t i;

	rp_stream_refresh(s);
	fprintf(stderr, "\n%-40s %10s %10s %10s %10s %10s\n", "PROBE", "HITS",
		"RECORDS", "LOST", "FILTERED", "DELIVERED");
	for (i = 0; i < s->nr_probes; i++) {
		const struct rp_probe_info *pi = &s->probes[i];
		uint64_t seen = pi->id < s->seen_len ? s->seen[pi->id] : 0;

		rp_escape_str(name, sizeof(name), s->descs[i].name,
			      sizeof(s->descs[i].name));
		fprintf(stderr, "%-40s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 " %10" PRIu64 "\n", name, pi->hits,
			pi->records, pi->lost_ring, pi->filtered, seen);
	}
	for (cpu = 0; cpu < rp_reader_nr_rings(s->map.reader); cpu++) {
		if (rp_reader_stats(s->map.reader, cpu, &st))
			continue;
		gaps += st.seq_lost;
	}
	fprintf(stderr, "%" PRIu64 " records read, %" PRIu64
		" lost (ring full), %" PRIu64 " sequence gaps", s->count,
		ring_lost, gaps);
	if (s->filtered)
		fprintf(stderr, ", %" PRIu64 " filtered out here", s->filtered);
	fputc('\n', stderr);
	if (ring_lost || gaps)
		fprintf(stderr, "rawprobectl: records were lost: read faster "
			"(-q, --format raw -o FILE), filter in the kernel "
			"(--pid/--comm with -e), or grow the rings "
			"('ring set records N')\n");
}

/* --- owned probes --- */

/* One batch: every -e probe or none, one pass over /proc/kallsyms. */
static int rp_stream_add(struct rp_stream *s, struct rp_probe_req *reqs,
			 size_t n)
{
	int err;

	if (!n)
		return 0;
	s->owned = calloc(n, sizeof(*s->owned));
	if (!s->owned)
		return -ENOMEM;
	err = rp_probe_add_many(&s->nl, reqs, n, s->owned);
	if (!err)
		s->nr_owned = n;
	return err;
}

/* Removed in batches: a glob's thousand probes in one grace period. */
static void rp_stream_owned_del(struct rp_stream *s)
{
	rp_probe_del_many(&s->nl, s->owned, s->nr_owned);
	s->nr_owned = 0;
}

static void rp_stream_owned_cmd(struct rp_stream *s, int cmd)
{
	struct nl_msg *msg;
	size_t i;

	for (i = 0; i < s->nr_owned; i++) {
		msg = rp_nl_msg(&s->nl, cmd, 0);
		if (!msg)
			continue;
		nla_put_u32(msg, RAWPROBE_A_PROBE_ID, s->owned[i]);
		rp_nl_call(&s->nl, msg, NULL, NULL);
	}
}

/*
 * The readiness line, once the probes are armed and the rings read:
 * the command's own probes, or (stream alone) every probe there is.
 */
static void rp_stream_ready(const struct rp_stream *s)
{
	const char *names[RP_READY_NAMES];
	size_t total = s->nr_owned ? s->nr_owned : s->nr_probes, i, k;
	unsigned int n = 0;

	for (k = 0; k < total && n < RP_READY_NAMES; k++) {
		if (!s->nr_owned) {
			names[n++] = s->descs[k].name;
			continue;
		}
		for (i = 0; i < s->nr_probes; i++)
			if (s->descs[i].id == s->owned[k])
				break;
		names[n++] = i < s->nr_probes ? s->descs[i].name : "?";
	}
	rp_ready_line(s->cfg->mode == RP_MODE_STREAM ? "Streaming" : "Tracing",
		      names, n, total);
}

/* --- the loop --- */

/*
 * One pass of the loop: poll() unless behind, drain, flush if caught up.
 * Returns 1 if still behind, 0 if caught up, -1 if poll() failed.
 */
static int rp_stream_pass(struct rp_stream *s, bool behind_before,
			   long behind, int timeout)
{
	struct pollfd pfd = { .fd = s->map.fd, .events = POLLIN };
	struct rp_drain_pass pass = { 0 };
	unsigned long long woke = 0;
	long n;
	int more;

	if (s->drain_log)
		pass.start_ns = rp_now_ns();
	/*
	 * A drain that took a watermark's worth of records or a
	 * batch was behind: drain again at once, without the poll() (a
	 * sixth of the reader's time in a tight loop's stream) and
	 * without flushing lines that a full buffer writes anyway.
	 * Below that, sleep until the kernel says there is more.
	 */
	if (!behind_before && poll(&pfd, 1, timeout) < 0 && errno != EINTR)
		return -1;
	if (s->drain_log) {
		woke = rp_now_ns();
		pass.poll_ns = (uint32_t)(woke - pass.start_ns);
		pass.backlog = (uint32_t)rp_reader_unread(s->map.reader);
	}
	n = rp_reader_drain_all(s->map.reader, rp_stream_record, s);
	more = n >= behind;
	if (!more) {
		rp_sink_flush(&s->sink);
		fflush(s->out);
	}
	if (s->drain_log) {
		pass.work_ns = (uint32_t)(rp_now_ns() - woke);
		pass.records = n > 0 ? (uint32_t)n : 0;
		rp_drain_log_add(s->drain_log, s->map.reader, &pass);
	}
	return more;
}

static void rp_stream_loop(struct rp_stream *s, double duration)
{
	unsigned long long end = duration > 0 ?
		rp_now_ns() + (unsigned long long)(duration * 1e9) : 0;
	/* a watermark's worth, or a batch: what a drain takes at most */
	long behind = s->map.info.wakeup_watermark > 64 ?
		      (long)s->map.info.wakeup_watermark : 64;
	int more = 0;
	int timeout;

	if (behind > (long)RP_READER_MERGE_BATCH)
		behind = RP_READER_MERGE_BATCH;
	while (!rp_stop) {
		timeout = 200;
		if (end) {
			unsigned long long now = rp_now_ns();

			if (now >= end)
				break;
			if ((end - now) / 1000000 < (unsigned long long)timeout)
				timeout = (int)((end - now) / 1000000) + 1;
		}
		more = rp_stream_pass(s, more, behind, timeout);
		if (more < 0)
			break;
	}
}

/*
 * What the rings still hold once this command's probes are disabled, a
 * batch at a time. Bounded by what they can hold, against probes of other
 * owners that still fire.
 */
static void rp_stream_drain_rest(struct rp_stream *s)
{
	const struct rp_stream_cfg *c = s->cfg;
	unsigned long long left = (unsigned long long)s->map.info.nr_rings *
				  s->map.info.nr_records;

	while ((!c->max_count || s->count < c->max_count) && !s->sink.err) {
		long n = rp_reader_drain_all(s->map.reader, rp_stream_record,
					     s);

		if (n <= 0 || (unsigned long long)n >= left)
			break;
		left -= (unsigned long long)n;
	}
}

/* --- command line --- */

static const char *rp_stream_cmd_name(int mode)
{
	return mode == RP_MODE_TRACE ? "rawprobectl trace" :
	       mode == RP_MODE_HIST ? "rawprobectl hist" : "rawprobectl stream";
}

static void rp_stream_usage(FILE *out, int mode)
{
	static const char *const synopsis[] = {
		[RP_MODE_STREAM] =
		"Usage: rawprobectl stream [-e KIND:TARGET [PROBE OPTIONS]]... [OPTIONS]\n"
		"\n"
		"Print records from every probe as they arrive, until Ctrl-C,\n"
		"SIGTERM, --duration or --count. Probes given with -e exist only\n"
		"while the stream runs (removed even if it is killed).\n",
		[RP_MODE_TRACE] =
		"Usage: rawprobectl trace KIND:TARGET [PROBE OPTIONS]... [OPTIONS]\n"
		"\n"
		"One-shot tracing: add the probes, stream their records, remove\n"
		"them at exit (Ctrl-C, SIGTERM, --duration, --count), e.g.\n"
		"  rawprobectl trace kretprobe:vfs_read --duration 5\n",
		[RP_MODE_HIST] =
		"Usage: rawprobectl hist [KIND:TARGET [PROBE OPTIONS]]... [OPTIONS]\n"
		"\n"
		"Histograms of kretprobe latency (default), of the return value or\n"
		"of an argument, per probe (and per command with --by comm),\n"
		"printed at exit, or every -i seconds. Without probes: the records\n"
		"of existing probes.\n"
		"  rawprobectl hist kretprobe:vfs_read --duration 5 --by comm\n"
		"The latency of the probes given here is counted in the kernel, no\n"
		"record written; an entry probe's (kprobe, jprobe: no latency) hits\n"
		"are counted, per command with --by comm, in a table as count's.\n"
		"--arg, --retval, --count, --id and --drain-log read records (the\n"
		"kernel's log2 buckets hold values below 0 with 0's); so does\n"
		"--stack. In the kernel, --linear has 255 buckets, then one for all\n"
		"above.\n"
		"With --stack: how often each kernel stack was seen, as folded\n"
		"stacks for flamegraph.pl:\n"
		"  rawprobectl hist kprobe:vfs_read --stack -d 5 > vfs_read.folded\n",
	};

	fputs(synopsis[mode], out);
	fprintf(out,
		"\n"
		"  -e, --probe KIND:TARGET  add a probe owned by this command\n"
		"                           (KIND: kprobe, kretprobe, jprobe); a\n"
		"                           glob ('kprobe:vfs_*') adds one a function\n"
		"      --max-probes N       a glob may make N probes (default %d)\n"
		"      --dry-run            print the probes' requests, add none\n"
		"  PROBE OPTIONS apply to the probe before them:\n"
		"    -a, --args SPEC        argument count, types, NAME:TYPE list,\n"
		"                           'auto' (BTF) or field paths by name\n"
		"                           ('skb->len,skb->dev->name', BTF)\n"
		"        --filter EXPR      record only hits where EXPR holds, in\n"
		"                           the kernel ('retval < 0 && skb->len >\n"
		"                           1000'; see 'probe add --help')\n"
		"    -m, --maxactive N      kretprobe instances\n"
		"    -s, --strmax N         string capture length\n",
		RP_GLOB_CAP_DEFAULT);
	if (mode != RP_MODE_HIST)	/* hist's is of every probe: below */
		fprintf(out,
			"        --stack            record the kernel stack: up to %d callers\n"
			"                           (at a function's entry; not with a\n"
			"                           str/ustr argument)\n",
			RAWPROBE_STACK_MAX);
	fprintf(out,
		"  Filters (in the kernel for this command's probes, here for others):\n"
		"      --pid N | --tgid N | --comm NAME | --cpu N\n"
		"      --cgroup PATH        a cgroup v2 and those below (in the\n"
		"                           kernel: this command's probes only)\n"
		"      --include-self       this command's probes record rawprobectl\n"
		"                           itself too (left out by default)\n"
		"  -i, --id ID              only records of probe ID (repeatable;\n"
		"                           hist: --id only)\n"
		"  -d, --duration SECONDS   stop after this long\n"
		"  -c, --count N            stop after N records\n"
		"  -o, --output FILE        write to FILE instead of stdout (for\n"
		"                           --format ctf: a directory, required)\n"
		"  -r, --input FILE         read a capture (--format raw) instead\n"
		"                           of the live rings\n"
		"      --drain-log FILE     diagnosis: write a line per drain of\n"
		"                           the rings to FILE at exit (when, how\n"
		"                           long, records, backlog, lost)\n");
	if (mode == RP_MODE_HIST)
		fprintf(out,
			"      --arg N              histogram of argument N (0..5)\n"
			"      --retval             histogram of the return value\n"
			"      --linear STEP        linear buckets of width STEP\n"
			"                           (default: log2 buckets)\n"
			"      --by comm            one histogram per command name\n"
			"  -i, --interval SECONDS   print and restart the histograms every\n"
			"                           SECONDS (the kernel's: probes given here)\n"
			"      --stack              every probe records its kernel stack\n"
			"                           (as the probe option of stream);\n"
			"                           counts per stack instead, the most\n"
			"                           seen first, as folded stacks\n"
			"                           ([COMM;]root;...;caller;function N;\n"
			"                           the command with --by comm)\n");
	else
		fprintf(out,
			"  -f, --format FMT         text (default), json (= -j), csv,\n"
			"                           perfetto (Chrome trace JSON for\n"
			"                           ui.perfetto.dev), raw (capture file),\n"
			"                           ctf (CTF 1.8 trace directory for\n"
			"                           babeltrace2 and Trace Compass),\n"
			"                           folded (COMM;root;...;function 1 a\n"
			"                           record, for flamegraph.pl)\n"
			"  -q, --quiet              count only, print the summary\n"
			"\n"
			"Text columns: CLOCK_MONOTONIC seconds, cpu, pid, comm, probe,\n"
			"arguments, '= return value (latency ns)' for kretprobes; a\n"
			"stack follows, a caller a line, innermost first.\n");
	fprintf(out, "A summary (hits, lost, filtered, sequence gaps) goes to "
		"stderr at exit.\n");
}

enum {
	RP_OPT_ARG = 0x100, RP_OPT_RETVAL, RP_OPT_LINEAR, RP_OPT_BY,
	RP_OPT_DRAIN_LOG, RP_OPT_ID, RP_OPT_INTERVAL,
};

static const struct option rp_stream_longopts[] = {
	{ "probe",     required_argument, NULL, 'e' },
	RP_PROBE_LONGOPTS,
	RP_FILTER_LONGOPTS,
	RP_SELF_LONGOPT,
	{ "id",        required_argument, NULL, RP_OPT_ID },
	{ "interval",  required_argument, NULL, RP_OPT_INTERVAL },
	{ "duration",  required_argument, NULL, 'd' },
	{ "count",     required_argument, NULL, 'c' },
	{ "output",    required_argument, NULL, 'o' },
	{ "input",     required_argument, NULL, 'r' },
	{ "format",    required_argument, NULL, 'f' },
	{ "quiet",     no_argument,       NULL, 'q' },
	{ "drain-log", required_argument, NULL, RP_OPT_DRAIN_LOG },
	{ "arg",       required_argument, NULL, RP_OPT_ARG },
	{ "retval",    no_argument,       NULL, RP_OPT_RETVAL },
	{ "linear",    required_argument, NULL, RP_OPT_LINEAR },
	{ "by",        required_argument, NULL, RP_OPT_BY },
	{ "dry-run",   no_argument,       NULL, 'n' },
	RP_GLOB_LONGOPT,
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int rp_stream_add_probe(struct rp_stream_cfg *c, const char *arg)
{
	int rc;

	if (c->nreqs == RP_MAX_STREAM_PROBES)
		return rp_usage_error("at most %d probes at once",
				      RP_MAX_STREAM_PROBES);
	if (!c->reqs && !(c->reqs = calloc(RP_MAX_STREAM_PROBES,
					   sizeof(*c->reqs))))
		return RP_EXIT_FAIL;
	rc = rp_probe_req_parse(arg, &c->reqs[c->nreqs]);
	if (!rc)
		c->nreqs++;
	return rc;
}

static int rp_hist_opt(int opt, const char *arg, struct rp_stream_cfg *c)
{
	uint64_t v;
	char *end = NULL;

	c->hist_opts = true;
	switch (opt) {
	case RP_OPT_INTERVAL:
		c->interval = isdigit((unsigned char)*arg) ? strtod(arg, &end) : 0;
		if (!(c->interval > 0 && c->interval <= RP_DURATION_MAX) ||
		    !end || *end)
			return rp_usage_error("--interval wants seconds in (0, %d], "
					      "not '%s'", RP_DURATION_MAX, arg);
		return 0;
	case RP_OPT_ARG:
		if (rp_parse_u64(arg, 0, RAWPROBE_MAX_ARGS - 1, &v))
			return rp_usage_error("--arg wants 0..%d, not '%s'",
					      RAWPROBE_MAX_ARGS - 1, arg);
		c->hist.value = RP_HIST_ARG;
		c->hist.arg = (unsigned int)v;
		c->hist_value = true;
		return 0;
	case RP_OPT_RETVAL:
		c->hist.value = RP_HIST_RETVAL;
		c->hist_value = true;
		return 0;
	case 'K':
		c->hist_stack = true;	/* the value is chosen once all are known */
		return 0;
	case RP_OPT_LINEAR:
		if (rp_parse_u64(arg, 1, UINT64_MAX / 2000, &v))
			return rp_usage_error("--linear wants a bucket width > 0, not '%s'",
					      arg);
		c->hist.step = v;
		return 0;
	default:
		if (strcmp(arg, "comm"))
			return rp_usage_error("--by takes 'comm', not '%s'", arg);
		c->hist.by_comm = true;
		return 0;
	}
}

static int rp_stream_opt(int opt, const char *arg, struct rp_stream_cfg *c)
{
	uint64_t v;
	char *end;

	switch (opt) {
	case 'i':	/* hist: the interval, as count's; else --id */
		if (c->mode == RP_MODE_HIST)
			return rp_hist_opt(RP_OPT_INTERVAL, arg, c);
		/* fall through */
	case RP_OPT_ID:
		if (c->nids == RP_MAX_IDS || rp_parse_u64(arg, 1, UINT32_MAX, &v))
			return rp_usage_error("--id wants a probe id (at most %d), not '%s'",
					      RP_MAX_IDS, arg);
		c->id_opts[c->nids++] = (uint32_t)v;
		c->ids = c->id_opts;
		qsort(c->ids, c->nids, sizeof(*c->ids), rp_id_cmp);
		return 0;
	case 'n':
		c->dry_run = true;
		return 0;
	case RP_OPT_MAX_PROBES:
		return rp_max_probes_opt(arg, &c->max_probes);
	case 'd':
		/* bounded: the deadline is computed in u64 nanoseconds */
		c->duration = isdigit((unsigned char)*arg) ? strtod(arg, &end) : 0;
		if (!(c->duration > 0 && c->duration <= RP_DURATION_MAX) || *end)
			return rp_usage_error("--duration wants seconds in (0, %d], not '%s'",
					      RP_DURATION_MAX, arg);
		return 0;
	case 'c':
		if (rp_parse_u64(arg, 1, UINT64_MAX, &v))
			return rp_usage_error("--count wants a number > 0, not '%s'",
					      arg);
		c->max_count = v;
		return 0;
	case 'o':
		c->output = arg;
		return 0;
	case 'r':
		c->input = arg;
		return 0;
	case 'f':
		c->format = rp_format_parse(arg);
		if (c->format < 0 || c->format == RP_FMT_HIST)
			return rp_usage_error("--format is text, json, csv, folded, "
					      "perfetto, raw or ctf, not '%s'",
					      arg);
		return 0;
	case 'q':
		c->quiet = true;
		return 0;
	case RP_OPT_DRAIN_LOG:
		c->drain_log = arg;
		return 0;
	default:
		return rp_hist_opt(opt, arg, c);
	}
}

/* An option of the probe given last. */
static int rp_stream_probe_opt(int opt, const char *arg,
			       struct rp_stream_cfg *c)
{
	if (c->nreqs)
		return rp_probe_opt(opt, arg, &c->reqs[c->nreqs - 1]);
	if (opt == 'F' || opt == 'K' || opt == RP_OPT_OVERRIDE)
		return rp_usage_error("--%s applies to a probe: give the probe "
				      "first", opt == 'F' ? "filter" :
				      opt == 'K' ? "stack" : "override");
	return rp_usage_error("-%c applies to a probe: give the probe first",
			      opt);
}

static int rp_stream_one(int opt, const char *arg, struct rp_stream_cfg *c)
{
	switch (opt) {
	case 'e':
		return rp_stream_add_probe(c, arg);
	case 1:		/* an argument: trace and hist take probes so */
		if (c->mode == RP_MODE_STREAM)
			return rp_usage_error("unexpected '%s' (probes are given "
					      "with -e)", arg);
		return rp_stream_add_probe(c, arg);
	case 'K':	/* hist: counts stacks, of every probe */
		if (c->mode == RP_MODE_HIST)
			return rp_hist_opt(opt, arg, c);
		return rp_stream_probe_opt(opt, arg, c);
	case 'a':
	case 'm':
	case 's':
	case 'F':
	case RP_OPT_OVERRIDE:
		return rp_stream_probe_opt(opt, arg, c);
	default:
		if (rp_is_task_filter_opt(opt))
			return rp_task_filter_opt(opt, arg, &c->filter);
		return rp_stream_opt(opt, arg, c);
	}
}

/*
 * hist counts in the kernel when it adds its probes and what it counts
 * is theirs: latency (an entry probe: its hits), the return value, an
 * argument. The records stay for the rest: existing probes' or a
 * capture's, stacks, and what is said in records: --count, --id,
 * --drain-log.
 */
static int rp_hist_check(struct rp_stream_cfg *c)
{
	char value[16];
	unsigned int i;

	c->in_kernel = c->nreqs && !c->input && c->hist.value != RP_HIST_STACK &&
		       !c->max_count && !c->nids && !c->drain_log;
	if (c->interval && !c->in_kernel)
		return rp_usage_error("-i prints what hist's own probes count in "
				      "the kernel: give probes (KIND:TARGET), not "
				      "with --stack, --count, --id, --input or "
				      "--drain-log (--id ID: a probe's records)");
	if (c->hist.value == RP_HIST_ARG)
		snprintf(value, sizeof(value), "arg%u", c->hist.arg);
	else
		snprintf(value, sizeof(value), "%s",
			 c->hist.value == RP_HIST_RETVAL ? "retval" : "latency");
	for (i = 0; c->in_kernel && i < c->nreqs; i++) {
		if (c->hist.value == RP_HIST_RETVAL &&
		    c->reqs[i].kind != RAWPROBE_KIND_KRETPROBE)
			return rp_usage_error("hist --retval: only a kretprobe "
					      "sees a return value");
		rp_hist_agg_req(&c->reqs[i], c->hist.by_comm, c->hist.step,
				value);
	}
	return 0;
}

/*
 * An aggregating probe keeps no string: hist --arg of a probe whose
 * arguments (resolved: --args auto, names) hold one reads records.
 */
static int rp_hist_strings(struct rp_stream_cfg *c)
{
	unsigned int i, k;
	bool str = false;

	for (i = 0; c->in_kernel && c->hist.value == RP_HIST_ARG &&
		    i < c->nreqs; i++)
		for (k = 0; k < (unsigned int)c->reqs[i].nargs; k++)
			str |= c->reqs[i].argtypes[k] == RAWPROBE_ARG_KSTR ||
			       c->reqs[i].argtypes[k] == RAWPROBE_ARG_USTR ||
			       c->reqs[i].argtypes[k] == RAWPROBE_ARG_IP6;
	if (!str)
		return 0;
	if (c->interval)
		return rp_usage_error("-i: hist counts in the kernel, which "
				      "keeps no string: --args without str, "
				      "ustr or ip6");
	c->in_kernel = false;
	for (i = 0; i < c->nreqs; i++)
		c->reqs[i].flags &= ~RAWPROBE_F_AGG;
	return 0;
}

/* Whole-command checks once every option is known. */
static int rp_stream_check(struct rp_stream_cfg *c)
{
	unsigned int i;

	if (c->mode == RP_MODE_TRACE && !c->nreqs)
		return rp_usage_error("trace needs a probe, e.g. 'rawprobectl "
				      "trace kretprobe:vfs_read'");
	if (c->hist_opts && c->mode != RP_MODE_HIST)
		return rp_usage_error("--arg, --retval, --linear, --by and "
				      "--interval are options of 'rawprobectl "
				      "hist'");
	if (c->input && c->nreqs)
		return rp_usage_error("--input replays a capture: it cannot add "
				      "probes");
	if ((c->filter.set & RP_TASK_CGROUP) && (!c->nreqs || c->nids))
		return rp_usage_error("--cgroup is tested in the kernel, for the "
				      "probes this command adds (KIND:TARGET, -e): "
				      "records do not carry their task's cgroup");
	if (c->input && c->drain_log)
		return rp_usage_error("--drain-log logs the live rings' drains: "
				      "not with --input");
	if (c->hist_stack && (c->hist_value || c->hist.step))
		return rp_usage_error("hist --stack counts stacks: not with "
				      "--arg, --retval or --linear");
	if (c->mode == RP_MODE_HIST)
		c->format = RP_FMT_HIST;
	else if (c->format < 0)
		c->format = rp_opts.json ? RP_FMT_JSON : RP_FMT_TEXT;
	if (c->format == RP_FMT_RAW && !c->output && isatty(STDOUT_FILENO))
		return rp_usage_error("--format raw writes a binary capture: give "
				      "-o FILE (or redirect stdout)");
	if (c->format == RP_FMT_CTF && !c->output)
		return rp_usage_error("--format ctf writes a trace directory: "
				      "give -o DIR");
	if (c->hist_stack)
		c->hist.value = RP_HIST_STACK;
	/* the stream's filters go into the kernel with its own probes */
	for (i = 0; i < c->nreqs; i++) {
		c->reqs[i].filter = c->filter;
		rp_task_filter_leave_self_out(&c->reqs[i].filter);
		if (c->hist_stack)
			c->reqs[i].flags |= RAWPROBE_F_STACK;
	}
	return c->mode == RP_MODE_HIST ? rp_hist_check(c) : 0;
}

static int rp_stream_parse(int argc, char **argv, struct rp_stream_cfg *c)
{
	int opt, rc;

	optind = 0;	/* full getopt reset: main() parsed already */
	opterr = 0;	/* rp_bad_option() says what was wrong */
	/* '-': arguments come back in order, as option 1 */
	while ((opt = getopt_long(argc, argv, "-e:a:m:s:i:d:c:o:r:f:qh",
				  rp_stream_longopts, NULL)) != -1) {
		if (opt == 'h') {
			rp_stream_usage(stdout, c->mode);
			return -1;
		}
		if (opt == '?')
			return rp_bad_option(argv, "-e:a:m:s:i:d:c:o:r:f:qh",
					     rp_stream_longopts,
					     rp_stream_cmd_name(c->mode));
		rc = rp_stream_one(opt, optarg, c);
		if (rc)
			return rc;
	}
	return rp_stream_check(c);
}

/* --- running --- */

static int rp_stream_sink(struct rp_stream *s)
{
	const struct rp_stream_cfg *c = s->cfg;
	int err;

	if (c->format == RP_FMT_HIST)
		err = rp_hist_sink_init(&s->sink, &c->hist, s->out,
					rp_opts.json, rp_opts.pretty);
	else if (c->format == RP_FMT_CTF)
		err = rp_ctf_sink_init(&s->sink, c->output);
	else
		err = rp_sink_init(&s->sink, c->format, s->out,
				   rp_opts.pretty && c->format == RP_FMT_JSON);
	if (err)
		return RP_EXIT_FAIL;
	if (s->sink.ops->begin)
		s->sink.ops->begin(&s->sink);
	return 0;
}

/* RP_EXIT_FAIL if the sink could not write its output. */
static int rp_stream_sink_end(struct rp_stream *s)
{
	if (s->sink.ops)
		rp_sink_flush(&s->sink);
	if (s->sink.ops && s->sink.ops->end)
		s->sink.ops->end(&s->sink);
	fflush(s->out);
	if (s->sink.ops && s->sink.ops->free)
		s->sink.ops->free(&s->sink);
	return s->sink.err ? RP_EXIT_FAIL : RP_EXIT_OK;
}

static int rp_stream_replay(struct rp_stream *s)
{
	int err, rc;

	if (rp_stream_sink(s))
		return RP_EXIT_FAIL;
	err = rp_capture_read(s->cfg->input, rp_stream_replayed, s);
	rc = rp_stream_sink_end(s);
	if (err) {
		fprintf(stderr, "rawprobectl: %s: %s%s\n", s->cfg->input,
			strerror(-err), err == -EPROTO || err == -EBADMSG ?
			" (not a rawprobectl capture: write one with "
			"--format raw -o FILE)" : "");
		return RP_EXIT_FAIL;
	}
	if (s->cfg->format != RP_FMT_JSON || s->out != stdout)
		fprintf(stderr, "%" PRIu64 " records read from %s, %" PRIu64
			" filtered out\n", s->count, s->cfg->input, s->filtered);
	return rc;
}

static int rp_stream_open_rings(struct rp_stream *s)
{
	int err = rp_rings_open(&s->map, RP_READER_MERGE);

	if (!err)
		return 0;
	fprintf(stderr, "rawprobectl: /dev/%s: %s%s (%s)\n",
		RAWPROBE_DEVICE_NAME, strerror(-err),
		err == -EBUSY ? ": another stream is reading: stop it first" :
		err == -EPROTO ? ": ABI mismatch: build the CLI and the module "
				 "from one tree" :
		err == -EACCES ? ": run as root" :
		err == -EPERM ? ": refused by kernel lockdown: see "
				"/sys/kernel/security/lockdown" : "",
		strerrorname_np(-err) ?: "?");
	return err == -EACCES || err == -EPERM ? RP_EXIT_PERM : RP_EXIT_FAIL;
}

/*
 * --drain-log: the file is created before any probe is added, and
 * written once the probes are disabled (writing it while they fire would
 * lose records it then shows).
 */
static int rp_stream_drain_log_open(struct rp_stream *s)
{
	const char *path = s->cfg->drain_log;
	struct rp_drain_log *log;
	int err;

	if (!path)
		return 0;
	log = calloc(1, sizeof(*log));
	err = log ? rp_drain_log_open(log, path, s->map.reader,
				      s->map.info.nr_records) : -ENOMEM;
	if (err) {
		free(log);
		fprintf(stderr, "rawprobectl: %s: %s\n", path, strerror(-err));
		return RP_EXIT_FAIL;
	}
	s->drain_log = log;
	return 0;
}

static int rp_stream_drain_log_close(struct rp_stream *s)
{
	int err;

	if (!s->drain_log)
		return 0;
	err = rp_drain_log_close(s->drain_log);
	free(s->drain_log);
	s->drain_log = NULL;
	if (!err)
		return 0;
	fprintf(stderr, "rawprobectl: %s: %s\n", s->cfg->drain_log,
		strerror(-err));
	return RP_EXIT_FAIL;
}

static int rp_stream_live(struct rp_stream *s, struct rp_stream_cfg *c)
{
	int rc, err;

	rc = rp_stream_open_rings(s);
	if (!rc)
		rc = rp_stream_drain_log_open(s);
	if (rc)
		return rc;
	/*
	 * A command that brings its probes reads from now on: what the
	 * rings hold is of other probes, perhaps deleted ones (their ids
	 * print as '?'), and trace would count it as "filtered out here".
	 */
	if (c->nreqs)
		rp_reader_skip_to_head(s->map.reader);
	/* this command's losses only */
	s->lost0 = rp_reader_ring_lost(s->map.reader);
	rp_reader_prepare(s->map.reader);	/* before the probes fire */
	/* before the probes fire (and modules with stacks' frames go) */
	if (!c->quiet && c->format != RP_FMT_RAW &&
	    (c->format != RP_FMT_HIST || c->hist.value == RP_HIST_STACK))
		rp_ksyms_preload();
	if (rp_stream_labels(c))
		rp_btf_labels_preload(c->reqs, c->nreqs);
	err = rp_stream_add(s, c->reqs, c->nreqs);
	if (err)
		return rp_exit_from_errno(err);
	/* trace and hist with probes: those probes' records only */
	if (c->mode != RP_MODE_STREAM && c->nreqs && !c->nids) {
		c->ids = s->owned;
		c->nids = s->nr_owned;
		qsort(c->ids, c->nids, sizeof(*c->ids), rp_id_cmp);
	}
	if (rp_stream_sink(s))
		return RP_EXIT_FAIL;
	rp_stream_refresh(s);
	rp_stream_labels_prepare(s);
	rp_stream_ready(s);
	rp_stream_loop(s, c->duration);

	/* Stop producing, take what is left, then account. */
	rp_stream_owned_cmd(s, RAWPROBE_CMD_PROBE_DISABLE);
	rp_stream_drain_rest(s);
	rc = rp_stream_sink_end(s);
	err = rp_stream_drain_log_close(s);
	rc = rc ?: err;
	if (c->format != RP_FMT_JSON || s->out != stdout)
		rp_stream_summary(s);
	rp_stream_owned_del(s);
	return rc;
}

/* hist's own probes, counting in the kernel: no rings, no records. */
static int rp_stream_hist_agg(struct rp_stream *s, struct rp_stream_cfg *c)
{
	struct rp_hist_agg a = {
		.nl = &s->nl, .reqs = c->reqs, .n = (unsigned int)c->nreqs,
		.o = &c->hist, .sink = &s->sink, .interval = c->interval,
		.duration = c->duration, .stop = &rp_stop,
		.summary = !rp_opts.json || s->out != stdout,
	};
	int rc, err;

	err = rp_stream_add(s, c->reqs, c->nreqs);
	if (err)
		return rp_exit_from_errno(err);
	a.ids = s->owned;
	if (rp_stream_sink(s))
		return RP_EXIT_FAIL;
	rp_stream_refresh(s);
	rp_stream_ready(s);
	rc = rp_hist_agg_run(&a);
	if (!rc && s->sink.err)
		rc = RP_EXIT_FAIL;
	s->sink.ops->free(&s->sink);
	rp_stream_owned_del(s);
	return rc;
}

/*
 * Globs expanded, then checked and resolved as one: -1 after --dry-run
 * printed the requests, an exit code, or 0.
 */
static int rp_stream_prepare(struct rp_stream_cfg *c)
{
	int rc, err;

	rc = rp_probe_reqs_expand(&c->reqs, &c->nreqs, c->max_probes);
	if (rc)
		return rc;
	err = rp_probe_check(c->reqs, c->nreqs);
	if (err)
		return rp_exit_from_errno(err);
	rc = rp_probe_auto_args(c->reqs, c->nreqs) ?: rp_hist_strings(c);
	if (rc || !c->dry_run)
		return rc;
	rp_probe_dry_run(c->reqs, c->nreqs);
	return -1;
}

static int rp_stream_main(int mode, int argc, char **argv)
{
	static struct rp_stream_cfg c;
	struct rp_stream s = { .map.fd = -1, .out = stdout, .cfg = &c };
	struct sigaction sa = { .sa_handler = rp_on_signal };
	int rc, err;

	memset(&c, 0, sizeof(c));
	c.mode = mode;
	c.format = -1;
	c.max_probes = RP_GLOB_CAP_DEFAULT;
	rc = rp_stream_parse(argc, argv, &c);
	if (!rc)
		rc = rp_stream_prepare(&c);
	if (rc) {
		free(c.reqs);
		return rc < 0 ? RP_EXIT_OK : rc;
	}
	/* named arguments, return values: bools and enums by name, from BTF */
	rp_format_set_labels(rp_btf_arg_label);
	rp_format_set_ret_labels(rp_btf_ret_label);
	/* a directory for ctf, made ready before any probe is added */
	if (c.format == RP_FMT_CTF && (rc = rp_ctf_prepare(c.output)))
		return rc;
	if (c.output && c.format != RP_FMT_CTF &&
	    !(s.out = fopen(c.output, "w"))) {
		fprintf(stderr, "rawprobectl: %s: %s\n", c.output,
			strerror(errno));
		return RP_EXIT_FAIL;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (c.input)
		rc = rp_stream_replay(&s);
	else if (!(rc = rp_connect(&s.nl)))
		rc = c.in_kernel ? rp_stream_hist_agg(&s, &c) :
				   rp_stream_live(&s, &c);
	err = rp_stream_drain_log_close(&s);	/* if live returned early */
	rc = rc ?: err;
	rp_rings_close(&s.map);
	rp_nl_close(&s.nl);
	free(c.reqs);
	free(s.owned);
	free(s.probes);
	free(s.descs);
	free(s.seen);
	if (s.out != stdout)
		fclose(s.out);
	return rc;
}

int rp_cmd_stream(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_STREAM, argc, argv);
}

int rp_cmd_trace(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_TRACE, argc, argv);
}

int rp_cmd_hist(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_HIST, argc, argv);
}
