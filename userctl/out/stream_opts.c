// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of rawprobectl stream, trace and hist, one parser
 * with other defaults (out/stream.h): probes (-e, or arguments), their
 * options, filters, the format, hist's options; the checks once all are
 * known.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "out/flame.h"
#include "out/stream.h"
#include "out/template.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

int rp_id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* --- command line --- */

static const char *rp_stream_cmd_name(int mode)
{
	return mode == RP_MODE_TRACE ? "rawprobectl trace" :
	       mode == RP_MODE_HIST ? "rawprobectl hist" :
	       mode == RP_MODE_LATENCY ? "rawprobectl latency" :
	       "rawprobectl stream";
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
		[RP_MODE_LATENCY] =
		"Usage: rawprobectl latency --from KIND:TARGET [--from-key KEY]\n"
		"                           --to KIND:TARGET [--to-key KEY] [OPTIONS]\n"
		"\n"
		"The time from a start probe to an end probe, joined in the kernel\n"
		"by a key both compute (bpftrace's @start[key] = nsecs; ... hist(nsecs\n"
		"- @start[key])): a histogram in nanoseconds, per command with --by\n"
		"comm, printed at exit or every -i seconds. The starts wait in a\n"
		"table every CPU shares; an end takes its key's start out.\n"
		"  rawprobectl latency --from kprobe:blk_mq_start_request \\\n"
		"      --to kprobe:blk_mq_end_request --key rq\n"
		"  rawprobectl latency --from kprobe:ttwu_do_activate --from-key 'p->pid' \\\n"
		"      --to kprobe:finish_task_switch --to-key pid   # runqlat\n"
		"\n"
		"      --from KIND:TARGET   a start (kprobe or jprobe; repeatable)\n"
		"      --to KIND:TARGET     an end (repeatable)\n"
		"      --key KEY            both ends' key: pid, tgid, or an argument\n"
		"                           by name or field path, as --args takes\n"
		"                           it ('rq', 'sk', 'p->pid')\n"
		"      --from-key KEY, --to-key KEY   the key of the probe before\n"
		"      --max-keys N         starts the table holds at once (default\n"
		"                           1024; one with no room counts as full)\n"
		"      --expire SECONDS     a start older is dropped, counted as\n"
		"                           expired (default 10; 0: never)\n"
		"      --records            a record for each completed pair instead\n"
		"                           of a histogram, as trace prints them: the\n"
		"                           end's time, CPU and arguments, the start's\n"
		"                           pid and comm, '(N ns)' the latency\n"
		"                           (JSON: latency_ns, end_pid, end_tgid);\n"
		"                           the end's --filter may test latency\n"
		"                           (ns, with && only: 'latency > 1000000')\n"
		"Filters (--pid, --comm, ...) choose the starts: an end runs in\n"
		"whichever task ends it (an interrupt, the waker). At exit, stderr\n"
		"gives the pair's counts: starts, matched, ends with no start, full,\n"
		"expired, replaced (a key's second start), pending.\n",
	};

	fputs(synopsis[mode], out);
	fprintf(out,
		"\n"
		"  -e, --probe KIND:TARGET  add a probe owned by this command\n"
		"                           (KIND: kprobe, kretprobe, jprobe,\n"
		"                           tracepoint:SUBSYSTEM:EVENT); a\n"
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
	if (mode != RP_MODE_HIST && mode != RP_MODE_LATENCY)
		/* hist's is of every probe: below */
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
		"      --template TEXT      a line per record from TEXT's {FIELD}s\n"
		"                           ({time} {pid:7} {comm:-16} {filename}:\n"
		"                           time ts cpu pid tid tgid comm probe\n"
		"                           retval latency latency_us latency_ms\n"
		"                           str argN or an argument's name;\n"
		"                           :[-]WIDTH pads, time's :%%H:%%M:%%S)\n"
		"      --drain-log FILE     diagnosis: write a line per drain of\n"
		"                           the rings to FILE at exit (when, how\n"
		"                           long, records, backlog, lost)\n"
		"      --ring NAME          read the named session NAME (ring\n"
		"                           create); probes given here write there\n"
		"      --ring-records N     records per CPU of this command's own\n"
		"                           rings (with probes; a power of two;\n"
		"                           default 0: the module's automatic size)\n"
		"      --ring-mode MODE     discard (default): a full ring drops new\n"
		"                           records; overwrite: the oldest\n");
	if (mode == RP_MODE_LATENCY)
		fprintf(out,
			"      --linear STEP        linear buckets of width STEP ns\n"
			"                           (default: log2 buckets)\n"
			"      --by KEYS            comm: one histogram per command name\n"
			"                           (the end's); other keys as count's --by\n"
			"                           (pid, tgid, cpu, stack, arguments: the\n"
			"                           end's; start_comm, start_pid, start_tgid:\n"
			"                           its start's task; start_stack: its\n"
			"                           stack; start.NAME: the argument NAME of\n"
			"                           the starts' --args), as count's tables\n"
			"  -f, --format FMT         openmetrics: the histogram in\n"
			"                           Prometheus' format, as count's, the run\n"
			"                           so far each -i; with --records: text\n"
			"                           (default), json, csv, perfetto\n"
			"  -i, --interval SECONDS   print and restart the histograms every\n"
			"                           SECONDS\n");
	else if (mode == RP_MODE_HIST)
		fprintf(out,
			"  -f, --format openmetrics the kernel's counts in Prometheus'\n"
			"                           format, as count's (one probe);\n"
			"                           with --stack: folded (the default),\n"
			"                           svg (a flame graph to open in a\n"
			"                           browser) or speedscope\n"
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
	fprintf(out, mode == RP_MODE_STREAM ?
		"With probes (-e), the command reads rings of its own, where only\n"
		"they write; without, the default session's (persistent probes').\n" :
		mode == RP_MODE_TRACE ?
		"The probes write into rings of the command's own, which go with it.\n" :
		"Probes that write records write into rings of the command's own.\n");
}

