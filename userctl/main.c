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
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "rawprobe.h"

static const struct rp_cmd rp_objects[] = {
	{ "probe",   rp_cmd_probe,   "add|del|list|show|enable|disable|reset  manage probes" },
	{ "stream",  rp_cmd_stream,  "[-e KIND:TARGET]... [-f FORMAT]  records, live" },
	{ "trace",   rp_cmd_trace,   "KIND:TARGET... [-d S]  add, stream, remove: one-shot" },
	{ "hist",    rp_cmd_hist,    "[KIND:TARGET]... [--arg N] [--by comm]  latency histograms" },
	{ "latency", rp_cmd_latency, "--from KIND:TARGET --to KIND:TARGET --key KEY  start to end" },
	{ "count",   rp_cmd_count,   "KIND:TARGET [--by KEY[,KEY]] [-i S]  counts in the kernel" },
	{ "agg",     rp_cmd_agg,     "show|clear ID  a probe add --count probe's counts" },
	{ "flamegraph", rp_cmd_flamegraph, "[-f svg|speedscope] [FILE]  folded stacks drawn, no module" },
	{ "inject",  rp_cmd_inject,  "kmalloc|alloc_page [--in FUNC]...  fail allocations" },
	{ "tool",    rp_cmd_tool,    "list|show NAME|NAME [OPTIONS]  bpftrace's tools, as scripts" },
	{ "run",     rp_cmd_run,     "FILE [OPTIONS]  a script: a command kept in a file" },
	{ "btf",     rp_cmd_btf,     "show FUNCTION...  prototypes from the kernel's BTF (--args auto)" },
	{ "stats",   rp_cmd_stats,   "[show [ID...]] | reset ID|all  probe counters" },
	{ "serve",   rp_cmd_serve,   "[--listen ADDR:PORT] [--config FILE]  Prometheus exporter" },
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
		fprintf(out, "  %-10s %s\n", c->name, c->help);
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
	opterr = 0;	/* rp_bad_option() says what was wrong */
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
			return rp_bad_option(argv, "+jpVh", longopts,
					     "rawprobectl");
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
