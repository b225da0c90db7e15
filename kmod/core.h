/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces between the files of the core module.
 * One file per concern:
 *   main.c      module init/exit, parameters
 *   session.c   sessions: a set of rings, its owner and readers
 *   ring.c      a session's per-CPU rings: memory, geometry, wakeups
 *   clock.c     the rings' clock: CLOCK_MONOTONIC or the TSC
 *   chardev.c   /dev/rawprobe: mmap, poll, info ioctl
 *   genl.c      generic netlink family: operations, privileges, answers;
 *               its handlers by object in genl_probe.c (probe commands,
 *               events), genl_probe_attrs.c (a probe's attributes, both
 *               ways), genl_ring.c, genl_agg.c (genl_int.h)
 *   registry.c  the probe table: ids, insertion, removal, events
 *   registry_check.c, registry_arm.c, registry_custom.c: its checks,
 *               its registration with kprobes, other modules' probes
 *   pair.c      pairs: a batch's starts and ends, their shared table
 *   owner.c     probes owned by a netlink socket go when it closes
 *   modules.c   probes on module code: gone on unload, re-armed on load
 *   api.c       the API exported to probe modules
 *   probes/     the probe kinds (kprobe, kretprobe, jprobe-style)
 */
#ifndef _RAWPROBE_CORE_H
#define _RAWPROBE_CORE_H

#include <linux/types.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/poll.h>
#include <linux/security.h>
#include "rawprobe.h"
#include <rawprobe/api.h>

#define RAWPROBE_VERSION "0.1.0"

struct rp_owner;	/* owner.c: the netlink socket a probe belongs to */
struct rawprobe_pair;	/* pair.h: a pair's table of starts */
struct rp_session;	/* session.h: the rings a probe writes into */
struct rp_rings;

/* Per-CPU probe counters; this_cpu_inc() is one instruction on x86. */
struct rp_probe_stats {
	u64 hits;		/* handler entries, filtered or not */
	u64 records;		/* records committed */
	u64 lost_ring;		/* ring full */
	u64 str_faults;		/* string capture faulted */
	u64 filtered;		/* of the hits, those a filter rejected */
	u64 fetch_faults;	/* field fetches that read a bad address */
	u64 overridden;		/* hits whose function was made to return */
};

struct rp_probe_totals {
	u64 hits, records, lost_ring, str_faults, filtered, fetch_faults;
	u64 overridden;
	u64 miss_maxactive;	/* kretprobe: no free instance */
	u64 miss_recursion;	/* kprobe nmissed: hit inside a handler */
};

/* RAWPROBE_A_FILTER_*: which task or CPU may write records. */
#define RP_FILTER_PID	(1U << 0)
#define RP_FILTER_TGID	(1U << 1)
#define RP_FILTER_COMM	(1U << 2)
#define RP_FILTER_CPU	(1U << 3)
#define RP_FILTER_VALUE	(1U << 4)	/* spec.terms, tested by probes/fetch.c */
#define RP_FILTER_NOT_TGID	(1U << 5)	/* every process but not_tgid */
#define RP_FILTER_CGROUP	(1U << 6)	/* tasks in cgroup_id or below */
#define RP_NO_TGID		U32_MAX		/* above PID_MAX_LIMIT */

struct rp_filter {
	u32 mask;			/* RP_FILTER_*; 0: record every hit */
	/*
	 * What handlers test first (rp_probe_prepare() derives them): a
	 * command's probes leave out the command's own process, and most
	 * filter nothing else.
	 */
	u32 excl_tgid;			/* not_tgid, or RP_NO_TGID */
	u32 other_mask;			/* mask but RP_FILTER_NOT_TGID */
	u32 pid, tgid, cpu;
	u32 not_tgid;
	char comm[RAWPROBE_COMM_LEN];	/* NUL-padded, like task->comm */
	/*
	 * A cgroup v2 by id and depth, no reference: ids are never reused,
	 * so a removed cgroup matches no task (probes/emit.h).
	 */
	u64 cgroup_id;
	u32 cgroup_level;
};

/* RAWPROBE_F_AGG: what to count by, and what to sum and bucket. */
struct rp_agg_spec {
	u8 nkeys;
	u8 keys[RAWPROBE_AGG_MAX_KEYS];		/* enum rawprobe_agg_key */
	u8 key_args[RAWPROBE_AGG_MAX_KEYS];	/* of RAWPROBE_AGG_KEY_ARG */
	u8 value;				/* enum rawprobe_agg_value */
	u8 value_arg;
	u8 hist;				/* enum rawprobe_agg_hist */
	u16 lin_buckets;
	s64 lin_min;
	u64 lin_step;
	u32 max_keys;				/* 0: the default */
};

