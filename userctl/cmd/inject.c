// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl inject kmalloc|alloc_page [--in FUNC[,FUNC]...] [--comm NAME]
 *                   [--pid N] [--tgid N] [--cgroup PATH]
 *                   [--probability PERCENT]
 *                   [--times N] [--interval N] [-d SECONDS]:
 * BCC inject.py's targeted fault injection, without BPF's override (off in
 * Debian's kernels): an allocation fails only while the task is inside
 * every FUNC, entered in that order and not yet returned.
 *
 * One batch of probes, owned by the command's socket: an override probe
 * on each of the allocator's fault hooks (should_failslab where the
 * kernel has it, the allocator's entry points where it does not), and a
 * kretprobe per FUNC, the chain's steps (kmod/inject.c). The hooks count
 * the allocations they failed by kernel stack, in the kernel; at the end
 * the command prints how many failed, and where.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd/cmd.h"
#include "out/count.h"
#include "lib/probe_nl.h"
#include "out/probe.h"
#include "lib/agg_read.h"
#include "lib/cli.h"
#include "lib/symbols.h"
#include "out/aggregate.h"
#include "resolve/probe_req.h"

#define RP_INJECT_HOOKS_MAX	16
#define RP_INJECT_SECONDS_MAX	31536000

/*
 * The fault hooks of a class: the first when the kernel has it (one
 * probe, the kernel's own fault point), else every entry it has.
 */
struct rp_inject_class {
	const char *name;
	const char *hook;	/* the fault hook */
	int64_t hook_value;	/* what it returns to fail */
	const char *const *entries;	/* else these, returning NULL */
};

static const char *const rp_kmalloc_entries[] = {
	/* 6.10 and later */
	"__kmalloc_noprof", "__kmalloc_node_noprof",
	"__kmalloc_node_track_caller_noprof", "__kmalloc_cache_noprof",
	"__kmalloc_cache_node_noprof", "__kmalloc_large_noprof",
	"__kmalloc_large_node_noprof", "kmem_cache_alloc_noprof",
	"kmem_cache_alloc_lru_noprof", "kmem_cache_alloc_node_noprof",
	/* before */
	"__kmalloc", "__kmalloc_node", "__kmalloc_node_track_caller",
	"kmalloc_trace", "kmalloc_node_trace", "kmalloc_large",
	"kmalloc_large_node", "kmem_cache_alloc", "kmem_cache_alloc_lru",
	"kmem_cache_alloc_node", NULL,
};

static const char *const rp_page_entries[] = {
	"__alloc_pages_noprof", "__alloc_pages", NULL,
};

static const struct rp_inject_class rp_inject_classes[] = {
	{ "kmalloc", "should_failslab", -12, rp_kmalloc_entries },
	{ "alloc_page", "should_fail_alloc_page", 1, rp_page_entries },
};

struct rp_inject_cfg {
	const struct rp_inject_class *class;
	char in[RAWPROBE_CHAIN_MAX][128];
	unsigned int nin;
	struct rp_task_filter filter;
	struct rp_ovr_req ovr;
	double duration;
	/* the batch: hooks first, then the chain's steps */
	struct rp_probe_req reqs[RP_INJECT_HOOKS_MAX + RAWPROBE_CHAIN_MAX];
	uint32_t ids[RP_INJECT_HOOKS_MAX + RAWPROBE_CHAIN_MAX];
	unsigned int nhooks, nreqs;
};

static volatile sig_atomic_t rp_inject_stop;

static void rp_inject_on_signal(int sig)
{
	(void)sig;
	rp_inject_stop = 1;
}

static void rp_inject_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl inject kmalloc|alloc_page [--in FUNC[,FUNC]...]\n"
		"                          [--comm NAME] [--pid N] [--tgid N]\n"
		"                          [--cgroup PATH]\n"
		"                          [--probability PERCENT] [--times N]\n"
		"                          [--interval N] [-d SECONDS]\n\n"
		"Makes allocations fail, as BCC's inject.py and the kernel's fault\n"
		"injection do, on kernels without BPF's override or fail_function.\n\n"
		"  --in FUNCS           only while the task is inside each FUNC, entered\n"
		"                       in this order and not yet returned (at most %d)\n"
		"  --comm, --pid, --tgid  only in these tasks\n"
		"  --cgroup PATH        only in the tasks of this cgroup v2 and below\n"
		"  --probability P      fail P%% of the allocations that qualify (1..100)\n"
		"  --times N            fail at most N (1..2147483647), then end\n"
		"  --interval N         fail every Nth allocation that qualifies\n"
		"  -d, --duration S     end after S seconds (else Ctrl-C, or --times)\n\n"
		"At least one of --in, --comm, --pid, --tgid, --cgroup, --times or\n"
		"--probability is required: without them every allocation of the\n"
		"machine would fail.\n"
		"Allocations made with __GFP_NOFAIL never fail. Needs CAP_SYS_ADMIN.\n"
		"At the end: how many failed, and the kernel stacks they failed in\n"
		"(folded, as count --by stack prints them; -j: one JSON document).\n",
		RAWPROBE_CHAIN_MAX);
}

