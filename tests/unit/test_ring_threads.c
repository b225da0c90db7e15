// SPDX-License-Identifier: GPL-2.0
/*
 * The ring suite's concurrent tests (test_ring.c has the overview):
 * writers nesting through a signal handler, threads standing in for
 * CPUs with a reader draining them all, and torn copies in overwrite
 * mode; with their reader thread and the checker of what it reads,
 * theirs alone. They scale with RP_TEST_SCALE (scaled()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include "test_ring.h"

/* ------------------------------------------------------------------ */
/* Concurrent tests                                                    */

#define MAX_WRITERS 8

/* What the reader thread checks about the records of one writer. */
struct writer_track {
	__u64 next;		/* discard: counter expected next */
	__u64 seen;
	__u64 errors;		/* out of order or missing */
	bool any;
};

struct checker {
	struct writer_track w[MAX_WRITERS];
	__u64 bad;		/* failed check_record() */
	__u64 records;
	bool exact;		/* discard: counters must be consecutive */
	/* Merged drains: (ts, cpu, seq) of the last record of this drain. */
	bool merged;
	bool have_last;
	__u64 last_ts, last_seq;
	unsigned int last_cpu;
	__u64 order_errors;
};

/* Is (ts, cpu, seq) of rec after the previous record of this drain? */
static bool merge_in_order(struct checker *k, unsigned int cpu,
			   const struct rawprobe_record *rec)
{
	bool ok = !k->have_last || k->last_ts < rec->ts_ns ||
		  (k->last_ts == rec->ts_ns &&
		   (k->last_cpu < cpu ||
		    (k->last_cpu == cpu && k->last_seq < rec->seq)));

	k->have_last = true;
	k->last_ts = rec->ts_ns;
	k->last_cpu = cpu;
	k->last_seq = rec->seq;
	return ok;
}

static int checker_cb(unsigned int cpu, const struct rawprobe_record *rec,
		      void *ctx)
{
	struct checker *k = ctx;
	struct writer_track *w;

	k->records++;
	if (k->merged && !merge_in_order(k, cpu, rec))
		k->order_errors++;
	if (!check_record(rec) || rec->probe_id >= MAX_WRITERS) {
		k->bad++;
		return 0;
	}
	w = &k->w[rec->probe_id];
	if (k->exact ? rec->args[0] != w->next :
	    (w->any && rec->args[0] < w->next))
		w->errors++;
	w->next = rec->args[0] + 1;
	w->any = true;
	w->seen++;
	return 0;
}

/* Sentinel writer id: first and last record of each ring. */
#define SENTINEL 7

struct reader_thread {
	pthread_t tid;
	struct rp_reader *r;
	struct checker *k;
	int stop;		/* atomic */
	__u64 drains;
};

static void *reader_main(void *arg)
{
	struct reader_thread *rt = arg;

	while (!__atomic_load_n(&rt->stop, __ATOMIC_ACQUIRE)) {
		long n;

		rt->k->have_last = false;	/* order holds per drain */
		n = rp_reader_drain_all(rt->r, checker_cb, rt->k);

		rt->drains++;
		if (n <= 0)
			sched_yield();
	}
	return NULL;
}

static void reader_start(struct reader_thread *rt)
{
	__atomic_store_n(&rt->stop, 0, __ATOMIC_RELAXED);
	assert_int_equal(pthread_create(&rt->tid, NULL, reader_main, rt), 0);
}

static void reader_stop(struct reader_thread *rt)
{
	__atomic_store_n(&rt->stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(rt->tid, NULL), 0);
	/* Everything is committed now: drain to the end. */
	do {
		rt->k->have_last = false;
	} while (rp_reader_drain_all(rt->r, checker_cb, rt->k) > 0);
}

/*
 * Exact accounting of one ring after the last drain, with a sentinel
 * record written first and last so that the sequence range covers every
 * attempt: attempts = records + torn + overwritten + lost, and the
 * sequence gap equals everything that was not read.
 */
