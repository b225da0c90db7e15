/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe requests from the command line (resolve/probe_req.c).
 */
#ifndef RAWPROBECTL_PROBE_REQ_H
#define RAWPROBECTL_PROBE_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"
#include "lib/probe_nl.h"
#include "resolve/task_filter.h"

/*
 * --by and --stats against the probe's kind and arguments (after
 * rp_probe_auto_args()): RP_EXIT_OK, or a usage error saying why.
 */
int rp_agg_req_resolve(struct rp_probe_req *req);
/*
 * hist's request for one of its probes (before rp_probe_auto_args()):
 * value ("latency", "retval" or "argN") in log2 buckets (step 0) or
 * linear ones of width step, or, for an entry probe's latency, its hits;
 * by comm or not. rp_agg_req_resolve() checks the value against the
 * probe.
 */
void rp_hist_agg_req(struct rp_probe_req *req, const char *by, uint64_t step,
		     const char *value);
/*
 * Aggregation's options, shared by count and probe add: --count, --by,
 * --stats (--sum), --hist log2, --lhist MIN,MAX,STEP (bpftrace's hist()
 * and lhist()), --max-keys. Each makes the probe count (RAWPROBE_F_AGG).
 */
enum {
	RP_OPT_AGG_COUNT = 0x200,
	RP_OPT_AGG_BY,
	RP_OPT_AGG_STATS,
	RP_OPT_AGG_HIST,
	RP_OPT_AGG_LHIST,
	RP_OPT_AGG_MAX_KEYS,
};

#define RP_AGG_LONGOPTS							\
	{ "count",     no_argument,       NULL, RP_OPT_AGG_COUNT },	\
	{ "by",        required_argument, NULL, RP_OPT_AGG_BY },		\
	{ "stats",     required_argument, NULL, RP_OPT_AGG_STATS },	\
	{ "sum",       required_argument, NULL, RP_OPT_AGG_STATS },	\
	{ "hist",      required_argument, NULL, RP_OPT_AGG_HIST },	\
	{ "lhist",     required_argument, NULL, RP_OPT_AGG_LHIST },	\
	{ "max-keys",  required_argument, NULL, RP_OPT_AGG_MAX_KEYS }

static inline bool rp_is_agg_opt(int opt)
{
	return opt >= RP_OPT_AGG_COUNT && opt <= RP_OPT_AGG_MAX_KEYS;
}

int rp_agg_opt(int opt, const char *arg, struct rp_probe_req *req);
/* What --stats named: "retval", "latency", an argument's name */
const char *rp_agg_value_name(const struct rp_probe_req *req, char *buf,
			      size_t len);
/* The index of argument word ("arg2", or a name --args gave), or -1 */
int rp_agg_arg_index(const struct rp_probe_req *req, const char *word);
/* --by's word for key i, as given ("start.fd") */
const char *rp_agg_by_word(const struct rp_probe_req *req, unsigned int i,
			   char *buf, size_t len);
/* A pair's end's key of its start's argument: --by start.NAME */
#define RP_AGG_START_ARG "start."
/* A key's name as --by spells it ("comm", "arg1"), for headers */
const char *rp_agg_key_name(const struct rp_probe_req *req, unsigned int i,
			    char *buf, size_t len);

/*
 * A pair's key (resolve/pair_req.c): --key, --from-key or --to-key's
 * EXPR kept (pid, tgid, or an argument by name or path); before the
 * probe's arguments resolve, an argument key joins its --args by name
 * (rp_probe_auto_args() calls both).
 */
int rp_pair_key_opt(struct rp_probe_req *req, const char *opt,
		    const char *expr);
int rp_pair_req_prepare(struct rp_probe_req *req);
void rp_pair_req_resolve(struct rp_probe_req *req);
/*
 * Once a batch's arguments are resolved: each end's --by start.NAME,
 * the argument each start computes as NAME, which the starts carry to
 * their ends (RAWPROBE_PAIR_CARRY_ARGS). RP_EXIT_OK or a usage error.
 */
int rp_pair_carry_resolve(struct rp_probe_req *reqs, size_t n);
/*
 * A pair's options, shared by latency and probe add pair: --from and
 * --to add a probe (the caller's), the others are rp_pair_opt()'s.
 */
enum {
	RP_OPT_PAIR_FROM = 0x240,
	RP_OPT_PAIR_TO,
	RP_OPT_PAIR_KEY,
	RP_OPT_PAIR_FROM_KEY,
	RP_OPT_PAIR_TO_KEY,
	RP_OPT_PAIR_EXPIRE,
	RP_OPT_PAIR_MAX_KEYS,
	RP_OPT_PAIR_RECORDS,
};

#define RP_PAIR_LONGOPTS						\
	{ "from",      required_argument, NULL, RP_OPT_PAIR_FROM },	\
	{ "to",        required_argument, NULL, RP_OPT_PAIR_TO },	\
	{ "key",       required_argument, NULL, RP_OPT_PAIR_KEY },	\
	{ "from-key",  required_argument, NULL, RP_OPT_PAIR_FROM_KEY },	\
	{ "to-key",    required_argument, NULL, RP_OPT_PAIR_TO_KEY },	\
	{ "expire",    required_argument, NULL, RP_OPT_PAIR_EXPIRE },	\
	{ "max-keys",  required_argument, NULL, RP_OPT_PAIR_MAX_KEYS },	\
	{ "records",   no_argument,       NULL, RP_OPT_PAIR_RECORDS }

