// SPDX-License-Identifier: GPL-2.0
/*
 * A probe shown: probe list's table, probe show's fields, either as JSON
 * (-j); and --dry-run's requests, what PROBE_ADD would carry.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/symbols.h"
#include "out/pair.h"
#include "out/probe.h"
#include "out/request.h"
#include "resolve/args.h"
#include "resolve/filter.h"

/* The filter with its cgroup's path, which the kernel does not keep */
static const struct rp_task_filter *rp_filter_shown(const struct rp_task_filter *f,
						    struct rp_task_filter *copy)
{
	if (!(f->set & RP_TASK_CGROUP) || f->cgroup[0])
		return f;
	*copy = *f;
	rp_cgroup_path(f->cgroup_id, copy->cgroup, sizeof(copy->cgroup));
	return copy;
}

void rp_probe_shown(const struct rp_probe_info *pi, struct rp_probe_shown *s)
{
	char target[RP_TARGET_MAX];
	struct rp_task_filter f;

	rp_probe_target(pi, target, sizeof(target));
	rp_escape_str(s->target, sizeof(s->target), target, sizeof(target));
	rp_escape_str(s->owner, sizeof(s->owner), pi->owner, sizeof(pi->owner));
	rp_task_filter_str(rp_filter_shown(&pi->filter, &f), s->filter,
			   sizeof(s->filter));
	/* printable, checked: shown as it was written */
	if (pi->value_filter[0])
		snprintf(s->filter + strlen(s->filter),
			 sizeof(s->filter) - strlen(s->filter), "%sif %s",
			 s->filter[0] ? " " : "", pi->value_filter);
}

/*
 * "arg_names": ["fd", "buf"] of "fd,buf" (paths, checked); an alias's
 * NAME of NAME=PATH
 */
static void rp_arg_names_json(struct json *j, const char *names,
			      unsigned int nargs)
{
	unsigned int i;
	size_t len;

	json_key(j, "arg_names");
	json_arr_open(j);
	for (i = 0; i < nargs; i++) {
		len = strcspn(names, ",");
		json_strn(j, names, strcspn(names, ",="));
		names += len + (names[len] == ',');
	}
	json_arr_close(j);
}

/*
 * A value filter's term as --dry-run shows it: "&& src=arg2 size=8 gt
 * 4096", "src=arg0 size=8 add=368 str_eq "pts0" str_size=64"
 */
static void rp_term_text(const struct rp_probe_req *r, unsigned int i)
{
	const struct rawprobe_value_term *t = &r->terms[i];
	char fetch[128];
	bool bits = t->cmp == RAWPROBE_CMP_ANY || t->cmp == RAWPROBE_CMP_NONE;

	rp_fetch_str(&t->fetch, fetch, sizeof(fetch));
	printf("  term%u: %s%s %s ", i, !i ? "" :
	       t->flags & RAWPROBE_TERM_OR ? "|| " : "&& ", fetch,
	       rp_cmp_name(t->cmp));
	if (t->cmp >= RAWPROBE_CMP_STR_EQ)
		printf("\"%s\" str_size=%u%s\n", r->filter_strs + t->value,
		       t->str_size, t->flags & RAWPROBE_TERM_USER ? " user" : "");
	else if (bits)
		printf("0x%" PRIx64 "\n", (uint64_t)t->value);
	else if (t->fetch.flags & RAWPROBE_FETCH_SIGNED)
		printf("%" PRId64 "\n", (int64_t)t->value);
	else
		printf("%" PRIu64 "\n", (uint64_t)t->value);
}

/* The programs under the request's line: one per argument, then terms */
static void rp_dry_run_programs(const struct rp_probe_req *r)
{
	const char *name = r->arg_names;
	char fetch[128];
	unsigned int i;
	size_t len;

	for (i = 0; i < r->nfetch; i++) {
		len = strcspn(name, ",");
		rp_fetch_str(&r->fetch[i], fetch, sizeof(fetch));
		printf("  arg%u %.*s: %s", i, (int)len, name, fetch);
		if (r->str_len_arg[i])
			printf(" len=arg%u", r->str_len_arg[i] - 1U);
		putchar('\n');
		name += len + (name[len] == ',');
	}
	if (r->nterms)
		printf("  filter %s\n", r->value_filter);
	for (i = 0; i < r->nterms; i++)
		rp_term_text(r, i);
}