static void check_accounting(struct rp_reader *r, unsigned int cpu,
			     const struct test_ring *t, __u64 attempts)
{
	struct rp_reader_cpu_stats st = stats_of(r, cpu);

	print_message("  ring %u: attempts %llu read %llu lost %llu "
		      "overwritten %llu torn %llu\n", cpu,
		      (unsigned long long)attempts,
		      (unsigned long long)st.records,
		      (unsigned long long)st.ring_lost,
		      (unsigned long long)st.overwritten,
		      (unsigned long long)st.torn);
	assert_int_equal(st.position, t->ctrl->head);
	assert_int_equal(st.ring_lost, t->ctrl->lost);
	assert_int_equal(t->ctrl->seq, attempts);
	assert_int_equal(attempts, st.records + st.torn + st.overwritten +
			 st.ring_lost);
	assert_int_equal(st.seq_min, 1);
	assert_int_equal(st.seq_max, attempts);
	assert_int_equal(st.seq_lost, st.torn + st.overwritten + st.ring_lost);
	if (t->core.mode == RAWPROBE_RING_DISCARD) {
		assert_int_equal(st.torn, 0);
		assert_int_equal(st.overwritten, 0);
	}
}

/* Write the sentinel of a ring and read it (the ring must be empty). */
static void sentinel(struct test_ring *t, struct rp_reader *r,
		     unsigned int cpu, struct checker *k, __u64 n)
{
	struct writer_track *w = &k->w[SENTINEL];

	(void)cpu;
	assert_true(write_one(t, SENTINEL, n, now_ns(), false));
	k->have_last = false;
	/* Every other ring is empty at this point. */
	assert_int_equal(rp_reader_drain_all(r, checker_cb, k), 1);
	/* Sentinels of different rings share an id: no order check. */
	w->next = 0;
	w->any = false;
}

/* --- Writers nesting through a signal handler on one "CPU" --- */

struct nest_state {
	struct test_ring t;
	bool atomic;
	unsigned int burst;	/* records per handler run */
	bool throttle;		/* discard: never let the ring fill */
	/* Written by the writer thread and its signal handler only. */
	volatile sig_atomic_t in_reserve;
	volatile sig_atomic_t in_write;
	__u64 main_ok, main_lost;
	__u64 irq_ok, irq_lost;
	__u64 irq_runs, irq_in_write, irq_in_reserve;
	__u64 irq_handled;	/* atomic: read by the signalling thread */
	__u64 main_progress;	/* atomic: main_ok, for the signalling thread */
	int done;		/* atomic: set by the writer thread */
};

static struct nest_state *nest;

static __u64 ring_used(const struct test_ring *t)
{
	/* consumer first: it never passes head, so this never wraps. */
	__u64 consumer = __atomic_load_n(&t->ctrl->consumer, __ATOMIC_ACQUIRE);

	return __atomic_load_n(&t->ctrl->head, __ATOMIC_RELAXED) - consumer;
}

static void nest_irq(int sig)
{
	struct nest_state *s = nest;
	int saved = errno;
	unsigned int i;

	(void)sig;
	__atomic_add_fetch(&s->irq_handled, 1, __ATOMIC_RELEASE);
	s->irq_runs++;
	if (s->in_write)
		s->irq_in_write++;
	if (s->in_reserve)
		s->irq_in_reserve++;
	for (i = 0; i < s->burst; i++) {
		if (s->throttle && ring_used(&s->t) >= s->t.nr * 3 / 4)
			break;
		if (write_one(&s->t, 1, s->irq_ok, now_ns(), s->atomic))
			s->irq_ok++;
		else
			s->irq_lost++;
	}
	errno = saved;
}

struct nest_writer_args {
	__u64 min_records;
	__u64 min_nested;
	__u64 deadline;
};

