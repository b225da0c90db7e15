/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rawprobe user-space ABI: the one header shared by the kernel module,
 * rawprobectl and anything else that talks to /dev/rawprobe or to the
 * "rawprobe" generic netlink family.
 *
 * Three parts:
 *   1. the record written by probe handlers (fixed size, 256 bytes);
 *   2. the per-CPU ring: a control page plus a power-of-two array of
 *      records, mmapped through /dev/rawprobe, and its ordering contract;
 *   3. the generic netlink family: commands, attributes, enums.
 *
 * Compatibility rule: RAWPROBE_ABI_VERSION changes whenever a layout or
 * meaning below changes; new netlink attributes are only ever appended.
 */
#ifndef _UAPI_RAWPROBE_H
#define _UAPI_RAWPROBE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define RAWPROBE_ABI_VERSION	9	/* 2: fault_mask (field fetches),
					 * 3: the tsc clock (RAWPROBE_REC_TSC),
					 * 4: several strings a record
					 *    (RAWPROBE_STR_ARG_MULTI),
					 * 5: log2 buckets keep v < 0
					 *    apart from 0 (65 of them),
					 * 6: sessions: rings per session,
					 *    RAWPROBE_IOC_ATTACH before mmap
					 * 7: the tsc clock by default where
					 *    the kernel's clocksource is tsc;
					 *    retval and latency_ns written
					 *    only with RAWPROBE_REC_RETVAL;
					 *    seq taken after the reservation
					 * 8: A_FTRACE_ADDR, F_FTRACE: entry
					 *    probes armed a batch at a time
					 * 9: value formats of lookups
					 *    (RAWPROBE_ARG_TCPSTATE..ERRNO),
					 *    string arrays joined
					 *    (RAWPROBE_ARG_KSTRV, _USTRV),
					 *    a socket's address v4 or v6
					 *    (RAWPROBE_ARG_INET_SADDR, _DADDR);
					 *    A_ARG_NAMES of 511 characters,
					 *    "NAME=PATH" aliases and casts;
					 *    A_VALUE_FILTER_STR of 255
					 */
#define RAWPROBE_DEVICE_NAME	"rawprobe"	/* /dev/rawprobe */

/* ---------------------------------------------------------------------
 * 1. Record
 * ---------------------------------------------------------------------
 */

#define RAWPROBE_MAX_ARGS	6
#define RAWPROBE_COMM_LEN	16
#define RAWPROBE_STR_LEN	128
#define RAWPROBE_STRV_MAX	20	/* strings joined of an ARG_KSTRV */
#define RAWPROBE_RECORD_SIZE	256
#define RAWPROBE_RECORD_SHIFT	8

/* What produced a record. */
enum rawprobe_kind {
	RAWPROBE_KIND_KPROBE	= 1,	/* entry or symbol+offset hit */
	RAWPROBE_KIND_KRETPROBE	= 2,	/* function return */
	RAWPROBE_KIND_JPROBE	= 3,	/* entry with typed arguments */
	RAWPROBE_KIND_CUSTOM	= 4,	/* a module built on the exported API */
	RAWPROBE_KIND_TRACEPOINT = 5,	/* a tracepoint, "SUBSYSTEM:EVENT" */
	__RAWPROBE_KIND_MAX,
};

/* rawprobe_record.flags */
#define RAWPROBE_REC_ARGS	(1U << 0)	/* args[0..nargs) are valid */
#define RAWPROBE_REC_RETVAL	(1U << 1)	/* retval and latency_ns valid */
#define RAWPROBE_REC_STR	(1U << 2)	/* str[] holds a captured string */
#define RAWPROBE_REC_STR_TRUNC	(1U << 3)	/* ...and it was truncated */
#define RAWPROBE_REC_STR_FAULT	(1U << 4)	/* the string fetch faulted */
/*
 * Abandoned by its writer (rawprobe_discard()): readers skip it. It took
 * its per-CPU sequence number, so it is no gap; nothing else in it is
 * meaningful.
 */
#define RAWPROBE_REC_DISCARD	(1U << 5)
/*
 * str[] holds a kernel stack instead of a string (RAWPROBE_F_STACK):
 * str_len / 8 return addresses (__u64), the probed function's caller
 * first, at most RAWPROBE_STACK_MAX of them.
 */
#define RAWPROBE_REC_STACK	(1U << 6)
#define RAWPROBE_STACK_MAX	(RAWPROBE_STR_LEN / 8)
/*
 * ts_ns (and latency_ns) are TSC cycles, not nanoseconds: the rings'
 * clock was RAWPROBE_CLOCK_TSC when the record was written. Readers
 * convert them with rawprobe_info.tsc_khz (see enum rawprobe_clock).
 */
#define RAWPROBE_REC_TSC	(1U << 7)

/* rawprobe_record.str_arg when str[] is not one of the arguments */
#define RAWPROBE_STR_ARG_NONE	0xff
/*
 * rawprobe_record.str_arg when str[] holds the strings of several
 * arguments: str[0..str_len) is one struct rawprobe_str_seg a string
 * argument, in argument order, each followed by the next. flags are the
 * segment's RAWPROBE_REC_STR, _STR_TRUNC or _STR_FAULT (len 0); the
 * record's flags are all of its segments' together.
 */
#define RAWPROBE_STR_ARG_MULTI	0xfe

struct rawprobe_str_seg {
	__u8  arg;			/* the argument's index */
	__u8  flags;			/* RAWPROBE_REC_STR* */
	__u8  len;			/* bytes of str, without its NUL */
	char  str[];			/* len bytes, then a NUL */
};

/*
 * One record. Every field is naturally aligned; the size and every offset
 * are checked at build time on both sides (see rawprobe_record_asserts()).
 *
 * ts_ns is CLOCK_MONOTONIC in nanoseconds (ktime_get_mono_fast_ns(), safe
 * in NMI), so records from different CPUs can be merged by time and
 * compared with clock_gettime(CLOCK_MONOTONIC) in user space; with
 * RAWPROBE_REC_TSC it is the TSC instead, for readers to convert.
 *
 * seq is the per-CPU event sequence: every attempt to write a record on a
 * CPU takes the next number, including attempts lost to a full ring. A
 * reader that has seen records with sequences lo..hi on a CPU has lost
 * exactly (hi - lo + 1) - seen of them. Nested writers (an NMI hitting a
 * probe inside a probe handler) may commit out of sequence order.
 *
 * retval and latency_ns are valid with RAWPROBE_REC_RETVAL (0 otherwise),
 * args[0..nargs) with RAWPROBE_REC_ARGS. An entry probe's record with
 * RAWPROBE_REC_RETVAL is a pair's end that writes records (RAWPROBE_A_PAIR
 * without RAWPROBE_F_AGG), one per completed pair: latency_ns is the time
 * since its start, pid, tgid and comm are the start's task, end_task the
 * end's, and ts_ns, cpu and args are the end's. Bit i of fault_mask says that
 * args[i], computed by a field fetch (RAWPROBE_A_FETCH), hit an unreadable
 * address: its value is 0, not the field's. str[] holds str_len bytes and a
 * NUL only with RAWPROBE_REC_STR (or a fault's empty string with
 * RAWPROBE_REC_STR_FAULT); otherwise str_len is 0 and str[] is left as an
 * older record had it: writers skip that cache line when they can. With
 * str_arg RAWPROBE_STR_ARG_MULTI, str[] holds segments (above) instead.
 *
 * commit is the ring's publication word; see the ring contract below.
 */
