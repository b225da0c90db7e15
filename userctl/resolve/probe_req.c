// SPDX-License-Identifier: GPL-2.0
/*
 * Probe requests from the command line: targets, the options probe add
 * and stream -e share, what the kernel would refuse said first, and the
 * arguments and filters resolved against kallsyms and BTF.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/symbols.h"
#include "resolve/args.h"
#include "resolve/btf.h"
#include "resolve/filter.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

void rp_args_str(const unsigned char *types, unsigned int nargs,
		 const char *names, char *buf, size_t len)
{
	size_t at = 0, nlen;
	unsigned int i;
	int n;

	buf[0] = '\0';
	for (i = 0; i < nargs && at < len; i++) {
		nlen = names && *names ? strcspn(names, ",") : 0;
		n = snprintf(buf + at, len - at, "%s%.*s%s%s", i ? "," : "",
			     (int)nlen, names ? names : "", nlen ? ":" : "",
			     rp_argtype_name(types[i]));
		if (n < 0)
			return;
		at += (size_t)n;
		if (names)
			names += nlen + (names[nlen] == ',');
	}
}

/*
 * An offset past the function's end lands in the next function (or
 * padding), which the kernel refuses as "not kernel text" or a bad
 * instruction boundary: say what is wrong, from kallsyms.
 */
static int rp_offset_check(const struct rp_probe_req *r)
{
	uint64_t size;

	if (!r->symbol[0] || !r->offset ||
	    rp_ksym_size(r->symbol, r->module[0] ? r->module : NULL, &size) || r->offset < size)
		return 0;
	fprintf(stderr, "rawprobectl: %s%s%s+0x%x: the offset is past the "
		"end of %s, which is 0x%" PRIx64 " bytes long (kallsyms)\n",
		r->module, r->module[0] ? ":" : "", r->symbol, r->offset,
		r->symbol, size);
	return -ERANGE;
}

int rp_probe_check(const struct rp_probe_req *reqs, size_t n)
{
	const char **syms, **mods;
	size_t i, k = 0;
	int err;

	syms = calloc(n, sizeof(*syms));
	mods = calloc(n, sizeof(*mods));
	if (!syms || !mods) {
		free(syms);
		free(mods);
		return -ENOMEM;
	}
	/* a glob's functions were counted in kallsyms as it was expanded */
	for (i = 0; i < n; i++)
		if (reqs[i].kind == RAWPROBE_KIND_TRACEPOINT) {
			if (!reqs[i].expanded && rp_tp_check(reqs[i].symbol)) {
				free(syms);
				free(mods);
				return -ENOENT;
			}
		} else if (reqs[i].symbol[0] && !reqs[i].expanded) {
			syms[k] = reqs[i].symbol;
			mods[k++] = reqs[i].module;
		}
	err = k ? rp_symbols_check(syms, mods, k) : 0;
	free(syms);
	free(mods);
	for (i = 0; !err && i < n; i++)
		err = rp_offset_check(&reqs[i]);
	return err;
}

/*
 * What the kernel refuses with --stack (probes/probe.c), said before
 * asking it: the stack needs a named function's entry...
 */
static int rp_stack_entry_check(const struct rp_probe_req *r)
{
	if (!(r->flags & RAWPROBE_F_STACK))
		return RP_EXIT_OK;
	return rp_entry_needed(r, "--stack", "stacks are recorded at a "
			       "function's entry", "where stacks are recorded");
}

/* ...and takes the string area, so no argument may be a string. */
static int rp_stack_args_check(const struct rp_probe_req *r)
{
	char args[RAWPROBE_ARG_NAMES_LEN + 64];
	int i;

	if (!(r->flags & RAWPROBE_F_STACK))
		return RP_EXIT_OK;
	for (i = 0; i < r->nargs; i++) {
		if (!rp_argtype_is_area(r->argtypes[i]))
			continue;
		rp_args_str(r->argtypes, (unsigned int)r->nargs, r->arg_names,
			    args, sizeof(args));
		return rp_usage_error("--stack takes the record's string "
				      "area: not with a str/ustr/strv/ip6/"
				      "saddr/daddr argument (--args %s)", args);
	}
	return RP_EXIT_OK;
}

