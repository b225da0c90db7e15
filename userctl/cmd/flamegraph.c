// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl flamegraph [-f svg|speedscope] [--title T] [-o FILE]
 * [FILE|-]: folded stacks ("a;b;c 12", what -f folded, count --by stack
 * and perf's stackcollapse scripts write) drawn as flamegraph.pl draws
 * them, or written as a speedscope profile. No module is needed: the
 * same code as count's and hist's -f svg (out/flame.c), on a file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "out/flame.h"

struct rp_flamegraph_cfg {
	int format;		/* enum rp_flame_format */
	const char *title, *input, *output;
};

static void rp_flamegraph_usage(FILE *out)
{
	fputs("Usage: rawprobectl flamegraph [-f svg|speedscope] [--title TITLE]\n"
	      "                              [-o FILE] [FILE|-]\n\n"
	      "Folded stacks (\"root;...;leaf COUNT\" a line, as -f folded writes)\n"
	      "from FILE or stdin, drawn as a flame graph.\n\n"
	      "  -f, --format FMT     svg (default): an SVG to open in a browser;\n"
	      "                       click to zoom, Ctrl-F to search;\n"
	      "                       speedscope: a profile for speedscope\n"
	      "  -t, --title TITLE    the graph's title (default \"Flame Graph\")\n"
	      "  -o, --output FILE    write to FILE instead of stdout\n"
	      "Frames of one prefix are merged, siblings sorted by name, as\n"
	      "flamegraph.pl merges; lines that are not folded stacks are left\n"
	      "out and counted on stderr.\n", out);
}

static int rp_flamegraph_parse(int argc, char **argv,
			       struct rp_flamegraph_cfg *c)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "title",  required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 0;	/* full getopt reset: main() parsed already */
	opterr = 0;	/* rp_bad_option() says what was wrong */
	while ((opt = getopt_long(argc, argv, "-f:t:o:h", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'h':
			rp_flamegraph_usage(stdout);
			return -1;
		case 'f':
			c->format = rp_flame_format_parse(optarg);
			if (c->format < 0)
				return rp_usage_error("--format is svg or "
						      "speedscope, not '%s'",
						      optarg);
			break;
		case 't':
			c->title = optarg;
			break;
		case 'o':
			c->output = optarg;
			break;
		case 1:
			if (c->input)
				return rp_usage_error("flamegraph reads one "
						      "file: '%s' is a second",
						      optarg);
			c->input = optarg;
			break;
		default:
			return rp_bad_option(argv, "-f:t:o:h", longopts,
					     "rawprobectl flamegraph");
		}
	}
	return 0;
}

/* The rows of in; an exit code, what was wrong said */
static int rp_flamegraph_read(struct rp_flame *f, FILE *in, const char *name)
{
	unsigned long first;
	long bad = rp_flame_read(f, in, &first);

	if (bad < 0 || ferror(in)) {
		fprintf(stderr, "rawprobectl: flamegraph: %s: %s\n", name,
			strerror(bad < 0 ? (int)-bad : EIO));
		return RP_EXIT_FAIL;
	}
	if (bad)
		fprintf(stderr, "rawprobectl: flamegraph: %s: left out %ld "
			"line%s that %s not \"STACK COUNT\" (the first: line "
			"%lu)\n", name, bad, bad == 1 ? "" : "s",
			bad == 1 ? "is" : "are", first);
	if (!f->nrows) {
		fprintf(stderr, "rawprobectl: flamegraph: %s: no stacks to "
			"draw\n", name);
		return RP_EXIT_FAIL;
	}
	return RP_EXIT_OK;
}

static int rp_flamegraph_write(struct rp_flame *f,
			       const struct rp_flamegraph_cfg *c)
{
	FILE *out = c->output ? fopen(c->output, "w") : stdout;
	int err;

	if (!out) {
		fprintf(stderr, "rawprobectl: %s: %s\n", c->output,
			strerror(errno));
		return RP_EXIT_FAIL;
	}
	err = rp_flame_write(f, out, c->format);
	if (out != stdout && fclose(out) && !err)
		err = -EIO;
	if (err) {
		fprintf(stderr, "rawprobectl: flamegraph: %s: %s\n",
			c->output ? c->output : "stdout", strerror(-err));
		return RP_EXIT_FAIL;
	}
	return RP_EXIT_OK;
}

int rp_cmd_flamegraph(int argc, char **argv)
{
	struct rp_flamegraph_cfg c = { .format = RP_FLAME_SVG,
				       .title = "Flame Graph" };
	bool from_stdin;
	struct rp_flame f;
	FILE *in;
	int rc;

	rc = rp_flamegraph_parse(argc, argv, &c);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	from_stdin = !c.input || !strcmp(c.input, "-");
	in = from_stdin ? stdin : fopen(c.input, "r");
	if (!in) {
		fprintf(stderr, "rawprobectl: %s: %s\n", c.input,
			strerror(errno));
		return RP_EXIT_FAIL;
	}
	rp_flame_init(&f, c.title);
	rc = rp_flamegraph_read(&f, in, from_stdin ? "stdin" : c.input);
	if (!from_stdin)
		fclose(in);
	if (!rc)
		rc = rp_flamegraph_write(&f, &c);
	rp_flame_free(&f);
	return rc;
}