static int rp_inject_in(const char *arg, struct rp_inject_cfg *c)
{
	char buf[RAWPROBE_CHAIN_MAX * 128], *tok, *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		return rp_usage_error("--in: too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (c->nin == RAWPROBE_CHAIN_MAX)
			return rp_usage_error("--in: at most %d functions",
					      RAWPROBE_CHAIN_MAX);
		if (strlen(tok) >= sizeof(c->in[0]))
			return rp_usage_error("--in: '%s' is too long", tok);
		strcpy(c->in[c->nin++], tok);
	}
	if (!c->nin)
		return rp_usage_error("--in takes FUNC[,FUNC]..., not '%s'", arg);
	return 0;
}

static int rp_inject_num(const char *opt, const char *arg, uint64_t min,
			 uint64_t max, uint64_t *v)
{
	if (rp_parse_u64(arg, min, max, v))
		return rp_usage_error("%s must be %" PRIu64 "..%" PRIu64
				      ", not '%s'", opt, min, max, arg);
	return 0;
}

enum {
	RP_OPT_IN = 0x300, RP_OPT_PROB, RP_OPT_TIMES, RP_OPT_EVERY,
};

static const struct option rp_inject_longopts[] = {
	{ "in",          required_argument, NULL, RP_OPT_IN },
	{ "probability", required_argument, NULL, RP_OPT_PROB },
	{ "times",       required_argument, NULL, RP_OPT_TIMES },
	{ "interval",    required_argument, NULL, RP_OPT_EVERY },
	{ "duration",    required_argument, NULL, 'd' },
	{ "help",        no_argument,       NULL, 'h' },
	RP_FILTER_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int rp_inject_opt(int opt, const char *arg, struct rp_inject_cfg *c)
{
	uint64_t v;
	int rc;

	switch (opt) {
	case RP_OPT_IN:
		return rp_inject_in(arg, c);
	case RP_OPT_PROB:
		rc = rp_inject_num("--probability", arg, 1, 100, &v);
		c->ovr.probability = (uint8_t)v;
		return rc;
	case RP_OPT_TIMES:
		rc = rp_inject_num("--times", arg, 1, INT32_MAX, &v);
		c->ovr.times = (uint32_t)v;
		return rc;
	case RP_OPT_EVERY:
		rc = rp_inject_num("--interval", arg, 1, UINT32_MAX, &v);
		c->ovr.interval = (uint32_t)v;
		return rc;
	case 'd':
		rc = rp_inject_num("--duration", arg, 1, RP_INJECT_SECONDS_MAX,
				   &v);
		c->duration = (double)v;
		return rc;
	case 'h':
		rp_inject_usage(stdout);
		return -1;
	case 'P':
	case 'T':
	case 'C':
	case 'U':
	case RP_OPT_CGROUP:
		return rp_task_filter_opt(opt, arg, &c->filter);
	default:
		rp_inject_usage(stderr);
		return RP_EXIT_USAGE;
	}
}

static int rp_inject_class_arg(const char *arg, struct rp_inject_cfg *c)
{
	size_t i;

	if (c->class)
		return rp_usage_error("inject takes one class, not '%s' too",
				      arg);
	for (i = 0; i < sizeof(rp_inject_classes) / sizeof(rp_inject_classes[0]); i++)
		if (!strcmp(arg, rp_inject_classes[i].name))
			c->class = &rp_inject_classes[i];
	if (!c->class)
		return rp_usage_error("unknown class '%s': kmalloc or alloc_page",
				      arg);
	return 0;
}

static int rp_inject_parse(int argc, char **argv, struct rp_inject_cfg *c)
{
	int opt, rc;

	optind = 0;	/* full getopt reset: main() parsed already */
	opterr = 0;	/* rp_bad_option() says what was wrong */
	while ((opt = getopt_long(argc, argv, "-d:h", rp_inject_longopts,
				  NULL)) != -1) {
		if (opt == '?')
			return rp_bad_option(argv, "-d:h", rp_inject_longopts,
					     "rawprobectl inject");
		rc = opt == 1 ? rp_inject_class_arg(optarg, c) :
				rp_inject_opt(opt, optarg, c);
		if (rc)
			return rc;
	}
	if (!c->class)
		return rp_usage_error("inject needs a class, kmalloc or "
				      "alloc_page (see 'rawprobectl inject "
				      "--help')");
	if (!c->nin && !c->filter.set && !c->ovr.times &&
	    !c->ovr.probability)
		return rp_usage_error("every %s of the machine would fail: give "
				      "--in, --comm, --pid, --tgid, --cgroup, --times or "
				      "--probability", c->class->name);
	return 0;
}

static void rp_inject_hook(struct rp_inject_cfg *c, const char *sym,
			   int64_t value)
{
	struct rp_probe_req *r = &c->reqs[c->nreqs++];

	memset(r, 0, sizeof(*r));
	rp_probe_req_init(r, "kprobe", sym);
	r->filter = c->filter;
	r->ovr = c->ovr;
	r->ovr.set = true;
	r->ovr.value = value;
	r->ovr.chain_len = (uint8_t)c->nin;
	/* where each failed: counted by stack, in the kernel */
	r->flags |= RAWPROBE_F_AGG;
	r->agg.nkeys = 1;
	r->agg.keys[0] = RAWPROBE_AGG_KEY_STACK;
	strcpy(r->agg.by, "stack");
	c->nhooks++;
}

/* The hooks this kernel has, then the chain's steps; usage errors else. */
static int rp_inject_build(struct rp_inject_cfg *c)
{
	const struct rp_inject_class *k = c->class;
	unsigned int i;
	int rc;

	if (rp_ksym_exists(k->hook) > 0) {
		rp_inject_hook(c, k->hook, k->hook_value);
	} else {
		for (i = 0; k->entries[i]; i++)
			if (rp_ksym_exists(k->entries[i]) > 0)
				rp_inject_hook(c, k->entries[i], 0);
	}
	if (!c->nhooks) {
		fprintf(stderr, "rawprobectl: this kernel has none of %s's "
			"fault hooks or entry points (is /proc/kallsyms "
			"readable?)\n", k->name);
		return RP_EXIT_FAIL;
	}
	for (i = 0; i < c->nin; i++) {
		struct rp_probe_req *r = &c->reqs[c->nreqs++];

		memset(r, 0, sizeof(*r));
		rc = rp_probe_req_init(r, "kretprobe", c->in[i]);
		if (rc)
			return rc;
		r->ovr.chain_step = (uint8_t)(i + 1);
	}
	return rp_probe_check(c->reqs, c->nreqs) ? RP_EXIT_FAIL : RP_EXIT_OK;
}

static int rp_inject_info(struct nlattr **a, void *ctx)
{
	return rp_probe_info_parse(a, ctx);
}

/* The allocations failed so far, every hook's. */
static uint64_t rp_inject_failed(struct rp_nl *nl, struct rp_inject_cfg *c)
{
	struct rp_probe_info pi;
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < c->nhooks; i++) {
		memset(&pi, 0, sizeof(pi));
		if (!rp_count_request(nl, RAWPROBE_CMD_PROBE_GET, c->ids[i],
				      rp_inject_info, &pi))
			n += pi.overridden;
	}
	return n;
}