/* --args auto: the function's arguments as BTF has them */
static int rp_args_auto(struct rp_probe_req *r)
{
	int err = rp_entry_check(r, "--args auto");

	if (err)
		return err;
	err = rp_btf_req_args(r);
	return err ? rp_exit_from_errno(err) : RP_EXIT_OK;
}

/* What needs the function's BTF: --args auto or by name, --filter */
static int rp_auto_args_one(struct rp_probe_req *r)
{
	int rc = rp_stack_entry_check(r);

	if (rc)
		return rc;
	if (r->args_by_name[0])
		rc = rp_fetch_args_compile(r);
	else if (r->args_named) {
		rp_args_str(r->argtypes, (unsigned int)r->nargs, r->arg_names,
			    r->args_by_name, sizeof(r->args_by_name));
		rc = rp_fetch_labels_compile(r);
	}
	else if (r->args_auto)
		rc = rp_args_auto(r);
	if (!rc && r->value_filter[0])
		rc = rp_value_filter_compile(r);
	return rc ? rc : rp_stack_args_check(r);
}

/*
 * A probe the kernel can arm through rawprobe's ftrace_ops (kmod/fentry.c)
 * rather than kprobes: an entry probe on a function, vmlinux's or a
 * module's, with no offset and no override, whose address (kallsyms')
 * this user can read. RAWPROBE_ARM=kprobes arms each through kprobes
 * instead.
 */
static bool rp_req_ftrace_ok(const struct rp_probe_req *r, uint64_t addr)
{
	const char *arm = getenv("RAWPROBE_ARM");

	if (arm && !strcmp(arm, "kprobes"))
		return false;
	return (r->kind == RAWPROBE_KIND_KPROBE ||
		r->kind == RAWPROBE_KIND_JPROBE) &&
	       !r->offset && !r->ovr.set && !r->ovr.chain_step && addr;
}

/*
 * An entry probe on a vmlinux function by name goes through ftrace where
 * it can, as a glob's does: a hit there skips kprobes' table walk (64
 * chains, which every other kprobe lengthens) and its bookkeeping
 * (kmod/fentry.c), and a list arms in one ftrace update. A function
 * ftrace cannot trace falls back to kprobes in the kernel.
 */
static bool rp_req_ftrace_want(const struct rp_probe_req *r)
{
	return !r->expanded && r->symbol[0] &&
	       !r->module[0] &&		/* rp_symbols_vmlinux() */
	       rp_req_ftrace_ok(r, 1);	/* the address next */
}

static void rp_reqs_ftrace(struct rp_probe_req *reqs, size_t n)
{
	const char **syms = calloc(n, sizeof(*syms));
	uint64_t *addr = calloc(n, sizeof(*addr));
	size_t i, k = 0;

	for (i = 0; syms && addr && i < n; i++)
		if (rp_req_ftrace_want(&reqs[i]))
			syms[k++] = reqs[i].symbol;
	if (k && !rp_symbols_vmlinux(syms, k, addr))
		for (i = 0, k = 0; i < n; i++)
			if (rp_req_ftrace_want(&reqs[i]))
				reqs[i].ftrace_addr = addr[k++];
	free(syms);
	free(addr);
}

int rp_probe_auto_args(struct rp_probe_req *reqs, size_t n)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		rc = rp_pair_req_prepare(&reqs[i]) ?:
		     rp_auto_args_one(&reqs[i]);
		if (!rc)
			rp_pair_req_resolve(&reqs[i]);
		if (!rc && (reqs[i].flags & RAWPROBE_F_AGG))
			rc = rp_agg_req_resolve(&reqs[i]);
		if (rc)
			return rc;
	}
	rc = rp_pair_carry_resolve(reqs, n);
	if (rc)
		return rc;
	rp_reqs_ftrace(reqs, n);
	return RP_EXIT_OK;
}

