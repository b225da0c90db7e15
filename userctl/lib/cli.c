// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl's command-line plumbing, shared by every role: the global
 * options, the object/command dispatch (iproute2's prefix matching),
 * usage errors and exit codes, the connection to the module and its
 * GET_INFO. Uses the library only.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <netlink/attr.h>
#include "lib/cli.h"
#include "rawprobe.h"

struct rp_opts rp_opts;
struct json rp_json;

bool rp_is_help(const char *arg)
{
	return !strcmp(arg, "help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "--help");
}

int rp_no_args(int argc, char **argv, const char *usage)
{
	if (argc < 2)
		return 0;
	if (rp_is_help(argv[1])) {
		fputs(usage, stdout);
		return -1;
	}
	fputs(usage, stderr);
	return RP_EXIT_USAGE;
}

int rp_one_arg(int argc, char **argv, const char *usage)
{
	if (argc == 2 && rp_is_help(argv[1])) {
		printf("%s", usage);
		return -1;
	}
	if (argc != 2) {
		fprintf(stderr, "%s", usage);
		return RP_EXIT_USAGE;
	}
	return 0;
}

int rp_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("rawprobectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RP_EXIT_USAGE;
}

int rp_bad_option(char **argv, const char *optstring,
		  const struct option *longopts, const char *cmd)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o, *hit = NULL;
	size_t len = strcspn(arg, "=");
	int n = 0;

	if (strncmp(arg, "--", 2) || len <= 2) {
		if (optopt && strchr(optstring, optopt))
			fprintf(stderr, "rawprobectl: option '-%c' needs a value",
				optopt);
		else
			fprintf(stderr, "rawprobectl: unknown option '-%c'",
				optopt ? optopt : '?');
	} else {
		for (o = longopts; o && o->name; o++) {
			if (strlen(o->name) == len - 2 &&
			    !strncmp(arg + 2, o->name, len - 2)) {
				hit = o;
				n = 1;
				break;
			}
			if (!strncmp(arg + 2, o->name, len - 2) &&
			    (!hit || hit->val != o->val)) {
				hit = o;
				n++;
			}
		}
		if (n > 1)
			fprintf(stderr, "rawprobectl: option '%.*s' is ambiguous",
				(int)len, arg);
		else if (n && !arg[len] && hit->has_arg == required_argument)
			fprintf(stderr, "rawprobectl: option '%s' needs a value",
				arg);
		else if (n)
			fprintf(stderr, "rawprobectl: option '%.*s' takes no value",
				(int)len, arg);
		else
			fprintf(stderr, "rawprobectl: unknown option '%.*s'",
				(int)len, arg);
	}
	fprintf(stderr, " (try '%s --help')\n", cmd);
	return RP_EXIT_USAGE;
}

int rp_exit_from_errno(int err)
{
	switch (-err) {
	case 0:
		return RP_EXIT_OK;
	case EPERM:
	case EACCES:
		return RP_EXIT_PERM;
	default:
		return RP_EXIT_FAIL;
	}
}

/* modules.dep names the core for the running kernel (DKMS, a package). */
bool rp_module_installed(void)
{
	char path[300], line[1024], *colon, *base;
	struct utsname u;
	bool found = false;
	FILE *f;

	if (uname(&u))
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		/* rawprobe.ko, or compressed: rawprobe.ko.xz */
		found = !strncmp(base, "rawprobe.ko", 11) &&
			(!base[11] || base[11] == '.');
	}
	fclose(f);
	return found;
}

const char *rp_load_command(void)
{
	return rp_module_installed() ? "modprobe rawprobe" :
				       "insmod rawprobe.ko";
}

int rp_connect(struct rp_nl *nl)
{
	int err = rp_nl_open(nl);

	if (!err)
		return RP_EXIT_OK;
	if (err == -ENOENT) {
		fprintf(stderr, "rawprobectl: the rawprobe module is not loaded "
			"(no generic netlink family \"%s\"); load it with "
			"'%s'\n", RAWPROBE_GENL_NAME, rp_load_command());
		return RP_EXIT_NOMOD;
	}
	fprintf(stderr, "rawprobectl: cannot open generic netlink: %s\n",
		strerror(-err));
	return RP_EXIT_FAIL;
}

void rp_ready_line(const char *verb, const char *const *names,
		   unsigned int nnames, size_t total)
{
	unsigned int i;

	fprintf(stderr, "%s %zu probe%s", verb, total, total == 1 ? "" : "s");
	for (i = 0; i < nnames && i < RP_READY_NAMES; i++)
		fprintf(stderr, "%s%s", i ? ", " : " (", names[i]);
	fprintf(stderr, "%s. Hit Ctrl-C to end.\n",
		total > i ? (i ? ", ...)" : "") : i ? ")" : "");
	fflush(stderr);
}