struct rawprobe_record {
	__u64 ts_ns;			/*   0 */
	__u64 seq;			/*   8 */
	__u32 probe_id;			/*  16 */
	__u8  kind;			/*  20 enum rawprobe_kind */
	__u8  flags;			/*  21 RAWPROBE_REC_* */
	__u16 cpu;			/*  22 */
	__u32 pid;			/*  24 thread id */
	__u32 tgid;			/*  28 process id */
	char  comm[RAWPROBE_COMM_LEN];	/*  32 */
	__u64 addr;			/*  48 probed instruction address */
	__u64 args[RAWPROBE_MAX_ARGS];	/*  56 raw argument values */
	union {
		__s64 retval;		/* 104 return value (kretprobe) */
		__u64 end_task;		/* 104 a pair's end: its task,
					 *     (tgid << 32) | pid
					 */
	};
	__u64 latency_ns;		/* 112 entry to return (kretprobe),
					 *     start to end (a pair's end)
					 */
	__u8  str_len;			/* 120 bytes in str, without the NUL
					 *     (STR_ARG_MULTI: all segments)
					 */
	__u8  fault_mask;		/* 121 args whose fetch faulted */
	__u8  str_arg;			/* 122 argument the string came from,
					 *     or RAWPROBE_STR_ARG_NONE
					 */
	__u8  nargs;			/* 123 valid entries in args[] */
	__u32 commit;			/* 124 (u32)(position + 1) once complete */
	char  str[RAWPROBE_STR_LEN];	/* 128 NUL-terminated */
};

/* ---------------------------------------------------------------------
 * 2. Per-CPU ring
 * ---------------------------------------------------------------------
 *
 * Each possible CPU has one ring: a control page and nr_records records
 * (a power of two). Positions are free-running 64-bit counters; the record
 * for position p lives in slot p & (nr_records - 1).
 *
 * Writer (kernel, any context including NMI, never blocks; the reference
 * implementation is kmod/ring_core.h, unit-tested on the host):
 *   1. reserve: p = ctrl->head, then give up (++ctrl->lost) if
 *        discard mode:   p - consumer >= nr_records (ring full), or
 *        overwrite mode: the slot's record of the previous lap is still
 *                        being written (a nested writer interrupted it);
 *      otherwise cmpxchg head from p to p + 1; if a nested writer moved
 *      head, retry from step 1 with the new head (never give up on a
 *      stale head).
 *   2. WRITE_ONCE(rec->commit, (u32)p); smp_wmb();  ("in progress": never
 *      equal to a commit value this slot can expect, unlike 0)
 *   3. seq = ++ctrl->seq (every attempt, a lost one too, so that it
 *      leaves a gap; nested writers may number out of position order,
 *      so readers count the span of the numbers they saw)
 *   4. fill the record
 *   5. smp_store_release(&rec->commit, (u32)(p + 1))
 *
 * Reader (user space, one per ring at a time; userctl/lib/ring_reader.c):
 *   for p = consumer; p != head (load-acquire of head); p++:
 *     if head - p > nr_records: the writer lapped us (overwrite mode):
 *       count the skipped positions as overwritten, jump to head - nr_records
 *     c = load-acquire(rec->commit)
 *     if c != (u32)(p + 1): the writer of p has not committed yet: stop
 *       here and retry later.
 *     copy the record; acquire fence; re-read commit: if it changed, the
 *       copy is torn (overwrite mode only) and is dropped, counted.
 *   store-release consumer = p  (the writer may now reuse those slots)
 *
 * The control page is mapped read-write, so the kernel never trusts it:
 * ring size, mask and mode used for memory accesses live in kernel
 * memory; consumer only decides whether a record is dropped. consumer is
 * the one field user space writes, on its own cache line. Record fields
 * whose flag (RAWPROBE_REC_*) is clear are undefined.
 *
 * Size and offsets of both structures are checked at build time by the
 * kernel (kmod/ring.c) and by rawprobectl (userctl/out/format.c).
 */

/*
 * The rings' clock: what handlers write in ts_ns (RAWPROBE_A_RING_CLOCK).
 * AUTO, the module's default, is TSC wherever the kernel's own
 * timekeeping reads the TSC (clocksource tsc), MONO elsewhere; GET_INFO
 * and RING_GET answer which.
 *
 * MONO: CLOCK_MONOTONIC nanoseconds; what every reader can use as it is.
 * TSC: the x86 time-stamp counter (rdtsc_ordered()), flagged
 * RAWPROBE_REC_TSC in every record written with it: a record costs about
 * 50 instructions less (a kretprobe's, with its entry time, 90), as
 * perf's and ftrace's raw clocks do. A reader converts a value t at the
 * time it reads the rings, from a pair (t0, n0) of rdtsc and
 * clock_gettime(CLOCK_MONOTONIC) it reads itself:
 *   ns = n0 + (t - t0) * 1000000 / tsc_khz         (signed t - t0)
 * which is CLOCK_MONOTONIC within the TSC's rate error (the kernel's
 * calibration, and NTP's slewing of CLOCK_MONOTONIC: tens of ppm) times
 * the record's age when read; latency_ns is (t - t_entry) * 10^6 /
 * tsc_khz. Offered only where the kernel trusts the TSC (its clocksource
 * watchdog has not marked it unstable); set only with no probe
 * registered, so that a kretprobe's entry and return read the same clock.
 */
enum rawprobe_clock {
	RAWPROBE_CLOCK_MONO	= 0,
	RAWPROBE_CLOCK_TSC	= 1,
	RAWPROBE_CLOCK_AUTO	= 2,	/* asked for only: TSC where the
					 * kernel's clocksource is tsc,
					 * else MONO
					 */
};