/* RAWPROBE_A_OVERRIDE: what the function returns, and when. */
struct rp_ovr_spec {
	bool set;
	u8 probability;				/* percent; 0: 100 */
	u8 chain_len;				/* 0: anywhere */
	u32 times;				/* 0: no limit */
	u32 interval;				/* 0 or 1: every hit */
	s64 value;
};

/* RAWPROBE_A_PAIR: a start or an end, and its key. */
struct rp_pair_spec {
	u8 role;				/* enum rawprobe_pair_role; 0: none */
	u8 key;					/* RAWPROBE_AGG_KEY_PID, _TGID, _ARG */
	u8 key_arg;
	u32 max_keys;				/* 0: the default */
	u32 expire_ms;				/* 0: never */
	u8 carry_args;				/* a start's first arguments
						 * its end may count by
						 */
};

/* What user space (or a module) asked for. */
struct rp_probe_spec {
	u8 kind;			/* enum rawprobe_kind */
	u32 flags;			/* RAWPROBE_F_* */
	char symbol[KSYM_NAME_LEN];
	char module[MODULE_NAME_LEN];	/* "" for vmlinux or raw address */
	u32 offset;
	u64 addr;			/* raw address when symbol is "" */
	u64 ftrace_addr;		/* RAWPROBE_A_FTRACE_ADDR; 0: kprobes
					 * arm it (fentry.c)
					 */
	u32 maxactive;			/* 0: the kernel's default */
	u8 nargs;
	u8 argtypes[RAWPROBE_MAX_ARGS];	/* enum rawprobe_argtype */
	u16 str_max;			/* 0: RAWPROBE_STR_LEN - 1 */
	u8 str_len_arg[RAWPROBE_MAX_ARGS];	/* RAWPROBE_A_STR_LEN_ARGS */
	struct rp_filter filter;
	char arg_names[RAWPROBE_ARG_NAMES_LEN];	/* for output only */
	/* Field fetches and value filters (probes/fetch.c) */
	u8 nfetch;			/* 0, or nargs: args computed by fetch[] */
	u8 nterms;			/* value filter terms */
	struct rawprobe_fetch fetch[RAWPROBE_MAX_ARGS];
	struct rawprobe_value_term terms[RAWPROBE_MAX_VALUE_TERMS];
	char filter_str[RAWPROBE_FILTER_STR_LEN];	/* for output only */
	u16 strs_len;			/* string terms' constants: */
	char strs[RAWPROBE_FILTER_STRS_LEN];	/* NUL-terminated each */
	struct rp_agg_spec agg;		/* with RAWPROBE_F_AGG */
	struct rp_ovr_spec ovr;		/* RAWPROBE_A_OVERRIDE */
	u8 chain_step;			/* RAWPROBE_A_CHAIN_STEP; 0: none */
	struct rp_pair_spec pair;	/* RAWPROBE_A_PAIR */
	u32 session_id;			/* RAWPROBE_A_SESSION, or by name: */
	char session_name[RAWPROBE_SESSION_NAME_LEN];
	struct rp_session *sess;	/* that session, referenced by whoever
					 * holds the spec; NULL: the default
					 */
};

struct tracepoint;

/* A syscalls:* event's probe: on raw_syscalls' sys_enter or sys_exit */
enum { RP_SYS_NONE, RP_SYS_ENTER, RP_SYS_EXIT };

