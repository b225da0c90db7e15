// SPDX-License-Identifier: GPL-2.0
/*
 * libinsn.so: a QEMU 7.2 TCG plugin that counts the guest instructions
 * a vCPU executes between two marker instructions, user and kernel
 * alike (tools/tcg-insn/README.md).
 *
 *   -plugin libinsn.so,start=ADDR,stop=ADDR[,vcpu=N][,out=PATH][,exact=on]
 *                      [,profile=PATH]
 *
 * An interval opens when a vCPU reaches the instruction at START and
 * closes when the same vCPU reaches STOP: its count runs from START's
 * instruction (included) to STOP's (excluded). Each STOP prints a line
 * "COUNT VCPU"; at exit a "# " line sums the intervals up.
 *
 * Counting is per translated block (TB): a callback at the start of
 * each block adds its instruction count to its vCPU's counter, and the
 * marker callbacks correct for their position in their block, so the
 * count is exact unless a block is left early (an exception in its
 * middle): then the faulting instruction and those after it in the
 * block were counted, and count again when they run. exact=on counts
 * each instruction as it starts instead (slower; the faulting
 * instruction still counts once more than it retires).
 *
 * profile=PATH also counts, per block, how often it ran inside an
 * interval: at exit PATH gets a line "VADDR INSNS RUNS" for each block
 * that did (tools/tcg-insn/profile.py names them by a guest's kallsyms),
 * to say which functions a probe's instructions go to.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-7.2.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 1024	/* user mode has no bound: one vCPU per thread */

/* One cache line each: every vCPU thread writes only its own. */
struct vcpu {
	uint64_t count;		/* instructions started so far */
	uint64_t start;		/* count at the last START */
	bool open;		/* a START that no STOP closed yet */
} __attribute__((aligned(64)));

static struct vcpu vcpus[MAX_VCPUS];
static uint64_t mark_start, mark_stop;
static long only_vcpu = -1;
static bool exact;
static FILE *out;

/*
 * A translated block, for profile=: its runs inside an interval. A block
 * translated again (its page's text patched, the code cache flushed)
 * gets another; profile.py adds them up by address.
 */
struct prof_tb {
	uint64_t vaddr;
	uint64_t runs;
	uint32_t n;
	struct prof_tb *next;
};

static const char *prof_path;
static struct prof_tb *prof_tbs;	/* under lock */

/* The intervals, for the summary; taken by every vCPU's STOP. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *intervals;
static size_t n_intervals, cap_intervals;
static uint64_t lost_intervals, stray_stops, beyond_vcpus;

/*
 * A marker's callback data, packed into the pointer: STOP or START,
 * whether it counts its own instruction (exact mode), and how many
 * instructions of its block the block callback added that had not yet
 * started (per-TB mode: the block's count minus the marker's index).
 */
#define MK_STOP		1UL
#define MK_COUNT	2UL
#define MK_ADJ_SHIFT	2

static void *marker_data(bool stop, bool count, size_t adjust)
{
	return (void *)(uintptr_t)((stop ? MK_STOP : 0) | (count ? MK_COUNT : 0) |
				   (adjust << MK_ADJ_SHIFT));
}

static void record(unsigned int vcpu, uint64_t n)
{
	pthread_mutex_lock(&lock);
	if (!out) {		/* a vCPU still running after the summary */
		pthread_mutex_unlock(&lock);
		return;
	}
	fprintf(out, "%" PRIu64 " %u\n", n, vcpu);
	if (n_intervals == cap_intervals) {
		size_t cap = cap_intervals ? 2 * cap_intervals : 1024;
		uint64_t *p = realloc(intervals, cap * sizeof(*p));

		if (p) {
			intervals = p;
			cap_intervals = cap;
		}
	}
	if (n_intervals < cap_intervals)
		intervals[n_intervals++] = n;
	else
		lost_intervals++;	/* printed, but not in the summary */
	pthread_mutex_unlock(&lock);
}

static void on_block(unsigned int vcpu, void *data)
{
	if (vcpu < MAX_VCPUS)
		vcpus[vcpu].count += (uintptr_t)data;
}

static void on_block_prof(unsigned int vcpu, void *data)
{
	struct prof_tb *tb = data;

	if (vcpu >= MAX_VCPUS)
		return;
	vcpus[vcpu].count += tb->n;
	if (vcpus[vcpu].open)
		__atomic_fetch_add(&tb->runs, 1, __ATOMIC_RELAXED);
}

static void on_insn(unsigned int vcpu, void *data)
{
	(void)data;
	if (vcpu < MAX_VCPUS)
		vcpus[vcpu].count++;
}

static void on_marker(unsigned int vcpu, void *data)
{
	uintptr_t m = (uintptr_t)data;
	struct vcpu *v;
	uint64_t at;

	if (vcpu >= MAX_VCPUS) {
		__atomic_fetch_add(&beyond_vcpus, 1, __ATOMIC_RELAXED);
		return;
	}
	v = &vcpus[vcpu];
	at = v->count - (m >> MK_ADJ_SHIFT);	/* started before this one */
	if (m & MK_COUNT)
		v->count++;
	if (only_vcpu >= 0 && vcpu != (unsigned long)only_vcpu)
		return;
	if (!(m & MK_STOP)) {
		v->start = at;
		v->open = true;
	} else if (v->open) {
		v->open = false;
		record(vcpu, at - v->start);
	} else {
		__atomic_fetch_add(&stray_stops, 1, __ATOMIC_RELAXED);
	}
}

