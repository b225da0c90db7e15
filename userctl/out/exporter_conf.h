/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl serve --config FILE (out/exporter_conf.c): the probes the
 * exporter adds when it starts and removes when it ends, a line each, as
 * probe add takes them:
 *
 *   # getpgid calls by command
 *   kprobe __x64_sys_getpgid --by comm
 *   kretprobe vfs_read --stats latency --hist log2 --by comm
 *
 * Words are split as a shell splits them ('...', "..." and \ quote);
 * '#' begins a comment where a word would begin.
 */
#ifndef RAWPROBECTL_EXPORTER_CONF_H
#define RAWPROBECTL_EXPORTER_CONF_H

#include <stddef.h>
#include "resolve/probe_req.h"

#define RP_CONF_LINE_MAX	4096	/* bytes a line, its newline too */
#define RP_CONF_WORDS_MAX	64	/* words a line */

/*
 * Split line into at most max words, in place: argv[] points into it.
 * The count, or -1 with the reason in *why.
 */
int rp_conf_words(char *line, char **argv, int max, const char **why);

/*
 * FILE read: every line's probes, globs expanded, checked, their
 * arguments resolved, owned by the command (not persistent), leaving
 * this process out. *reqs malloc'd. RP_EXIT_OK, or the exit code with
 * the file and line said.
 */
int rp_conf_load(const char *path, struct rp_probe_req **reqs, size_t *n);

#endif