struct rawprobe_probe {
	struct rp_rings __rcu *rings;	/* where its records go: its
					 * session's, from its insertion to
					 * its removal (ring.c)
					 */
	struct list_head sess_node;	/* the session's writers (ring.c) */
	struct list_head node;		/* rp_probes, under rp_registry_lock */
	struct hlist_node hnode;	/* rp_probe_hash, by target */
	u32 id;
	u64 rec_hdr;			/* its records' probe_id, kind and
					 * flags (registry.c, rp_rec_hdr())
					 */
	u8 state;			/* enum rawprobe_state */
	bool registered;		/* kp/krp is registered, or it is in
					 * fentry.c's table
					 */
	/* Armed through rawprobe's ftrace_ops (fentry.c), not kprobes */
	unsigned long fentry_ip;	/* its ftrace site; 0: kprobes' */
	bool fentry_armed;		/* its handler runs at fentry_ip */
	struct hlist_node fnode;	/* fentry.c's table, by fentry_ip */
	/* A tracepoint's probe (tracepoint.c): its tracepoint */
	struct tracepoint *tp;
	u8 tp_sys_dir;			/* syscalls:*: RP_SYS_ENTER or _EXIT */
	int tp_sys;			/* and the syscall's number */
	struct hlist_node tp_sys_node;	/* its list (tracepoint_sys.c) */
	unsigned long tp_iter, tp_iter_end;	/* the tracepoint's iterator */
	struct module *tp_mod_ref;	/* a module's tracepoint: its module,
					 * held from prepare to register
					 */
	bool tp_armed;			/* its handler runs at the hits */
	u64 pinned;			/* kretprobe instances' bytes, charged
					 * to the budget (budget.c)
					 */
	struct rp_agg *agg;		/* RAWPROBE_F_AGG: its tables, which
					 * charge the budget themselves
					 */
	struct rp_inject *inj;		/* overrides and chain steps: their
					 * batch's shared state (inject.c)
					 */
	struct rawprobe_pair *pair;	/* a pair's start or end: the table
					 * its batch shares (pair.c)
					 */
	u8 ovr_type;			/* enum rp_ovr_type of the place */
	s8 ovr_gfp_arg;			/* an allocator's gfp argument, or -1 */
	bool syscall_regs;		/* args live in a pt_regs argument */
	bool syscall_ia32;		/* ... in the ia32 registers */
	s8 str_arg;			/* first string argument, or -1 */
	u8 nstr;			/* string arguments: more than one
					 * share the record's str[]
					 */
	u8 nraw;			/* argument registers fetches read */
	bool str_at_return;		/* a string is read from the return
					 * value: a kretprobe reads all of
					 * them at return
					 */
	struct rp_probe_spec spec;
	char target[MODULE_NAME_LEN + KSYM_NAME_LEN];	/* "mod:sym" */
	struct rp_owner *owner;		/* owning socket; NULL: persistent */
	char gone_with[MODULE_NAME_LEN];	/* GONE: the module unloaded */
	struct rp_probe_stats __percpu *stats;
	/* Probes registered by other modules through include/rawprobe/api.h */
	const struct rawprobe_desc *desc;	/* NULL: added over netlink */
	struct module *owner_mod;
	char name[RAWPROBE_NAME_LEN];
	union {
		struct kprobe kp;
		struct kretprobe krp;
	};
};

static inline struct kprobe *rp_probe_kprobe(struct rawprobe_probe *p)
{
	return p->spec.kind == RAWPROBE_KIND_KRETPROBE ? &p->krp.kp : &p->kp;
}

/* A string array, joined into the string area (argv). */
static inline bool rp_argtype_is_strv(u8 t)
{
	return t == RAWPROBE_ARG_KSTRV || t == RAWPROBE_ARG_USTRV;
}

/* Addresses copied into the string area: bytes, no NUL, no bound */
static inline bool rp_argtype_is_addr(u8 t)
{
	return t == RAWPROBE_ARG_IP6 || t == RAWPROBE_ARG_INET_SADDR ||
	       t == RAWPROBE_ARG_INET_DADDR;
}

/*
 * The argument types captured into the record's string area: strings,
 * string arrays, an IPv6 address's 16 bytes, and a socket's address.
 */
static inline bool rp_argtype_is_str(u8 t)
{
	return t == RAWPROBE_ARG_KSTR || t == RAWPROBE_ARG_USTR ||
	       rp_argtype_is_addr(t) || rp_argtype_is_strv(t);
}

/* Kernel lockdown forbids what rawprobe does: reading kernel memory. */
static inline bool rp_locked_down(void)
{
	return security_locked_down(LOCKDOWN_KPROBES) != 0;
}

/* owner.c */
struct rp_owner *rp_owner_get(struct sock *sk, u32 portid);
bool rp_owner_is(const struct rp_owner *o, const struct sock *sk);
int rp_owner_init(void (*release)(const struct rp_owner *o));
void rp_owner_exit(void);

/* clock.c */
u32 rp_clock_tsc_rate_khz(void);
u32 rp_clock_tsc_khz(void);
u32 rp_clock_get(void);
u32 rp_clock_resolve(u32 clock);
int rp_clock_set(u32 clock, struct netlink_ext_ack *extack);