int rp_fail(const struct rp_nl *nl, const char *what, int err)
{
	rp_nl_perror(nl, what, err);
	return rp_exit_from_errno(err);
}

int rp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	uint64_t v;

	/* a digit first: strtoull would take " -1" as 2^64 - 1 */
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static void rp_print_cmds(FILE *out, const char *object,
			  const struct rp_cmd *cmds)
{
	const struct rp_cmd *c;

	fprintf(out, "Usage: rawprobectl [OPTIONS] %s COMMAND\n\n", object);
	for (c = cmds; c->name; c++)
		fprintf(out, "  %s %-8s %s\n", object, c->name, c->help);
	fprintf(out, "\nAny unambiguous prefix of a command works. "
		"'rawprobectl %s COMMAND --help' for details.\n", object);
}

int rp_dispatch(const char *object, const struct rp_cmd *cmds, int argc,
		char **argv)
{
	const struct rp_cmd *c, *found = NULL;
	size_t len;

	if (argc < 1) {
		rp_print_cmds(stderr, object, cmds);
		return RP_EXIT_USAGE;
	}
	if (rp_is_help(argv[0])) {
		rp_print_cmds(stdout, object, cmds);
		return RP_EXIT_OK;
	}
	len = strlen(argv[0]);
	for (c = cmds; c->name; c++) {
		if (!strcmp(c->name, argv[0]))
			return c->fn(argc, argv);	/* exact beats prefix */
		if (strncmp(c->name, argv[0], len))
			continue;
		if (found)
			return rp_usage_error("'%s %s' is ambiguous: %s or %s?",
					      object, argv[0], found->name,
					      c->name);
		found = c;
	}
	if (!found && !strcmp(object, "rawprobectl"))
		return rp_usage_error("unknown object '%s' (try 'rawprobectl help')",
				      argv[0]);
	if (!found)
		return rp_usage_error("unknown command '%s %s' (try 'rawprobectl %s help')",
				      object, argv[0], object);
	return found->fn(argc, argv);
}

static int rp_info_reply(struct nlattr **a, void *ctx)
{
	struct rp_module_info *mi = ctx;

	if (!a[RAWPROBE_A_ABI_VERSION])
		return -EBADMSG;
	mi->abi = nla_get_u32(a[RAWPROBE_A_ABI_VERSION]);
	if (a[RAWPROBE_A_MODULE_VERSION])
		snprintf(mi->version, sizeof(mi->version), "%s",
			 nla_get_string(a[RAWPROBE_A_MODULE_VERSION]));
	if (a[RAWPROBE_A_KERNEL_RELEASE])
		snprintf(mi->kernel, sizeof(mi->kernel), "%s",
			 nla_get_string(a[RAWPROBE_A_KERNEL_RELEASE]));
	if (a[RAWPROBE_A_NR_RINGS])
		mi->nr_rings = nla_get_u32(a[RAWPROBE_A_NR_RINGS]);
	if (a[RAWPROBE_A_RING_RECORDS])
		mi->ring_records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	if (a[RAWPROBE_A_RING_MODE])
		mi->ring_mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	if (a[RAWPROBE_A_NR_PROBES])
		mi->nr_probes = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	if (a[RAWPROBE_A_RING_CLOCK])
		mi->clock = nla_get_u32(a[RAWPROBE_A_RING_CLOCK]);
	if (a[RAWPROBE_A_TSC_KHZ])
		mi->tsc_khz = nla_get_u32(a[RAWPROBE_A_TSC_KHZ]);
	return 0;
}

int rp_module_info_get(struct rp_nl *nl, struct rp_module_info *mi)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_GET_INFO, 0);

	return msg ? rp_nl_call(nl, msg, rp_info_reply, mi) : -ENOMEM;
}

void rp_abi_mismatch_say(uint32_t module_abi)
{
	fprintf(stderr, "rawprobectl: the rawprobe module speaks ABI %u, "
		"rawprobectl ABI %u: load the matching module (build both "
		"from one tree; 'rawprobectl version' shows both)\n",
		module_abi, RAWPROBE_ABI_VERSION);
}

bool rp_abi_explain(struct rp_nl *nl)
{
	struct rp_module_info mi = { 0 };
	struct rp_nl copy = *nl;	/* the failure's reason is kept */

	if (rp_module_info_get(&copy, &mi) || mi.abi == RAWPROBE_ABI_VERSION)
		return false;
	rp_abi_mismatch_say(mi.abi);
	return true;
}
