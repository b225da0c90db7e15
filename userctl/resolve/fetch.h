/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Field fetches and value filters (--args 'skb->len', --filter
 * 'retval < 0'): compiled against the probed function's BTF into struct
 * rawprobe_fetch programs and struct rawprobe_value_term lists, which
 * the kernel runs in its handlers (uapi/rawprobe.h).
 */
#ifndef RAWPROBECTL_FETCH_H
#define RAWPROBECTL_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/json.h"
#include "resolve/probe_req.h"

/*
 * Is this --args list resolved against BTF by name? Yes when one of its
 * elements is a field path (->, ., [N]) or a bare parameter's name (no
 * ':TYPE', not a type); a count or types, named or not, are positional.
 */
bool rp_args_by_name(const char *spec);
/* --filter EXPR: kept in req, checked for what the kernel accepts */
int rp_value_filter_opt(const char *arg, struct rp_probe_req *req);

/*
 * At rp_probe_auto_args(), when the function is known: req's arguments
 * from its --args by name (nargs, argtypes, arg_names, fetch[]), and
 * its --filter's terms. RP_EXIT_OK, or the exit code after printing why.
 */
int rp_fetch_args_compile(struct rp_probe_req *req);
/*
 * --args NAME:TYPE,... (req->args_named, the list written back into
 * args_by_name): where BTF knows the function (named, at its entry),
 * each NAME selects that parameter, compiled as by
 * rp_fetch_args_compile(), and a NAME that is none is refused. With no
 * BTF of it, the names stay labels of the positional arguments
 * (args_by_name cleared).
 */
int rp_fetch_labels_compile(struct rp_probe_req *req);
int rp_value_filter_compile(struct rp_probe_req *req);

/* What --dry-run shows: "src=arg0 loads=112 size=8 signed" */
void rp_fetch_str(const struct rawprobe_fetch *f, char *buf, size_t len);
const char *rp_cmp_name(unsigned int cmp);
void rp_fetch_json(struct json *j, const struct rawprobe_fetch *f);
/* "value_filter": {"text": ..., "terms": [...]} of req's --filter */
void rp_value_filter_json(struct json *j, const struct rp_probe_req *req);

#endif