/* modules.c */
int rp_modules_init(void);
void rp_modules_exit(void);
bool rp_module_going(const char *name);

/*
 * Who sends a request that touches probes already there (genl.c fills
 * it from the request; registry.c judges each probe by it): a command's
 * probes are its socket's, and CAP_SYS_ADMIN, asked in the initial user
 * namespace, may touch anyone's.
 */
struct rp_caller {
	const struct sock *sk;
	bool sys_admin;
};

/* registry.c */
void rp_registry_exit(void);
int rp_probe_events_register(struct notifier_block *nb);
void rp_probe_events_unregister(struct notifier_block *nb);
int rp_probe_add(const struct rp_probe_spec *spec, struct rp_owner *own,
		 struct netlink_ext_ack *extack, u32 *id);
int rp_probe_add_batch(const struct rp_probe_spec *specs, unsigned int n,
		       struct rp_owner *own,
		       struct netlink_ext_ack *extack, u32 *ids, int *failed);
int rp_probe_del_many(const u32 *ids, unsigned int n,
		      const struct rp_caller *who,
		      struct netlink_ext_ack *extack, int *failed);
struct rawprobe_probe *rp_probe_add_custom(const struct rawprobe_desc *desc,
					   struct module *owner);
void rp_probe_del_custom(struct rawprobe_probe *p);
int rp_probe_del_all(const struct rp_caller *who, u32 *skipped);
int rp_probe_set_enabled(u32 id, bool enable, const struct rp_caller *who,
			 struct netlink_ext_ack *extack);
int rp_probe_reset_stats(u32 id, bool all);
void rp_probe_totals(struct rawprobe_probe *p, struct rp_probe_totals *t);
u32 rp_probe_count(void);
/* A named session goes only without probes */
int rp_session_del_unused(struct rp_session *s, struct netlink_ext_ack *extack);
/* fn(arg, extack) under the registry lock, if no probe is registered */
int rp_registry_while_empty(int (*fn)(u32 arg, struct netlink_ext_ack *extack),
			    u32 arg, struct netlink_ext_ack *extack);

/*
 * Walk the probes in id order starting at *pos, calling fn under the
 * registry lock; fn returns non-zero to stop (the dump skb is full) and
 * *pos is left at the probe that stopped it.
 */
int rp_probe_walk(u32 *pos, int (*fn)(struct rawprobe_probe *p, void *ctx),
		  void *ctx);
int rp_probe_with(u32 id, int (*fn)(struct rawprobe_probe *p, void *ctx),
		  void *ctx);

/* budget.c: what netlink callers pin, within a sixteenth of RAM */
u64 rp_budget_limit(void);
bool rp_budget_fits(u64 bytes);
bool rp_budget_charge(u64 bytes);
void rp_budget_uncharge(u64 bytes);

/* agg.c: aggregation tables (RAWPROBE_F_AGG), read by intervals */
struct rp_agg;

/* An interval, taken: what AGG_READ sends (genl_agg.c). */
struct rp_agg_snapshot {
	u64 start_ns, end_ns, hits, dropped;
	u32 key_words, val_words;
	u32 n;				/* entries */
	s32 stack_word;			/* the key word of a stack id, or -1 */
	u32 nstacks;			/* the stacks the entries name */
	u64 *stacks;			/* nstacks * RP_AGG_STACK_WORDS */
	u64 charged;			/* its bytes, in the budget */
	u64 words[];			/* n * (key_words + val_words) */
};

int rp_agg_check(const struct rp_probe_spec *spec,
		 struct netlink_ext_ack *extack);
struct rp_agg *rp_agg_alloc(const struct rp_probe_spec *spec);
void rp_agg_free(struct rp_agg *agg);
u64 rp_agg_bytes(const struct rp_probe_spec *spec);
u64 rp_agg_room(const struct rp_probe_spec *spec);
/* End the interval and take it: every CPU's tables, copied and cleared. */
struct rp_agg_snapshot *rp_agg_read(struct rp_agg *agg);
void rp_agg_snapshot_free(struct rp_agg_snapshot *snap);
int rp_probe_agg_read(u32 id, const struct sock *sk,
		      struct rp_agg_snapshot **snap,
		      struct netlink_ext_ack *extack);

/* registry_check.c: a string, field or filter that loads from memory */
bool rp_spec_reads_memory(const struct rp_probe_spec *spec);
bool rp_is_syscall_wrapper(const char *sym);

