// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl run FILE and rawprobectl tool: a script (lib/script.h), a
 * rawprobectl command kept in a file with the options it takes, run as
 * if typed; the tools are the scripts installed with rawprobectl
 * (scripts/tools/ in the tree, PREFIX/share/rawprobe/tools installed,
 * or the directories of RAWPROBE_TOOLS, first).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/json.h"
#include "lib/script.h"

#define RP_TOOL_EXT	".rp"
#define RP_TOOL_DIRS	4

/* The script's command, run in place of this process, as if typed. */
static int rp_script_exec(char **words, int n)
{
	char **v = calloc((size_t)n + 3, sizeof(*v));
	int k = 0, i;

	if (!v) {
		perror("rawprobectl");
		return RP_EXIT_FAIL;
	}
	v[k++] = "rawprobectl";
	if (rp_opts.json)	/* rawprobectl -j tool NAME */
		v[k++] = rp_opts.pretty ? "-p" : "-j";
	for (i = 0; i < n; i++)
		v[k++] = words[i];
	fflush(NULL);
	execv("/proc/self/exe", v);
	fprintf(stderr, "rawprobectl: running the script's command: %s\n",
		strerror(errno));
	free(v);
	return RP_EXIT_FAIL;
}

/* Run the script at path as name, with the user's argv. */
static int rp_script_run(const char *path, const char *name, int argc,
			 char **argv)
{
	struct rp_script s;
	char err[256], **words;
	int n, rc;

	if (rp_script_load(path, &s, err, sizeof(err))) {
		rp_script_free(&s);
		fprintf(stderr, "rawprobectl: %s\n", err);
		return RP_EXIT_USAGE;
	}
	rc = rp_script_argv(&s, argc, argv, &words, &n, err, sizeof(err));
	if (rc == 1)
		rp_script_usage(stdout, name, &s);
	else if (rc)
		fprintf(stderr, "%s: %s\n", name, err);
	rp_script_free(&s);
	if (rc)
		return rc == 1 ? RP_EXIT_OK : RP_EXIT_USAGE;
	rc = rp_script_exec(words, n);
	rp_script_argv_free(words);
	return rc;
}

int rp_cmd_run(int argc, char **argv)
{
	if (argc < 2 || rp_is_help(argv[1])) {
		fprintf(argc < 2 ? stderr : stdout,
			"Usage: rawprobectl run FILE [OPTIONS] [-- ARGS]\n"
			"Run the rawprobectl command FILE holds, with the options "
			"it declares\n(FILE -h lists them); ARGS after -- are "
			"added to the command.\nA script's first line may be "
			"#!/usr/bin/env -S rawprobectl run\n");
		return argc < 2 ? RP_EXIT_USAGE : RP_EXIT_OK;
	}
	return rp_script_run(argv[1], argv[1], argc - 2, argv + 2);
}

/* Where tools are looked for, first to last: *n directories in dirs. */
static void rp_tool_dirs(char dirs[RP_TOOL_DIRS][PATH_MAX], int *n)
{
	const char *env = getenv("RAWPROBE_TOOLS");
	char exe[PATH_MAX], *slash;
	ssize_t len;

	*n = 0;
	if (env && *env && strlen(env) < PATH_MAX)
		strcpy(dirs[(*n)++], env);
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	/* the tree's userctl/rawprobectl, an installed PREFIX/sbin's */
	snprintf(dirs[(*n)++], PATH_MAX, "%.*s/../scripts/tools",
		 PATH_MAX - 20, exe);
	snprintf(dirs[(*n)++], PATH_MAX, "%.*s/../share/rawprobe/tools",
		 PATH_MAX - 30, exe);
}

