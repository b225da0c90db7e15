// SPDX-License-Identifier: GPL-2.0
/*
 * Persistent probes added from resolved requests (out/probe_add.h):
 * probe add's targets, a glob's functions, a pair's probes.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/json.h"
#include "lib/probe_nl.h"
#include "lib/ring_nl.h"
#include "out/probe.h"
#include "out/probe_add.h"
#include "resolve/glob.h"

static void rp_add_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl probe add KIND TARGET... [OPTIONS]\n"
		"\n"
		"  KIND     kprobe | kretprobe | jprobe\n"
		"  TARGET   SYMBOL[+OFFSET] | MODULE:SYMBOL[+OFFSET] | 0xADDRESS\n"
		"           | GLOB | MODULE:GLOB: 'tcp_*', 'vfs_rea?', 'ext4:ext4_*'\n"
		"           (*, ?, [...]: every function kprobes can take whose\n"
		"           name matches; --dry-run lists them)\n"
		"           several targets, or '-' for one per line on stdin,\n"
		"           are added as one batch: all of them or none\n"
		"\n"
		"  -a, --args SPEC      arguments to record: a count (raw values),\n"
		"                       types: u64,s64,s32,u32,ptr,str,ustr\n"
		"                       (str/ustr: kernel/user string, one per probe),\n"
		"                       strv,ustrv (a NULL-terminated array of\n"
		"                       strings, argv: joined with spaces),\n"
		"                       formats: hex,ksym,ip4,be16,be32 (printed so),\n"
		"                       ip6 (a struct in6_addr, or a pointer to one)\n"
		"                       named types: fd:s32,buf:ptr,count:u64, and\n"
		"                       NAME:tcpstate,cap,signal,errno (by name),\n"
		"                       sk:saddr,sk:daddr (a socket's address, v4\n"
		"                       or v6 as its family says), or\n"
		"                       'auto': names and types from the kernel's BTF\n"
		"                       (see 'rawprobectl btf show FUNC'), or by name\n"
		"                       from BTF, parameters and fields of the structs\n"
		"                       they point to: PATH[:TYPE],... where PATH is\n"
		"                       ARG, then ->MEMBER, .MEMBER or [N] (ARG: a\n"
		"                       parameter's name, argN, or retval in a\n"
		"                       kretprobe), e.g. 'skb->len,skb->dev->name'\n"
		"                       (a char array is a string); a field behind\n"
		"                       a bad pointer shows as (fault); a cast,\n"
		"                       '((struct tcp_sock *)sk)->bytes_acked'; an\n"
		"                       alias, NAME=PATH[:TYPE]: the argument's name\n"
		"                       in output, templates and --by\n"
		"      --filter EXPR    record only hits where EXPR holds (in the\n"
		"                       kernel): comparisons VALUE OP CONST joined by\n"
		"                       && and || (&& first), VALUE retval, argN or a\n"
		"                       PATH as above; OP ==, !=, <, <=, >, >=, or &\n"
		"                       (any of the bits; '& C == 0': none of them);\n"
		"                       CONST a number (0x hex, negative) or an\n"
		"                       enumerator; at most %d comparisons, %d\n"
		"                       characters, e.g. 'retval < 0 && count > 4096'\n"
		"                       (kretprobes test at return); strings (char\n"
		"                       arrays and pointers, PATH:str, PATH:ustr)\n"
		"                       with ==, != and the globs ~, !~ of a \"CONST\":\n"
		"                       'tty->name ~ \"pts*\"'\n"
		"  -m, --maxactive N    kretprobe instances (1..%u; default: kernel's)\n"
		"  -s, --strmax N       bytes of string to capture (1..%u)\n"
		"      --stack          record the kernel stack: up to %d callers,\n"
		"                       innermost first (at a function's entry;\n"
		"                       kretprobes: as it was entered); not with\n"
		"                       a str/ustr argument\n"
		"  -d, --disabled       add without arming ('probe enable ID' arms)\n"
		"      --syscall        arguments come from a pt_regs argument\n"
		"                       (automatic for __x64_sys_* symbols)\n"
		"      --pid N          record only thread N     (in the kernel)\n"
		"      --tgid N         record only process N\n"
		"      --comm NAME      record only tasks named NAME (exact)\n"
		"      --cpu N          record only on CPU N\n"
		"      --cgroup PATH    record only tasks in this cgroup v2 or\n"
		"                       below (a directory, absolute or under the\n"
		"                       cgroup2 mount)\n"
		"                       (rejected hits count as FILTERED)\n"
		"      --count          count hits in the kernel instead of writing\n"
		"                       records ('rawprobectl agg show ID' reads them);\n"
		"      --by, --stats, --hist, --lhist, --max-keys  as count takes\n"
		"                       them ('rawprobectl count --help'), --count implied\n"
		"      --ring NAME      write records into the named session NAME\n"
		"                       ('ring create NAME'; 'stream --ring NAME'\n"
		"                       reads it) instead of the default session\n"
		"      --dry-run        print the requests, add nothing\n"
		"      --max-probes N   a glob may make N probes (default %d, at\n"
		"                       most %d); more is refused, before any is added\n"
		"\n"
		"The probe persists after the command exits, like kprobe_events;\n"
		"'probe del ID' removes it. Prints the new probes' ids.\n",
		RAWPROBE_MAX_VALUE_TERMS, RAWPROBE_FILTER_STR_LEN - 1,
		RAWPROBE_MAXACTIVE_MAX, RAWPROBE_STR_LEN - 1,
		RAWPROBE_STACK_MAX, RP_GLOB_CAP_DEFAULT, RAWPROBE_MAX_PROBES);
}

#define RP_OPT_RING 0x400

static const struct option rp_add_longopts[] = {
	RP_PROBE_LONGOPTS,
	RP_FILTER_LONGOPTS,
	RP_AGG_LONGOPTS,
	{ "disabled",  no_argument,       NULL, 'd' },
	{ "syscall",   no_argument,       NULL, 'S' },
	{ "dry-run",   no_argument,       NULL, 'n' },
	{ "ring",      required_argument, NULL, RP_OPT_RING },
	RP_GLOB_LONGOPT,
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};


int rp_probe_add_parse(int argc, char **argv, struct rp_probe_add_args *a)
{
	int opt, rc;

	memset(a, 0, sizeof(*a));
	a->max = RP_GLOB_CAP_DEFAULT;
	optind = 0;	/* full getopt reset: main() parsed already */
	opterr = 0;	/* rp_bad_option() says what was wrong */
	while ((opt = getopt_long(argc, argv, "a:m:s:dh", rp_add_longopts,
				  NULL)) != -1) {
		if (opt == 'h') {
			rp_add_usage(stdout);
			return -1;
		}
		if (opt == 'n') {
			a->dry_run = true;
			continue;
		}
		if (opt == RP_OPT_RING) {
			rc = rp_ring_name_opt("--ring", optarg, &a->req.ring);
			if (rc)
				return rc;
			continue;
		}
		if (opt == RP_OPT_MAX_PROBES) {
			rc = rp_max_probes_opt(optarg, &a->max);
			if (rc)
				return rc;
			continue;
		}
		if (opt == '?')
			return rp_bad_option(argv, "a:m:s:dh", rp_add_longopts,
					     "rawprobectl probe add");
		/* persistent, an override would outlive whoever set it */
		if (opt == RP_OPT_OVERRIDE)
			return rp_usage_error("probe add makes persistent "
					      "probes, and an override goes with "
					      "its command: use 'trace "
					      "KIND:TARGET --override VALUE' or "
					      "'inject'");
		rc = rp_is_agg_opt(opt) ? rp_agg_opt(opt, optarg, &a->req) :
					  rp_probe_opt(opt, optarg, &a->req);
		if (rc)
			return rc;
	}
	if (argc - optind < 2) {
		rp_add_usage(stderr);
		return RP_EXIT_USAGE;
	}
	a->kind = argv[optind];
	a->targets = argv + optind + 1;
	a->ntargets = argc - optind - 1;
	return RP_EXIT_OK;
}