enum rawprobe_ring_mode {
	RAWPROBE_RING_DISCARD	= 0,	/* full ring drops new records */
	RAWPROBE_RING_OVERWRITE	= 1,	/* full ring overwrites the oldest */
};

struct rawprobe_ring_ctrl {
	/* Written by the kernel. */
	__u64 head;		/* next position to reserve */
	__u64 seq;		/* last per-CPU event sequence handed out */
	/* attempts dropped: ring full (discard) or slot busy (overwrite) */
	__u64 lost;
	__u32 nr_records;	/* power of two */
	__u32 mode;		/* enum rawprobe_ring_mode */
	__u32 cpu;		/* the CPU this ring belongs to */
	__u32 pad0;
	__u64 reserved0[2];
	/* Written by the reader, on its own cache line. */
	__u64 consumer __attribute__((aligned(64)));
	__u64 reserved1[7];
};

/*
 * mmap layout of /dev/rawprobe, offsets from RAWPROBE_IOC_INFO:
 *   [ctrl_offset, +nr_rings * page_size)   control pages, one per ring,
 *                                          PROT_READ | PROT_WRITE
 *   [data_offset, +nr_rings * ring_bytes)  record arrays, PROT_READ only;
 *                                          ring i at data_offset + i * ring_bytes
 * Ring i serves CPU i. Rings of CPUs that are not online stay empty.
 */
struct rawprobe_info {
	__u32 abi_version;	/* RAWPROBE_ABI_VERSION of the module */
	__u32 record_size;	/* sizeof(struct rawprobe_record) */
	__u32 nr_rings;		/* nr_cpu_ids */
	__u32 nr_records;	/* per ring, a power of two */
	__u32 page_size;
	__u32 mode;		/* enum rawprobe_ring_mode */
	__u64 ring_bytes;	/* nr_records * record_size */
	__u64 ctrl_offset;	/* mmap offset of the control pages */
	__u64 data_offset;	/* mmap offset of the record arrays */
	__u32 wakeup_watermark;	/* records per CPU before poll() wakes */
	__u32 clock;		/* enum rawprobe_clock, for new records */
	__u32 tsc_khz;		/* the TSC's rate for RAWPROBE_REC_TSC
				 * records (even once the kernel no longer
				 * offers the clock); 0 without a TSC
				 */
	__u32 session;		/* the session these rings are (ATTACH) */
	__u32 reserved[4];
};

/*
 * Layout checks, expanded by the kernel and by rawprobectl inside a
 * function body (static_assert needs C11 or the kernel's build_bug.h).
 */
#define RAWPROBE_OFF(m)	__builtin_offsetof(struct rawprobe_record, m)
#define RAWPROBE_LAYOUT_ASSERTS()					\
	do {								\
		_Static_assert(sizeof(struct rawprobe_record) ==	\
			       RAWPROBE_RECORD_SIZE, "record size");	\
		_Static_assert(RAWPROBE_OFF(seq) == 8, "seq");		\
		_Static_assert(RAWPROBE_OFF(probe_id) == 16, "probe_id");\
		_Static_assert(RAWPROBE_OFF(kind) == 20, "kind");	\
		_Static_assert(RAWPROBE_OFF(cpu) == 22, "cpu");		\
		_Static_assert(RAWPROBE_OFF(pid) == 24, "pid");		\
		_Static_assert(RAWPROBE_OFF(comm) == 32, "comm");	\
		_Static_assert(RAWPROBE_OFF(addr) == 48, "addr");	\
		_Static_assert(RAWPROBE_OFF(args) == 56, "args");	\
		_Static_assert(RAWPROBE_OFF(retval) == 104, "retval");	\
		_Static_assert(RAWPROBE_OFF(latency_ns) == 112, "lat");	\
		_Static_assert(RAWPROBE_OFF(str_len) == 120, "str_len");\
		_Static_assert(RAWPROBE_OFF(fault_mask) == 121, "faults");\
		_Static_assert(sizeof(struct rawprobe_fetch) == 28, "fetch");\
		_Static_assert(sizeof(struct rawprobe_value_term) == 40,\
			       "value term");				\
		_Static_assert(RAWPROBE_OFF(commit) == 124, "commit");	\
		_Static_assert(RAWPROBE_OFF(str) == 128, "str");	\
		_Static_assert(__builtin_offsetof(struct rawprobe_ring_ctrl, \
				consumer) == 64, "consumer cache line");\
		_Static_assert(sizeof(struct rawprobe_ring_ctrl) == 128,\
			       "ctrl size");				\
	} while (0)

#define RAWPROBE_IOC_MAGIC	0xb7
#define RAWPROBE_IOC_INFO	_IOR(RAWPROBE_IOC_MAGIC, 1, struct rawprobe_info)
/*
 * Sessions. Every probe writes its records into the rings of one session;
 * an open file of /dev/rawprobe reads one session's rings. A file reads
 * the default session (RAWPROBE_SESSION_DEFAULT, where persistent probes
 * write unless told otherwise) until it attaches to another, by id, with
 * RAWPROBE_IOC_ATTACH, before its first mmap (EBUSY after it). Attaching
 * needs the session's owner's euid or CAP_SYS_ADMIN (EPERM); an unknown or
 * ended session is ENOENT. One file at a time maps a session's rings.
 */
#define RAWPROBE_IOC_ATTACH	_IOW(RAWPROBE_IOC_MAGIC, 2, __u32)
#define RAWPROBE_SESSION_DEFAULT	0
#define RAWPROBE_SESSION_NAME_LEN	32	/* with its NUL */

/* ---------------------------------------------------------------------
 * 3. Generic netlink family
 * ---------------------------------------------------------------------
 */

#define RAWPROBE_GENL_NAME	"rawprobe"
#define RAWPROBE_GENL_VERSION	1
#define RAWPROBE_GENL_MCGRP	"events"	/* probe state changes */

/*
 * Every command that changes something answers, on success, with a message
 * of its own command (-> below: what it carries). The module allocates
 * that answer before it makes the change, so an answer means the change
 * was made even if the ack after it is lost (the socket reports ENOBUFS
 * when the kernel cannot allocate a message), and no answer means
 * nothing changed.
 */
