/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named arguments, --args by name ('skb->len,fd,buf:str:count'),
 * compiled against the probed function's BTF into struct rawprobe_fetch
 * programs, which the kernel runs in its handlers (uapi/rawprobe.h).
 */
#ifndef RAWPROBECTL_ARGS_H
#define RAWPROBECTL_ARGS_H

#include <stdbool.h>
#include "resolve/probe_req.h"

/*
 * Is this --args list resolved against BTF by name? Yes when one of its
 * elements is a field path (->, ., [N]) or a bare parameter's name (no
 * ':TYPE', not a type); a count or types, named or not, are positional.
 */
bool rp_args_by_name(const char *spec);

/*
 * At rp_probe_auto_args(), when the function is known: req's arguments
 * from its --args by name (nargs, argtypes, arg_names, fetch[]).
 * RP_EXIT_OK, or the exit code after printing why.
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

#endif
