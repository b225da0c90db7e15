// SPDX-License-Identifier: GPL-2.0
/*
 * Prototypes as probes see them (btf.c finds the BTF): a function's,
 * kept for the next lookups, and those not a function's own. A
 * syscall's entry point takes the user's pt_regs, so its arguments are
 * the syscall's
 * (__do_sys_NAME's or __se_sys_NAME's BTF, else its tracefs format); a
 * tracepoint's are its __traceiter_EVENT function's, less __data; a
 * syscalls:* event's are the syscall's, passed in place.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "resolve/btf_int.h"
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/tracefs.h"

/* __x64_sys_openat -> openat (*compat: a compat syscall); NULL if not one */
const char *rp_btf_syscall_name(const char *sym, bool *compat)
{
	static const char *const pre[] = {
		"__x64_sys_", "__ia32_sys_", "__x64_compat_sys_", "__ia32_compat_sys_",
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(pre); i++) {
		len = strlen(pre[i]);
		if (!strncmp(sym, pre[i], len) && sym[len]) {
			*compat = i >= 2;
			return sym + len;
		}
	}
	return NULL;
}

/* SYSCALL_DEFINE0's __do_sys_NAME(const struct pt_regs *__unused) */
static bool rp_btf_no_args(const struct rp_btf_proto *pr)
{
	const struct btf_type *t;
	uint32_t id;

	if (pr->nparams != 1 || pr->params[0].argtype != RAWPROBE_ARG_PTR)
		return false;
	id = pr->params[0].type_id;
	t = rp_btf_skip(pr->btf, &id);
	id = t ? t->type : 0;
	t = rp_btf_skip(pr->btf, &id);
	return t && btf_is_struct(t) &&
	       !strcmp(rp_btf_str(pr->btf, t->name_off), "pt_regs");
}

/* tracefs, where syscalls' formats are; NULL: none to use */
static const char *rp_btf_tracefs(void)
{
	/* another kernel's BTF: not this one's tracefs */
	if (!rp_tracefs_env() && rp_btf_env())
		return NULL;
	return rp_tracefs_dir();
}