/* hist --stack's -f: folded, svg or speedscope; -1 for another format */
static int rp_hist_stacks_format(const char *arg, struct rp_stream_cfg *c)
{
	int fmt = rp_flame_format_parse(arg);

	if (!strcmp(arg, "folded"))
		c->hist.stacks = RP_HIST_STACKS_FOLDED;
	else if (fmt == RP_FLAME_SVG)
		c->hist.stacks = RP_HIST_STACKS_SVG;
	else if (fmt == RP_FLAME_SPEEDSCOPE)
		c->hist.stacks = RP_HIST_STACKS_SPEEDSCOPE;
	else
		return -1;
	return 0;
}

enum {
	RP_OPT_ARG = 0x100, RP_OPT_RETVAL, RP_OPT_LINEAR, RP_OPT_BY,
	RP_OPT_DRAIN_LOG, RP_OPT_ID, RP_OPT_INTERVAL, RP_OPT_RING,
	RP_OPT_RING_RECORDS, RP_OPT_RING_MODE, RP_OPT_TEMPLATE,
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
	{ "template",  required_argument, NULL, RP_OPT_TEMPLATE },
	{ "ring",      required_argument, NULL, RP_OPT_RING },
	{ "ring-records", required_argument, NULL, RP_OPT_RING_RECORDS },
	{ "ring-mode", required_argument, NULL, RP_OPT_RING_MODE },
	{ "arg",       required_argument, NULL, RP_OPT_ARG },
	{ "retval",    no_argument,       NULL, RP_OPT_RETVAL },
	{ "linear",    required_argument, NULL, RP_OPT_LINEAR },
	{ "by",        required_argument, NULL, RP_OPT_BY },
	{ "dry-run",   no_argument,       NULL, 'n' },
	RP_PAIR_LONGOPTS,
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
		if (!strcmp(arg, "comm")) {
			c->hist.by_comm = true;
			return 0;
		}
		/* a pair's end: count's keys, printed as count's tables */
		if (c->mode != RP_MODE_LATENCY)
			return rp_usage_error("--by takes 'comm', not '%s'", arg);
		if (strlen(arg) >= sizeof(c->hist.by))
			return rp_usage_error("--by: at most %zu characters",
					      sizeof(c->hist.by) - 1);
		strcpy(c->hist.by, arg);
		return 0;
	}
}