/*
 * An unknown session said as one (with near names), not as the add's
 * ENOENT, which an unknown symbol gives too.
 */
int rp_probe_ring_check(struct rp_nl *nl, const struct rp_probe_req *req)
{
	char label[RP_SESSION_LABEL_MAX], what[RP_SESSION_LABEL_MAX + 16];
	struct rp_session s;
	int err;

	if (!req->ring.name[0] && req->ring.id == RAWPROBE_SESSION_DEFAULT)
		return RP_EXIT_OK;
	err = rp_session_get(nl, &req->ring, &s);
	if (!err)
		return RP_EXIT_OK;
	snprintf(what, sizeof(what), "--ring %s",
		 rp_session_label(req->ring.id, req->ring.name, label,
				  sizeof(label)));
	rp_nl_perror(nl, what, err);
	rp_session_hint(nl, &req->ring, err);
	return rp_exit_from_errno(err);
}

static int rp_probe_add_print(const uint32_t *ids, size_t n)
{
	size_t i;

	if (rp_opts.json)
		json_arr_open(&rp_json);
	for (i = 0; i < n; i++) {
		if (rp_opts.json)
			json_u64(&rp_json, ids[i]);
		else
			printf("%u\n", ids[i]);
	}
	if (rp_opts.json) {
		json_arr_close(&rp_json);
		json_end_doc(&rp_json);
	}
	return RP_EXIT_OK;
}

int rp_probe_add_reqs(struct rp_probe_req **reqs, size_t *n, bool dry_run,
		      size_t max)
{
	uint32_t *ids = NULL;
	struct rp_nl nl;
	int rc, err;

	rc = rp_probe_reqs_expand(reqs, n, max);
	if (rc)
		return rc;
	err = rp_probe_check(*reqs, *n);
	if (err)
		return rp_exit_from_errno(err);
	rc = rp_probe_auto_args(*reqs, *n);
	if (rc || dry_run) {
		if (!rc)
			rp_probe_dry_run(*reqs, *n);
		return rc;
	}
	ids = calloc(*n, sizeof(*ids));
	rc = ids ? rp_connect(&nl) : RP_EXIT_FAIL;
	if (rc)
		goto out;
	rc = rp_probe_ring_check(&nl, &(*reqs)[0]);
	if (!rc) {
		err = rp_probe_add_many(&nl, *reqs, *n, ids);
		rc = err ? rp_exit_from_errno(err) : rp_probe_add_print(ids, *n);
	}
	rp_nl_close(&nl);
out:
	free(ids);
	return rc;
}
