/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BTF internals that btf.c shares with path.c and filter.c, which
 * compile field paths and value filters against the same prototypes,
 * and with the few others that take libbpf's types (btf_*.c, cmd/btf.c).
 */
#ifndef RAWPROBECTL_BTF_INT_H
#define RAWPROBECTL_BTF_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/btf.h>
#include "resolve/btf.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define RP_BTF_NAME_MAX		64
#define RP_BTF_TYPE_MAX		160
#define RP_BTF_PARAMS_MAX	16	/* shown; C allows more */
#define RP_BTF_DEPTH		16	/* of type chains we follow */

/* Can rawprobe record an argument of that type? */
enum rp_btf_fit {
	RP_FIT_OK,	/* as its type says */
	RP_FIT_RAW,	/* a register's raw value, with a note */
	RP_FIT_STOP,	/* not in a general register: neither are later ones */
};

struct rp_btf_param {
	char name[RP_BTF_NAME_MAX];
	char type[RP_BTF_TYPE_MAX];	/* as C spells it: "struct file *" */
	uint32_t type_id;		/* in the prototype's btf; 0: unknown */
	unsigned char argtype;		/* enum rawprobe_argtype */
	unsigned char fit;		/* enum rp_btf_fit */
};

struct rp_btf_proto {
	const struct btf *btf;
	char from[RP_BTF_NAME_MAX + 64];	/* whose arguments, if not its own */
	bool syscall;			/* args are in the user's pt_regs */
	bool user_ptrs;			/* char pointers are the user's */
	bool varargs;
	unsigned int nparams;		/* all; params[] holds the first ones */
	unsigned int same_name;		/* other functions of that name */
	char ret[RP_BTF_TYPE_MAX];
	uint32_t ret_id;		/* its type; 0: void, or not known */
	struct rp_btf_param params[RP_BTF_PARAMS_MAX];
};

/*
 * function's prototype; the syscall's own for a syscall's entry point.
 * 0, -ENOENT (no such function, said if verbose) or another errno (no
 * BTF: said if verbose).
 */
int rp_btf_proto_get(const char *function, const char *module,
		     struct rp_btf_proto *pr, bool verbose);

/* btf.c: $RAWPROBECTL_BTF, or NULL */
const char *rp_btf_env(void);
/*
 * function's (in module, or vmlinux then the modules) BTF and FUNC id:
 * 0, or -ENOENT and the like (said if verbose)
 */
int rp_btf_where(const char *function, const char *module,
		 const struct btf **btf, uint32_t *id, bool verbose);
/* pr from the FUNC func_id of btf: its parameters and return type */
void rp_btf_fill(const struct btf *btf, uint32_t func_id,
		 struct rp_btf_proto *pr);

/* No BTF of the kernel, said; an unknown function, said with near names */
void rp_btf_vmlinux_perror(void);
void rp_btf_unknown(const char *function, const char *module);
/* How many more FUNCs after id share its name */
unsigned int rp_btf_same_name(const struct btf *btf, uint32_t id);

/* btf_proto.c: __x64_sys_openat -> openat; NULL if not a syscall's */
const char *rp_btf_syscall_name(const char *sym, bool *compat);
/* A syscall's own arguments (sys: its name), for its entry point */
int rp_btf_syscall(const char *function, const char *sys, bool compat,
		   struct rp_btf_proto *pr, bool verbose);
/* A tracepoint's ("SUBSYSTEM:EVENT"), a syscalls:* event's too */
int rp_btf_tp_proto(const char *event, struct rp_btf_proto *pr,
		    bool verbose);

/* vmlinux's BTF, loaded once; NULL if there is none (said if verbose) */
const struct btf *rp_btf_kernel(bool verbose);
/* A loaded module's BTF, split over vmlinux's; NULL if it has none */
const struct btf *rp_btf_module_get(const char *module);
/* That module's name as its loaded BTF keeps it, for as long; or "" */
const char *rp_btf_module_name(const char *module);
/*
 * The modules whose BTF there is (/sys/kernel/btf/MODULE: the loaded
 * ones), in name order: their number; *names for rp_btf_modules_free().
 */
int rp_btf_modules(char ***names);
void rp_btf_modules_free(char **names, int n);

const char *rp_btf_str(const struct btf *btf, uint32_t off);
/*
 * Through typedefs, const, volatile, restrict and type tags: *id is left
 * at the type returned; NULL for void (or a chain too long).
 */
const struct btf_type *rp_btf_skip(const struct btf *btf, uint32_t *id);
/* A type as C spells it: "const char *" */
void rp_btf_spell(const struct btf *btf, uint32_t id, char *buf, size_t len,
		  int depth);
/* "struct", "union" or "enum" */
const char *rp_btf_tag(const struct btf_type *t);
/* The rawprobe type that records a value of type id, and whether it can */
int rp_btf_fit(const struct btf *btf, uint32_t id, unsigned char *type);

/* "did you mean": the few nearest names, in score then name order */
#define RP_BTF_NEAR 5

struct rp_btf_near {
	int score;
	const char *name;
};

void rp_btf_near_add(struct rp_btf_near *best, int *nbest, int score,
		     const char *name);
void rp_btf_near_print(const struct rp_btf_near *best, int nbest);

/*
 * The type of the value a field path names in a probe of that kind, in
 * pr's BTF (path.c), modifiers skipped: 0 and *type set, or -1 if the
 * path names nothing there.
 */
int rp_fetch_path_type(const struct rp_btf_proto *pr, unsigned int kind,
		       const char *path, size_t len, uint32_t *type);

#endif
