/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl: the command-line plumbing every role shares (lib/cli.c).
 *
 * Grammar (iproute2/bpftool style): rawprobectl [OPTIONS] OBJECT COMMAND
 * [ARGS]; any unambiguous prefix of an object or command is accepted.
 *
 * Exit codes (documented in rawprobectl(8)):
 */
#ifndef RAWPROBECTL_CLI_H
#define RAWPROBECTL_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/json.h"
#include "lib/nl.h"

enum rp_exit {
	RP_EXIT_OK	= 0,	/* done */
	RP_EXIT_FAIL	= 1,	/* the kernel refused or the operation failed */
	RP_EXIT_USAGE	= 2,	/* bad command line */
	RP_EXIT_NOMOD	= 3,	/* the rawprobe module is not loaded */
	RP_EXIT_PERM	= 4,	/* not allowed: needs root/CAP_PERFMON */
};

struct rp_opts {
	bool json;		/* -j: JSON (lines) */
	bool pretty;		/* -p: indented JSON */
};

extern struct rp_opts rp_opts;
extern struct json rp_json;

struct rp_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;	/* one line: "ARGS  what it does" */
};

/*
 * Run the command of table cmds named by argv[0] (a prefix is enough).
 * Prints help for "help", -h, --help or no command.
 */
int rp_dispatch(const char *object, const struct rp_cmd *cmds, int argc,
		char **argv);
bool rp_is_help(const char *arg);
/*
 * For commands without arguments: -1 after printing usage for a help
 * request, RP_EXIT_USAGE for stray arguments, else 0.
 */
int rp_no_args(int argc, char **argv, const char *usage);
/* For commands of one argument: the same, for anything but one. */
int rp_one_arg(int argc, char **argv, const char *usage);
int rp_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * getopt_long() returned '?' (call it with opterr = 0): one line naming
 * the option and what was wrong with it, then where the help is
 * ("rawprobectl stream --help"), not the whole help. RP_EXIT_USAGE.
 */
int rp_bad_option(char **argv, const char *optstring,
		  const struct option *longopts, const char *cmd);
/* Map a negative errno from the kernel to an exit code. */
int rp_exit_from_errno(int err);

/*
 * Connect to the module; on failure print why (module not loaded, no
 * netlink) and return the exit code to use, else RP_EXIT_OK.
 */
int rp_connect(struct rp_nl *nl);
/* The core is installed for the running kernel (DKMS, a package). */
bool rp_module_installed(void);
/* How to load it here: modprobe when installed, else insmod. */
const char *rp_load_command(void);
/* Report a failed request: the kernel's reason, then the exit code. */
int rp_fail(const struct rp_nl *nl, const char *what, int err);

/* The loaded module, as GET_INFO describes it. */
struct rp_module_info {
	uint32_t abi;
	char version[32];
	char kernel[65];
	uint32_t nr_rings, ring_records, ring_mode, nr_probes;
	uint32_t clock, tsc_khz;	/* enum rawprobe_clock; 0: no TSC offered */
};

int rp_module_info_get(struct rp_nl *nl, struct rp_module_info *mi);
/*
 * "rawprobectl: the rawprobe module speaks ABI 5, rawprobectl ABI 6: load
 * the matching module ...", on stderr.
 */
void rp_abi_mismatch_say(uint32_t module_abi);
/*
 * After a request the module did not understand (an unknown command or
 * attribute): ask it its ABI (GET_INFO) and, if it is not this
 * rawprobectl's, say so. true if it was said.
 */
bool rp_abi_explain(struct rp_nl *nl);

/*
 * The line scripts and people wait for, as bpftrace's "Attaching N
 * probes...": on stderr, once every probe named is armed (never before:
 * a workload started on it is seen whole). "Tracing 3 probes
 * (kprobe:a, kprobe:b, kprobe:c). Hit Ctrl-C to end.": total probes,
 * the first nnames (at most RP_READY_NAMES) named.
 */
#define RP_READY_NAMES 3	/* named on the line; the rest are "..." */
void rp_ready_line(const char *verb, const char *const *names,
		   unsigned int nnames, size_t total);

/* Parse an unsigned number (decimal or 0x hex) within [min, max]. */
int rp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

#define RAWPROBECTL_VERSION "0.1.0"
/* docs/schema/rawprobectl-v2.json */
#define RAWPROBECTL_JSON_SCHEMA 2

#endif