/* Options shared by probe add and stream -e. */
/* --override VALUE: what the kernel may take of it is the kernel's. */
static int rp_override_opt(const char *arg, struct rp_probe_req *req)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 0);
	/* strtoll() also takes blanks and a '+' first */
	if (!isdigit((unsigned char)arg[arg[0] == '-']) || *end || errno)
		return rp_usage_error("--override takes the value the function "
				      "returns (an integer such as -12 or "
				      "1337), not '%s'", arg);
	req->ovr.set = true;
	req->ovr.value = v;
	return 0;
}

int rp_probe_opt(int opt, const char *arg, struct rp_probe_req *req)
{
	uint64_t v;
	int n;

	switch (opt) {
	case 'a':
		req->args_auto = !strcmp(arg, "auto");
		req->args_named = false;
		req->args_by_name[0] = '\0';
		req->nfetch = 0;
		req->nargs = 0;
		req->arg_names[0] = '\0';
		if (req->args_auto)
			return 0;
		if (rp_args_by_name(arg)) {
			if (strlen(arg) >= sizeof(req->args_by_name))
				return rp_usage_error("--args: %zu characters, at "
						      "most %d", strlen(arg),
						      RP_ARGSPEC_MAX - 1);
			strcpy(req->args_by_name, arg);
			return 0;
		}
		n = rp_argspec_parse_names(arg, req->argtypes, req->arg_names,
					   sizeof(req->arg_names));
		if (n < 0)
			return rp_usage_error("bad --args '%s': a count 0..%d, 'auto', "
					      "or up to %d of u64,s64,s32,u32,ptr,str,ustr,"
					      "strv,ustrv,hex,ksym,ip4,be16,be32,ip6, "
					      "each NAME:TYPE or none",
					      arg, RAWPROBE_MAX_ARGS, RAWPROBE_MAX_ARGS);
		req->nargs = n;
		req->args_named = req->arg_names[0] != '\0';
		return 0;
	case 'm':
		if (rp_parse_u64(arg, 1, RAWPROBE_MAXACTIVE_MAX, &v))
			return rp_usage_error("--maxactive must be 1..%u, not '%s'",
					      RAWPROBE_MAXACTIVE_MAX, arg);
		req->maxactive = (uint32_t)v;
		return 0;
	case 's':
		if (rp_parse_u64(arg, 1, RAWPROBE_STR_LEN - 1, &v))
			return rp_usage_error("--strmax must be 1..%u, not '%s'",
					      RAWPROBE_STR_LEN - 1, arg);
		req->str_max = (uint16_t)v;
		return 0;
	case 'd':
		req->flags |= RAWPROBE_F_DISABLED;
		return 0;
	case 'S':
		req->flags |= RAWPROBE_F_SYSCALL;
		return 0;
	case 'K':
		req->flags |= RAWPROBE_F_STACK;
		return 0;
	case 'F':
		return rp_value_filter_opt(arg, req);
	case RP_OPT_OVERRIDE:
		return rp_override_opt(arg, req);
	default:
		return rp_task_filter_opt(opt, arg, &req->filter);
	}
}

int rp_probe_req_init(struct rp_probe_req *req, const char *kind,
		      const char *target)
{
	req->kind = rp_kind_parse(strcmp(kind, "t") ? kind : "tracepoint");
	if (req->kind == RAWPROBE_KIND_TRACEPOINT)
		return rp_tp_target_parse(target, req);
	if (req->kind != RAWPROBE_KIND_KPROBE &&
	    req->kind != RAWPROBE_KIND_KRETPROBE &&
	    req->kind != RAWPROBE_KIND_JPROBE)
		return rp_usage_error("unknown probe kind '%s': kprobe, "
				      "kretprobe, jprobe or tracepoint", kind);
	switch (rp_target_parse(target, req)) {
	case 0:
		return 0;
	case -EILSEQ:
		return rp_usage_error("bad glob '%s': a '[' without its ']', or "
				      "a character no function's name has",
				      target);
	case -EDOM:
		return rp_usage_error("bad target '%s': a glob names functions' "
				      "entries, without +OFFSET", target);
	default:
		return rp_usage_error("bad target '%s': SYMBOL[+OFFSET], "
				      "MODULE:SYMBOL[+OFFSET], GLOB, MODULE:GLOB "
				      "or 0xADDRESS", target);
	}
}