/**
 * struct rp_kind_ops - what a probe kind hands the core (kmod/kinds.c)
 * @prepare: set a probe up from its spec before it is registered
 *	(handlers, instance size, its tables); the reason in extack if not
 * @pinned: the bytes registering it makes the kernel pin, or NULL
 */
struct rp_kind_ops {
	int (*prepare)(struct rawprobe_probe *p,
		       struct netlink_ext_ack *extack);
	u64 (*pinned)(const struct rawprobe_probe *p);
};

void rp_kind_register(u8 kind, const struct rp_kind_ops *ops);
int rp_kind_prepare(struct rawprobe_probe *p, struct netlink_ext_ack *extack);
int rp_kind_prepare_spec(struct rawprobe_probe *p,
			 struct netlink_ext_ack *extack);
u64 rp_kind_pinned(const struct rawprobe_probe *p);

/* probes/: per-kind setup and the handlers */
int rp_probe_prepare(struct rawprobe_probe *p, struct netlink_ext_ack *extack);
void rp_kprobe_kind_init(void);
void rp_kretprobe_kind_init(void);
void rp_custom_kind_init(void);
void rp_tracepoint_kind_init(void);
void rp_kprobe_prepare(struct rawprobe_probe *p);
void rp_kretprobe_prepare(struct rawprobe_probe *p);
void rp_agg_hit_entry(struct rawprobe_probe *p, struct pt_regs *regs);
void rp_agg_hit_latency(struct rawprobe_probe *p, struct pt_regs *regs,
			const u64 *args, u64 latency_ns, const u64 *start);
void rp_agg_hit_return(struct rawprobe_probe *p, const u64 *args,
		       unsigned long caller, u64 stack_id, u64 retval,
		       u64 entry_ns);
u64 rp_agg_stack_id(struct rawprobe_probe *p, struct pt_regs *regs);
void rp_args_fetch(const struct rawprobe_probe *p, struct pt_regs *regs,
		   u64 *args, unsigned int n);
void rp_args_types(struct rawprobe_probe *p, struct rawprobe_record *rec);
void rp_args_decode(struct rawprobe_probe *p, struct rawprobe_record *rec);
u8 rp_args_str(struct rawprobe_probe *p, const u64 *args, char *buf, u8 *len,
	       u8 *str_arg);
long rp_record_str(struct rawprobe_probe *p, struct rawprobe_record *rec,
		   unsigned long src, size_t max, bool user);
long rp_copy_string(char *dst, unsigned long src, size_t max, bool user,
		    bool *trunc);
size_t rp_str_bound(const struct rawprobe_probe *p, const u64 *args,
		    unsigned int i);
/* The callers of a probed context, innermost first: at most max of them */
unsigned int rp_stack_save_max(struct pt_regs *regs, u64 *frames,
			       unsigned int max);

static __always_inline unsigned int rp_stack_save(struct pt_regs *regs,
						  u64 *frames)
{
	return rp_stack_save_max(regs, frames, RAWPROBE_STACK_MAX);
}
unsigned long rp_stack_tp_caller(const struct rawprobe_probe *p);
/*
 * A tracepoint's pt_regs (kmod/tracepoint.c), in its orig_ax: the
 * event's arguments, no probed context to walk a stack from.
 */
#define RP_REGS_TRACEPOINT	(-2L)
void rp_stack_record(struct rawprobe_record *rec, const u64 *frames,
		     unsigned int n);
void rp_stack_emit(struct pt_regs *regs, struct rawprobe_record *rec);
int rp_fetch_check(struct rawprobe_probe *p, struct netlink_ext_ack *extack);
void rp_fetch_args(struct rawprobe_probe *p, const u64 *raw, u64 retval,
		   u64 *args, u8 *fault_mask);
void rp_fetch_entry(struct rawprobe_probe *p, struct pt_regs *regs,
		    struct rawprobe_record *rec);
bool rp_value_filter_pass(struct rawprobe_probe *p, const u64 *raw,
			  u64 retval);
bool rp_value_filter_entry(struct rawprobe_probe *p, struct pt_regs *regs);
bool rp_value_filter_latency(struct rawprobe_probe *p, u64 ns);

/* chardev.c */
int rp_chardev_init(void);
void rp_chardev_exit(void);

/* genl.c */
int rp_genl_init(void);
void rp_genl_exit(void);

#endif /* _RAWPROBE_CORE_H */