static void *nest_writer_main(void *arg)
{
	struct nest_writer_args *a = arg;
	struct nest_state *s = nest;
	struct rawprobe_record tmp;

	while (s->main_ok < a->min_records || s->irq_in_write < a->min_nested) {
		struct rawprobe_record *rec;
		__u64 pos, seq;

		if (now_ns() > a->deadline)
			break;
		while (s->throttle && ring_used(&s->t) > s->t.nr / 2)
			sched_yield();
		s->in_reserve = 1;
		rec = rp_ring_reserve(&s->t.core, &pos, &seq);
		s->in_reserve = 0;
		if (!rec) {
			s->main_lost++;
			continue;
		}
		s->in_write = 1;
		make_record(&tmp, 0, s->main_ok, seq, s->t.cpu, now_ns());
		store_record(rec, &tmp, s->atomic);
		rp_ring_commit(&s->t.core, rec, pos);
		s->in_write = 0;
		s->main_ok++;
		__atomic_store_n(&s->main_progress, s->main_ok,
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A writer thread whose signal handler writes into the same ring: real
 * nesting on one "CPU", with the handler landing between reserve and
 * commit (and inside reserve) of the interrupted writer. A third thread
 * sends the signals, a fourth drains the ring meanwhile.
 */
static void run_signal_nesting(__u32 mode, __u32 nr, unsigned int burst)
{
	/*
	 * The writer stops once it has done enough; the deadline only keeps
	 * a broken ring from hanging the suite (a loaded host takes long).
	 */
	struct nest_writer_args wa = {
		.min_records = scaled(300000),
		.min_nested = 200,
		.deadline = now_ns() + 120000000000ull,
	};
	struct checker *k = calloc(1, sizeof(*k));
	struct nest_state *s = calloc(1, sizeof(*s));
	struct reader_thread rt = { 0 };
	struct sigaction sa = { 0 }, old;
	pthread_t writer;
	__u64 attempts, kicks = 0, last_progress = ~0ull, t0 = now_ns();

	assert_non_null(k);
	assert_non_null(s);
	nest = s;
	ring_init(&s->t, nr, mode, 0, 0);
	s->atomic = mode == RAWPROBE_RING_OVERWRITE;
	s->throttle = mode == RAWPROBE_RING_DISCARD;
	s->burst = burst;
	k->exact = mode == RAWPROBE_RING_DISCARD;
	rt.r = reader_for(&s->t, 1, 0);
	rt.k = k;
	sentinel(&s->t, rt.r, 0, k, 0);

	sa.sa_handler = nest_irq;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);

	reader_start(&rt);
	assert_int_equal(pthread_create(&writer, NULL, nest_writer_main, &wa),
			 0);
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 20000 };

		__u64 progress = __atomic_load_n(&s->main_progress,
						 __ATOMIC_RELAXED);

		/*
		 * One signal at a time, and only once the writer has written
		 * since the last: the handler's bursts never take all of the
		 * writer's time, however slow the build or busy the host.
		 * pthread_kill() fails once the writer has exited.
		 */
		if (__atomic_load_n(&s->irq_handled,
				    __ATOMIC_ACQUIRE) == kicks &&
		    progress != last_progress &&
		    !pthread_kill(writer, SIGUSR1)) {
			kicks++;
			last_progress = progress;
		}
		nanosleep(&ts, NULL);
	}
	assert_int_equal(pthread_join(writer, NULL), 0);
	reader_stop(&rt);
	assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
	sentinel(&s->t, rt.r, 0, k, 1);

	print_message("  %.2f s: main %llu (+%llu lost), irq %llu (+%llu "
		      "lost) in %llu runs; %llu landed mid-write, %llu "
		      "mid-reserve; %llu signals\n",
		      (double)(now_ns() - t0) / 1e9,
		      (unsigned long long)s->main_ok,
		      (unsigned long long)s->main_lost,
		      (unsigned long long)s->irq_ok,
		      (unsigned long long)s->irq_lost,
		      (unsigned long long)s->irq_runs,
		      (unsigned long long)s->irq_in_write,
		      (unsigned long long)s->irq_in_reserve,
		      (unsigned long long)kicks);
	/* Real nesting happened, and enough of it. */
	assert_true(s->main_ok >= wa.min_records);
	assert_true(s->irq_in_write >= wa.min_nested);
	assert_true(s->irq_ok > 0);

	attempts = s->main_ok + s->main_lost + s->irq_ok + s->irq_lost + 2;
	check_accounting(rt.r, 0, &s->t, attempts);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->w[0].errors, 0);
	assert_int_equal(k->w[1].errors, 0);
	if (mode == RAWPROBE_RING_DISCARD) {
		/* Nothing lost, every record of both writers read. */
		assert_int_equal(s->main_lost + s->irq_lost, 0);
		assert_int_equal(stats_of(rt.r, 0).seq_lost, 0);
		assert_int_equal(k->w[0].seen, s->main_ok);
		assert_int_equal(k->w[1].seen, s->irq_ok);
	} else {
		/*
		 * Bursts longer than the ring landing mid-write must have
		 * hit the slot of the interrupted writer and been dropped.
		 */
		assert_true(burst > nr);
		assert_true(s->t.ctrl->lost > 0);
	}
	rp_reader_free(rt.r);
	ring_free(&s->t);
	nest = NULL;
	free(s);
	free(k);
}

