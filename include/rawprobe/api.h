/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobe kernel API: write your own probe handlers in a module of your
 * own and let the core do the rest. The core registers the kprobe or
 * kretprobe, gives it an id, lists it in `rawprobectl probe list`, and
 * your records land in the same per-CPU rings as every other probe's, so
 * `rawprobectl stream` and `hist` show them. Start from examples/.
 *
 *	static int my_entry(struct rawprobe_probe *probe, struct pt_regs *regs,
 *			    void *data)
 *	{
 *		rawprobe_emit(probe, rawprobe_arg(regs, 0));
 *		return 0;
 *	}
 *
 *	static const struct rawprobe_desc my_desc = {
 *		.name	= "my_probe",
 *		.symbol	= "kernel_clone",
 *		.kind	= RAWPROBE_KIND_KPROBE,
 *		.entry	= my_entry,
 *	};
 *
 *	probe = rawprobe_register(&my_desc);	// module init; IS_ERR() on failure
 *	rawprobe_unregister(probe);		// module exit
 *
 * Handlers run in probe context: preemption (and on some paths
 * interrupts) disabled, possibly in NMI. They must not sleep, take
 * sleeping locks or allocate; read memory the probed code did not hand
 * over with the *_nofault helpers (rawprobe_record_str() does).
 * Records may also be written from process context (init, a work item):
 * rawprobe_reserve() turns preemption off until the commit or discard.
 *
 * Every record costs one hit in the probe's statistics; a record that
 * does not fit (ring full) is counted as lost, so for every probe
 * hits == records + lost, as for the core's own probes.
 */
#ifndef _RAWPROBE_API_H
#define _RAWPROBE_API_H

#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/module.h>
#include "rawprobe.h"	/* uapi: struct rawprobe_record, RAWPROBE_KIND_* */

struct rawprobe_probe;	/* opaque: the handle rawprobe_register() returns */
struct rp_ring_core;

/*
 * kprobes and jprobe-style probes: called when the probed instruction is
 * hit (data is NULL). kretprobes: called at function entry with the
 * instance's data area (desc.data_size bytes); return non-zero to skip
 * the return handler for this call (e.g. a filter said no).
 */
typedef int (*rawprobe_entry_fn)(struct rawprobe_probe *probe,
				 struct pt_regs *regs, void *data);

/* kretprobes: called when the function returns, with the same data. */
typedef int (*rawprobe_return_fn)(struct rawprobe_probe *probe,
				  struct pt_regs *regs, void *data);

struct rawprobe_desc {
	const char *name;	/* shown by rawprobectl, at most 63 bytes */
	const char *symbol;	/* "function" or "module:function" */
	unsigned int offset;	/* kprobes: bytes into the function */
	u8 kind;		/* RAWPROBE_KIND_KPROBE, _KRETPROBE, _JPROBE */
	rawprobe_entry_fn entry;
	rawprobe_return_fn ret;	/* kretprobes only */
	size_t data_size;	/* kretprobes: per-call data for entry/ret */
	unsigned int maxactive;	/* kretprobes: 0 for the kernel's default */
	unsigned int flags;	/* RAWPROBE_DESC_* */
	void *priv;		/* yours: rawprobe_priv() */
};

#define RAWPROBE_DESC_DISABLED	(1U << 0)	/* register disarmed */
#define RAWPROBE_DESC_OVERRIDE	(1U << 1)	/* entry may override return */

#define RAWPROBE_NAME_LEN	64

/*
 * Register a probe owned by the calling module. Returns the probe or an
 * ERR_PTR(); the reason is also logged. The core removes the probe if
 * the module unloads without rawprobe_unregister(), but say goodbye.
 */
struct rawprobe_probe *__rawprobe_register(const struct rawprobe_desc *desc,
					   struct module *owner);
#define rawprobe_register(desc) __rawprobe_register(desc, THIS_MODULE)
void rawprobe_unregister(struct rawprobe_probe *probe);

u32 rawprobe_id(const struct rawprobe_probe *probe);
void *rawprobe_priv(const struct rawprobe_probe *probe);

struct rawprobe_stats {
	u64 hits;		/* records attempted */
	u64 records;		/* records committed */
	u64 lost;		/* ring full */
	u64 missed;		/* kprobe recursion + kretprobe maxactive */
};
void rawprobe_get_stats(const struct rawprobe_probe *probe,
			struct rawprobe_stats *stats);

/* --- records --- */

/* A reserved record; lives on the handler's stack until commit. */
struct rawprobe_slot {
	struct rp_ring_core *ring;	/* private to the core */
	struct rawprobe_record *rec;
	u64 pos;
};

/*
 * Reserve a record on this CPU's ring, with the header (time, sequence,
 * cpu, pid, comm, probe id, kind, address) filled. Fill what you need,
 * add the matching RAWPROBE_REC_* flags (|=: flags already says which
 * clock ts_ns is), then rawprobe_commit(). Returns NULL when the ring is
 * full (counted as lost): just return.
 *
 * Every record reserved must be committed or discarded, at once and on
 * every path (no sleeping in between: preemption is off). A record
 * neither committed nor discarded stops the reader at it for good.
 */
struct rawprobe_record *rawprobe_reserve(struct rawprobe_probe *probe,
					 struct rawprobe_slot *slot);