/* A C integer type's name as BTF spells it ("long" is "long int"). */
static const char *rp_btf_int_name(const char *c)
{
	static const char *const names[][2] = {
		{ "long", "long int" }, { "unsigned long", "long unsigned int" },
		{ "unsigned", "unsigned int" }, { "short", "short int" },
		{ "unsigned short", "short unsigned int" },
		{ "long long", "long long int" },
		{ "unsigned long long", "long long unsigned int" },
		{ "bool", "_Bool" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(c, names[i][0]))
			return names[i][1];
	return c;
}

/* "struct X", "union X", "enum X": X's id in btf, or 0 if not tagged so */
static int rp_btf_tagged(const struct btf *btf, const char *c)
{
	static const struct { const char *tag; int kind; } tags[] = {
		{ "struct ", BTF_KIND_STRUCT }, { "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM },
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		len = strlen(tags[i].tag);
		if (!strncmp(c, tags[i].tag, len))
			return btf__find_by_name_kind(btf, c + len, tags[i].kind);
	}
	return 0;
}

/* A type spelled in C ("umode_t", "const char *"), found in btf. */
static void rp_btf_param_from_c(struct rp_btf_param *p, const struct btf *btf,
				const char *type)
{
	char base[RP_BTF_TYPE_MAX], *b = base;
	int id;

	snprintf(p->type, sizeof(p->type), "%s", type);
	p->fit = RP_FIT_OK;
	if (strchr(type, '*')) {
		p->argtype = RAWPROBE_ARG_PTR;
		return;
	}
	snprintf(base, sizeof(base), "%s", type);
	while (!strncmp(b, "const ", 6) || !strncmp(b, "volatile ", 9))
		b = strchr(b, ' ') + 1;
	id = rp_btf_tagged(btf, b);
	if (!id) {	/* not tagged: a typedef, or an integer's name */
		id = btf__find_by_name_kind(btf, b, BTF_KIND_TYPEDEF);
		if (id <= 0)
			id = btf__find_by_name_kind(btf, rp_btf_int_name(b),
						    BTF_KIND_INT);
	}
	if (id <= 0) {
		p->argtype = RAWPROBE_ARG_U64;
		p->fit = RP_FIT_RAW;
		return;
	}
	p->type_id = (uint32_t)id;
	p->fit = (unsigned char)rp_btf_fit(btf, p->type_id, &p->argtype);
}

/*
 * "\tfield:const char * filename;\toffset:24;..." -> type and name. The
 * syscall's arguments follow its __syscall_nr field.
 */
static int rp_btf_format_line(char *line, char **type, char **name)
{
	char *f = strstr(line, "field:"), *semi, *sp;

	if (!f)
		return -1;
	f += 6;
	semi = strchr(f, ';');
	if (!semi)
		return -1;
	*semi = '\0';
	sp = strrchr(f, ' ');
	if (!sp)
		return -1;
	*name = sp + 1;
	while (sp > f && sp[-1] == ' ')
		sp--;
	*sp = '\0';
	*type = f;
	return 0;
}

/* The syscall's arguments from its tracepoint's format. */
static int rp_btf_from_format(const char *tracefs, const char *sys,
			      struct rp_btf_proto *pr, char *path, size_t len)
{
	char line[512], *type, *name;
	bool args = false;
	unsigned int n = 0;
	FILE *f;
	int id;

	snprintf(path, len, "%s/events/syscalls/sys_enter_%s/format", tracefs, sys);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (rp_btf_format_line(line, &type, &name))
			continue;
		if (!strcmp(name, "__syscall_nr")) {
			args = true;
			continue;
		}
		if (!args || n == RAWPROBE_MAX_ARGS)
			continue;
		if (rp_is_ident(name, strlen(name), RP_BTF_NAME_MAX - 1))
			snprintf(pr->params[n].name, sizeof(pr->params[n].name),
				 "%s", name);
		else
			snprintf(pr->params[n].name, sizeof(pr->params[n].name),
				 "arg%u", n);
		rp_btf_param_from_c(&pr->params[n++], pr->btf, type);
	}
	fclose(f);
	if (!args)
		return -EBADMSG;
	pr->nparams = n;
	snprintf(pr->ret, sizeof(pr->ret), "long");
	id = btf__find_by_name_kind(pr->btf, "long int", BTF_KIND_INT);
	pr->ret_id = id > 0 ? (uint32_t)id : 0;
	snprintf(pr->from, sizeof(pr->from), "syscalls:sys_enter_%s's format",
		 sys);
	return 0;
}

/*
 * A syscall's entry point: the syscall's own arguments, which its
 * __do_sys_ (or __se_sys_) function has when the compiler kept it, and
 * its tracepoint's format otherwise.
 */
int rp_btf_syscall(const char *function, const char *sys, bool compat,
			  struct rp_btf_proto *pr, bool verbose)
{
	const char *kinds[] = { compat ? "__do_compat_sys_" : "__do_sys_",
				compat ? "__se_compat_sys_" : "__se_sys_" };
	const char *tracefs = rp_btf_tracefs();
	char name[RP_BTF_NAME_MAX + 32], path[PATH_MAX + 64];
	const struct btf *btf;
	uint32_t id;
	size_t i;
	int err;

	pr->syscall = true;
	pr->user_ptrs = true;
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%s%s", kinds[i], sys);
		if (rp_btf_where(name, "", &btf, &id, false))
			continue;
		rp_btf_fill(btf, id, pr);
		snprintf(pr->from, sizeof(pr->from), "%s", name);
		if (rp_btf_no_args(pr))
			pr->nparams = 0;
		return 0;
	}
	pr->btf = rp_btf_kernel(false);
	err = tracefs && !compat ? rp_btf_from_format(tracefs, sys, pr, path,
						       sizeof(path)) : -ENOENT;
	if (!err)
		return 0;
	if (verbose) {
		fprintf(stderr, "rawprobectl: %s: the BTF has no prototype of the "
			"syscall %s (%s%s and %s%s were inlined)", function, sys,
			kinds[0], sys, kinds[1], sys);
		if (tracefs && !compat)
			fprintf(stderr, ", and %s: %s", path, strerror(-err));
		else if (!compat)
			fprintf(stderr, ", and no tracefs to read its format "
				"from (RAWPROBECTL_TRACEFS=DIR names one)");
		fprintf(stderr, ": give its arguments' types with --args\n");
	}
	return -ENOENT;
}