void test_signal_nesting_discard(void **state)
{
	(void)state;
	run_signal_nesting(RAWPROBE_RING_DISCARD, 4096, 8);
}

void test_signal_nesting_overwrite(void **state)
{
	(void)state;
	run_signal_nesting(RAWPROBE_RING_OVERWRITE, 16, 24);
}

/* --- Threads standing in for CPUs --- */

struct stress_writer {
	pthread_t tid;
	struct test_ring *t;
	__u32 id;
	__u64 n;		/* attempts */
	__u64 ok, lost;
	bool atomic;
};

static void *stress_writer_main(void *arg)
{
	struct stress_writer *w = arg;
	__u64 i;

	for (i = 0; i < w->n; i++) {
		if (write_one(w->t, w->id, w->ok, now_ns(), w->atomic)) {
			w->ok++;
		} else {
			w->lost++;
			sched_yield();	/* let the reader catch up a bit */
		}
	}
	return NULL;
}

/*
 * Four writer threads with a ring each, two more sharing a fifth ring
 * (nested writers with every interleaving), one reader draining all five
 * concurrently. Small rings, so that discard mode loses and overwrite
 * mode laps a lot.
 */
static void run_stress(__u32 mode, __u32 nr, unsigned int reader_flags)
{
	enum { NR_RINGS = 5, NR_WRITERS = 6 };
	struct checker *k = calloc(1, sizeof(*k));
	struct stress_writer w[NR_WRITERS];
	struct reader_thread rt = { 0 };
	struct test_ring t[NR_RINGS];
	__u64 attempts[NR_RINGS], total = 0, t0 = now_ns();
	unsigned int i;

	assert_non_null(k);
	k->exact = mode == RAWPROBE_RING_DISCARD;
	k->merged = reader_flags & RP_READER_MERGE;
	for (i = 0; i < NR_RINGS; i++)
		ring_init(&t[i], nr, mode, i, 0);
	rt.r = reader_for(t, NR_RINGS, reader_flags);
	rt.k = k;
	for (i = 0; i < NR_RINGS; i++)
		sentinel(&t[i], rt.r, i, k, 0);

	reader_start(&rt);
	for (i = 0; i < NR_WRITERS; i++) {
		w[i] = (struct stress_writer){
			.t = &t[i < 4 ? i : 4], .id = i,
			.n = scaled(i < 4 ? 400000 : 200000),
			.atomic = mode == RAWPROBE_RING_OVERWRITE,
		};
		assert_int_equal(pthread_create(&w[i].tid, NULL,
						stress_writer_main, &w[i]), 0);
	}
	for (i = 0; i < NR_WRITERS; i++)
		assert_int_equal(pthread_join(w[i].tid, NULL), 0);
	reader_stop(&rt);
	for (i = 0; i < NR_RINGS; i++)
		sentinel(&t[i], rt.r, i, k, 1);

	print_message("  %llu drains, %.2f s\n", (unsigned long long)rt.drains,
		      (double)(now_ns() - t0) / 1e9);
	for (i = 0; i < NR_RINGS; i++)
		attempts[i] = 2;
	for (i = 0; i < NR_WRITERS; i++) {
		unsigned int ring = i < 4 ? i : 4;

		assert_int_equal(w[i].ok + w[i].lost, w[i].n);
		attempts[ring] += w[i].n;
		total += w[i].n;
		assert_int_equal(k->w[i].errors, 0);
		if (mode == RAWPROBE_RING_DISCARD)	/* all it wrote */
			assert_int_equal(k->w[i].seen, w[i].ok);
		else
			assert_true(k->w[i].seen <= w[i].ok);
	}
	assert_true(total >= scaled(2000000));
	for (i = 0; i < NR_RINGS; i++)
		check_accounting(rt.r, i, &t[i], attempts[i]);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->order_errors, 0);

	rp_reader_free(rt.r);
	for (i = 0; i < NR_RINGS; i++)
		ring_free(&t[i]);
	free(k);
}

