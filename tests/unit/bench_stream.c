// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of the live stream path on the host, where no module can be
 * loaded: per-CPU rings in memory, filled by the kernel's writer
 * (kmod/ring_core.h through ring_core_host.h), drained by the reader
 * library with the merge that `rawprobectl stream` uses, each record
 * formatted by the stream's sinks into /dev/null.
 *
 *   make -C tests/unit bench
 *   build/bench/bench_stream [text|json|csv|quiet] [RECORDS] [RINGS] [RING_SIZE]
 *                            [OUTPUT]
 *
 * Only the drains are timed, not the writers that refill the rings
 * between them. OUTPUT (default /dev/null) keeps the formatted records,
 * which are the same from run to run: a change to the reader or the
 * formatters can be checked against the output of the code before it. The record mix is that of tests/cli/mkcapture.py --bench:
 * mostly argument-less kprobe hits, kretprobe returns with typed
 * arguments, string captures, comms that JSON must escape, and now and
 * then a nested writer's record committed out of timestamp order.
 * Set RAWPROBE_KALLSYMS to the fake kallsyms that mkcapture.py writes for
 * a realistic symbol table (tests/cli/bench-reader.sh does both).
 *
 * RP_BENCH_MIX=getpgid gives the mix of make bench's stream rows instead:
 * one argument-less kprobe hit after another, one task, stamped with the
 * TSC (RAWPROBE_REC_TSC, converted by the reader), all on the first
 * ring: a tight syscall loop on one CPU. RP_BENCH_MIX=getpgid-ret: the
 * kretprobe row's, a return value and a latency each. Under valgrind --tool=callgrind
 * it says what the reader spends a record on, by function.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ring_core_host.h"
#include "lib/ring_reader.h"
#include "out/sink.h"
#include "lib/symbols.h"
#include "test_rand.h"

#define BENCH_TEXT	0xffffffff81000000ull
#define BENCH_SYSCALL	(BENCH_TEXT + 120000 * 0x100)
#define NR_PROBES	5

static struct rp_probe_desc bench_probes[NR_PROBES] = {
	{ .id = 1, .kind = RAWPROBE_KIND_KPROBE,
	  .name = "kprobe:__x64_sys_getpgid" },
	{ .id = 2, .kind = RAWPROBE_KIND_KRETPROBE, .nargs = 3,
	  .argtypes = { RAWPROBE_ARG_U64, RAWPROBE_ARG_PTR, RAWPROBE_ARG_U32 },
	  .name = "kretprobe:bench_fn_18" },
	{ .id = 3, .kind = RAWPROBE_KIND_JPROBE, .nargs = 2,
	  .argtypes = { RAWPROBE_ARG_S32, RAWPROBE_ARG_USTR },
	  .name = "jprobe:bench_fn_69" },
	{ .id = 4, .kind = RAWPROBE_KIND_KPROBE, .is_addr = 1, .nargs = 6,
	  .argtypes = { RAWPROBE_ARG_S64, RAWPROBE_ARG_S64, RAWPROBE_ARG_S64,
			RAWPROBE_ARG_S64, RAWPROBE_ARG_S64, RAWPROBE_ARG_S64 },
	  .name = "kprobe:0xffffffff81007890" },
	{ .id = 5, .kind = RAWPROBE_KIND_KRETPROBE, .ret_type = RP_RET_S64,
	  .ret_label = RP_RET_LABEL_NONE,
	  .name = "kretprobe:__x64_sys_getpgid" },
};

static const char *const bench_comms[] = {
	"getpgid_loop", "", "kworker/1:2H-kb", "sh \"quoted\"\\", "tab\tand\1ctl",
	"caf\xc3\xa9",
};