enum rawprobe_cmd {
	RAWPROBE_CMD_UNSPEC,
	RAWPROBE_CMD_GET_INFO,		/* module + ABI versions, ring geometry */
	RAWPROBE_CMD_PROBE_ADD,		/* -> the new probe */
	RAWPROBE_CMD_PROBE_DEL,		/* by ID, by PROBE_IDS (all or none),
					 * or all with FLAG_ALL; -> empty */
	RAWPROBE_CMD_PROBE_GET,		/* by ID; dump: every probe */
	RAWPROBE_CMD_PROBE_ENABLE,	/* -> empty */
	RAWPROBE_CMD_PROBE_DISABLE,	/* -> empty */
	RAWPROBE_CMD_STATS_RESET,	/* by ID, or all; -> empty */
	RAWPROBE_CMD_RING_GET,		/* a session's rings (SESSION or
					 * SESSION_NAME; none: the default);
					 * dump: every session
					 */
	RAWPROBE_CMD_RING_SET,		/* size/mode, only with no reader;
					 * clock, only with no probe;
					 * -> the new geometry */
	RAWPROBE_CMD_EVENT,		/* multicast notification */
	RAWPROBE_CMD_PROBE_ADD_BATCH,	/* all or nothing: A_BATCH of specs;
					 * -> A_BATCH of their ids */
	RAWPROBE_CMD_AGG_READ,		/* dump, by PROBE_ID: an aggregating
					 * probe's interval since its last read
					 * (A_AGG_INTERVAL in the first
					 * message, A_AGG_ENTRIES in each);
					 * a new interval begins with the
					 * read
					 */
	RAWPROBE_CMD_RING_NEW,		/* a session: SESSION_NAME (named,
					 * stays until RING_DEL) or none (the
					 * socket's, ends with it); RING_RECORDS
					 * (0 or none: automatic), RING_MODE;
					 * -> the session (as RING_GET's)
					 */
	RAWPROBE_CMD_RING_DEL,		/* a named session, by SESSION or
					 * SESSION_NAME; EBUSY while probes
					 * write into it; -> empty
					 */
	__RAWPROBE_CMD_MAX,
};
#define RAWPROBE_CMD_MAX (__RAWPROBE_CMD_MAX - 1)