/*
 * A syscalls:sys_enter_NAME event's arguments: the syscall's own, as a
 * probe on its entry point has them, but passed in place (the kernel
 * reads them from the user's registers); sys_exit_NAME's: its return
 * value, "ret" as ftrace names it.
 */
static int rp_btf_tp_syscall(const char *event, struct rp_btf_proto *pr,
			     bool verbose)
{
	const char *name = strchr(event, ':') + 1;
	bool enter = !strncmp(name, "sys_enter_", 10);
	const char *sys = name + (enter ? 10 : 9);
	int err;

	if (!enter && strncmp(name, "sys_exit_", 9))
		return -ENOENT;
	if (!rp_btf_kernel(verbose))
		return -ENOENT;
	if (enter) {
		err = rp_btf_syscall(event, sys, false, pr, verbose);
		if (err)
			return err;
	} else {
		pr->btf = rp_btf_kernel(false);
		pr->nparams = 1;
		snprintf(pr->params[0].name, sizeof(pr->params[0].name), "ret");
		rp_btf_param_from_c(&pr->params[0], pr->btf, "long");
		snprintf(pr->from, sizeof(pr->from), "sys_%s's return", sys);
	}
	pr->syscall = false;		/* the kernel passes them in place */
	pr->user_ptrs = enter;
	snprintf(pr->ret, sizeof(pr->ret), "void");
	pr->ret_id = 0;
	return 0;
}

/*
 * A tracepoint's arguments ("SUBSYSTEM:EVENT"): its __traceiter_EVENT
 * function's, which BTF names (the btf_trace_EVENT typedef does not),
 * past the __data the tracepoint passes its probes first; no return.
 */
int rp_btf_tp_proto(const char *event, struct rp_btf_proto *pr,
			   bool verbose)
{
	char fn[RP_BTF_NAME_MAX + 16];
	const struct btf *btf;
	uint32_t id;
	int err;

	if (!strncmp(event, "syscalls:", 9))
		return rp_btf_tp_syscall(event, pr, verbose);
	snprintf(fn, sizeof(fn), "__traceiter_%s", strchr(event, ':') + 1);
	err = rp_btf_where(fn, "", &btf, &id, verbose);
	if (err == -ENOENT && verbose)
		fprintf(stderr, "rawprobectl: tracepoint:%s: the kernel's BTF has "
			"no %s, which names a tracepoint's arguments: give them "
			"by position (--args 2)\n", event, fn);
	if (err)
		return err;
	rp_btf_fill(btf, id, pr);
	if (pr->nparams) {
		memmove(&pr->params[0], &pr->params[1],
			(RP_BTF_PARAMS_MAX - 1) * sizeof(pr->params[0]));
		pr->nparams--;
	}
	snprintf(pr->ret, sizeof(pr->ret), "void");
	pr->ret_id = 0;
	snprintf(pr->from, sizeof(pr->from), "%s", fn);
	return 0;
}

static int rp_btf_proto_lookup(const char *function, const char *module,
			       struct rp_btf_proto *pr, bool verbose)
{
	const struct btf *btf;
	const char *sys;
	bool compat;
	uint32_t id;
	int err;

	memset(pr, 0, sizeof(*pr));
	if (!module[0] && strchr(function, ':'))	/* a tracepoint's event */
		return rp_btf_tp_proto(function, pr, verbose);
	sys = module[0] ? NULL : rp_btf_syscall_name(function, &compat);
	if (sys && !rp_is_ident(sys, strlen(sys), RP_BTF_NAME_MAX))
		sys = NULL;
	err = rp_btf_where(function, module, &btf, &id, verbose && !sys);
	if (sys && err == -ENOENT && rp_btf_kernel(false)) {
		/* SYSCALL_DEFINE0's entry point is __do_sys_NAME's alias */
		if (!rp_btf_syscall(function, sys, compat, pr, false))
			return 0;
	} else if (sys && (!err || !rp_btf_kernel(false))) {
		if (!rp_btf_kernel(false) && verbose)
			rp_btf_vmlinux_perror();
		return err ?: rp_btf_syscall(function, sys, compat, pr, verbose);
	}
	if (err == -ENOENT && verbose && rp_btf_kernel(false))
		rp_btf_unknown(function, module);
	if (err)
		return err;
	rp_btf_fill(btf, id, pr);
	pr->same_name = rp_btf_same_name(btf, id);
	return 0;
}