/* Translation time: the callbacks a block's every execution will run. */
static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	(void)id;
	if (!exact && prof_path && n) {
		struct prof_tb *p = calloc(1, sizeof(*p));

		if (p) {
			p->vaddr = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
			p->n = (uint32_t)n;
			pthread_mutex_lock(&lock);
			p->next = prof_tbs;
			prof_tbs = p;
			pthread_mutex_unlock(&lock);
			qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block_prof,
							     QEMU_PLUGIN_CB_NO_REGS, p);
		}
	} else if (!exact) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);

		if (va == mark_start || va == mark_stop)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
				QEMU_PLUGIN_CB_NO_REGS,
				marker_data(va == mark_stop, exact, exact ? 0 : n - i));
		else if (exact)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* profile=: the blocks that ran inside an interval (under lock) */
static void write_profile(void)
{
	struct prof_tb *p;
	FILE *f = fopen(prof_path, "w");

	if (!f) {
		fprintf(stderr, "tcg-insn: profile=%s: %s\n", prof_path, strerror(errno));
		return;
	}
	for (p = prof_tbs; p; p = p->next)
		if (p->runs)
			fprintf(f, "0x%" PRIx64 " %" PRIu32 " %" PRIu64 "\n",
				p->vaddr, p->n, p->runs);
	fclose(f);
}

static void summary(qemu_plugin_id_t id, void *data)
{
	size_t i, open = 0;

	(void)id;
	(void)data;
	pthread_mutex_lock(&lock);
	if (prof_path)
		write_profile();
	for (i = 0; i < MAX_VCPUS; i++)
		open += vcpus[i].open;
	fprintf(out, "# tcg-insn: %zu intervals (%s)", n_intervals,
		exact ? "exact=on" : "per TB");
	if (n_intervals) {
		/* the median of an even count is the lower middle one */
		qsort(intervals, n_intervals, sizeof(*intervals), cmp_u64);
		fprintf(out, ": min %" PRIu64 " median %" PRIu64 " max %" PRIu64,
			intervals[0], intervals[(n_intervals - 1) / 2],
			intervals[n_intervals - 1]);
	}
	if (open || stray_stops || lost_intervals || beyond_vcpus)
		fprintf(out, "; %zu START left open, %" PRIu64 " STOP without START, %"
			PRIu64 " not summed (no memory), %" PRIu64
			" markers on vCPUs >= %d ignored",
			open, stray_stops, lost_intervals, beyond_vcpus, MAX_VCPUS);
	fputc('\n', out);
	if (out != stderr)
		fclose(out);
	out = NULL;
	pthread_mutex_unlock(&lock);
}

static int usage(const char *fmt, const char *arg)
{
	fputs("tcg-insn: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\ntcg-insn: usage: -plugin libinsn.so,start=ADDR,stop=ADDR"
	      "[,vcpu=N][,out=PATH][,exact=on|off][,profile=PATH]\n", stderr);
	return -1;
}

/* A whole decimal or 0x-prefixed number, nothing else. */
static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

static int parse_arg(const char *arg, const char **out_path, bool *seen_start,
		     bool *seen_stop)
{
	const char *eq = strchr(arg, '=');
	const char *val = eq ? eq + 1 : "";
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	uint64_t v;

	if (len == 5 && !strncmp(arg, "start", 5)) {
		if (!parse_u64(val, &mark_start))
			return usage("start=%s: not an address", val);
		*seen_start = true;
	} else if (len == 4 && !strncmp(arg, "stop", 4)) {
		if (!parse_u64(val, &mark_stop))
			return usage("stop=%s: not an address", val);
		*seen_stop = true;
	} else if (len == 4 && !strncmp(arg, "vcpu", 4)) {
		if (!parse_u64(val, &v) || v >= MAX_VCPUS)
			return usage("vcpu=%s: not a vCPU index", val);
		only_vcpu = (long)v;
	} else if (len == 3 && !strncmp(arg, "out", 3)) {
		if (!*val)
			return usage("out=%s: give a file name", val);
		*out_path = val;
	} else if (len == 7 && !strncmp(arg, "profile", 7)) {
		if (!*val)
			return usage("profile=%s: give a file name", val);
		prof_path = val;
	} else if (len == 5 && !strncmp(arg, "exact", 5)) {
		if (!qemu_plugin_bool_parse("exact", val, &exact))
			return usage("exact=%s: give on or off", val);
	} else {
		return usage("unknown argument '%s'", arg);
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	bool seen_start = false, seen_stop = false;
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++)
		if (parse_arg(argv[i], &path, &seen_start, &seen_stop))
			return -1;
	if (!seen_start || !seen_stop)
		return usage("%s", "give both markers: start=ADDR and stop=ADDR "
			     "(e.g. from tools/tcg-insn/marks.sh BINARY)");
	if (mark_start == mark_stop)
		return usage("%s", "start and stop are the same address");
	if (prof_path && exact)
		return usage("%s", "profile= counts blocks: not with exact=on");
	if (info->system_emulation && only_vcpu >= info->system.max_vcpus) {
		char msg[64];

		snprintf(msg, sizeof(msg), "vcpu=%ld: the machine has %d vCPUs",
			 only_vcpu, info->system.max_vcpus);
		return usage("%s", msg);
	}
	out = stderr;
	if (path) {
		out = fopen(path, "w");
		if (!out) {
			fprintf(stderr, "tcg-insn: out=%s: %s\n", path, strerror(errno));
			return -1;
		}
		setvbuf(out, NULL, _IOLBF, 0);	/* a killed guest keeps its lines */
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, summary, NULL);
	return 0;
}