int rp_max_probes_opt(const char *arg, size_t *max)
{
	uint64_t v;

	if (rp_parse_u64(arg, 1, RAWPROBE_MAX_PROBES, &v))
		return rp_usage_error("--max-probes wants 1..%d (the probes the "
				      "kernel holds), not '%s'",
				      RAWPROBE_MAX_PROBES, arg);
	*max = (size_t)v;
	return 0;
}

/* "kprobe:ext4:ext4_*", as it was written */
static void rp_glob_name(const struct rp_probe_req *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s%s%s", rp_kind_name(g->kind), g->module,
		 g->module[0] ? ":" : "", g->symbol);
}

/* What a glob matched, and what it left out, said once on stderr. */
static int rp_glob_said(const struct rp_probe_req *g,
			const struct rp_glob_result *r)
{
	char name[RP_TARGET_MAX];

	bool tp = g->kind == RAWPROBE_KIND_TRACEPOINT;

	rp_glob_name(g, name, sizeof(name));
	if (!r->n && tp) {
		fprintf(stderr, "rawprobectl: '%s' matches no tracepoint "
			"(available_events)%s\n", name, r->not_tp ?
			": every match was left out, see below" : "");
	} else if (!r->n) {
		fprintf(stderr, "rawprobectl: '%s' matches no function kprobes "
			"can take (available_filter_functions, less kprobes' "
			"blacklist)%s\n", name, r->shared + r->blacklisted +
			r->own ? ": every match was left out, see below" : "");
	} else {
		fprintf(stderr, "rawprobectl: '%s': %zu %s%s\n", name, r->n,
			tp ? "tracepoint" : "function", r->n == 1 ? "" : "s");
	}
	if (r->not_tp)
		fprintf(stderr, "  left out: %zu ftrace events with no "
			"tracepoint (ftrace's own, dynamic events)\n", r->not_tp);
	if (r->shared)
		fprintf(stderr, "  left out: %zu that share their name with "
			"another function (probe one by address, 0xADDR)\n",
			r->shared);
	if (r->blacklisted)
		fprintf(stderr, "  left out: %zu on kprobes' blacklist\n",
			r->blacklisted);
	if (r->own)
		fprintf(stderr, "  left out: %zu of rawprobe's own module\n",
			r->own);
	return r->n ? 0 : -ENOENT;
}


/* g's requests, one a function of r, into out[] */
static void rp_glob_reqs(const struct rp_probe_req *g,
			 const struct rp_glob_result *r,
			 struct rp_probe_req *out)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		out[i] = *g;
		out[i].glob = false;
		out[i].expanded = true;
		memcpy(out[i].symbol, r->v[i].name, sizeof(out[i].symbol));
		memcpy(out[i].module, r->v[i].module, sizeof(out[i].module));
		out[i].ftrace_addr = rp_req_ftrace_ok(g, r->v[i].addr) ?
				     r->v[i].addr : 0;
	}
}

/*
 * A glob that makes more probes than asked for (bpftrace stops at 512) is
 * refused before anything is added, saying how many and what raises it.
 */
static int rp_glob_cap_check(const struct rp_probe_req *g, size_t total,
			     size_t max)
{
	char name[RP_TARGET_MAX];

	if (total <= max)
		return RP_EXIT_OK;
	rp_glob_name(g, name, sizeof(name));
	if (total > RAWPROBE_MAX_PROBES)
		return rp_usage_error("'%s' makes %zu probes, more than the "
				      "kernel's %d: narrow the glob", name,
				      total, RAWPROBE_MAX_PROBES);
	return rp_usage_error("'%s' makes %zu probes, more than %zu: narrow "
			      "the glob, or raise the cap with --max-probes "
			      "%zu (at most %d)", name, total, max, total,
			      RAWPROBE_MAX_PROBES);
}