static const char *const bench_paths[] = {
	"/etc/hostname", "", "a\"b\\c\n",
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state = 1;

static __u64 rng(void)
{
	return splitmix64(&rng_state);
}

static void set_str(struct rawprobe_record *r, const char *s, __u8 arg)
{
	r->flags |= RAWPROBE_REC_STR;
	r->str_len = (__u8)strlen(s);
	r->str_arg = arg;
	strcpy(r->str, s);
}

static bool mix_getpgid, mix_ret;

/* make bench's stream row: the same hit over and over, TSC-stamped */
static void bench_record_getpgid(struct rawprobe_record *r)
{
	memset(r, 0, offsetof(struct rawprobe_record, commit));
	r->pid = r->tgid = 500;
	strncpy(r->comm, bench_comms[0], RAWPROBE_COMM_LEN);
	r->kind = RAWPROBE_KIND_KPROBE;
	r->flags = RAWPROBE_REC_TSC;
	r->probe_id = 1;
	r->addr = BENCH_SYSCALL;
	if (!mix_ret)
		return;
	r->probe_id = 5;
	r->kind = RAWPROBE_KIND_KRETPROBE;
	r->flags |= RAWPROBE_REC_RETVAL;
	r->retval = 500;
	r->latency_ns = 1800;	/* TSC cycles, converted too */
}

/* One record of the mix, all but ts, seq and cpu. */
static void bench_record(struct rawprobe_record *r)
{
	__u64 pick = rng() % 100, c = rng() % 10;
	const char *comm = c ? bench_comms[0] : bench_comms[rng() % 6];
	static const __s64 rets[] = { 0, 4096, -14, INT64_MIN, INT64_MAX };
	unsigned int i;

	memset(r, 0, offsetof(struct rawprobe_record, commit));
	r->pid = r->tgid = (__u32)(500 + (c ? 0 : rng() % 500));
	strncpy(r->comm, comm, RAWPROBE_COMM_LEN);
	r->kind = RAWPROBE_KIND_KPROBE;
	r->probe_id = 1;
	r->addr = BENCH_SYSCALL;
	r->str[0] = 0;
	if (pick < 55)
		return;
	r->flags = RAWPROBE_REC_ARGS;
	if (pick < 85) {
		r->probe_id = 2;
		r->kind = RAWPROBE_KIND_KRETPROBE;
		r->flags |= RAWPROBE_REC_RETVAL;
		r->addr = BENCH_TEXT + 0x1230;
		r->nargs = 3;
		r->args[0] = rng();
		r->args[1] = BENCH_TEXT + rng() % (1 << 20);
		r->args[2] = rng() % (1 << 17);
		r->retval = rets[rng() % ARRAY_SIZE(rets)];
		r->latency_ns = rng() % 10000000;
		return;
	}
	if (pick < 97) {
		r->probe_id = 3;
		r->kind = RAWPROBE_KIND_JPROBE;
		r->addr = BENCH_TEXT + 0x4560;
		r->nargs = 2;
		r->args[0] = (__u64)-100;
		r->args[1] = 0x7ffd0000 + rng() % 4096;
		set_str(r, bench_paths[rng() % ARRAY_SIZE(bench_paths)], 1);
		if (r->str_len == 127)
			r->flags |= RAWPROBE_REC_STR_TRUNC;
		return;
	}
	r->probe_id = 4;
	r->addr = BENCH_TEXT + 0x7890;
	r->nargs = 6;
	for (i = 0; i < 6; i++)
		r->args[i] = i ? i - 1 : UINT64_MAX;
	if (pick == 97)
		set_str(r, "own", RAWPROBE_STR_ARG_NONE);
	else if (pick == 99)
		r->flags |= RAWPROBE_REC_STR_FAULT, r->str_arg = 2;
}

struct bench_ring {
	struct rawprobe_ring_ctrl *ctrl;
	struct rawprobe_record *recs;
	struct rp_ring_core core;
};

#define TEMPLATES 4096
static struct rawprobe_record templates[TEMPLATES];

static void write_record(struct bench_ring *b, __u64 ts, unsigned int cpu)
{
	struct rawprobe_record *rec;
	__u64 pos, seq;

	rec = rp_ring_reserve(&b->core, &pos, &seq);
	if (!rec)
		return;
	memcpy(rec, &templates[rng() % TEMPLATES],
	       offsetof(struct rawprobe_record, commit));
	memcpy(rec->str, templates[0].str, sizeof(rec->str));
	rec->ts_ns = ts;
	rec->seq = seq;
	rec->cpu = (__u16)cpu;
	rp_ring_commit(&b->core, rec, pos);
}

/*
 * Refill: n records spread at random over the rings, in time order but
 * for one in a hundred, which gets the timestamp of a record its CPU
 * writes later (a writer interrupted between reservation and timestamp).
 */
static void fill(struct bench_ring *rings, unsigned int nr, __u64 n,
		 __u64 *ts)
{
	__u64 i;

	for (i = 0; i < n; i++) {
		unsigned int cpu = (unsigned int)(rng() % nr);

		if (mix_getpgid) {	/* about 900 ns a call at 2 GHz */
			*ts += 1800;
			write_record(&rings[0], *ts, 0);
			continue;
		}
		*ts += 1 + rng() % 2000;
		write_record(&rings[cpu], rng() % 100 ? *ts : *ts + 5000, cpu);
	}
}

struct bench_ctx {
	struct rp_sink sink;
	bool quiet;
	__u64 n;
};

static int bench_cb(unsigned int cpu, const struct rawprobe_record *r,
		    void *ctx)
{
	struct bench_ctx *b = ctx;
	const struct rp_probe_desc *d = NULL;

	(void)cpu;
	if (r->probe_id - 1 < NR_PROBES)
		d = &bench_probes[r->probe_id - 1];
	if (!b->quiet)
		b->sink.ops->record(&b->sink, r, d);
	b->n++;
	return 0;
}

static __u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ull + (__u64)t.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *fmt = argc > 1 ? argv[1] : "text";
	__u64 total = argc > 2 ? strtoull(argv[2], NULL, 0) : 2000000;
	unsigned int nr = argc > 3 ? (unsigned int)atoi(argv[3]) : 4;
	__u32 size = argc > 4 ? (__u32)atoi(argv[4]) : 4096;
	struct rp_reader_ring rr[64];
	struct bench_ring rings[64];
	struct bench_ctx b = { .quiet = !strcmp(fmt, "quiet") };
	struct rp_reader *reader;
	__u64 ts = 12345000000000ull, spent = 0, t0;
	FILE *out = fopen(argc > 5 ? argv[5] : "/dev/null", "w");
	unsigned int i;

	for (i = 0; i < NR_PROBES; i++)	/* as the stream makes its descs */
		rp_desc_name_ready(&bench_probes[i]);

	if (nr < 1 || nr > 64 || size < 64 || (size & (size - 1)) || !out) {
		fprintf(stderr, "usage: %s [text|json|csv|quiet] [RECORDS] "
			"[RINGS <= 64] [RING_SIZE, a power of two] [OUTPUT]\n",
			argv[0]);
		return 2;
	}
	if (rp_sink_init(&b.sink, b.quiet ? RP_FMT_TEXT : rp_format_parse(fmt),
			 out, false)) {
		fprintf(stderr, "unknown format %s\n", fmt);
		return 2;
	}
	mix_ret = getenv("RP_BENCH_MIX") &&
		  !strcmp(getenv("RP_BENCH_MIX"), "getpgid-ret");
	mix_getpgid = mix_ret || (getenv("RP_BENCH_MIX") &&
				  !strcmp(getenv("RP_BENCH_MIX"), "getpgid"));
	for (i = 0; i < TEMPLATES; i++) {
		if (mix_getpgid)
			bench_record_getpgid(&templates[i]);
		else
			bench_record(&templates[i]);
	}
	for (i = 0; i < nr; i++) {
		rings[i].ctrl = aligned_alloc(4096, 4096);
		rings[i].recs = aligned_alloc(4096, (size_t)size * 256);
		memset(rings[i].recs, 0, (size_t)size * 256);
		rp_ring_core_init(&rings[i].core, rings[i].ctrl, rings[i].recs,
				  size, RAWPROBE_RING_DISCARD, i, 0);
		rr[i] = (struct rp_reader_ring){ .ctrl = rings[i].ctrl,
			.recs = rings[i].recs, .nr_records = size,
			.mode = RAWPROBE_RING_DISCARD };
	}
	reader = rp_reader_new(rr, nr, RP_READER_MERGE);
	if (!reader)
		return 1;
	/* a fixed anchor: the same output from run to run */
	if (mix_getpgid && (rp_reader_set_tsc(reader, 2000000) ||
			    rp_reader_set_tsc_anchor(reader, 0, 0)))
		return 1;
	if (b.sink.ops->begin)
		b.sink.ops->begin(&b.sink);
	/* Load kallsyms now: the stream does so once, before its drains. */
	rp_ksym_cached(0, &(size_t){ 0 });

	while (b.n < total) {
		/* Three quarters full, as a reader falling behind finds them. */
		fill(rings, nr, (__u64)(mix_getpgid ? 1 : nr) * size * 3 / 4,
		     &ts);
		t0 = now_ns();
		rp_reader_drain_all(reader, bench_cb, &b);
		rp_sink_flush(&b.sink);
		spent += now_ns() - t0;
	}
	if (b.sink.ops->end)
		b.sink.ops->end(&b.sink);
	printf("%s: %llu records in %.3f s: %.0f records/s\n", fmt,
	       (unsigned long long)b.n, spent / 1e9, b.n / (spent / 1e9));
	rp_reader_free(reader);
	fclose(out);
	return 0;
}