void rawprobe_commit(struct rawprobe_probe *probe, struct rawprobe_slot *slot);

/*
 * The clock of ts_ns (CLOCK_MONOTONIC ns, or TSC cycles with the tsc
 * clock): a latency_ns is the difference of two of its readings, as the
 * kretprobe_latency example takes it, and readers convert it with ts_ns.
 */
u64 rawprobe_clock(void);

/*
 * Give a reserved record up (an early return: nothing worth recording
 * after all). Readers skip it; the hit counts as filtered, not as a hit.
 */
void rawprobe_discard(struct rawprobe_probe *probe, struct rawprobe_slot *slot);

/* One call: a record with up to RAWPROBE_MAX_ARGS values. */
int __rawprobe_emit(struct rawprobe_probe *probe, const u64 *args,
		    unsigned int nargs);
#define rawprobe_emit(probe, ...)					\
	__rawprobe_emit(probe, ((const u64[]){ 0, ##__VA_ARGS__ }) + 1,	\
			sizeof((const u64[]){ 0, ##__VA_ARGS__ }) /	\
			sizeof(u64) - 1)

/* --- arguments and strings --- */

/* Argument n (from 0) of the probed function, at its entry. */
static inline unsigned long rawprobe_arg(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

/*
 * Copy a NUL-terminated string into rec->str without faulting and set
 * str_len and the STR, STR_TRUNC or STR_FAULT flags. user: src is a user
 * pointer. Returns the length copied or -EFAULT.
 */
long rawprobe_record_str(struct rawprobe_probe *probe,
			 struct rawprobe_record *rec, const void *src,
			 bool user);

/*
 * Fault injection: from the entry handler of a probe registered with
 * RAWPROBE_DESC_OVERRIDE, make the probed function return rc at once,
 * without running it:  return rawprobe_override_return(probe, regs, rc);
 * Returns 1 (what the handler must return) or 0 if the probe may not
 * override. The core accepts RAWPROBE_DESC_OVERRIDE only on system call
 * entry points (__x64_sys_*), which the kernel marks safe for error
 * injection (ALLOW_ERROR_INJECTION in SYSCALL_DEFINEx), and only where
 * the kprobe sits on the function's ftrace site. See examples/error_inject.
 */
int rawprobe_override_return(struct rawprobe_probe *probe,
			     struct pt_regs *regs, unsigned long rc);

/* --- jprobe-style handlers with the probed function's prototype --- */

#define __RP_NARGS(...) __RP_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6,	\
				    5, 4, 3, 2, 1, 0)
#define __RP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N,	\
		    ...) N
#define __RP_CAT(a, b) __RP_CAT_(a, b)
#define __RP_CAT_(a, b) a##b
#define __RP_MAP(m, ...)						\
	__RP_CAT(__RP_MAP, __RP_NARGS(__VA_ARGS__))(m, 0, __VA_ARGS__)
#define __RP_MAP2(m, i, t, a) m(i, t, a)
#define __RP_MAP4(m, i, t, a, ...) m(i, t, a), __RP_MAP2(m, i + 1, __VA_ARGS__)
#define __RP_MAP6(m, i, t, a, ...) m(i, t, a), __RP_MAP4(m, i + 1, __VA_ARGS__)
#define __RP_MAP8(m, i, t, a, ...) m(i, t, a), __RP_MAP6(m, i + 1, __VA_ARGS__)
#define __RP_MAP10(m, i, t, a, ...) m(i, t, a), __RP_MAP8(m, i + 1, __VA_ARGS__)
#define __RP_MAP12(m, i, t, a, ...) m(i, t, a), __RP_MAP10(m, i + 1, __VA_ARGS__)
#define __RP_DECL(i, t, a) t a
#define __RP_FETCH(i, t, a) ((t)rawprobe_arg(regs, i))

/*
 * RAWPROBE_JPROBE(name, type1, arg1, type2, arg2, ...) declares a handler
 * that receives the probed function's arguments typed, as jprobes did,
 * in the style of SYSCALL_DEFINEx:
 *
 *	RAWPROBE_JPROBE(openat2_entry, int, dfd,
 *			const char __user *, filename, struct open_how *, how)
 *	{
 *		... use dfd, filename, how, probe and regs ...
 *		return 0;
 *	}
 *
 * and name is a rawprobe_entry_fn for a RAWPROBE_KIND_JPROBE desc. Up to
 * six arguments, each passed in a register (integers and pointers; not
 * structures passed by value). Valid only at the function's entry.
 */
#define RAWPROBE_JPROBE(name, ...)					\
	static int name##_typed(struct rawprobe_probe *probe,		\
				struct pt_regs *regs,			\
				__RP_MAP(__RP_DECL, __VA_ARGS__));	\
	static int name(struct rawprobe_probe *probe,			\
			struct pt_regs *regs, void *data)		\
	{								\
		return name##_typed(probe, regs,			\
				    __RP_MAP(__RP_FETCH, __VA_ARGS__));	\
	}								\
	static int name##_typed(struct rawprobe_probe *probe,		\
				struct pt_regs *regs,			\
				__RP_MAP(__RP_DECL, __VA_ARGS__))

#endif /* _RAWPROBE_API_H */