/*
 * Expand reqs[at], a glob, in place: *n grows by its functions less 1.
 * A function glob's result r comes expanded (rp_glob_funcs()), and is
 * freed here; an event glob's is made here.
 */
static int rp_glob_expand_one(struct rp_probe_req **reqs, size_t *n,
			      size_t at, size_t max, struct rp_glob_result r)
{
	struct rp_probe_req g = (*reqs)[at], *v;
	size_t total;
	int err = 0, rc;

	if (g.kind == RAWPROBE_KIND_TRACEPOINT)
		err = rp_glob_events(g.symbol, &r);
	if (!err)
		err = rp_glob_said(&g, &r);
	if (err) {
		rp_glob_result_free(&r);
		return rp_exit_from_errno(err);
	}
	total = *n - 1 + r.n;
	rc = rp_glob_cap_check(&g, total, max);
	v = rc ? NULL : realloc(*reqs, (total + 1) * sizeof(*v));
	if (!v) {
		rp_glob_result_free(&r);
		return rc ?: RP_EXIT_FAIL;
	}
	memmove(&v[at + r.n], &v[at + 1], (*n - at - 1) * sizeof(*v));
	rp_glob_reqs(&g, &r, &v[at]);
	*reqs = v;
	*n = total;
	rp_glob_result_free(&r);
	return RP_EXIT_OK;
}

static bool rp_req_is_func_glob(const struct rp_probe_req *r)
{
	return r->glob && r->kind != RAWPROBE_KIND_TRACEPOINT;
}

/*
 * The function globs of reqs[0..n), expanded together (kallsyms read
 * once: seven globs cost about one): their results in order, in *out.
 */
static int rp_glob_funcs(const struct rp_probe_req *reqs, size_t n,
			 struct rp_glob_result **out, size_t *nout)
{
	const char **mods, **pats;
	size_t i, k = 0;
	int err = -ENOMEM;

	*nout = 0;
	for (i = 0; i < n; i++)
		*nout += rp_req_is_func_glob(&reqs[i]);
	*out = calloc(*nout + 1, sizeof(**out));
	mods = calloc(*nout + 1, sizeof(*mods));
	pats = calloc(*nout + 1, sizeof(*pats));
	if (*out && mods && pats) {
		for (i = 0; i < n; i++) {
			if (!rp_req_is_func_glob(&reqs[i]))
				continue;
			mods[k] = reqs[i].module;
			pats[k++] = reqs[i].symbol;
		}
		err = *nout ? rp_glob_expand_all(mods, pats, *nout, *out) : 0;
	}
	free(mods);
	free(pats);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

int rp_probe_reqs_expand(struct rp_probe_req **reqs, size_t *n, size_t max)
{
	struct rp_glob_result *funcs, none = { 0 };
	size_t i, len, k = 0, nfuncs;
	int rc = RP_EXIT_OK, err;

	err = rp_glob_funcs(*reqs, *n, &funcs, &nfuncs);
	if (err)
		return rp_exit_from_errno(err);
	for (i = 0; !rc && i < *n; i += len) {
		len = 1;
		if (!(*reqs)[i].glob)
			continue;
		len = *n;
		rc = rp_glob_expand_one(reqs, n, i, max,
					rp_req_is_func_glob(&(*reqs)[i]) ?
					funcs[k++] : none);
		len = *n - len + 1;	/* past the new requests */
	}
	while (k < nfuncs)	/* those an error left unspliced */
		rp_glob_result_free(&funcs[k++]);
	free(funcs);
	return rc;
}

/* "kretprobe:vfs_read" -> kind and target */
int rp_probe_req_parse(const char *arg, struct rp_probe_req *req)
{
	char kind[16];
	const char *colon = strchr(arg, ':');

	if (!colon || (size_t)(colon - arg) >= sizeof(kind))
		return rp_usage_error("a probe is KIND:TARGET, e.g. kretprobe:vfs_read, not '%s'",
				      arg);
	memcpy(kind, arg, colon - arg);
	kind[colon - arg] = '\0';
	memset(req, 0, sizeof(*req));
	return rp_probe_req_init(req, kind, colon + 1);
}
