// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl btf show FUNCTION...: prototypes from the kernel's BTF, as
 * --args auto reads them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out/btf_type.h"
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/names.h"
#include "resolve/btf_int.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- rawprobectl btf show --- */

static void rp_btf_show_text(const char *kind, const char *target,
			     const struct rp_btf_proto *pr)
{
	char esc[RP_ESCAPED_MAX(RP_BTF_TYPE_MAX) + 1];
	unsigned int i;

	printf("%s:%s\n", kind, target);
	for (i = 0; i < pr->nparams && i < RP_BTF_PARAMS_MAX; i++) {
		rp_escape_str(esc, sizeof(esc), pr->params[i].type,
			      sizeof(pr->params[i].type));
		printf("    %s %s\n", esc, pr->params[i].name);
	}
	if (pr->nparams > RP_BTF_PARAMS_MAX)
		printf("    ... (%u more)\n", pr->nparams - RP_BTF_PARAMS_MAX);
	if (pr->varargs)
		printf("    ...\n");
	if (strcmp(pr->ret, "void")) {
		rp_escape_str(esc, sizeof(esc), pr->ret, sizeof(pr->ret));
		printf("    %s retval\n", esc);
	}
}

static void rp_btf_show_json(const char *function, const char *module,
			     const struct rp_btf_proto *pr, bool tp)
{
	struct json *j = &rp_json;
	unsigned int i;

	json_obj_open(j);
	if (tp) {	/* its arguments are its __traceiter_ function's */
		json_kv_str(j, "tracepoint", function);
		json_kv_str(j, "function", pr->from);
	} else {
		json_kv_str(j, "function", function);
	}
	if (module[0])
		json_kv_str(j, "module", module);
	json_key(j, "args");
	json_arr_open(j);
	for (i = 0; i < pr->nparams && i < RP_BTF_PARAMS_MAX; i++) {
		const struct rp_btf_param *p = &pr->params[i];

		json_obj_open(j);
		json_kv_str(j, "name", p->name);
		json_kv_str(j, "type", p->type);
		json_key(j, "rawprobe_type");
		if (p->fit == RP_FIT_STOP)
			json_null(j);
		else
			json_str(j, rp_argtype_name(p->argtype));
		json_obj_close(j);
	}
	json_arr_close(j);
	if (pr->nparams > RP_BTF_PARAMS_MAX)
		json_kv_u64(j, "more_args", pr->nparams - RP_BTF_PARAMS_MAX);
	json_kv_bool(j, "varargs", pr->varargs);
	json_kv_str(j, "return", pr->ret);
	if (pr->syscall && !tp)
		json_kv_str(j, "args_from", pr->from);
	json_obj_close(j);
	json_end_doc(j);
}

/*
 * One function's prototype, or a tracepoint's ("SUBSYSTEM:EVENT",
 * module ""), printed; its exit code.
 */
static int rp_btf_show_proto(const char *symbol, const char *module)
{
	bool tp = !module[0] && strchr(symbol, ':');
	struct rp_btf_proto pr;
	char target[RP_TARGET_MAX];

	if (rp_btf_proto_get(symbol, module, &pr, true))
		return RP_EXIT_FAIL;
	snprintf(target, sizeof(target), "%s%s%s", module, module[0] ? ":" : "",
		 symbol);
	if (rp_opts.json)
		rp_btf_show_json(symbol, module, &pr, tp);
	else
		rp_btf_show_text(tp ? "tracepoint" : "kprobe", target, &pr);
	if (tp)
		return RP_EXIT_OK;
	if (pr.syscall)
		fprintf(stderr, "rawprobectl: %s takes the user's pt_regs: these "
			"are the syscall's arguments (%s), which probes on it "
			"record\n", target, pr.from);
	if (pr.same_name)
		fprintf(stderr, "rawprobectl: %u more functions named %s in BTF: "
			"this is the first\n", pr.same_name, target);
	return RP_EXIT_OK;
}

/*
 * "MODULE:NAME" or "NAME" into module and name; -1 if either is too long
 * or, when ident, not a C identifier.
 */
static int rp_btf_split(const char *s, char *module, size_t mlen, char *name,
			size_t nlen, bool ident)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : 0;

	if (len >= mlen || strlen(colon ? colon + 1 : s) >= nlen)
		return -1;
	snprintf(module, mlen, "%.*s", (int)len, s);
	snprintf(name, nlen, "%s", colon ? colon + 1 : s);
	if (colon && !rp_is_ident(module, len, mlen - 1))
		return -1;
	return ident && !rp_is_ident(name, strlen(name), nlen - 1) ? -1 : 0;
}

