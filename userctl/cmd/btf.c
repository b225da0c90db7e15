// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl btf show FUNCTION...: prototypes from the kernel's BTF, as
 * --args auto reads them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/names.h"
#include "resolve/btf_int.h"
#include "resolve/probe_req.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- rawprobectl btf show --- */

static void rp_btf_show_text(const char *target, const struct rp_btf_proto *pr)
{
	char esc[RP_ESCAPED_MAX(RP_BTF_TYPE_MAX) + 1];
	unsigned int i;

	printf("kprobe:%s\n", target);
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
			     const struct rp_btf_proto *pr)
{
	struct json *j = &rp_json;
	unsigned int i;

	json_obj_open(j);
	json_kv_str(j, "function", function);
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
	if (pr->syscall)
		json_kv_str(j, "args_from", pr->from);
	json_obj_close(j);
	json_end_doc(j);
}

static int rp_btf_show_one(const char *arg)
{
	struct rp_probe_req req = { 0 };
	struct rp_btf_proto pr;
	char target[RP_TARGET_MAX];
	int err;

	if (rp_target_parse(arg, &req) || req.addr || req.offset) {
		fprintf(stderr, "rawprobectl: '%s' is not a function: FUNCTION "
			"or MODULE:FUNCTION\n", arg);
		return RP_EXIT_USAGE;
	}
	err = rp_btf_proto_get(req.symbol, req.module, &pr, true);
	if (err)
		return RP_EXIT_FAIL;
	snprintf(target, sizeof(target), "%s%s%s", req.module,
		 req.module[0] ? ":" : "", req.symbol);
	if (rp_opts.json)
		rp_btf_show_json(req.symbol, req.module, &pr);
	else
		rp_btf_show_text(target, &pr);
	if (pr.syscall)
		fprintf(stderr, "rawprobectl: %s takes the user's pt_regs: these "
			"are the syscall's arguments (%s), which probes on it "
			"record\n", target, pr.from);
	if (pr.same_name)
		fprintf(stderr, "rawprobectl: %u more functions named %s in BTF: "
			"this is the first\n", pr.same_name, target);
	return RP_EXIT_OK;
}

static int rp_btf_show_cmd(int argc, char **argv)
{
	static const char usage[] =
		"Usage: rawprobectl btf show FUNCTION|MODULE:FUNCTION...\n"
		"\n"
		"Each function's prototype from the kernel's BTF, as bpftrace -lv\n"
		"prints it: its arguments' types and names, then the return type.\n"
		"For a syscall's entry point (__x64_sys_NAME), the syscall's own\n"
		"arguments, which probes on it record. With -j: each argument's\n"
		"rawprobe type too, what '--args auto' records (null: it cannot).\n"
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
		rc = rp_btf_show_one(argv[i]);
		first = first ?: rc;
	}
	return first;
}

static const struct rp_cmd rp_btf_cmds[] = {
	{ "show", rp_btf_show_cmd, "FUNCTION...            prototypes, as --args auto sees them" },
	{ NULL, NULL, NULL },
};

int rp_cmd_btf(int argc, char **argv)
{
	return rp_dispatch("btf", rp_btf_cmds, argc - 1, argv + 1);
}