static void rp_dry_run_json(const struct rp_probe_req *r, const char *target)
{
	struct json *j = &rp_json;
	int i;

	json_obj_open(j);
	json_kv_str(j, "kind", rp_kind_name(r->kind));
	json_kv_str(j, "target", target);
	json_kv_bool(j, "syscall_args", r->flags & RAWPROBE_F_SYSCALL);
	json_kv_bool(j, "persistent", r->flags & RAWPROBE_F_PERSISTENT);
	json_kv_bool(j, "disabled", r->flags & RAWPROBE_F_DISABLED);
	if (r->flags & RAWPROBE_F_STACK)
		json_kv_bool(j, "stack", true);
	if (r->ftrace_addr)
		json_kv_bool(j, "ftrace", true);
	if (r->ring.name[0])
		json_kv_str(j, "ring", r->ring.name);
	else if (r->ring.id)
		json_kv_u64(j, "session", r->ring.id);
	json_key(j, "args");
	json_arr_open(j);
	for (i = 0; i < r->nargs; i++)
		json_str(j, rp_argtype_name(r->argtypes[i]));
	json_arr_close(j);
	if (r->arg_names[0])
		rp_arg_names_json(j, r->arg_names, (unsigned int)r->nargs);
	if (r->nfetch) {
		json_key(j, "fetch");
		json_arr_open(j);
		for (i = 0; i < r->nfetch; i++)
			rp_fetch_json(j, &r->fetch[i]);
		json_arr_close(j);
	}
	if (rp_str_lens_set(r)) {
		json_key(j, "str_len_args");
		json_arr_open(j);
		for (i = 0; i < r->nargs; i++) {
			if (r->str_len_arg[i])
				json_u64(j, r->str_len_arg[i] - 1U);
			else
				json_null(j);
		}
		json_arr_close(j);
	}
	if (r->nterms)
		rp_value_filter_json(j, r->value_filter, r->terms, r->nterms,
				     r->filter_strs);
	if (r->pair.role)
		rp_pair_json(j, &r->pair, NULL);
	json_obj_close(j);
	json_end_doc(j);
}

/* --dry-run: what PROBE_ADD would carry, one request a line (or document) */
static void rp_dry_run_one(const struct rp_probe_req *r)
{
	char target[RP_TARGET_MAX], args[RAWPROBE_ARG_NAMES_LEN + 64];
	char ring[RP_SESSION_LABEL_MAX + 8] = "", pair[96];
	struct rp_probe_info t = { .offset = r->offset, .addr = r->addr };

	snprintf(t.symbol, sizeof(t.symbol), "%s", r->symbol);
	snprintf(t.module, sizeof(t.module), "%s", r->module);
	rp_probe_target(&t, target, sizeof(target));
	if (rp_opts.json) {
		rp_dry_run_json(r, target);
		return;
	}
	rp_args_str(r->argtypes, (unsigned int)r->nargs, r->arg_names, args,
		    sizeof(args));
	if (r->ring.name[0] || r->ring.id) {
		strcpy(ring, " ring=");
		rp_session_label(r->ring.id, r->ring.name, ring + 6,
				 sizeof(ring) - 6);
	}
	printf("%s:%s args=%s%s%s%s%s%s\n", rp_kind_name(r->kind), target,
	       r->nargs ? args : "none",
	       r->flags & RAWPROBE_F_STACK ? " stack" : "",
	       r->flags & RAWPROBE_F_SYSCALL ? " syscall" : "",
	       r->flags & RAWPROBE_F_DISABLED ? " disabled" : "",
	       r->flags & RAWPROBE_F_PERSISTENT ? " persistent" : "", ring);
	rp_dry_run_programs(r);
	if (r->pair.role)
		printf("  %s\n", rp_pair_str(&r->pair, pair, sizeof(pair)));
}

void rp_probe_dry_run(const struct rp_probe_req *reqs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rp_dry_run_one(&reqs[i]);
}


static void rp_task_filter_json(struct json *j,
				const struct rp_task_filter *kept)
{
	struct rp_task_filter copy;
	const struct rp_task_filter *f = rp_filter_shown(kept, &copy);

	json_key(j, "filter");
	json_obj_open(j);
	if (f->set & RP_TASK_PID)
		json_kv_u64(j, "pid", f->pid);
	if (f->set & RP_TASK_TGID)
		json_kv_u64(j, "tgid", f->tgid);
	if (f->set & RP_TASK_COMM)
		json_kv_str(j, "comm", f->comm);
	if (f->set & RP_TASK_CPU)
		json_kv_u64(j, "cpu", f->cpu);
	if (f->set & RP_TASK_NOT_TGID)
		json_kv_u64(j, "not_tgid", f->not_tgid);
	if (f->set & RP_TASK_CGROUP) {
		json_kv_u64(j, "cgroup_id", f->cgroup_id);
		if (f->cgroup[0])
			json_kv_str(j, "cgroup", f->cgroup);
	}
	json_obj_close(j);
}

