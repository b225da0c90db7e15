/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Field paths: what --args and --filter name (skb->len, skb->dev->name,
 * file->f_path.dentry, argv[1]), and what an argument's name may be:
 *
 *   PATH  := HEAD STEP* | '(' CAST HEAD STEP* ')' STEP* | CAST HEAD STEP*
 *   STEP  := '->' MEMBER | '.' MEMBER | '[' N ']'
 *   CAST  := '(' 'struct' NAME '*' ')'
 *
 * HEAD is a parameter's name, argN or retval; MEMBER an identifier. A
 * cast, bpftrace's ((struct tcp_sock *)sk)->bytes_acked, takes the
 * pointer before it as one to struct NAME. The syntax only:
 * resolve/path.c gives a path its meaning from BTF.
 *
 * An argument's name (A_ARG_NAMES' elements) is a PATH, or an alias of
 * one, NAME=PATH: output calls it NAME, BTF labels it by PATH.
 */
#ifndef RAWPROBECTL_PATH_H
#define RAWPROBECTL_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"

#define RP_PATH_NAME_MAX	64	/* an identifier, with its NUL */
#define RP_PATH_STEPS_MAX	16

struct rp_path_step {
	char op;			/* '>' (for "->"), '.' or '[' */
	uint8_t end;			/* text[] up to this step: its length */
	uint32_t index;			/* '[': N */
	char name[RP_PATH_NAME_MAX];	/* '>' and '.': the member */
};

struct rp_path {
	char head[RP_PATH_NAME_MAX];
	unsigned int nsteps;
	struct rp_path_step steps[RP_PATH_STEPS_MAX];
	/* a cast ("" if none), after the first cast_at steps */
	char cast[RP_PATH_NAME_MAX];
	unsigned int cast_at;
	unsigned int head_end;		/* text[] up to the head: its length */
	unsigned int head_off;		/* where in text[] the head is */
	unsigned int cast_end;		/* text[] up to a cast's ')', or 0 */
	char text[RAWPROBE_ARG_NAMES_LEN];	/* as written, without spaces */
};

/*
 * Parse the path at *s; spaces may separate its tokens. *s is left past
 * it, or at the token that is wrong. 0, -EINVAL (not a path there) or
 * -ERANGE (a name or the whole too long, too many steps, N past 2^31).
 */
int rp_path_parse(const char **s, struct rp_path *p);
/* Is s[0..len) exactly one path, without spaces? */
bool rp_is_path(const char *s, size_t len);
/* The path's first step..., or head alone: text[] up to step k (k < 0: head) */
size_t rp_path_prefix(const struct rp_path *p, int k);
/*
 * Is s[0..len) an argument's name, PATH or NAME=PATH (NAME an
 * identifier)? Its name is s[0..*name_len), its path s[*path_off..len).
 */
bool rp_arg_name_split(const char *s, size_t len, size_t *name_len,
		       size_t *path_off);

#endif
