// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl: the controller of the rawprobe kernel module.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "cli.h"
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

static const struct rp_cmd rp_objects[] = {
	{ "probe",   rp_cmd_probe,   "add|del|list|show|enable|disable|reset  manage probes" },
	{ "stream",  rp_cmd_stream,  "[-e KIND:TARGET]... [-f FORMAT]  records, live" },
	{ "trace",   rp_cmd_trace,   "KIND:TARGET... [-d S]  add, stream, remove: one-shot" },
	{ "hist",    rp_cmd_hist,    "[KIND:TARGET]... [--arg N] [--by comm]  latency histograms" },
	{ "btf",     rp_cmd_btf,     "show FUNCTION...  prototypes from the kernel's BTF (--args auto)" },
	{ "stats",   rp_cmd_stats,   "[show [ID...]] | reset ID|all  probe counters" },
	{ "ring",    rp_cmd_ring,    "show|set  per-CPU ring geometry" },
	{ "monitor", rp_cmd_monitor, "         probe state changes, live" },
	{ "doctor",  rp_cmd_doctor,  "         check this machine for rawprobe" },
	{ "version", rp_cmd_version, "         CLI and module versions" },
	{ NULL, NULL, NULL },
};

static void rp_main_usage(FILE *out)
{
	const struct rp_cmd *c;

	fprintf(out,
		"Usage: rawprobectl [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"\n"
		"Objects:\n");
	for (c = rp_objects; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->help);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -j, --json     JSON output (one document per line)\n"
		"  -p, --pretty   indented JSON output (implies -j)\n"
		"  -V, --version  print the CLI version\n"
		"  -h, --help     this help; 'rawprobectl OBJECT help' for more\n"
		"-j and -p may also follow the command: rawprobectl probe list -j\n"
		"\n"
		"Exit codes: 0 ok, 1 operation failed, 2 usage, "
		"3 module not loaded, 4 permission denied.\n");
}

/*
 * -j and -p are taken after the object and command too, as bpftool and
 * kubectl take them ("rawprobectl probe list -j"): no command has options
 * of those names. Only whole words count, and "--" ends the search; an
 * option whose value is "-j" takes it attached (--comm=-j).
 */
static int rp_late_globals(int argc, char **argv)
{
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			rp_opts.json = true;
			continue;
		}
		if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			rp_opts.json = rp_opts.pretty = true;
			continue;
		}
		argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json",    no_argument, NULL, 'j' },
		{ "pretty",  no_argument, NULL, 'p' },
		{ "version", no_argument, NULL, 'V' },
		{ "help",    no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	/* '+': stop at the object, its own options come after it. */
	while ((opt = getopt_long(argc, argv, "+jpVh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			rp_opts.json = true;
			break;
		case 'p':
			rp_opts.json = rp_opts.pretty = true;
			break;
		case 'V':
			printf("rawprobectl %s (ABI %u)\n", RAWPROBECTL_VERSION,
			       RAWPROBE_ABI_VERSION);
			return RP_EXIT_OK;
		case 'h':
			rp_main_usage(stdout);
			return RP_EXIT_OK;
		default:
			rp_main_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	argc = rp_late_globals(argc - optind, argv + optind);
	argv += optind;
	json_init(&rp_json, stdout, rp_opts.pretty);
	if (argc < 1) {
		rp_main_usage(stderr);
		return RP_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "help")) {
		rp_main_usage(stdout);
		return RP_EXIT_OK;
	}
	return rp_dispatch("rawprobectl", rp_objects, argc, argv);
}