static const char *const rp_agg_hist_names[] = { "none", "log2", "linear" };

/* "aggregate": {"by": [...], "value": ..., "hist": ..., "max_keys": N} */
static void rp_agg_json(struct json *j, const struct rp_probe_info *pi)
{
	char buf[64];
	struct rp_probe_req req;
	unsigned int i;

	rp_agg_req_of_info(pi, &req);
	json_key(j, "aggregate");
	json_obj_open(j);
	json_key(j, "by");
	json_arr_open(j);
	for (i = 0; i < req.agg.nkeys; i++)
		json_str(j, rp_agg_key_name(&req, i, buf, sizeof(buf)));
	json_arr_close(j);
	if (req.agg.value_kind)
		json_kv_str(j, "value", rp_agg_value_name(&req, buf, sizeof(buf)));
	if (req.agg.hist && req.agg.hist < 3)
		json_kv_str(j, "hist", rp_agg_hist_names[req.agg.hist]);
	json_kv_u64(j, "max_keys", req.agg.max_keys);
	json_obj_close(j);
}

/* "by comm,pid; retval: sum, min, max; log2 histogram" */
static void rp_agg_text(const struct rp_probe_info *pi, char *out, size_t len)
{
	char buf[64];
	struct rp_probe_req req;
	unsigned int i;
	size_t at;

	rp_agg_req_of_info(pi, &req);
	at = (size_t)snprintf(out, len, "%s", req.agg.nkeys ? "by " : "per probe");
	for (i = 0; i < req.agg.nkeys && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s", i ? "," : "",
				       rp_agg_key_name(&req, i, buf, sizeof(buf)));
	if (req.agg.value_kind && at < len)
		at += (size_t)snprintf(out + at, len - at, "; %s: sum, min, max",
				       rp_agg_value_name(&req, buf, sizeof(buf)));
	if (req.agg.hist && req.agg.hist < 3 && at < len)
		snprintf(out + at, len - at, ", %s histogram",
			 rp_agg_hist_names[req.agg.hist]);
}

/* An override and its limits, as JSON; what it will not do is absent. */
static void rp_ovr_json(struct json *j, const struct rp_ovr_req *o)
{
	if (o->chain_step)
		json_kv_u64(j, "chain_step", o->chain_step);
	if (!o->set)
		return;
	json_key(j, "override");
	json_obj_open(j);
	json_kv_s64(j, "value", o->value);
	json_kv_u64(j, "probability", o->probability ? o->probability : 100);
	if (o->times)
		json_kv_u64(j, "times", o->times);
	if (o->interval > 1)
		json_kv_u64(j, "interval", o->interval);
	if (o->chain_len)
		json_kv_u64(j, "chain", o->chain_len);
	json_obj_close(j);
}

/* probe list's mark: "  override 1337 (5 done)", "  chain step 1" */
static void rp_ovr_mark(const struct rp_ovr_req *o, uint64_t done, char *buf,
			size_t len)
{
	if (o->set)
		snprintf(buf, len, "  override %" PRId64 " (%" PRIu64 " done)",
			 o->value, done);
	else if (o->chain_step)
		snprintf(buf, len, "  chain step %u", o->chain_step);
	else
		buf[0] = '\0';
}

/* "returns -12, 50%, at most 3 times, every 2nd, inside a chain of 1" */
static void rp_ovr_text(const struct rp_ovr_req *o, char *buf, size_t len)
{
	size_t n;

	n = (size_t)snprintf(buf, len, "returns %" PRId64, o->value);
	if (o->probability && o->probability < 100 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", %u%% of hits",
				      o->probability);
	if (o->times && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", at most %u times",
				      o->times);
	if (o->interval > 1 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", every %uth hit",
				      o->interval);
	if (o->chain_len && n < len)
		snprintf(buf + n, len - n, ", inside a call chain of %u",
			 o->chain_len);
}