static int rp_stream_opt(int opt, const char *arg, struct rp_stream_cfg *c)
{
	uint64_t v;
	char *end;

	switch (opt) {
	case 'i':	/* hist: the interval, as count's; else --id */
		if (c->mode == RP_MODE_HIST || c->mode == RP_MODE_LATENCY)
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
		/* hist's and latency's kernel counts, as count prints them */
		if ((c->mode == RP_MODE_HIST || c->mode == RP_MODE_LATENCY) &&
		    (!strcmp(arg, "openmetrics") || !strcmp(arg, "prometheus"))) {
			c->hist.openmetrics = true;
			return 0;
		}
		if (c->mode == RP_MODE_HIST && !rp_hist_stacks_format(arg, c))
			return 0;
		c->format = rp_format_parse(arg);
		if (c->format < 0 && rp_flame_format_parse(arg) >= 0)
			return rp_usage_error("-f %s draws counted stacks: hist "
					      "--stack -f %s (of records) or "
					      "count --by stack -f %s (in the "
					      "kernel)", arg, arg, arg);
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
	case RP_OPT_TEMPLATE:
		rp_template_free(c->tmpl);
		c->tmpl = NULL;
		return rp_template_compile(arg, &c->tmpl);
	case RP_OPT_RING:
		c->ring_set = true;
		return rp_ring_name_opt("--ring", arg, &c->ring);
	case RP_OPT_RING_RECORDS:
		return rp_ring_records_opt("--ring-records", arg,
					   &c->ring_records);
	case RP_OPT_RING_MODE:
		return rp_ring_mode_opt("--ring-mode", arg, &c->ring_mode);
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

/* latency's --from/--to probes, their keys and the table's bounds */
static int rp_latency_opt(int opt, const char *arg, struct rp_stream_cfg *c)
{
	int rc;

	if (c->mode != RP_MODE_LATENCY)
		return rp_usage_error("--from, --to, --key, --from-key, --to-key, "
				      "--expire, --max-keys and --records are "
				      "options of 'rawprobectl latency'");
	if (opt != RP_OPT_PAIR_FROM && opt != RP_OPT_PAIR_TO)
		return rp_pair_opt(opt, arg, &c->pair,
				   c->nreqs ? &c->reqs[c->nreqs - 1] : NULL);
	rc = rp_stream_add_probe(c, arg);
	if (!rc)
		c->reqs[c->nreqs - 1].pair.role = opt == RP_OPT_PAIR_FROM ?
			RAWPROBE_PAIR_START : RAWPROBE_PAIR_END;
	return rc;
}

static int rp_stream_one(int opt, const char *arg, struct rp_stream_cfg *c)
{
	switch (opt) {
	case 'e':
	case 1:		/* an argument: trace and hist take probes so */
		if (c->mode == RP_MODE_LATENCY)
			return rp_usage_error("unexpected '%s' (latency's probes "
					      "are given with --from and --to)",
					      arg);
		if (opt == 1 && c->mode == RP_MODE_STREAM)
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
		if (rp_is_pair_opt(opt))
			return rp_latency_opt(opt, arg, c);
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
		rp_hist_agg_req(&c->reqs[i], c->hist.by_comm ? "comm" : "",
				c->hist.step, value);
	}
	return 0;
}

/* hist's own probes counting in the kernel have no rings to size or name */
static int rp_hist_rings(const struct rp_stream_cfg *c)
{
	if (c->in_kernel && (c->ring_records || c->ring_mode >= 0 ||
			     c->ring_set))
		return rp_usage_error("hist counts its probes in the kernel, in "
				      "no rings: --ring, --ring-records and "
				      "--ring-mode are for a hist that reads "
				      "records (--stack, --count, --id, "
				      "--drain-log, string arguments)");
	return 0;
}

/*
 * An aggregating probe keeps no string: hist --arg of a probe whose
 * arguments (resolved: --args auto, names) hold one reads records.
 */
int rp_hist_strings(struct rp_stream_cfg *c)
{
	unsigned int i, k;
	bool str = false;

	for (i = 0; c->in_kernel && c->hist.value == RP_HIST_ARG &&
		    i < c->nreqs; i++)
		for (k = 0; k < (unsigned int)c->reqs[i].nargs; k++)
			str |= rp_argtype_is_area(c->reqs[i].argtypes[k]);
	if (!str)
		return rp_hist_rings(c);
	if (c->interval)
		return rp_usage_error("-i: hist counts in the kernel, which "
				      "keeps no string: --args without str, "
				      "ustr or ip6");
	c->in_kernel = false;
	for (i = 0; i < c->nreqs; i++)
		c->reqs[i].flags &= ~RAWPROBE_F_AGG;
	return rp_hist_rings(c);
}

/*
 * latency: at least a start and an end, each with its key (--key's
 * where it has none of its own), counted in the kernel by the ends.
 */
static int rp_latency_check(struct rp_stream_cfg *c)
{
	unsigned int i;
	int rc;

	if (c->hist_value || c->hist_stack || c->nids || c->input)
		return rp_usage_error("latency times its own probes: not with "
				      "--arg, --retval, --stack, --id or --input");
	rc = rp_pair_reqs_finish(c->reqs, c->nreqs, &c->pair);
	if (rc)
		return rc;
	if (c->pair.records) {	/* the ends write records: stream's path */
		if (c->hist_opts)
			return rp_usage_error("--records writes a record a pair: "
					      "not with --linear, --by or -i");
		return 0;
	}
	if (c->max_count || c->drain_log)
		return rp_usage_error("latency counts in the kernel: not with "
				      "--count or --drain-log (but with "
				      "--records)");
	for (i = 0; i < c->nreqs; i++)
		if (c->reqs[i].pair.role == RAWPROBE_PAIR_END)
			rp_hist_agg_req(&c->reqs[i], c->hist.by_comm ? "comm" :
					c->hist.by, c->hist.step, "latency");
	c->in_kernel = true;
	return rp_hist_rings(c);
}

/* Whole-command checks once every option is known. */
static int rp_stream_check(struct rp_stream_cfg *c)
{
	unsigned int i;

	if (c->mode == RP_MODE_TRACE && !c->nreqs)
		return rp_usage_error("trace needs a probe, e.g. 'rawprobectl "
				      "trace kretprobe:vfs_read'");
	if (c->hist_opts && c->mode != RP_MODE_HIST &&
	    c->mode != RP_MODE_LATENCY)
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
	if (c->input && c->ring_set)
		return rp_usage_error("--ring reads a session's live rings: not "
				      "with --input");
	if ((c->ring_records || c->ring_mode >= 0) && c->ring_set)
		return rp_usage_error("--ring-records and --ring-mode size this "
				      "command's own rings: a named session is "
				      "changed with 'ring set NAME'");
	if ((c->ring_records || c->ring_mode >= 0) && !c->nreqs)
		return rp_usage_error("--ring-records and --ring-mode size the "
				      "rings of this command's own probes: give "
				      "probes (%s)", c->mode == RP_MODE_STREAM ?
				      "-e KIND:TARGET" : "KIND:TARGET");
	if (c->hist.stacks && !c->hist_stack)
		return rp_usage_error("-f folded, svg and speedscope write kernel "
				      "stacks: hist --stack");
	if (c->hist_stack && (c->hist_value || c->hist.step))
		return rp_usage_error("hist --stack counts stacks: not with "
				      "--arg, --retval or --linear");
	if (c->mode == RP_MODE_HIST ||
	    (c->mode == RP_MODE_LATENCY && !c->pair.records))
		c->format = RP_FMT_HIST;
	else if (c->format < 0)
		c->format = rp_opts.json ? RP_FMT_JSON : RP_FMT_TEXT;
	if (c->tmpl && c->format != RP_FMT_TEXT)
		return rp_usage_error("--template writes text lines: not with "
				      "--format %s", rp_format_name(c->format));
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
		c->reqs[i].ring = c->ring;	/* --ring's; else set live */
		c->reqs[i].filter = c->filter;
		/*
		 * A pair's end runs in whichever task ends it (an interrupt,
		 * the waker): the filters choose the starts.
		 */
		if (c->reqs[i].pair.role == RAWPROBE_PAIR_END)
			c->reqs[i].filter.set &= RP_TASK_SELF;
		rp_task_filter_leave_self_out(&c->reqs[i].filter);
		if (c->hist_stack)
			c->reqs[i].flags |= RAWPROBE_F_STACK;
	}
	if (c->mode == RP_MODE_LATENCY)
		return rp_latency_check(c);
	return c->mode == RP_MODE_HIST ? rp_hist_check(c) : 0;
}

int rp_stream_parse(int argc, char **argv, struct rp_stream_cfg *c)
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