enum rawprobe_attr {
	RAWPROBE_A_UNSPEC,
	RAWPROBE_A_ABI_VERSION,		/* u32 */
	RAWPROBE_A_MODULE_VERSION,	/* string */
	RAWPROBE_A_KERNEL_RELEASE,	/* string, uname -r of the running kernel */
	RAWPROBE_A_PROBE_ID,		/* u32 */
	RAWPROBE_A_KIND,		/* u8, enum rawprobe_kind */
	RAWPROBE_A_SYMBOL,		/* string, < KSYM_NAME_LEN */
	RAWPROBE_A_MODULE,		/* string, < MODULE_NAME_LEN */
	RAWPROBE_A_OFFSET,		/* u32 */
	RAWPROBE_A_ADDR,		/* u64, raw address (no symbol) */
	RAWPROBE_A_MAXACTIVE,		/* u32, kretprobe instances */
	RAWPROBE_A_NARGS,		/* u8, 0..RAWPROBE_MAX_ARGS */
	RAWPROBE_A_ARGTYPES,		/* binary, u8[nargs] enum rawprobe_argtype */
	RAWPROBE_A_FLAGS,		/* u32, RAWPROBE_F_* */
	RAWPROBE_A_STATE,		/* u8, enum rawprobe_state */
	RAWPROBE_A_STATS,		/* nested, RAWPROBE_STAT_* */
	RAWPROBE_A_EVENT,		/* u8, enum rawprobe_event */
	RAWPROBE_A_RING_RECORDS,	/* u32, per-CPU ring size in records */
	RAWPROBE_A_RING_MODE,		/* u32, enum rawprobe_ring_mode */
	RAWPROBE_A_NR_RINGS,		/* u32 */
	RAWPROBE_A_PAD,
	RAWPROBE_A_PROBED_ADDR,		/* u64, resolved address (root only) */
	RAWPROBE_A_STR_MAX,		/* u16, string capture limit */
	RAWPROBE_A_NR_PROBES,		/* u32 */
	RAWPROBE_A_BATCH,		/* nested array: request, probe specs
					 * (PROBE_ADD attributes); reply,
					 * the new ids (PROBE_ID) in order
					 */
	/*
	 * Filters, set at add time and applied in the handler before a
	 * record is reserved: a hit that fails any of them is counted in
	 * STAT_HITS and STAT_FILTERED (hits == records + lost_ring +
	 * filtered).
	 */
	RAWPROBE_A_FILTER_PID,		/* u32, thread id */
	RAWPROBE_A_FILTER_TGID,		/* u32, process id */
	RAWPROBE_A_FILTER_COMM,		/* string, < RAWPROBE_COMM_LEN, exact */
	RAWPROBE_A_FILTER_CPU,		/* u32 */
	RAWPROBE_A_NAME,		/* string, a custom probe's name */
	RAWPROBE_A_OWNER_MODULE,	/* string, module of a custom probe */
	RAWPROBE_A_PROBE_IDS,		/* binary, u32[1..MAX_BATCH] probe ids,
					 * each once: PROBE_DEL removes all of
					 * them (one grace period) or, if one
					 * is refused, none (its index in the
					 * extack cookie, a u32)
					 */
	RAWPROBE_A_ARG_NAMES,		/* string, < RAWPROBE_ARG_NAMES_LEN: the
					 * arguments' names, comma-separated,
					 * one per argument ([A-Za-z0-9_], and
					 * "->", ".", "[", "]" of field paths,
					 * "(", ")", "*", " " of casts, "=" of
					 * an alias: NAME=PATH); kept and
					 * reported, for output only
					 */
	/*
	 * Field fetches and value filters, compiled by the CLI from BTF
	 * (--args 'skb->len', --filter 'retval < 0'); see struct
	 * rawprobe_fetch below.
	 */
	RAWPROBE_A_FETCH,		/* binary, struct rawprobe_fetch[nargs]:
					 * how each argument is computed
					 */
	RAWPROBE_A_VALUE_FILTER,	/* binary, struct rawprobe_value_term
					 * [1..RAWPROBE_MAX_VALUE_TERMS]
					 */
	RAWPROBE_A_VALUE_FILTER_STR,	/* string, < RAWPROBE_FILTER_STR_LEN:
					 * the filter as written, for output
					 */
	RAWPROBE_A_RING_BYTES,		/* u64, memory the rings hold now: 0
					 * until the first probe or reader
					 */
	RAWPROBE_A_RING_CLOCK,		/* u32, enum rawprobe_clock; RING_SET
					 * only with no probe registered
					 */
	RAWPROBE_A_TSC_KHZ,		/* u32, RING_GET: the TSC's rate, 0
					 * where the tsc clock is not offered
					 */
	/*
	 * Aggregation (RAWPROBE_F_AGG): the probe counts its hits by key in
	 * per-CPU tables, in the kernel, and writes no record.
	 */
	RAWPROBE_A_AGG_KEYS,		/* binary, u8[0..RAWPROBE_AGG_MAX_KEYS]
					 * enum rawprobe_agg_key, in order
					 */
	RAWPROBE_A_AGG_KEY_ARGS,	/* binary, u8[nkeys]: the argument of
					 * each AGG_KEY_ARG key (else 0)
					 */
	RAWPROBE_A_AGG_VALUE,		/* u8, enum rawprobe_agg_value: what
					 * sum, min, max and buckets take
					 */
	RAWPROBE_A_AGG_VALUE_ARG,	/* u8, the argument of AGG_VALUE_ARG */
	RAWPROBE_A_AGG_HIST,		/* u8, enum rawprobe_agg_hist */
	RAWPROBE_A_AGG_LIN_MIN,		/* s64, AGG_HIST_LINEAR: first bucket */
	RAWPROBE_A_AGG_LIN_STEP,	/* u64, AGG_HIST_LINEAR: bucket width */
	RAWPROBE_A_AGG_LIN_BUCKETS,	/* u16, AGG_HIST_LINEAR: how many */
	RAWPROBE_A_AGG_MAX_KEYS,	/* u32, keys a CPU's table holds
					 * (default RAWPROBE_AGG_KEYS_DEFAULT)
					 */
	RAWPROBE_A_AGG_INTERVAL,	/* nested, enum rawprobe_agg_interval: AGG_READ's
					 * first message
					 */
	RAWPROBE_A_AGG_ENTRY,		/* binary, u64[key_words + val_words]:
					 * one key's values on one CPU (a key
					 * may come more than once: add up)
					 */
	RAWPROBE_A_AGG_ENTRIES,		/* nested array of AGG_ENTRY: a
					 * message's share of them
					 */
	RAWPROBE_A_AGG_STACK,		/* binary, u64[1 + n]: a stack key's
					 * id, then its n frames (return
					 * addresses, innermost first)
					 */
	RAWPROBE_A_AGG_STACKS,		/* nested array of AGG_STACK: the
					 * stacks the interval's entries name,
					 * after the entries
					 */
	/*
	 * Return override (entry probes at a permitted place, see
	 * docs/design.md): a hit that passes the filters and the limits
	 * makes the function return at once.
	 */
	RAWPROBE_A_OVERRIDE,		/* nested, enum rawprobe_ovr */
	RAWPROBE_A_CHAIN_STEP,		/* u8, 1..RAWPROBE_CHAIN_MAX: this
					 * kretprobe is that step of the call
					 * chain its batch's overrides need
					 * (RAWPROBE_OVR_CHAIN); no record
					 */
	RAWPROBE_A_FILTER_NOT_TGID,	/* u32, a process whose hits the probe
					 * leaves out (counted as filtered):
					 * rawprobectl's own, for the probes
					 * a command brings; in task context
					 * only (an interrupt taken while it
					 * runs is kept)
					 */
	RAWPROBE_A_FILTER_CGROUP,	/* u64, a cgroup v2's id (its
					 * directory's inode number): only
					 * tasks in it or below it
					 */
	RAWPROBE_A_VALUE_FILTER_STRS,	/* binary, < RAWPROBE_FILTER_STRS_LEN:
					 * the string terms' constants, each
					 * NUL-terminated, back to back
					 */
	RAWPROBE_A_STR_LEN_ARGS,	/* binary, a byte per argument: 0, or
					 * 1 + the index of the (integer)
					 * argument whose value is the most
					 * this string argument's capture
					 * reads (buf:str:count)
					 */
	RAWPROBE_A_SESSION,		/* u32, a session's id: PROBE_ADD(_BATCH)
					 * writes there, RING_GET/SET/DEL act
					 * on it (none: the default session);
					 * in answers, the probe's or ring's
					 */
	RAWPROBE_A_SESSION_NAME,	/* string, < RAWPROBE_SESSION_NAME_LEN:
					 * a named session, instead of SESSION
					 */
	RAWPROBE_A_SESSION_UID,		/* u32, the session's owner (euid) */
	RAWPROBE_A_SESSION_LOST,	/* u64, records its rings lost (all
					 * CPUs, ring full) */
	RAWPROBE_A_SESSION_READERS,	/* u32, files that map its rings */
	RAWPROBE_A_FTRACE_ADDR,		/* u64, PROBE_ADD(_BATCH): where the
					 * caller's kallsyms has the symbol
					 * of an entry kprobe at offset 0 in
					 * vmlinux: arm it through rawprobe's
					 * ftrace_ops, with the rest of its
					 * batch in one ftrace update
					 * (RAWPROBE_F_FTRACE)
					 */
	RAWPROBE_A_PAIR,		/* nested, enum rawprobe_pair_attr: this
					 * entry probe is a start or an end of
					 * the pair its batch links (a table
					 * of starts keyed by an object); an
					 * end aggregates the latency
					 * (RAWPROBE_AGG_VALUE_LATENCY)
					 */
	RAWPROBE_A_PAIR_STATS,		/* nested, enum rawprobe_pair_stat: in
					 * answers, the pair's table's counts
					 */
	__RAWPROBE_A_MAX,
};
#define RAWPROBE_A_MAX (__RAWPROBE_A_MAX - 1)

/* RAWPROBE_A_OVERRIDE; a batch's overrides share their limits */
enum rawprobe_ovr {
	RAWPROBE_OVR_UNSPEC,
	RAWPROBE_OVR_VALUE,		/* s64, what the function returns */
	RAWPROBE_OVR_PROBABILITY,	/* u8, percent 1..100 (default 100) */
	RAWPROBE_OVR_TIMES,		/* u32, at most this many, 1..INT_MAX */
	RAWPROBE_OVR_INTERVAL,		/* u32, every Nth eligible hit */
	RAWPROBE_OVR_CHAIN,		/* u8, only while the task is inside
					 * steps 1..N of the batch's chain, in
					 * order (RAWPROBE_A_CHAIN_STEP)
					 */
	RAWPROBE_OVR_PAD,
	__RAWPROBE_OVR_MAX,
};
#define RAWPROBE_OVR_MAX (__RAWPROBE_OVR_MAX - 1)
#define RAWPROBE_CHAIN_MAX	8

/*
 * RAWPROBE_A_PAIR. A start stores the time (and nothing else) under its
 * key in the pair's table, shared by every CPU; an end with the same key
 * takes it out and counts the time since as its latency. A batch's
 * starts and ends make one pair: at least one of each.
 */