static inline bool rp_is_pair_opt(int opt)
{
	return opt >= RP_OPT_PAIR_FROM && opt <= RP_OPT_PAIR_RECORDS;
}

/* What the pair options set for every probe of the pair */
struct rp_pair_opts {
	char key[RP_PAIR_KEY_EXPR_MAX];	/* --key: both ends' */
	uint32_t expire_ms, max_keys;
	bool expire_set;
	bool records;			/* --records: the ends write records */
};

/*
 * --key, --from-key and --to-key (last: the probe given last, or NULL),
 * --expire, --max-keys and --records: RP_EXIT_OK or a usage error.
 */
int rp_pair_opt(int opt, const char *arg, struct rp_pair_opts *po,
		struct rp_probe_req *last);
/*
 * Once every option is known: --key where a probe has none, the table's
 * bounds in each; at least a start and an end (a usage error if not).
 */
int rp_pair_reqs_finish(struct rp_probe_req *reqs, size_t n,
			const struct rp_pair_opts *po);

/*
 * "vfs_read", "vfs_read+0x10", "ext4:ext4_sync_file", "0xffff...", or a
 * glob "tcp_*" (req->glob): 0, -EINVAL, -ERANGE (the offset), -EILSEQ
 * (a bad glob) or -EDOM (a glob with an offset)
 */
int rp_target_parse(const char *s, struct rp_probe_req *req);
/*
 * Each glob of reqs[*n] in its place, as a request for each function it
 * matches (resolve/glob.c), the others kept; *reqs is realloc'd. More
 * than max probes in all is refused, before anything is added, naming
 * --max-probes. RP_EXIT_OK or the exit code, after saying why.
 */
int rp_probe_reqs_expand(struct rp_probe_req **reqs, size_t *n, size_t max);
/* --max-probes N, shared by the commands that take KIND:TARGET */
#define RP_OPT_MAX_PROBES 0x221
#define RP_GLOB_LONGOPT \
	{ "max-probes", required_argument, NULL, RP_OPT_MAX_PROBES }
int rp_max_probes_opt(const char *arg, size_t *max);
/*
 * Fill kind and target (other fields keep what options set); prints the
 * usage error and returns RP_EXIT_USAGE when they are wrong.
 */
int rp_probe_req_init(struct rp_probe_req *req, const char *kind,
		      const char *target);
/* "kretprobe:vfs_read": the same, from one word; req is cleared first */
int rp_probe_req_parse(const char *arg, struct rp_probe_req *req);
/* --override: a long option alone */
#define RP_OPT_OVERRIDE 0x220

/* The long options of a probe, shared by probe add and stream -e. */
#define RP_PROBE_LONGOPTS						\
	{ "args",      required_argument, NULL, 'a' },			\
	{ "maxactive", required_argument, NULL, 'm' },			\
	{ "strmax",    required_argument, NULL, 's' },			\
	{ "filter",    required_argument, NULL, 'F' },			\
	{ "stack",     no_argument,       NULL, 'K' },			\
	{ "override",  required_argument, NULL, RP_OPT_OVERRIDE }

/* Filters: per probe in probe add, per stream (and its -e) in stream. */
#define RP_FILTER_LONGOPTS						\
	{ "pid",       required_argument, NULL, 'P' },			\
	{ "tgid",      required_argument, NULL, 'T' },			\
	{ "comm",      required_argument, NULL, 'C' },			\
	{ "cpu",       required_argument, NULL, 'U' },			\
	{ "cgroup",    required_argument, NULL, RP_OPT_CGROUP }

/* An option shared by probe add and stream -e (a:m:s:dSFK, filters). */
int rp_probe_opt(int opt, const char *arg, struct rp_probe_req *req);
/*
 * Check the targets' symbols against kallsyms first (ambiguous, unknown:
 * prints candidates, returns -EEXIST/-ENOENT); no module needed.
 */
int rp_probe_check(const struct rp_probe_req *reqs, size_t n);
/* tracepoint.c: "SUBSYSTEM:EVENT" into req; a usage error if it is not */
int rp_tp_target_parse(const char *target, struct rp_probe_req *req);
/* Is the event in tracefs' available_events? 0, or -ENOENT, said */
int rp_tp_check(const char *event);
/*
 * --args auto: each such request gets its arguments' types and names
 * from the target's BTF prototype (btf.c); --args by name and --filter
 * are compiled against it (args.c, filter.c). RP_EXIT_OK, or the exit code after
 * printing why not.
 */
int rp_probe_auto_args(struct rp_probe_req *reqs, size_t n);
/*
 * Arguments (and what fetches read) are defined at a function's entry,
 * named: RP_EXIT_OK, or a usage error that says so, about option what.
 */
int rp_entry_check(const struct rp_probe_req *r, const char *what);
/* The same, with the reasons to give for a raw address and an offset. */
int rp_entry_needed(const struct rp_probe_req *r, const char *what,
		    const char *why_name, const char *why_entry);
/* "fd:s32,buf:ptr" or "s32,ptr": an argument list as --args takes it */
void rp_args_str(const unsigned char *types, unsigned int nargs,
		 const char *names, char *buf, size_t len);

#endif
