/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl's scripts (rawprobectl run FILE, rawprobectl tool NAME): one
 * command written over lines, the options it takes, and what it is.
 *
 *   # opensnoop: open(2) and its result (bpftrace's opensnoop.bt)
 *   description "Trace open() syscalls"
 *   option -p PID  "--pid {PID}"        "this process only"
 *   option -x      "--filter 'retval < 0'" "failed opens only"
 *
 *   trace kretprobe:do_sys_openat2 --args 'filename:ustr'
 *       --template '{pid:-6} {comm:-16} {retval:3} {filename}'
 *
 * '#' starts a comment (outside quotes); words split as a shell splits
 * them: blanks, '...', "..." with \" and \\, a backslash before any other
 * character, a backslash before the line's end joins the lines. A line
 * whose first word is 'description' or 'option', before the command's
 * first word, declares; every other word is the command's, which
 * rawprobectl runs as if typed. An option the user gives appends its
 * expansion's words to the command, {NAME} replaced by its value (within
 * a word: a value never splits into words).
 */
#ifndef RAWPROBECTL_SCRIPT_H
#define RAWPROBECTL_SCRIPT_H

#include <stddef.h>
#include <stdio.h>

#define RP_SCRIPT_OPTS_MAX	16
#define RP_SCRIPT_WORDS_MAX	256
#define RP_SCRIPT_SIZE_MAX	(64 * 1024)

struct rp_script_opt {
	char flag;		/* 'p' of -p */
	char *value;		/* "PID", or NULL: a switch */
	char **expand;		/* the expansion's words, {VALUE} in them */
	size_t nexpand;
	char *help;
};

struct rp_script {
	char *description;	/* or NULL */
	struct rp_script_opt opts[RP_SCRIPT_OPTS_MAX];
	size_t nopts;
	char **words;		/* the command: "trace", "kretprobe:...", ... */
	size_t nwords;
};

/*
 * Parse text (NUL-terminated) into s: 0, or -1 with why (and the line) in
 * err. s is freed with rp_script_free() either way.
 */
int rp_script_parse(const char *text, struct rp_script *s, char *err,
		    size_t errlen);
/* The same, from a file: -1 and why if it cannot be read, too */
int rp_script_load(const char *path, struct rp_script *s, char *err,
		   size_t errlen);
void rp_script_free(struct rp_script *s);

/*
 * The command's words, then each option of argv's expanded, then argv's
 * words after "--" as they are: *out (NULL-terminated, rp_script_argv_free)
 * and *outc. 0; 1 for -h/--help (nothing built); -1 with why in err (an
 * unknown option, a missing value, too many words).
 */
int rp_script_argv(const struct rp_script *s, int argc, char **argv,
		   char ***out, int *outc, char *err, size_t errlen);
void rp_script_argv_free(char **v);

/* "Usage: NAME [-p PID] [-x] [-- ARGS]", the description, the options */
void rp_script_usage(FILE *out, const char *name, const struct rp_script *s);

#endif