/* The script of tool name: its path in path, 0; or -ENOENT. */
static int rp_tool_find(const char *name, char *path, size_t len)
{
	char dirs[RP_TOOL_DIRS][PATH_MAX];
	int n, i;

	if (!*name || strchr(name, '/') || name[0] == '.')
		return -ENOENT;
	rp_tool_dirs(dirs, &n);
	for (i = 0; i < n; i++) {
		if ((size_t)snprintf(path, len, "%s/%s%s", dirs[i], name,
				     RP_TOOL_EXT) < len && !access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

static int rp_tool_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tools of the first directory that has any: names sorted, and n */
static char **rp_tool_names(char *dir, size_t dirlen, size_t *n)
{
	char dirs[RP_TOOL_DIRS][PATH_MAX], **v = NULL, **tmp;
	struct dirent *e;
	size_t len;
	int nd, i;
	DIR *d;

	*n = 0;
	rp_tool_dirs(dirs, &nd);
	for (i = 0; i < nd && !*n; i++) {
		d = opendir(dirs[i]);
		while (d && (e = readdir(d))) {
			len = strlen(e->d_name);
			if (len <= strlen(RP_TOOL_EXT) || e->d_name[0] == '.' ||
			    strcmp(e->d_name + len - strlen(RP_TOOL_EXT),
				   RP_TOOL_EXT))
				continue;
			tmp = realloc(v, (*n + 1) * sizeof(*v));
			if (!tmp)
				break;
			v = tmp;
			v[*n] = strndup(e->d_name, len - strlen(RP_TOOL_EXT));
			*n += !!v[*n];
		}
		if (d)
			closedir(d);
		if ((size_t)snprintf(dir, dirlen, "%s", dirs[i]) >= dirlen)
			*n = 0;	/* (PATH_MAX each: never) */
	}
	if (*n)
		qsort(v, *n, sizeof(*v), rp_tool_cmp);
	return v;
}

static void rp_tool_list_one(const char *dir, const char *name)
{
	char path[PATH_MAX], err[256];
	struct rp_script s;
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s%s", dir, name,
			     RP_TOOL_EXT) >= sizeof(path))
		return;
	rc = rp_script_load(path, &s, err, sizeof(err));
	if (rp_opts.json) {
		json_obj_open(&rp_json);
		json_kv_str(&rp_json, "name", name);
		json_kv_str(&rp_json, "description",
			    !rc && s.description ? s.description : "");
		json_kv_str(&rp_json, "path", path);
		if (rc)
			json_kv_str(&rp_json, "error", err);
		json_obj_close(&rp_json);
	} else {
		printf("%-14s %s\n", name, rc ? err :
		       s.description ? s.description : "");
	}
	rp_script_free(&s);
}

static int rp_tool_list(int argc, char **argv)
{
	char dir[PATH_MAX] = "", **names;
	size_t n, i;
	int rc = rp_no_args(argc, argv, "rawprobectl tool list  the tools, "
			    "each a script 'rawprobectl tool NAME' runs");

	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	names = rp_tool_names(dir, sizeof(dir), &n);
	if (!n) {
		fprintf(stderr, "rawprobectl: no tools found (RAWPROBE_TOOLS, "
			"or share/rawprobe/tools beside rawprobectl)\n");
		return RP_EXIT_FAIL;
	}
	if (rp_opts.json)
		json_arr_open(&rp_json);
	for (i = 0; i < n; i++) {
		rp_tool_list_one(dir, names[i]);
		free(names[i]);
	}
	free(names);
	if (rp_opts.json) {
		json_arr_close(&rp_json);
		json_end_doc(&rp_json);
	}
	return RP_EXIT_OK;
}

/* tool show NAME: the script itself, to read or copy */
static int rp_tool_show(int argc, char **argv)
{
	char path[PATH_MAX], buf[4096];
	size_t n;
	FILE *f;
	int rc = rp_one_arg(argc, argv, "rawprobectl tool show NAME  the "
			    "tool's script, to read or copy");

	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	if (rp_tool_find(argv[1], path, sizeof(path)))
		return rp_usage_error("no tool '%s' ('rawprobectl tool list')",
				      argv[1]);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "rawprobectl: %s: %s\n", path, strerror(errno));
		return RP_EXIT_FAIL;
	}
	printf("# %s\n", path);
	while ((n = fread(buf, 1, sizeof(buf), f)))
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return RP_EXIT_OK;
}

static void rp_tool_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl tool list             the tools\n"
		"       rawprobectl tool show NAME        a tool's script\n"
		"       rawprobectl tool NAME [OPTIONS]   run it (-h: its "
		"options)\n"
		"A tool is a script (rawprobectl run FILE): copy one with "
		"'tool show' to\nchange it.\n");
}

int rp_cmd_tool(int argc, char **argv)
{
	char path[PATH_MAX];

	if (argc < 2 || rp_is_help(argv[1])) {
		rp_tool_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? RP_EXIT_USAGE : RP_EXIT_OK;
	}
	if (!strcmp(argv[1], "list"))
		return rp_tool_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return rp_tool_show(argc - 1, argv + 1);
	if (rp_tool_find(argv[1], path, sizeof(path)))
		return rp_usage_error("no tool '%s' ('rawprobectl tool list')",
				      argv[1]);
	return rp_script_run(path, argv[1], argc - 2, argv + 2);
}
