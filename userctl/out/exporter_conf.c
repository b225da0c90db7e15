// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl serve --config FILE: a line a probe add, read with probe
 * add's own parser (out/probe_add.c), so a line means in the file what
 * it means on the command line, as ebpf_exporter's config names its
 * programs. Every line is read and resolved before anything is added:
 * a mistake on line 9 adds nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "out/exporter_conf.h"
#include "out/probe_add.h"
#include "resolve/task_filter.h"

/* A quoted run from *s (at its opening quote) into *o: 0, or -1 */
static int rp_conf_quoted(char **s, char **o)
{
	char q = *(*s)++;

	for (; **s && **s != q; (*s)++) {
		if (q == '"' && **s == '\\' && ((*s)[1] == '"' ||
						 (*s)[1] == '\\'))
			(*s)++;
		*(*o)++ = **s;
	}
	if (!**s)
		return -1;
	(*s)++;
	return 0;
}

int rp_conf_words(char *line, char **argv, int max, const char **why)
{
	char *s = line, *o;
	int n = 0;

	for (;;) {
		s += strspn(s, " \t\r\n");
		if (!*s || *s == '#')
			return n;
		if (n == max) {
			*why = "too many words";
			return -1;
		}
		argv[n++] = o = s;
		while (*s && !strchr(" \t\r\n", *s)) {
			if (*s == '\'' || *s == '"') {
				if (rp_conf_quoted(&s, &o)) {
					*why = "a quote without its end";
					return -1;
				}
			} else if (*s == '\\' && s[1]) {
				*o++ = *++s;
				s++;
			} else {
				*o++ = *s++;
			}
		}
		/* the word ends where it was written: o never passes s */
		if (*s)
			s++;
		*o = '\0';
	}
}

/* reqs[*n..] += the line's requests, globs expanded */
static int rp_conf_line(char **argv, int argc, struct rp_probe_req **reqs,
			size_t *n)
{
	struct rp_probe_req *line = NULL, *v;
	struct rp_probe_add_args a;
	size_t k, nl = 0;
	int rc;

	if (!strcmp(argv[1], "pair"))
		return rp_usage_error("a pair is not taken from a config "
				      "(add it with 'probe add pair')");
	rc = rp_probe_add_parse(argc, argv, &a);
	if (rc)
		return rc < 0 ? RP_EXIT_USAGE : rc;
	if (a.dry_run)
		return rp_usage_error("--dry-run is not for a config");
	line = calloc((size_t)a.ntargets, sizeof(*line));
	if (!line)
		return RP_EXIT_FAIL;
	for (rc = 0; !rc && nl < (size_t)a.ntargets; nl++) {
		line[nl] = a.req;
		rc = strcmp(a.targets[nl], "-") ?
		     rp_probe_req_init(&line[nl], a.kind, a.targets[nl]) :
		     rp_usage_error("'-' (targets on stdin) is not for a config");
	}
	if (!rc)
		rc = rp_probe_reqs_expand(&line, &nl, a.max);
	/* checked and resolved here, so that a mistake names its line */
	if (!rc && rp_probe_check(line, nl))
		rc = RP_EXIT_FAIL;
	if (!rc)
		rc = rp_probe_auto_args(line, nl);
	v = rc ? NULL : realloc(*reqs, (*n + nl) * sizeof(*v));
	if (!rc && !v)
		rc = RP_EXIT_FAIL;
	for (k = 0; !rc && k < nl; k++)
		v[(*n)++] = line[k];
	if (v)
		*reqs = v;
	free(line);
	return rc;
}

/* Every line's requests; "FILE:LINE" said after a line's error */
static int rp_conf_read(FILE *f, const char *path, struct rp_probe_req **reqs,
			size_t *n)
{
	char buf[RP_CONF_LINE_MAX], *argv[RP_CONF_WORDS_MAX + 2];
	const char *why = NULL;
	unsigned int lineno = 0;
	int argc, rc = 0;

	while (!rc && fgets(buf, sizeof(buf), f)) {
		lineno++;
		if (!strchr(buf, '\n') && !feof(f))
			why = "longer than 4095 bytes";
		argv[0] = "serve --config";
		argc = why ? -1 : rp_conf_words(buf, argv + 1,
						RP_CONF_WORDS_MAX, &why);
		if (argc < 0) {
			fprintf(stderr, "rawprobectl: %s:%u: %s\n", path,
				lineno, why);
			return RP_EXIT_USAGE;
		}
		if (!argc)
			continue;
		argv[argc + 1] = NULL;
		rc = rp_conf_line(argv, argc + 1, reqs, n);
		if (rc)
			fprintf(stderr, "rawprobectl: %s:%u: in this line\n",
				path, lineno);
	}
	if (!rc && ferror(f)) {
		fprintf(stderr, "rawprobectl: %s: %s\n", path, strerror(errno));
		rc = RP_EXIT_FAIL;
	}
	return rc;
}

int rp_conf_load(const char *path, struct rp_probe_req **reqs, size_t *n)
{
	FILE *f = fopen(path, "r");
	size_t i;
	int rc;

	*reqs = NULL;
	*n = 0;
	if (!f) {
		fprintf(stderr, "rawprobectl: --config %s: %s\n", path,
			strerror(errno));
		return RP_EXIT_USAGE;
	}
	rc = rp_conf_read(f, path, reqs, n);
	fclose(f);
	if (!rc && !*n)
		rc = rp_usage_error("--config %s names no probe", path);
	/* the exporter's, gone with its socket whatever becomes of it */
	for (i = 0; !rc && i < *n; i++) {
		(*reqs)[i].flags &= ~RAWPROBE_F_PERSISTENT;
		rp_task_filter_leave_self_out(&(*reqs)[i].filter);
	}
	return rc;
}