enum rawprobe_pair_attr {
	RAWPROBE_PAIR_UNSPEC,
	RAWPROBE_PAIR_ROLE,		/* u8, enum rawprobe_pair_role */
	RAWPROBE_PAIR_KEY,		/* u8, enum rawprobe_agg_key: PID,
					 * TGID, or ARG (an argument, as the
					 * probe's --args computes it)
					 */
	RAWPROBE_PAIR_KEY_ARG,		/* u8, the argument of PAIR_KEY ARG */
	RAWPROBE_PAIR_MAX_KEYS,		/* u32, starts the table holds at
					 * once (default and bounds: as
					 * AGG_MAX_KEYS'); a batch's starts agree
					 */
	RAWPROBE_PAIR_EXPIRE_MS,	/* u32, a start older than this is
					 * dropped, counted as expired; 0:
					 * never (default RAWPROBE_PAIR_EXPIRE_DEFAULT)
					 */
	RAWPROBE_PAIR_CARRY_ARGS,	/* u8, a start's: its first N
					 * arguments (at most
					 * RAWPROBE_PAIR_CARRY_ARGS_MAX, not
					 * strings) go with it to its end,
					 * for the end's AGG_KEY_START_ARG keys
					 */
	__RAWPROBE_PAIR_MAX,
};
#define RAWPROBE_PAIR_MAX (__RAWPROBE_PAIR_MAX - 1)
#define RAWPROBE_PAIR_EXPIRE_DEFAULT	10000	/* ms */
#define RAWPROBE_PAIR_CARRY_ARGS_MAX	4

enum rawprobe_pair_role {
	RAWPROBE_PAIR_START	= 1,
	RAWPROBE_PAIR_END	= 2,
};

/*
 * RAWPROBE_A_PAIR_STATS. Each start and end that passed its filters is
 * counted once: a start is stored (STARTS) or finds no room (FULL); an
 * end finds its start (MATCHED) or not (NO_START, which counts an end
 * whose start was too old). A stored start leaves the table matched,
 * expired, replaced, or is still pending: at rest,
 * STARTS == MATCHED + EXPIRED + REPLACED + PENDING.
 */
enum rawprobe_pair_stat {
	RAWPROBE_PAIR_STAT_UNSPEC,
	RAWPROBE_PAIR_STAT_STARTS,	/* u64, starts stored */
	RAWPROBE_PAIR_STAT_MATCHED,	/* u64, ends that found their start */
	RAWPROBE_PAIR_STAT_NO_START,	/* u64, ends that found none */
	RAWPROBE_PAIR_STAT_FULL,	/* u64, starts with no room */
	RAWPROBE_PAIR_STAT_EXPIRED,	/* u64, starts dropped for age (an
					 * end found one too old, a start
					 * took its place, or a read swept it)
					 */
	RAWPROBE_PAIR_STAT_REPLACED,	/* u64, starts over an earlier start
					 * of their key (which is dropped)
					 */
	RAWPROBE_PAIR_STAT_PENDING,	/* u64, starts waiting in the table */
	RAWPROBE_PAIR_STAT_PAD,
	__RAWPROBE_PAIR_STAT_MAX,
};
#define RAWPROBE_PAIR_STAT_MAX (__RAWPROBE_PAIR_STAT_MAX - 1)

/* RAWPROBE_A_AGG_INTERVAL */
enum rawprobe_agg_interval {
	RAWPROBE_AGG_I_UNSPEC,
	RAWPROBE_AGG_I_START_NS,	/* u64, when the interval began */
	RAWPROBE_AGG_I_END_NS,		/* u64, when this read ended it */
	RAWPROBE_AGG_I_HITS,		/* u64, every hit of the interval */
	RAWPROBE_AGG_I_DROPPED,		/* u64, of them, keys that found no
					 * slot: hits = the entries' counts +
					 * dropped, exactly
					 */
	RAWPROBE_AGG_I_KEY_WORDS,	/* u32, u64 words of an entry's key */
	RAWPROBE_AGG_I_VAL_WORDS,	/* u32, u64 words of its values */
	RAWPROBE_AGG_I_PAD,
	RAWPROBE_AGG_I_STACK_WORD,	/* u32, with a stack key: the key word
					 * that holds its id (AGG_STACK)
					 */
	__RAWPROBE_AGG_I_MAX,
};
#define RAWPROBE_AGG_I_MAX (__RAWPROBE_AGG_I_MAX - 1)

/*
 * Keys: each takes one u64 word of an entry's key, in the order given,
 * except COMM, which takes two (the 16 bytes of task->comm).
 */
enum rawprobe_agg_key {
	RAWPROBE_AGG_KEY_COMM	= 1,
	RAWPROBE_AGG_KEY_PID	= 2,	/* thread id */
	RAWPROBE_AGG_KEY_TGID	= 3,	/* process id */
	RAWPROBE_AGG_KEY_CPU	= 4,
	RAWPROBE_AGG_KEY_CALLER	= 5,	/* return address at the function's
					 * entry (offset 0)
					 */
	RAWPROBE_AGG_KEY_RETVAL	= 6,	/* kretprobes */
	RAWPROBE_AGG_KEY_ARG	= 7,	/* argument AGG_KEY_ARGS[i], as the
					 * probe's --args computes it
					 */
	RAWPROBE_AGG_KEY_STACK	= 8,	/* the kernel stack (kretprobes: at
					 * entry), interned in the probe's
					 * stack table: its id, never 0
					 */
	/*
	 * A pair's end only: the task of the start it matched (the one
	 * that issued a request, slept, connected), where COMM, PID and
	 * TGID are the end's (an interrupt, a waker).
	 */
	RAWPROBE_AGG_KEY_START_COMM	= 9,
	RAWPROBE_AGG_KEY_START_PID	= 10,
	RAWPROBE_AGG_KEY_START_TGID	= 11,
	RAWPROBE_AGG_KEY_START_STACK	= 12,	/* its kernel stack, the start's
						 * function the innermost frame
						 * (a tracepoint's: the function
						 * that hit it), interned in the
						 * pair's stack table
						 */
	RAWPROBE_AGG_KEY_START_ARG	= 13,	/* the start's argument
						 * AGG_KEY_ARGS[i], of the first
						 * PAIR_CARRY_ARGS it carries
						 */
	__RAWPROBE_AGG_KEY_MAX,
};
#define RAWPROBE_AGG_MAX_KEYS		4
#define RAWPROBE_AGG_KEYS_DEFAULT	1024
#define RAWPROBE_AGG_KEYS_MAX		65536
#define RAWPROBE_AGG_LIN_BUCKETS_MAX	256
/*
 * An argument key of a string type takes RAWPROBE_AGG_STR_KEY_LEN bytes of
 * the key (its first 31 and a NUL, zero-padded; in an entry probe only);
 * of RAWPROBE_ARG_IP6, 16; a comm, 16; any other key, 8.
 */
