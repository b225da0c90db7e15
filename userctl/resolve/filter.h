/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The value filter (--filter 'retval < 0'): compiled against the probed
 * function's BTF into struct rawprobe_value_term lists, which the kernel
 * runs in its handlers (uapi/rawprobe.h).
 */
#ifndef RAWPROBECTL_FILTER_H
#define RAWPROBECTL_FILTER_H

#include "resolve/probe_req.h"

/* --filter EXPR: kept in req, checked for what the kernel accepts */
int rp_value_filter_opt(const char *arg, struct rp_probe_req *req);
/*
 * At rp_probe_auto_args(), when the function is known: req's --filter
 * into its terms (terms[], nterms, filter_strs). RP_EXIT_OK, or the
 * exit code after printing why.
 */
int rp_value_filter_compile(struct rp_probe_req *req);

#endif