void rp_probe_json(struct json *j, const struct rp_probe_info *pi)
{
	char target[RP_TARGET_MAX];
	unsigned int i;

	rp_probe_target(pi, target, sizeof(target));
	json_obj_open(j);
	json_kv_u64(j, "id", pi->id);
	json_kv_str(j, "kind", rp_kind_name(pi->kind));
	json_kv_str(j, "target", target);
	if (pi->symbol[0])
		json_kv_str(j, "symbol", pi->symbol);
	if (pi->module[0])
		json_kv_str(j, "module", pi->module);
	if (pi->name[0])
		json_kv_str(j, "name", pi->name);
	if (pi->owner[0])
		json_kv_str(j, "owner_module", pi->owner);
	json_kv_u64(j, "offset", pi->offset);
	if (pi->probed_addr) {
		char addr[24];

		/* a string: JSON numbers lose bits past 2^53 */
		snprintf(addr, sizeof(addr), "0x%" PRIx64, pi->probed_addr);
		json_kv_str(j, "address", addr);
	}
	json_kv_str(j, "state", rp_state_name(pi->state));
	json_kv_u64(j, "session", pi->session);
	json_kv_bool(j, "persistent", pi->flags & RAWPROBE_F_PERSISTENT);
	json_kv_bool(j, "syscall_args", pi->flags & RAWPROBE_F_SYSCALL);
	if (pi->flags & RAWPROBE_F_STACK)
		json_kv_bool(j, "stack", true);
	if (pi->flags & RAWPROBE_F_FTRACE)
		json_kv_bool(j, "ftrace", true);
	if (pi->kind == RAWPROBE_KIND_KRETPROBE)
		json_kv_u64(j, "maxactive", pi->maxactive);
	json_key(j, "args");
	json_arr_open(j);
	for (i = 0; i < pi->nargs; i++)
		json_str(j, rp_argtype_name(pi->argtypes[i]));
	json_arr_close(j);
	if (pi->arg_names[0])
		rp_arg_names_json(j, pi->arg_names, pi->nargs);
	rp_task_filter_json(j, &pi->filter);
	if (pi->value_filter[0])
		json_kv_str(j, "value_filter", pi->value_filter);
	if (pi->flags & RAWPROBE_F_AGG)
		rp_agg_json(j, pi);
	rp_ovr_json(j, &pi->ovr);
	if (pi->pair.role)
		rp_pair_json(j, &pi->pair, &pi->pair_stats);
	json_key(j, "stats");
	json_obj_open(j);
	json_kv_u64(j, "hits", pi->hits);
	json_kv_u64(j, "records", pi->records);
	json_kv_u64(j, "lost_ring", pi->lost_ring);
	json_kv_u64(j, "missed_maxactive", pi->miss_maxactive);
	json_kv_u64(j, "missed_recursion", pi->miss_recursion);
	json_kv_u64(j, "string_faults", pi->str_faults);
	json_kv_u64(j, "fetch_faults", pi->fetch_faults);
	json_kv_u64(j, "filtered", pi->filtered);
	if (pi->ovr.set)
		json_kv_u64(j, "overridden", pi->overridden);
	json_obj_close(j);
	json_obj_close(j);
}

void rp_probe_print(const struct rp_probe_info *pi)
{
	rp_probe_json(&rp_json, pi);
	json_end_doc(&rp_json);
}

void rp_probe_table(const struct rp_probe_info *v, size_t n,
		    const struct rp_sessions *ss)
{
	char maxact[16], args[RAWPROBE_ARG_NAMES_LEN + 64], ovr[64];
	char ring[RP_SESSION_LABEL_MAX];
	struct rp_probe_shown shown;
	size_t i;

	printf("%4s %-9s %-32s %-8s %6s %10s %10s %8s %8s %8s %8s %s\n",
	       "ID", "KIND", "TARGET", "STATE", "MAXACT", "HITS", "RECORDS",
	       "LOST", "MISSED", "RECURSE", "FILTERED", "RING");
	for (i = 0; i < n; i++) {
		const struct rp_probe_info *pi = &v[i];

		rp_probe_shown(pi, &shown);
		if (pi->kind == RAWPROBE_KIND_KRETPROBE)
			snprintf(maxact, sizeof(maxact), "%u", pi->maxactive);
		else
			snprintf(maxact, sizeof(maxact), "-");
		rp_ovr_mark(&pi->ovr, pi->overridden, ovr, sizeof(ovr));
		if (pi->pair.role)
			snprintf(ovr, sizeof(ovr), "  pair %s",
				 pi->pair.role == RAWPROBE_PAIR_START ?
				 "start" : "end");
		/* names (identifiers, checked) with their types */
		args[0] = '\0';
		if (pi->arg_names[0])
			rp_args_str(pi->argtypes, pi->nargs, pi->arg_names,
				    args, sizeof(args));
		printf("%4u %-9s %-32s %-8s %6s %10" PRIu64 " %10" PRIu64
		       " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
		       " %s%s%s%s%s%s%s%s%s%s%s%s\n",
		       pi->id, rp_kind_name(pi->kind), shown.target,
		       rp_state_name(pi->state), maxact, pi->hits, pi->records,
		       pi->lost_ring, pi->miss_maxactive, pi->miss_recursion,
		       pi->filtered,
		       rp_sessions_label(ss, pi->session, ring, sizeof(ring)),
		       pi->flags & RAWPROBE_F_PERSISTENT ? "" : "  (owned)",
		       shown.filter[0] ? "  [" : "", shown.filter,
		       shown.filter[0] ? "]" : "",
		       shown.owner[0] ? "  by module " : "", shown.owner,
		       args[0] ? "  args " : "", args,
		       pi->flags & RAWPROBE_F_STACK ? "  stack" : "",
		       pi->flags & RAWPROBE_F_FTRACE ? "  ftrace" : "", ovr);
	}
}