#define RAWPROBE_AGG_STR_KEY_LEN	32

/*
 * An entry's values: the count, then with a value: its sum, min and max
 * (s64), then with a histogram its buckets (log2: 65, bucket 0 for v < 0,
 * 1 for v == 0 and bucket i for [2^(i-2), 2^(i-1)); linear: LIN_BUCKETS of
 * LIN_STEP from LIN_MIN, values outside clamped to the first or last).
 */
enum rawprobe_agg_value {
	RAWPROBE_AGG_VALUE_NONE		= 0,	/* counts only */
	RAWPROBE_AGG_VALUE_RETVAL	= 1,	/* kretprobes */
	RAWPROBE_AGG_VALUE_LATENCY	= 2,	/* kretprobes: ns entry to return;
						 * a pair's end: ns since its start
						 */
	RAWPROBE_AGG_VALUE_ARG		= 3,	/* argument AGG_VALUE_ARG */
	__RAWPROBE_AGG_VALUE_MAX,
};

enum rawprobe_agg_hist {
	RAWPROBE_AGG_HIST_NONE		= 0,
	RAWPROBE_AGG_HIST_LOG2		= 1,
	RAWPROBE_AGG_HIST_LINEAR	= 2,
	__RAWPROBE_AGG_HIST_MAX,
};

enum rawprobe_stat {
	RAWPROBE_STAT_UNSPEC,
	RAWPROBE_STAT_HITS,		/* u64, handler entries, filtered or not */
	RAWPROBE_STAT_RECORDS,		/* u64, records committed */
	RAWPROBE_STAT_LOST_RING,	/* u64, ring full */
	RAWPROBE_STAT_MISS_MAXACTIVE,	/* u64, kretprobe instances exhausted */
	RAWPROBE_STAT_MISS_RECURSION,	/* u64, kprobe nmissed */
	RAWPROBE_STAT_STR_FAULTS,	/* u64, string fetch faults */
	RAWPROBE_STAT_PAD,
	RAWPROBE_STAT_FILTERED,		/* u64, hits rejected by a filter */
	RAWPROBE_STAT_FETCH_FAULTS,	/* u64, field fetches that faulted */
	RAWPROBE_STAT_OVERRIDDEN,	/* u64, hits whose function was made
					 * to return (RAWPROBE_A_OVERRIDE)
					 */
	__RAWPROBE_STAT_MAX,
};
#define RAWPROBE_STAT_MAX (__RAWPROBE_STAT_MAX - 1)

/* RAWPROBE_A_FLAGS */
#define RAWPROBE_F_PERSISTENT	(1U << 0)	/* outlives the socket */
#define RAWPROBE_F_DISABLED	(1U << 1)	/* add without arming */
#define RAWPROBE_F_ALL		(1U << 2)	/* del/reset: every probe */
#define RAWPROBE_F_SYSCALL	(1U << 3)	/* args come from a pt_regs arg */
#define RAWPROBE_F_STACK	(1U << 4)	/* record the kernel stack (entry
						 * probes: at the hit; kretprobes:
						 * at entry) in the string area
						 */
#define RAWPROBE_F_AGG		(1U << 5)	/* aggregate by A_AGG_KEYS in the
						 * kernel; write no record
						 */
#define RAWPROBE_F_FTRACE	(1U << 6)	/* dumps: armed through rawprobe's
						 * ftrace_ops (A_FTRACE_ADDR), not
						 * kprobes
						 */

enum rawprobe_state {
	RAWPROBE_STATE_ARMED	= 1,	/* registered and enabled */
	RAWPROBE_STATE_DISABLED	= 2,	/* registered, not firing */
	RAWPROBE_STATE_GONE	= 3,	/* its module unloaded; re-arms on load */
};

enum rawprobe_event {
	RAWPROBE_EVENT_ADDED	= 1,
	RAWPROBE_EVENT_REMOVED	= 2,
	RAWPROBE_EVENT_GONE	= 3,
	RAWPROBE_EVENT_REARMED	= 4,
	RAWPROBE_EVENT_ENABLED	= 5,
	RAWPROBE_EVENT_DISABLED	= 6,
};

/* Typed arguments of jprobe-style probes (RAWPROBE_A_ARGTYPES). */
enum rawprobe_argtype {
	RAWPROBE_ARG_U64	= 0,	/* raw register value (default) */
	RAWPROBE_ARG_S64	= 1,
	RAWPROBE_ARG_S32	= 2,
	RAWPROBE_ARG_U32	= 3,
	RAWPROBE_ARG_PTR	= 4,
	RAWPROBE_ARG_KSTR	= 5,	/* kernel string: copied into str[] */
	RAWPROBE_ARG_USTR	= 6,	/* user string: copied into str[] */
	/*
	 * Value formats: recorded as u64, the raw value, like U64; only
	 * readers tell them apart (rawprobectl prints them as named).
	 */
	RAWPROBE_ARG_HEX	= 7,	/* hexadecimal */
	RAWPROBE_ARG_KSYM	= 8,	/* a code address: symbol+offset */
	RAWPROBE_ARG_IP4	= 9,	/* low 32 bits: IPv4 address, network order */
	RAWPROBE_ARG_BE16	= 10,	/* low 16 bits: big-endian (a port) */
	RAWPROBE_ARG_BE32	= 11,	/* low 32 bits: big-endian */
	/*
	 * 16 bytes of kernel memory at the value (a struct in6_addr's
	 * address), copied into str[] as a string argument's are: str_len
	 * (or the segment's len) is 16, or less if truncated (--strmax).
	 */
	RAWPROBE_ARG_IP6	= 12,
	/*
	 * Value formats of lookups, recorded as u64 like HEX: a TCP state
	 * (include/net/tcp_states.h), a capability, a signal, an errno
	 * (negative, or the low 32 bits of a negative int); readers print
	 * the name, and the number where the table has none.
	 */
	RAWPROBE_ARG_TCPSTATE	= 13,
	RAWPROBE_ARG_CAP	= 14,
	RAWPROBE_ARG_SIGNAL	= 15,
	RAWPROBE_ARG_ERRNO	= 16,
	/*
	 * A NULL-terminated array of string pointers (execve's argv), of
	 * kernel or user memory: its strings joined with single spaces into
	 * str[] as one string argument's (bpftrace's join()). At most
	 * RAWPROBE_STRV_MAX of them; more, or a string cut at --strmax or
	 * by the string area, says the string truncated; an array that
	 * cannot be read (or its first string), the string's fault; a later
	 * string that cannot be read ends the join there, truncated.
	 */
	RAWPROBE_ARG_KSTRV	= 17,
	RAWPROBE_ARG_USTRV	= 18,
	/*
	 * A socket's local (SADDR) or remote (DADDR) address, IPv4 or IPv6
	 * as its skc_family says: the value is a struct sock_common's
	 * address (a struct sock's, which begins with one); the kernel
	 * copies skc_rcv_saddr or skc_daddr (4 bytes), or skc_v6_rcv_saddr
	 * or skc_v6_daddr (16), into str[] as an IP6's 16; readers tell the
	 * two apart by the length, and print nothing for another family
	 * (a length of 0).
	 */
	RAWPROBE_ARG_INET_SADDR	= 19,
	RAWPROBE_ARG_INET_DADDR	= 20,
	__RAWPROBE_ARG_MAX,
};