static uint64_t rp_inject_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Until the duration, a signal, or --times spent. */
static void rp_inject_wait(struct rp_nl *nl, struct rp_inject_cfg *c)
{
	uint64_t end = c->duration ?
		       rp_inject_now() + (uint64_t)(c->duration * 1e9) :
		       UINT64_MAX;

	while (!rp_inject_stop && rp_inject_now() < end) {
		poll(NULL, 0, 100);
		if (c->ovr.times && rp_inject_failed(nl, c) >= c->ovr.times)
			break;
	}
}

static void rp_inject_ready(const struct rp_inject_cfg *c)
{
	unsigned int i;

	fprintf(stderr, "Failing %s (%u hook%s)", c->class->name, c->nhooks,
		c->nhooks == 1 ? "" : "s");
	for (i = 0; i < c->nin; i++)
		fprintf(stderr, "%s%s", i ? " > " : " inside ", c->in[i]);
	fprintf(stderr, ". Hit Ctrl-C to end.\n");
}

/* One JSON entry per stack: the hook, how many failed there, the frames */
static void rp_inject_json_stacks(const char *hook,
				  const struct rp_agg_result *r)
{
	char sym[RP_KSYM_MAX];
	size_t e;
	unsigned int f;

	for (e = 0; e < r->n; e++) {
		const uint64_t *w = rp_agg_entry(r, e);
		const struct rp_agg_stack *st = rp_agg_stack_of(r, w);

		json_obj_open(&rp_json);
		json_kv_str(&rp_json, "hook", hook);
		json_kv_u64(&rp_json, "count", w[r->key_words + RP_AGG_W_COUNT]);
		json_key(&rp_json, "stack");
		json_arr_open(&rp_json);
		for (f = 0; st && f < st->n; f++) {
			rp_ksym_format(st->frames[f], sym, sizeof(sym));
			json_str(&rp_json, sym);
		}
		json_arr_close(&rp_json);
		json_obj_close(&rp_json);
	}
}

