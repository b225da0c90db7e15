/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs without Perl: counted stacks (folded, "root;...;leaf",
 * each with its count) drawn as an interactive SVG, as flamegraph.pl
 * draws them, or written as a speedscope file. count --by stack, hist
 * --stack and the flamegraph command (folded lines from a file) all
 * hand their rows to this one module.
 */
#ifndef RAWPROBECTL_FLAME_H
#define RAWPROBECTL_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rp_flame_format {
	RP_FLAME_SVG,		/* an SVG with its script: click to zoom */
	RP_FLAME_SPEEDSCOPE,	/* speedscope's JSON, a sampled profile */
};

/* "svg", "speedscope" -> enum rp_flame_format; -1 if neither */
int rp_flame_format_parse(const char *s);

/* One stack: its frames root first, joined by ';', and its count */
struct rp_flame_row {
	char *stack;
	size_t len;
	uint64_t count;
};

/*
 * One merged frame: its depth (0 the root, "all"), where it starts
 * (the counts of the stacks drawn left of it) and its count.
 */
struct rp_flame_node {
	const char *name;	/* in a row's stack: len bytes, no NUL */
	size_t len;
	unsigned int depth;
	uint64_t start, count;
};

struct rp_flame {
	struct rp_flame_row *rows;
	size_t nrows, cap;
	uint64_t total;
	/* rp_flame_merge()'s: parents before children, siblings by name */
	struct rp_flame_node *nodes;
	size_t nnodes;
	unsigned int depth;	/* the deepest node's */
	const char *title;	/* the SVG's heading, the profile's name */
};

void rp_flame_init(struct rp_flame *f, const char *title);
void rp_flame_free(struct rp_flame *f);
/* A stack of len bytes (folded: "a;b;c"), counted count times. -ENOMEM */
int rp_flame_add(struct rp_flame *f, const char *stack, size_t len,
		 uint64_t count);
/*
 * Folded lines from in, as flamegraph.pl reads them: "STACK COUNT", the
 * count the last word. Returns the lines that were not (an empty line
 * is no line), or -ENOMEM; *bad gets the first such line's number.
 */
long rp_flame_read(struct rp_flame *f, FILE *in, unsigned long *bad);
/*
 * Sorts and merges: equal stacks added up, then a frame per distinct
 * prefix, as flamegraph.pl merges (frame by frame, siblings by name).
 * 0 or -ENOMEM.
 */
int rp_flame_merge(struct rp_flame *f);

/* Merges and writes the document: 0, -ENOMEM or -EIO */
int rp_flame_write(struct rp_flame *f, FILE *out, int fmt);
/* The writers, on a merged graph (flame_svg.c; speedscope in flame.c) */
int rp_flame_svg(const struct rp_flame *f, FILE *out);
int rp_flame_speedscope(const struct rp_flame *f, FILE *out);

#endif