/* probe show: one probe, every field */
void rp_probe_detail(const struct rp_probe_info *pi,
		     const struct rp_sessions *ss)
{
	const struct rp_session *named;
	char ring[RP_SESSION_LABEL_MAX];
	char sym[RP_KSYM_MAX], sym_shown[RP_ESCAPED_MAX(RP_KSYM_MAX) + 1];
	char args[RAWPROBE_ARG_NAMES_LEN + 64];
	struct rp_probe_shown shown;

	rp_probe_shown(pi, &shown);
	printf("probe %u: %s %s\n", pi->id, rp_kind_name(pi->kind),
	       shown.target);
	printf("  state       %s, %s\n", rp_state_name(pi->state),
	       pi->flags & RAWPROBE_F_PERSISTENT ? "persistent" :
	       "owned by the socket that added it");
	if (shown.owner[0])
		printf("  owner       module %s\n", shown.owner);
	named = rp_sessions_find(ss, pi->session);
	if (pi->session == RAWPROBE_SESSION_DEFAULT)
		printf("  ring        default (session 0)\n");
	else if (named && named->name[0])
		printf("  ring        %s (session %u)\n",
		       rp_session_label(pi->session, named->name, ring,
					sizeof(ring)), pi->session);
	else
		printf("  ring        session %u%s\n", pi->session,
		       named ? " (a command's own)" : "");
	if (pi->probed_addr) {
		rp_ksym_format(pi->probed_addr, sym, sizeof(sym));
		rp_escape_str(sym_shown, sizeof(sym_shown), sym, sizeof(sym));
		printf("  address     0x%" PRIx64 "%s%s%s\n", pi->probed_addr,
		       sym[0] ? " <" : "", sym_shown, sym[0] ? ">" : "");
	}
	if (pi->kind == RAWPROBE_KIND_KRETPROBE)
		printf("  maxactive   %u\n", pi->maxactive);
	rp_args_str(pi->argtypes, pi->nargs, pi->arg_names, args, sizeof(args));
	printf("  args        %s", args);
	printf("%s%s\n", pi->nargs ? "" : "none",
	       pi->nargs && (pi->flags & RAWPROBE_F_SYSCALL) ?
	       " (from the syscall's pt_regs)" : "");
	if (pi->flags & RAWPROBE_F_STACK)
		printf("  stack       the kernel stack, at %s\n",
		       pi->kind == RAWPROBE_KIND_KRETPROBE ?
		       "the function's entry" : "each hit");
	if (pi->flags & RAWPROBE_F_AGG) {
		char agg[256];

		rp_agg_text(pi, agg, sizeof(agg));
		printf("  counts      %s ('rawprobectl agg show %u')\n", agg,
		       pi->id);
	}
	if (pi->ovr.set) {
		char ovr[160];

		rp_ovr_text(&pi->ovr, ovr, sizeof(ovr));
		printf("  override    %s\n"
		       "  overridden  %" PRIu64 "\n", ovr, pi->overridden);
	} else if (pi->ovr.chain_step) {
		printf("  chain step  %u (of the call chain its batch's override needs)\n",
		       pi->ovr.chain_step);
	}
	if (pi->pair.role)
		rp_pair_detail(stdout, &pi->pair, &pi->pair_stats);
	printf("  filter      %s\n", shown.filter[0] ? shown.filter : "none");
	printf("  hits        %" PRIu64 "\n"
	       "  records     %" PRIu64 "\n"
	       "  lost        %" PRIu64 " (ring full)\n"
	       "  missed      %" PRIu64 " (maxactive), %" PRIu64 " (recursion)\n"
	       "  filtered    %" PRIu64 "\n"
	       "  str faults  %" PRIu64 "\n"
	       "  fetch faults %" PRIu64 " (fields behind bad pointers)\n",
	       pi->hits, pi->records, pi->lost_ring, pi->miss_maxactive,
	       pi->miss_recursion, pi->filtered, pi->str_faults,
	       pi->fetch_faults);
}