/* Where the kernel put a hook: its folded stacks' leaf; 0 if unknown. */
static uint64_t rp_inject_hook_addr(struct rp_nl *nl, uint32_t id)
{
	struct rp_probe_info pi;

	memset(&pi, 0, sizeof(pi));
	if (rp_count_request(nl, RAWPROBE_CMD_PROBE_GET, id, rp_inject_info,
			     &pi))
		return 0;
	return pi.probed_addr;
}

/* Every hook's stacks: folded lines, or JSON entries. */
static int rp_inject_where(struct rp_nl *nl, struct rp_inject_cfg *c)
{
	struct rp_count_names nm;
	struct rp_agg_result r;
	struct rp_agg_view v;
	char probe[RP_TARGET_MAX];
	unsigned int i;
	int err;

	for (i = 0; i < c->nhooks; i++) {
		err = rp_agg_fetch(nl, c->ids[i], &r);
		if (err)
			return rp_fail(nl, "inject: reading where they failed",
				       err);
		rp_agg_sort_by_count(&r);
		if (rp_opts.json) {
			rp_inject_json_stacks(c->reqs[i].symbol, &r);
		} else if (r.n) {
			snprintf(probe, sizeof(probe), "kprobe:%s",
				 c->reqs[i].symbol);
			rp_count_view(&c->reqs[i], probe, 0, &nm, &v);
			v.addr = rp_inject_hook_addr(nl, c->ids[i]);
			rp_agg_print_text(stdout, &v, &r, NULL);
		}
		rp_agg_result_free(&r);
	}
	return RP_EXIT_OK;
}

static int rp_inject_report(struct rp_nl *nl, struct rp_inject_cfg *c)
{
	uint64_t failed;
	unsigned int i;
	int rc;

	/* Disarmed first: nothing fails after the counts are read. */
	for (i = 0; i < c->nreqs; i++)
		rp_count_request(nl, RAWPROBE_CMD_PROBE_DISABLE, c->ids[i],
				 NULL, NULL);
	failed = rp_inject_failed(nl, c);
	if (rp_opts.json) {
		json_obj_open(&rp_json);
		json_kv_str(&rp_json, "inject", c->class->name);
		json_key(&rp_json, "in");
		json_arr_open(&rp_json);
		for (i = 0; i < c->nin; i++)
			json_str(&rp_json, c->in[i]);
		json_arr_close(&rp_json);
		json_kv_u64(&rp_json, "failed", failed);
		json_key(&rp_json, "where");
		json_arr_open(&rp_json);
	}
	rc = rp_inject_where(nl, c);
	if (rp_opts.json) {
		json_arr_close(&rp_json);
		json_obj_close(&rp_json);
		json_end_doc(&rp_json);
	} else {
		fprintf(stderr, "%" PRIu64 " %s allocation%s failed\n", failed,
			c->class->name, failed == 1 ? "" : "s");
	}
	return rc;
}

int rp_cmd_inject(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = rp_inject_on_signal };
	static struct rp_inject_cfg c;
	struct rp_nl nl;
	unsigned int i;
	int rc, err;

	memset(&c, 0, sizeof(c));
	rc = rp_inject_parse(argc, argv, &c);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_inject_build(&c);
	if (rc)
		return rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	err = rp_probe_add_many(&nl, c.reqs, c.nreqs, c.ids);
	if (err) {
		rp_nl_close(&nl);
		return rp_exit_from_errno(err);
	}
	rp_inject_ready(&c);
	rp_inject_wait(&nl, &c);
	rc = rp_inject_report(&nl, &c);
	/* the socket's probes go with it; deleted now, not at exit */
	for (i = 0; i < c.nreqs; i++)
		rp_count_request(&nl, RAWPROBE_CMD_PROBE_DEL, c.ids[i], NULL,
				 NULL);
	rp_nl_close(&nl);
	return rc;
}