/*
 * The last prototypes looked up, by name. A lookup walks BTF's types by
 * name and may read a syscall's tracepoint format: tens of milliseconds
 * under TCG, which a stream's first record must not pay while the rings
 * fill (rp_stream_live looks its probes up before they fire). A failure
 * is kept too, but looked up again when it is to be said.
 */
#define RP_BTF_PROTO_CACHE	8
static struct rp_btf_proto_ent {
	char function[128], module[64];
	int err;
	struct rp_btf_proto pr;
} rp_protos[RP_BTF_PROTO_CACHE];
static unsigned int rp_nprotos, rp_protos_next;

int rp_btf_proto_get(const char *function, const char *module,
		     struct rp_btf_proto *pr, bool verbose)
{
	struct rp_btf_proto_ent *e;
	unsigned int i;

	if (strlen(function) >= sizeof(e->function) ||
	    strlen(module) >= sizeof(e->module))
		return rp_btf_proto_lookup(function, module, pr, verbose);
	for (i = 0; i < rp_nprotos; i++) {
		e = &rp_protos[i];
		if (strcmp(e->function, function) || strcmp(e->module, module) ||
		    (e->err && verbose))
			continue;
		*pr = e->pr;
		return e->err;
	}
	if (rp_nprotos < RP_BTF_PROTO_CACHE)
		e = &rp_protos[rp_nprotos++];
	else
		e = &rp_protos[rp_protos_next++ % RP_BTF_PROTO_CACHE];
	strcpy(e->function, function);
	strcpy(e->module, module);
	e->err = rp_btf_proto_lookup(function, module, &e->pr, verbose);
	*pr = e->pr;
	return e->err;
}

/* --- --args auto --- */

/* "fd,buf,count": BTF's names, argN for any that would not fit */
static void rp_btf_names(const struct rp_btf_proto *pr, unsigned int n,
			 char *names, size_t size)
{
	size_t total = 0, at = 0;
	unsigned int i;
	bool shorten;

	for (i = 0; i < n; i++)
		total += strlen(pr->params[i].name) + 1;
	/* 6 names of 16 and their commas fit RAWPROBE_ARG_NAMES_LEN */
	shorten = total > size;
	names[0] = '\0';
	for (i = 0; i < n && at < size; i++) {
		const char *name = pr->params[i].name;

		if (shorten && strlen(name) > 16)
			at += (size_t)snprintf(names + at, size - at, "%sarg%u",
					       i ? "," : "", i);
		else
			at += (size_t)snprintf(names + at, size - at, "%s%s",
					       i ? "," : "", name);
	}
}

int rp_btf_req_args(struct rp_probe_req *req)
{
	const char *fn = req->symbol;
	struct rp_btf_proto pr;
	unsigned int i, n;
	int err;

	err = rp_btf_proto_get(fn, req->module, &pr, true);
	if (err)
		return err;
	n = pr.nparams < RAWPROBE_MAX_ARGS ? pr.nparams : RAWPROBE_MAX_ARGS;
	for (i = 0; i < n; i++) {
		const struct rp_btf_param *p = &pr.params[i];

		if (p->fit == RP_FIT_STOP) {
			fprintf(stderr, "rawprobectl: note: %s: '%s %s' is not "
				"one general register's value, and the arguments "
				"after it are not where rawprobe reads them: "
				"recording the %u before it\n", fn, p->type,
				p->name, i);
			n = i;
			break;
		}
		if (p->fit == RP_FIT_RAW)
			fprintf(stderr, "rawprobectl: note: %s: '%s %s' is "
				"recorded as a raw u64 (the register's value)\n",
				fn, p->type, p->name);
		req->argtypes[i] = p->argtype;
	}
	if (n == RAWPROBE_MAX_ARGS && (pr.nparams > n || pr.varargs))
		fprintf(stderr, "rawprobectl: note: %s has %u%s arguments: "
			"recording the first %d\n", fn, pr.nparams,
			pr.varargs ? " and more" : "", RAWPROBE_MAX_ARGS);
	req->nargs = (int)n;
	rp_btf_names(&pr, n, req->arg_names, sizeof(req->arg_names));
	if (pr.syscall)
		req->flags |= RAWPROBE_F_SYSCALL;
	return 0;
}