/* 'struct NAME', 'union MODULE:NAME': KIND's index, *rest at the name */
static int rp_btf_kind(const char *arg, const char **rest)
{
	static const char *const kinds[] = {
		[RP_TK_STRUCT] = "struct", [RP_TK_UNION] = "union",
		[RP_TK_ENUM] = "enum", [RP_TK_TYPEDEF] = "typedef",
	};
	size_t i, len;

	while (isspace((unsigned char)*arg))
		arg++;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		len = strlen(kinds[i]);
		if (strncmp(arg, kinds[i], len) ||
		    (arg[len] && !isspace((unsigned char)arg[len])))
			continue;
		for (*rest = arg + len; isspace((unsigned char)**rest); (*rest)++)
			;
		return (int)i;
	}
	return -1;
}

static int rp_btf_show_type(const char *arg, enum rp_btf_tkind kind,
			    const char *rest)
{
	const char *k = rp_btf_tkind_name(kind);
	char module[64], name[RP_BTF_TYPE_MAX], *end;

	if (!*rest) {
		fprintf(stderr, "rawprobectl: '%s' needs a name: btf show "
			"'%s NAME' (or '%s MODULE:NAME')\n", arg, k, k);
		return RP_EXIT_USAGE;
	}
	if (rp_btf_split(rest, module, sizeof(module), name, sizeof(name),
			 false) == 0) {
		end = name + strlen(name);
		while (end > name && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (rp_is_ident(name, strlen(name), sizeof(name) - 1))
			return rp_btf_type_show(kind, name, module);
	}
	fprintf(stderr, "rawprobectl: '%s' is not a type: '%s NAME' or '%s "
		"MODULE:NAME', NAME a C identifier\n", arg, k, k);
	return RP_EXIT_USAGE;
}

static void rp_btf_no_match(const char *glob, const char *module, int nmods)
{
	if (module[0])
		fprintf(stderr, "rawprobectl: no function matches '%s' in the "
			"BTF of module %s\n", glob, module);
	else
		fprintf(stderr, "rawprobectl: no function matches '%s' in the "
			"kernel's BTF (vmlinux, %d module%s)\n", glob, nmods,
			nmods == 1 ? "" : "s");
}

/* Every function whose name matches: 'vfs_*', 'ext4:ext4_[a-c]*' */
static int rp_btf_show_glob(const char *arg)
{
	char module[64], glob[RP_TARGET_MAX];
	struct rp_btf_fname *v;
	int i, n, nmods, rc, first = RP_EXIT_OK;
	const char *bad;

	if (rp_btf_split(arg, module, sizeof(module), glob, sizeof(glob),
			 false)) {
		fprintf(stderr, "rawprobectl: '%s' is not a glob of functions: "
			"GLOB or MODULE:GLOB (a module's name is no glob)\n", arg);
		return RP_EXIT_USAGE;
	}
	bad = rp_btf_glob_unterminated(glob);
	if (bad) {
		fprintf(stderr, "rawprobectl: glob '%s': the '[' at %d has no "
			"']'\n", arg, (int)(bad - glob) + 1);
		return RP_EXIT_USAGE;
	}
	n = rp_btf_func_glob(glob, module, &v, &nmods);
	if (n == -ENOMEM)
		fprintf(stderr, "rawprobectl: %s\n", strerror(ENOMEM));
	if (!n)
		rp_btf_no_match(arg, module, nmods);
	if (n <= 0)
		return RP_EXIT_FAIL;
	for (i = 0; i < n; i++) {
		rc = rp_btf_show_proto(v[i].name, v[i].module);
		first = first ?: rc;
	}
	free(v);
	return first;
}

/* Every tracepoint whose event matches: 'tracepoint:sched:*' */
static int rp_btf_show_events(const char *arg, const char *pat)
{
	struct rp_glob_result r;
	int rc, first = RP_EXIT_OK;
	size_t i;

	if (rp_glob_events(pat, &r))
		return RP_EXIT_FAIL;
	if (!r.n) {
		fprintf(stderr, "rawprobectl: no tracepoint matches '%s' "
			"(available_events)\n", arg);
		first = RP_EXIT_FAIL;
	}
	for (i = 0; i < r.n; i++) {
		rc = rp_btf_show_proto(r.v[i].name, "");
		first = first ?: rc;
	}
	rp_glob_result_free(&r);
	return first;
}

static int rp_btf_show_one(const char *arg)
{
	struct rp_probe_req req = { 0 };
	const char *rest;
	int kind = rp_btf_kind(arg, &rest);

	if (kind >= 0)
		return rp_btf_show_type(arg, (enum rp_btf_tkind)kind, rest);
	if (!strncmp(arg, "tracepoint:", 11) || !strncmp(arg, "t:", 2)) {
		if (rp_tp_target_parse(strchr(arg, ':') + 1, &req))
			return RP_EXIT_USAGE;
		if (req.glob)
			return rp_btf_show_events(arg, req.symbol);
		return rp_tp_check(req.symbol) ? RP_EXIT_FAIL :
		       rp_btf_show_proto(req.symbol, "");
	}
	if (rp_btf_is_glob(arg))
		return rp_btf_show_glob(arg);
	if (rp_target_parse(arg, &req) || req.addr || req.offset) {
		fprintf(stderr, "rawprobectl: '%s' is not a function: FUNCTION "
			"or MODULE:FUNCTION\n", arg);
		return RP_EXIT_USAGE;
	}
	return rp_btf_show_proto(req.symbol, req.module);
}

/* "struct path" as one word, or as two: struct and the next one */
static int rp_btf_show_word(const char *arg, const char *next, int *i)
{
	char both[RP_BTF_TYPE_MAX + 16];
	const char *rest;

	if (!next || rp_btf_kind(arg, &rest) < 0 || *rest ||
	    snprintf(both, sizeof(both), "%s %s", arg, next) >= (int)sizeof(both))
		return rp_btf_show_one(arg);
	(*i)++;
	return rp_btf_show_one(both);
}

static int rp_btf_show_cmd(int argc, char **argv)
{
	static const char usage[] =
		"Usage: rawprobectl btf show FUNCTION|MODULE:FUNCTION|GLOB...\n"
		"       rawprobectl btf show tracepoint:SUBSYSTEM:EVENT...\n"
		"       rawprobectl btf show 'struct|union|enum|typedef [MODULE:]NAME'...\n"
		"\n"
		"Each function's prototype from the kernel's BTF, as bpftrace -lv\n"
		"prints it: its arguments' types and names, then the return type.\n"
		"For a syscall's entry point (__x64_sys_NAME), the syscall's own\n"
		"arguments, which probes on it record. With -j: each argument's\n"
		"rawprobe type too, what '--args auto' records (null: it cannot).\n"
		"A GLOB ('tcp_v4_*', '?', '[...]'; 'MODULE:GLOB') shows every\n"
		"function whose name matches.\n"
		"\n"
		"'tracepoint:SUBSYSTEM:EVENT' (t:): the arguments a tracepoint\n"
		"passes its probes (its __traceiter_EVENT function's, less the\n"
		"first), as bpftrace -lv rawtracepoint:EVENT prints them; a\n"
		"glob ('tracepoint:sched:*') every tracepoint whose event matches.\n"
		"\n"
		"'struct NAME' (union, enum): the type's layout as pahole -C NAME\n"
		"prints it: members with offsets and sizes, bit fields, holes,\n"
		"padding and the size. 'typedef NAME': what it names. Looked up\n"
		"in vmlinux's BTF, then in the loaded modules'.\n"
		"\n"
		"BTF: /sys/kernel/btf/vmlinux (and /sys/kernel/btf/MODULE), or\n"
		"$RAWPROBECTL_BTF: a raw BTF or ELF vmlinux file, or a directory\n"
		"laid out as /sys/kernel/btf.\n";
	int i, rc, first = RP_EXIT_OK;

	if (argc == 2 && rp_is_help(argv[1])) {
		fputs(usage, stdout);
		return RP_EXIT_OK;
	}
	if (argc < 2) {
		fputs(usage, stderr);
		return RP_EXIT_USAGE;
	}
	for (i = 1; i < argc; i++) {
		rc = rp_btf_show_word(argv[i], i + 1 < argc ? argv[i + 1] : NULL,
				      &i);
		first = first ?: rc;
	}
	return first;
}

static const struct rp_cmd rp_btf_cmds[] = {
	{ "show", rp_btf_show_cmd, "FUNCTION|GLOB|'struct NAME'...  prototypes, layouts" },
	{ NULL, NULL, NULL },
};

int rp_cmd_btf(int argc, char **argv)
{
	return rp_dispatch("btf", rp_btf_cmds, argc - 1, argv + 1);
}