/*
 * A value computed in the handler (RAWPROBE_A_FETCH, value filters).
 * Start from src: argument src of the function (a syscall wrapper's:
 * the system call's) or, in a kretprobe, RAWPROBE_FETCH_RETVAL. Then,
 * nloads times, v = *(v + off[k]): 8 bytes, except the last load, which
 * reads size bytes (1, 2, 4 or 8; with no load, size truncates src).
 * A bitfield (bit_size != 0) keeps bit_size bits from bit bit_off of
 * that value; RAWPROBE_FETCH_SIGNED sign-extends it; add is added last
 * (the address of an array member, for a string). Every load is
 * copy_from_kernel_nofault(): one that faults makes the value 0, sets
 * the argument's bit in the record's fault_mask and counts in
 * STAT_FETCH_FAULTS; it never oopses. reserved must be 0.
 */
#define RAWPROBE_FETCH_MAX_LOADS	4
#define RAWPROBE_FETCH_RETVAL		RAWPROBE_MAX_ARGS	/* src */
#define RAWPROBE_FETCH_SIGNED		(1U << 0)

struct rawprobe_fetch {
	__u8  src;			/*  0 argument index or FETCH_RETVAL */
	__u8  nloads;			/*  1 0..RAWPROBE_FETCH_MAX_LOADS */
	__u8  size;			/*  2 1, 2, 4, 8 */
	__u8  flags;			/*  3 RAWPROBE_FETCH_* */
	__u8  bit_off;			/*  4 bitfield: lowest bit */
	__u8  bit_size;			/*  5 bitfield: width, 0 for none */
	__u16 reserved;			/*  6 */
	__s32 off[RAWPROBE_FETCH_MAX_LOADS];	/*  8 */
	__s32 add;			/* 24 */
};

/*
 * A value filter is a list of terms, each "value cmp constant"; a term
 * with RAWPROBE_TERM_OR starts another alternative, so the list reads
 * as t1 && t2 || t3 && ... (&& binds tighter, as in C). A hit that no
 * alternative accepts is counted in STAT_FILTERED only. Entry probes
 * test at entry; a kretprobe tests at return, where src arguments are
 * the registers saved at entry and FETCH_RETVAL the return value.
 * Comparisons are signed when the fetch is.
 *
 * A string term (RAWPROBE_CMP_STR_EQ..NGLOB) compares the string at the
 * address its fetch computes (a char array's: add, no last load; a char
 * pointer's: the pointer loaded last) with the constant at byte value of
 * RAWPROBE_A_VALUE_FILTER_STRS. The kernel reads at most str_size bytes
 * (a char array's size; 0 for a pointer) and at most
 * RAWPROBE_CMP_STR_LEN, through the nofault copies: a string that goes
 * on past that bound equals no constant and matches a glob only if the
 * glob ends with '*'; a read that faults compares as "" and counts in
 * STAT_FETCH_FAULTS. RAWPROBE_TERM_USER: the string is in user memory.
 */
enum rawprobe_cmp {
	RAWPROBE_CMP_EQ = 1,
	RAWPROBE_CMP_NE,
	RAWPROBE_CMP_LT,
	RAWPROBE_CMP_LE,
	RAWPROBE_CMP_GT,
	RAWPROBE_CMP_GE,
	RAWPROBE_CMP_ANY,		/* (value & constant) != 0 */
	RAWPROBE_CMP_NONE,		/* (value & constant) == 0 */
	RAWPROBE_CMP_STR_EQ,		/* strings: equal */
	RAWPROBE_CMP_STR_NE,		/* strings: not equal */
	RAWPROBE_CMP_GLOB,		/* matches: '*' any run, '?' one char */
	RAWPROBE_CMP_NGLOB,		/* does not match */
	__RAWPROBE_CMP_MAX,
};

#define RAWPROBE_TERM_OR		(1U << 0)
#define RAWPROBE_TERM_USER		(1U << 1)	/* a string term's
							 * string is in user
							 * memory
							 */

struct rawprobe_value_term {
	struct rawprobe_fetch fetch;	/*  0 */
	__u8  cmp;			/* 28 enum rawprobe_cmp */
	__u8  flags;			/* 29 RAWPROBE_TERM_* */
	__u16 str_size;			/* 30 a string term's char array size,
					 *    or 0; 0 for numbers
					 */
	__u64 value;			/* 32 number; string: constant's offset */
};

/* Bounds enforced by the netlink policies. */
#define RAWPROBE_MAXACTIVE_MAX	4096
#define RAWPROBE_MAX_PROBES	16384
#define RAWPROBE_MAX_BATCH	1024	/* probes per ADD_BATCH or PROBE_DEL */
#define RAWPROBE_MAX_OFFSET	0x7fff	/* A_OFFSET into a function, bytes */
#define RAWPROBE_ARG_NAMES_LEN	512	/* A_ARG_NAMES, with its NUL */
#define RAWPROBE_MAX_VALUE_TERMS	8	/* terms of A_VALUE_FILTER */
#define RAWPROBE_FILTER_STR_LEN	256	/* A_VALUE_FILTER_STR, with its NUL */
#define RAWPROBE_FILTER_STRS_LEN	256	/* A_VALUE_FILTER_STRS */
#define RAWPROBE_CMP_STR_LEN	64	/* bytes a string term reads at most;
					 * its constant is shorter
					 */
#define RAWPROBE_RING_MIN	64
#define RAWPROBE_RING_MAX	(1U << 20)

#endif /* _UAPI_RAWPROBE_H */