void test_threads_discard(void **state)
{
	(void)state;
	run_stress(RAWPROBE_RING_DISCARD, 1024, 0);
}

void test_threads_overwrite(void **state)
{
	(void)state;
	/* With a merging reader: each drain must come out in ts order. */
	run_stress(RAWPROBE_RING_OVERWRITE, 256, RP_READER_MERGE);
}

/*
 * Overwrite mode, a writer thread that never stops and a reader on
 * another CPU: whatever the reader gets must be intact and in order, and
 * the accounting exact. Whether copies actually tear here depends on the
 * scheduler; test_overwrite_torn_signal makes sure they do.
 */
struct torn_writer {
	struct test_ring *t;
	int stop;		/* atomic */
	__u64 ok, lost;
};

static void *torn_writer_main(void *arg)
{
	struct torn_writer *w = arg;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		if (write_one(w->t, 0, w->ok, now_ns(), true))
			w->ok++;
		else
			w->lost++;
	}
	return NULL;
}

void test_overwrite_torn(void **state)
{
	struct checker *k = calloc(1, sizeof(*k));
	struct torn_writer w = { 0 };
	struct rp_reader_cpu_stats st;
	__u64 t0 = now_ns(), now;
	struct test_ring t;
	struct rp_reader *r;
	pthread_t tid;

	(void)state;
	assert_non_null(k);
	ring_init(&t, 8, RAWPROBE_RING_OVERWRITE, 0, 0);
	r = reader_for(&t, 1, 0);
	sentinel(&t, r, 0, k, 0);
	w.t = &t;
	assert_int_equal(pthread_create(&tid, NULL, torn_writer_main, &w), 0);
	/* At least 0.5 s and 20000 records, at most 2 s. */
	do {
		rp_reader_drain_cpu(r, 0, checker_cb, k);
		st = stats_of(r, 0);
		now = now_ns();
	} while (now < t0 + 2000000000ull &&
		 (now < t0 + 500000000ull || st.records < scaled(20000)));
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(tid, NULL), 0);
	while (rp_reader_drain_cpu(r, 0, checker_cb, k) > 0)
		;
	sentinel(&t, r, 0, k, 1);

	print_message("  %.2f s\n", (double)(now_ns() - t0) / 1e9);
	check_accounting(r, 0, &t, w.ok + w.lost + 2);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->w[0].errors, 0);
	assert_true(stats_of(r, 0).records > 2);
	rp_reader_free(r);
	ring_free(&t);
	free(k);
}

