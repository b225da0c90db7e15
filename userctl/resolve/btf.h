/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions' prototypes from the kernel's BTF (libbpf): 'rawprobectl btf
 * show', --args auto, enum and bool values shown by name, and kretprobes'
 * return values typed.
 *
 * The BTF is /sys/kernel/btf/vmlinux, and a module's function's
 * /sys/kernel/btf/MODULE (split BTF over vmlinux's); or $RAWPROBECTL_BTF:
 * a file (raw BTF or an ELF vmlinux: the kernel's own functions only) or
 * a directory laid out as /sys/kernel/btf.
 *
 * A syscall's entry point (__x64_sys_NAME) takes the user's pt_regs; the
 * syscall's own arguments are __do_sys_NAME's, or __se_sys_NAME's, when
 * BTF has them (most are inlined), else those of the syscall's
 * tracepoint format in tracefs: $RAWPROBECTL_TRACEFS, or
 * /sys/kernel/tracing (or /sys/kernel/debug/tracing) when
 * RAWPROBECTL_BTF does not name another kernel's BTF.
 */
#ifndef RAWPROBECTL_BTF_H
#define RAWPROBECTL_BTF_H

#include <stdint.h>
#include "lib/desc.h"
#include "resolve/probe_req.h"

/* rawprobectl btf show FUNC... */
int rp_cmd_btf(int argc, char **argv);

/*
 * --args auto: req's nargs, argtypes and arg_names from its function's
 * prototype (the first RAWPROBE_MAX_ARGS arguments), RAWPROBE_F_SYSCALL
 * for a syscall's entry point. Prints notes (arguments left out, raw
 * values) and errors; 0 or a negative errno.
 */
int rp_btf_req_args(struct rp_probe_req *req);

/*
 * A label for value v of named argument i of d: "true"/"false" for a
 * bool, the enumerator's name for an enum, from the BTF of d's function
 * (looked up once per probe): the parameter's type, or the field's that
 * a path names (file->f_mode); NULL otherwise. An rp_arg_label_fn.
 */
const char *rp_btf_arg_label(const struct rp_probe_desc *d, unsigned int i,
			     uint64_t v);
/*
 * The enumerator's name of the return value v of d's function (a
 * kretprobe's, its function's return type an enum), from its BTF, or
 * NULL. An rp_ret_label_fn.
 */
const char *rp_btf_ret_label(const struct rp_probe_desc *d, uint64_t v);
/*
 * d's types from its function's BTF: the return value's (a kretprobe's)
 * and which named arguments are bools (d->ret_type, d->arg_bool; left
 * unknown without BTF); d->types_known set. It looks up what d's records
 * would make rp_btf_arg_label() and rp_btf_ret_label() look up (its
 * function's prototype, BTF itself at the first call): a stream does it
 * before it reads, so that its first drain does not stall while the
 * rings fill.
 */
void rp_btf_desc_types(struct rp_probe_desc *d);
/* The same for probes still to be added, by their functions' names. */
void rp_btf_labels_preload(const struct rp_probe_req *reqs, unsigned int n);

#endif