/*
 * Torn copies made to happen on any machine: the writer is a signal
 * handler on the reader's own thread, so it runs in the middle of the
 * reader's copy whenever the signal lands there. The reader thread also
 * refills the ring whenever it is empty, so that it spends its time
 * copying. Every torn copy must be detected and dropped.
 */
struct tear_state {
	struct test_ring t;
	struct rp_reader *r;
	struct checker *k;
	/* Reader thread and its handler only. */
	__u64 ok[2], lost[2];
	__u64 handled;		/* atomic */
	int done;		/* atomic */
	__u64 deadline;
};

static struct tear_state *tear;

static void tear_irq(int sig)
{
	struct tear_state *s = tear;
	int saved = errno;
	unsigned int i;

	(void)sig;
	for (i = 0; i < s->t.nr; i++) {	/* a whole lap */
		if (write_one(&s->t, 1, s->ok[1], now_ns(), true))
			s->ok[1]++;
		else
			s->lost[1]++;
	}
	__atomic_add_fetch(&s->handled, 1, __ATOMIC_RELEASE);
	errno = saved;
}

static void *tear_reader_main(void *arg)
{
	struct tear_state *s = arg;
	struct rp_reader_cpu_stats st;
	unsigned int i;

	do {
		if (!ring_used(&s->t)) {
			for (i = 0; i < s->t.nr; i++) {
				if (write_one(&s->t, 0, s->ok[0], now_ns(),
					      true))
					s->ok[0]++;
				else
					s->lost[0]++;
			}
		}
		rp_reader_drain_cpu(s->r, 0, checker_cb, s->k);
		rp_reader_stats(s->r, 0, &st);
	} while (st.torn < 50 && now_ns() < s->deadline);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

void test_overwrite_torn_signal(void **state)
{
	struct tear_state *s = calloc(1, sizeof(*s));
	struct checker *k = calloc(1, sizeof(*k));
	struct sigaction sa = { 0 }, old;
	struct rp_reader_cpu_stats st;
	__u64 kicks = 0, t0 = now_ns();
	pthread_t tid;

	(void)state;
	assert_non_null(s);
	assert_non_null(k);
	tear = s;
	ring_init(&s->t, 64, RAWPROBE_RING_OVERWRITE, 0, 0);
	s->r = reader_for(&s->t, 1, 0);
	s->k = k;
	s->deadline = t0 + 10000000000ull;
	sentinel(&s->t, s->r, 0, k, 0);

	sa.sa_handler = tear_irq;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGUSR2, &sa, &old), 0);
	assert_int_equal(pthread_create(&tid, NULL, tear_reader_main, s), 0);
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 10000 };

		if (__atomic_load_n(&s->handled, __ATOMIC_ACQUIRE) == kicks &&
		    !pthread_kill(tid, SIGUSR2))
			kicks++;
		nanosleep(&ts, NULL);
	}
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_int_equal(sigaction(SIGUSR2, &old, NULL), 0);
	while (rp_reader_drain_cpu(s->r, 0, checker_cb, k) > 0)
		;
	sentinel(&s->t, s->r, 0, k, 1);

	print_message("  %.2f s, %llu signals\n",
		      (double)(now_ns() - t0) / 1e9, (unsigned long long)kicks);
	check_accounting(s->r, 0, &s->t,
			 s->ok[0] + s->ok[1] + s->lost[0] + s->lost[1] + 2);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->w[0].errors, 0);
	assert_int_equal(k->w[1].errors, 0);
	st = stats_of(s->r, 0);
	assert_true(st.torn >= 50);
	assert_true(st.records > 0);
	rp_reader_free(s->r);
	ring_free(&s->t);
	tear = NULL;
	free(s);
	free(k);
}
