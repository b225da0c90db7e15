// SPDX-License-Identifier: GPL-2.0
/*
 * The record path of rawprobectl stream, trace and hist (cmd/stream.c,
 * cmd/trace.c, cmd/hist.c): map the per-CPU rings (or read a capture
 * file), filter the records and hand them to an output sink.
 *
 * Probes given with -e (or, for trace and hist, as arguments) belong to
 * this command's netlink socket: they go away when it exits, is
 * interrupted or is killed (the kernel reaps them when the socket
 * closes). They write into a session of the command's own, made on that
 * socket too (rp_stream_session()), or into --ring's; a stream without
 * probes reads the default session. At exit the command prints, per
 * probe of the session, hits, records delivered, lost and filtered, and
 * per CPU any sequence gap.
 */
#define _GNU_SOURCE	/* strerrorname_np */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <netlink/attr.h>
#include "resolve/btf.h"
#include "lib/cli.h"
#include "out/ctf.h"
#include "lib/drain_log.h"
#include "out/histogram.h"
#include "out/pair.h"
#include "lib/probe_nl.h"
#include "out/probe.h"
#include "lib/ring_reader.h"
#include "lib/rings_map.h"
#include "out/sink.h"
#include "out/stream.h"
#include "out/template.h"
#include "lib/symbols.h"
#include "resolve/glob.h"

static volatile sig_atomic_t rp_stop;

static void rp_on_signal(int sig)
{
	(void)sig;
	rp_stop = 1;
}

static unsigned long long rp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* --- probe descriptions --- */

/*
 * Text names bools and enums, and text, JSON and CSV type return values
 * and bools, from BTF (a capture keeps the types): looked up per probe
 * when its description is made, before the reading starts. (At the first
 * record, BTF's parse and the lookup stalled a kretprobe stream's first
 * drain for 0.4 s under TCG while the loop it traced filled the rings
 * ten times over.)
 */
static bool rp_stream_types(const struct rp_stream_cfg *c)
{
	return !c->quiet &&
	       (c->format == RP_FMT_TEXT || c->format == RP_FMT_JSON ||
		c->format == RP_FMT_CSV || c->format == RP_FMT_PERFETTO ||
		c->format == RP_FMT_RAW);
}

/*
 * d's types: those of the description it replaces (a probe's do not
 * change; a glob's thousand probes are not looked up again at each
 * refresh), else BTF's. Dumps come in the same order: the search starts
 * where the last one ended (*at).
 */
static void rp_stream_desc_types(struct rp_probe_desc *d,
				 const struct rp_probe_desc *old, size_t n_old,
				 size_t *at)
{
	const struct rp_probe_desc *o;
	size_t i;

	for (i = 0; i < n_old; i++) {
		o = &old[(*at + i) % n_old];
		if (o->id != d->id || strcmp(o->name, d->name) ||
		    !o->types_known)
			continue;
		d->ret_type = o->ret_type;
		d->arg_bool = o->arg_bool;
		d->ret_label = o->ret_label;
		d->types_known = 1;
		*at = (*at + i + 1) % n_old;
		return;
	}
	rp_btf_desc_types(d);
}

void rp_stream_refresh(struct rp_stream *s)
{
	struct rp_probe_desc *old = s->descs;
	size_t n_old = s->nr_probes, at = 0, i;

	free(s->probes);
	s->probes = NULL;
	s->nr_probes = 0;
	rp_probe_dump(&s->nl, &s->probes, &s->nr_probes);
	/* Names are made here once, not for every record. */
	s->descs = calloc(s->nr_probes ? s->nr_probes : 1, sizeof(*s->descs));
	if (!s->descs)
		s->nr_probes = 0;
	for (i = 0; i < s->nr_probes; i++) {
		rp_probe_desc(&s->probes[i], &s->descs[i]);
		if (rp_stream_types(s->cfg))
			rp_stream_desc_types(&s->descs[i], old, n_old, &at);
		if (s->probes[i].id > s->max_known_id)
			s->max_known_id = s->probes[i].id;
	}
	free(old);
	s->last = 0;
}

static const struct rp_probe_desc *rp_stream_lookup(struct rp_stream *s,
						   uint32_t id, bool refresh)
{
	size_t i;

	/* Records come in runs of one probe. */
	if (s->last < s->nr_probes && s->descs[s->last].id == id)
		return &s->descs[s->last];
	for (i = 0; i < s->nr_probes; i++) {
		if (s->descs[i].id == id) {
			s->last = i;
			return &s->descs[i];
		}
	}
	/*
	 * Ids are handed out in increasing order: one not above the highest
	 * known belongs to a deleted probe (its records outlive it), and
	 * asking the kernel again for each of them would cost a dump per
	 * record.
	 */
	if (!refresh || id <= s->max_known_id)
		return NULL;
	rp_stream_refresh(s);
	return rp_stream_lookup(s, id, false);
}

static void rp_stream_count(struct rp_stream *s, uint32_t id)
{
	if (id >= s->seen_len) {
		uint32_t len = id + 64;
		uint64_t *v = realloc(s->seen, len * sizeof(*v));

		if (!v)
			return;
		memset(v + s->seen_len, 0, (len - s->seen_len) * sizeof(*v));
		s->seen = v;
		s->seen_len = len;
	}
	s->seen[id]++;
}

/* --- every record, live or replayed --- */

/* A glob's thousand probes: a search per record, not a walk. */
static bool rp_stream_wanted(const struct rp_stream_cfg *c,
			     const struct rawprobe_record *r)
{
	if (c->filter.set && !rp_task_filter_match(&c->filter, r))
		return false;
	return !c->nids || bsearch(&r->probe_id, c->ids, c->nids,
				   sizeof(*c->ids), rp_id_cmp);
}

/* Returns 1 once --count records went out: the drain stops there. */
static int rp_stream_emit(struct rp_stream *s, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	if (!rp_stream_wanted(s->cfg, r)) {
		s->filtered++;
		return 0;
	}
	rp_stream_count(s, r->probe_id);
	if (!s->cfg->quiet)
		rp_sink_record(&s->sink, r, d);
	s->count++;
	/* an output error (disk full) ends the stream: the rest would be lost */
	if (s->sink.err ||
	    (s->cfg->max_count && s->count >= s->cfg->max_count)) {
		rp_stop = 1;
		return 1;
	}
	return 0;
}

static int rp_stream_record(unsigned int cpu, const struct rawprobe_record *r,
			    void *ctx)
{
	struct rp_stream *s = ctx;

	(void)cpu;
	return rp_stream_emit(s, r, rp_stream_lookup(s, r->probe_id, true));
}

static int rp_stream_replayed(const struct rawprobe_record *r,
			      const struct rp_probe_desc *d, void *ctx)
{
	struct rp_stream *s = ctx;

	return rp_stop ? 1 : rp_stream_emit(s, r, d);
}

/* --- summary --- */

/* Does probe i write into the rings this command reads? */
static bool rp_stream_in_session(const struct rp_stream *s, size_t i)
{
	return s->probes[i].session == s->session.id;
}

/* How to grow the rings read: the command's own, a named, the default */
static void rp_stream_grow_hint(const struct rp_stream *s, char *buf,
				size_t len)
{
	char label[RP_SESSION_LABEL_MAX];

	if (s->own_session)
		snprintf(buf, len, "--ring-records N");
	else if (s->session.id != RAWPROBE_SESSION_DEFAULT)
		snprintf(buf, len, "'ring set %s records N'",
			 rp_session_label(s->session.id, s->session.name,
					  label, sizeof(label)));
	else
		snprintf(buf, len, "'ring set records N'");
}

/*
 * latency --records: where the pair's starts and ends went (an end with
 * no start wrote no record: it is in its probe's FILTERED).
 */
static void rp_stream_pair_summary(const struct rp_stream *s)
{
	size_t i;

	for (i = 0; i < s->nr_probes; i++) {
		/* (another command's pair is not this one's) */
		if (s->probes[i].pair.role != RAWPROBE_PAIR_END ||
		    !s->probes[i].pair_stats.set || !rp_stream_in_session(s, i))
			continue;
		rp_pair_summary(stderr, &s->probes[i].pair_stats);
		return;
	}
}

static void rp_stream_summary(struct rp_stream *s)
{
	struct rp_reader_cpu_stats st;
	uint64_t gaps = 0;
	uint64_t ring_lost = rp_reader_ring_lost(s->map.reader) - s->lost0;
	char name[RP_ESCAPED_MAX(RP_PROBE_NAME_MAX) + 1], grow[160];
	unsigned int cpu;
	size_t i;

	rp_stream_refresh(s);
	fprintf(stderr, "\n%-40s %10s %10s %10s %10s %10s\n", "PROBE", "HITS",
		"RECORDS", "LOST", "FILTERED", "DELIVERED");
	for (i = 0; i < s->nr_probes; i++) {
		const struct rp_probe_info *pi = &s->probes[i];
		uint64_t seen = pi->id < s->seen_len ? s->seen[pi->id] : 0;

		if (!rp_stream_in_session(s, i))
			continue;	/* another session's rings */
		rp_escape_str(name, sizeof(name), s->descs[i].name,
			      sizeof(s->descs[i].name));
		fprintf(stderr, "%-40s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 " %10" PRIu64 "\n", name, pi->hits,
			pi->records, pi->lost_ring, pi->filtered, seen);
	}
	rp_stream_pair_summary(s);
	for (cpu = 0; cpu < rp_reader_nr_rings(s->map.reader); cpu++) {
		if (rp_reader_stats(s->map.reader, cpu, &st))
			continue;
		gaps += st.seq_lost;
	}
	fprintf(stderr, "%" PRIu64 " records read, %" PRIu64
		" lost (ring full), %" PRIu64 " sequence gaps", s->count,
		ring_lost, gaps);
	if (s->filtered)
		fprintf(stderr, ", %" PRIu64 " filtered out here", s->filtered);
	fputc('\n', stderr);
	rp_stream_grow_hint(s, grow, sizeof(grow));
	if (ring_lost || gaps)
		fprintf(stderr, "rawprobectl: records were lost: read faster "
			"(-q, --format raw -o FILE), filter in the kernel "
			"(--pid/--comm with -e), or grow the rings "
			"(%s)\n", grow);
}

/* --- owned probes --- */

/* One batch: every -e probe or none, one pass over /proc/kallsyms. */
int rp_stream_add(struct rp_stream *s, struct rp_probe_req *reqs,
		  size_t n)
{
	int err;

	if (!n)
		return 0;
	s->owned = calloc(n, sizeof(*s->owned));
	if (!s->owned)
		return -ENOMEM;
	err = rp_probe_add_many(&s->nl, reqs, n, s->owned);
	if (!err)
		s->nr_owned = n;
	return err;
}

/* Removed in batches: a glob's thousand probes in one grace period. */
void rp_stream_owned_del(struct rp_stream *s)
{
	rp_probe_del_many(&s->nl, s->owned, s->nr_owned);
	s->nr_owned = 0;
}

static void rp_stream_owned_cmd(struct rp_stream *s, int cmd)
{
	struct nl_msg *msg;
	size_t i;

	for (i = 0; i < s->nr_owned; i++) {
		msg = rp_nl_msg(&s->nl, cmd, 0);
		if (!msg)
			continue;
		nla_put_u32(msg, RAWPROBE_A_PROBE_ID, s->owned[i]);
		rp_nl_call(&s->nl, msg, NULL, NULL);
	}
}

/*
 * The readiness line, once the probes are armed and the rings read:
 * the command's own probes, or (stream alone) every probe there is.
 */
void rp_stream_ready(const struct rp_stream *s)
{
	const char *names[RP_READY_NAMES];
	size_t total = s->nr_owned, i, k;
	unsigned int n = 0;

	if (!s->nr_owned) {	/* stream alone: the session's probes */
		for (i = 0; i < s->nr_probes; i++) {
			if (s->probes[i].session != s->session.id)
				continue;
			if (n < RP_READY_NAMES)
				names[n++] = s->descs[i].name;
			total++;
		}
	}
	for (k = 0; k < s->nr_owned && n < RP_READY_NAMES; k++) {
		for (i = 0; i < s->nr_probes; i++)
			if (s->descs[i].id == s->owned[k])
				break;
		names[n++] = i < s->nr_probes ? s->descs[i].name : "?";
	}
	rp_ready_line(s->cfg->mode == RP_MODE_STREAM ? "Streaming" : "Tracing",
		      names, n, total);
}

/* --- the loop --- */

/*
 * One pass of the loop: poll() unless behind, drain, flush if caught up.
 * Returns 1 if still behind, 0 if caught up, -1 if poll() failed.
 */
static int rp_stream_pass(struct rp_stream *s, bool behind_before,
			   long behind, int timeout)
{
	struct pollfd pfd = { .fd = s->map.fd, .events = POLLIN };
	struct rp_drain_pass pass = { 0 };
	unsigned long long woke = 0;
	long n;
	int more;

	if (s->drain_log)
		pass.start_ns = rp_now_ns();
	/*
	 * A drain that took a watermark's worth of records or a
	 * batch was behind: drain again at once, without the poll() (a
	 * sixth of the reader's time in a tight loop's stream) and
	 * without flushing lines that a full buffer writes anyway.
	 * Below that, sleep until the kernel says there is more.
	 */
	if (!behind_before && poll(&pfd, 1, timeout) < 0 && errno != EINTR)
		return -1;
	if (s->drain_log) {
		woke = rp_now_ns();
		pass.poll_ns = (uint32_t)(woke - pass.start_ns);
		pass.backlog = (uint32_t)rp_reader_unread(s->map.reader);
	}
	n = rp_reader_drain_all(s->map.reader, rp_stream_record, s);
	more = n >= behind;
	if (!more) {
		rp_sink_flush(&s->sink);
		fflush(s->out);
	}
	if (s->drain_log) {
		pass.work_ns = (uint32_t)(rp_now_ns() - woke);
		pass.records = n > 0 ? (uint32_t)n : 0;
		rp_drain_log_add(s->drain_log, s->map.reader, &pass);
	}
	return more;
}

static void rp_stream_loop(struct rp_stream *s, double duration)
{
	unsigned long long end = duration > 0 ?
		rp_now_ns() + (unsigned long long)(duration * 1e9) : 0;
	/* a watermark's worth, or a batch: what a drain takes at most */
	long behind = s->map.info.wakeup_watermark > 64 ?
		      (long)s->map.info.wakeup_watermark : 64;
	int more = 0;
	int timeout;

	if (behind > (long)RP_READER_MERGE_BATCH)
		behind = RP_READER_MERGE_BATCH;
	while (!rp_stop) {
		timeout = 200;
		if (end) {
			unsigned long long now = rp_now_ns();

			if (now >= end)
				break;
			if ((end - now) / 1000000 < (unsigned long long)timeout)
				timeout = (int)((end - now) / 1000000) + 1;
		}
		more = rp_stream_pass(s, more, behind, timeout);
		if (more < 0)
			break;
	}
}

/*
 * What the rings still hold once this command's probes are disabled, a
 * batch at a time. Bounded by what they can hold, against probes of other
 * owners that still fire.
 */
static void rp_stream_drain_rest(struct rp_stream *s)
{
	const struct rp_stream_cfg *c = s->cfg;
	unsigned long long left = (unsigned long long)s->map.info.nr_rings *
				  s->map.info.nr_records;

	while ((!c->max_count || s->count < c->max_count) && !s->sink.err) {
		long n = rp_reader_drain_all(s->map.reader, rp_stream_record,
					     s);

		if (n <= 0 || (unsigned long long)n >= left)
			break;
		left -= (unsigned long long)n;
	}
}

/* --- running --- */

int rp_stream_sink(struct rp_stream *s)
{
	const struct rp_stream_cfg *c = s->cfg;
	int err;

	if (c->format == RP_FMT_HIST)
		err = rp_hist_sink_init(&s->sink, &c->hist, s->out,
					rp_opts.json, rp_opts.pretty);
	else if (c->format == RP_FMT_CTF)
		err = rp_ctf_sink_init(&s->sink, c->output);
	else
		err = rp_sink_init(&s->sink, c->format, s->out,
				   rp_opts.pretty && c->format == RP_FMT_JSON);
	if (err)
		return RP_EXIT_FAIL;
	s->sink.tmpl = c->tmpl;
	if (s->sink.ops->begin)
		s->sink.ops->begin(&s->sink);
	return 0;
}

/* RP_EXIT_FAIL if the sink could not write its output. */
static int rp_stream_sink_end(struct rp_stream *s)
{
	if (s->sink.ops)
		rp_sink_flush(&s->sink);
	if (s->sink.ops && s->sink.ops->end)
		s->sink.ops->end(&s->sink);
	fflush(s->out);
	if (s->sink.ops && s->sink.ops->free)
		s->sink.ops->free(&s->sink);
	return s->sink.err ? RP_EXIT_FAIL : RP_EXIT_OK;
}

static int rp_stream_replay(struct rp_stream *s)
{
	rp_desc_types_fn types;
	int err, rc;

	if (rp_stream_sink(s))
		return RP_EXIT_FAIL;
	types = rp_stream_types(s->cfg) ? rp_btf_desc_types : NULL;
	err = rp_capture_read(s->cfg->input, rp_stream_replayed, types, s);
	rc = rp_stream_sink_end(s);
	if (err) {
		fprintf(stderr, "rawprobectl: %s: %s%s\n", s->cfg->input,
			strerror(-err), err == -EPROTO || err == -EBADMSG ?
			" (not a rawprobectl capture: write one with "
			"--format raw -o FILE)" : "");
		return RP_EXIT_FAIL;
	}
	if (s->cfg->format != RP_FMT_JSON || s->out != stdout)
		fprintf(stderr, "%" PRIu64 " records read from %s, %" PRIu64
			" filtered out\n", s->count, s->cfg->input, s->filtered);
	return rc;
}

/* The session's rings could not be attached to: why, and the exit code */
static int rp_stream_attach_failed(const struct rp_stream *s, int err)
{
	char label[RP_SESSION_LABEL_MAX];

	rp_session_label(s->session.id, s->session.name, label, sizeof(label));
	fprintf(stderr, "rawprobectl: session %s: %s%s (%s)\n", label,
		strerror(-err),
		err == -EBUSY ? ": another command reads its rings: stop it "
				"first" :
		err == -EPERM ? ": its rings are its owner's (or "
				"CAP_SYS_ADMIN's) to read" :
		err == -ENOENT ? ": it ended (ring del) before its rings "
				 "were mapped" : "",
		strerrorname_np(-err) ?: "?");
	return err == -EPERM || err == -EACCES ? RP_EXIT_PERM : RP_EXIT_FAIL;
}

static int rp_stream_open_rings(struct rp_stream *s)
{
	int err = rp_rings_open(&s->map, s->session.id, RP_READER_MERGE);

	if (!err)
		return 0;
	if (s->map.step == RP_RINGS_ABI && err == -EPROTO) {
		if (s->map.info.abi_version != RAWPROBE_ABI_VERSION)
			rp_abi_mismatch_say(s->map.info.abi_version);
		else
			fprintf(stderr, "rawprobectl: /dev/%s: records of %u "
				"bytes, rawprobectl's are %zu: build the CLI "
				"and the module from one tree\n",
				RAWPROBE_DEVICE_NAME,
				s->map.info.record_size,
				sizeof(struct rawprobe_record));
		return RP_EXIT_FAIL;
	}
	if (s->map.step == RP_RINGS_ATTACH)
		return rp_stream_attach_failed(s, err);
	fprintf(stderr, "rawprobectl: /dev/%s: %s%s (%s)\n",
		RAWPROBE_DEVICE_NAME, strerror(-err),
		err == -EBUSY ? ": another command reads the default "
				"session's rings: stop it first" :
		err == -EACCES ? ": run as root" :
		err == -EPERM ? ": refused by kernel lockdown: see "
				"/sys/kernel/security/lockdown" : "",
		strerrorname_np(-err) ?: "?");
	return err == -EACCES || err == -EPERM ? RP_EXIT_PERM : RP_EXIT_FAIL;
}

/*
 * The session this command reads, before its rings are mapped and its
 * probes added: --ring's (looked up by name: the mapping takes an id),
 * else, with probes of its own, a session of its own, which its socket
 * owns (it ends with the command, even killed), else the default. Its
 * probes write there.
 */
static int rp_stream_session(struct rp_stream *s, struct rp_stream_cfg *c)
{
	char label[RP_SESSION_LABEL_MAX], what[RP_SESSION_LABEL_MAX + 16];
	size_t i;
	int err;

	if (c->ring_set) {
		err = rp_session_get(&s->nl, &c->ring, &s->session);
		if (err) {
			snprintf(what, sizeof(what), "session %s",
				 rp_session_label(c->ring.id, c->ring.name,
						  label, sizeof(label)));
			rp_nl_perror(&s->nl, what, err);
			rp_session_hint(&s->nl, &c->ring, err);
			return rp_exit_from_errno(err);
		}
		/* a module that does not say: it is the one asked for */
		if (!s->session.id && !c->ring.name[0])
			s->session.id = c->ring.id;
	} else if (c->nreqs) {
		err = rp_session_new(&s->nl, NULL, c->ring_records,
				     c->ring_mode, &s->session);
		if (err) {
			rp_nl_perror(&s->nl, "rings of this command's own "
				     "(RING_NEW)", err);
			rp_session_hint(&s->nl, NULL, err);
			return rp_exit_from_errno(err);
		}
		s->own_session = true;
	} else {
		return 0;	/* the default session, as before sessions */
	}
	for (i = 0; i < c->nreqs; i++) {
		memset(&c->reqs[i].ring, 0, sizeof(c->reqs[i].ring));
		c->reqs[i].ring.id = s->session.id;
	}
	return 0;
}

/*
 * --drain-log: the file is created before any probe is added, and
 * written once the probes are disabled (writing it while they fire would
 * lose records it then shows).
 */
static int rp_stream_drain_log_open(struct rp_stream *s)
{
	const char *path = s->cfg->drain_log;
	struct rp_drain_log *log;
	int err;

	if (!path)
		return 0;
	log = calloc(1, sizeof(*log));
	err = log ? rp_drain_log_open(log, path, s->map.reader,
				      s->map.info.nr_records) : -ENOMEM;
	if (err) {
		free(log);
		fprintf(stderr, "rawprobectl: %s: %s\n", path, strerror(-err));
		return RP_EXIT_FAIL;
	}
	s->drain_log = log;
	return 0;
}

static int rp_stream_drain_log_close(struct rp_stream *s)
{
	int err;

	if (!s->drain_log)
		return 0;
	err = rp_drain_log_close(s->drain_log);
	free(s->drain_log);
	s->drain_log = NULL;
	if (!err)
		return 0;
	fprintf(stderr, "rawprobectl: %s: %s\n", s->cfg->drain_log,
		strerror(-err));
	return RP_EXIT_FAIL;
}

static int rp_stream_live(struct rp_stream *s, struct rp_stream_cfg *c)
{
	int rc, err;

	rc = rp_stream_session(s, c) ?: rp_stream_open_rings(s);
	if (!rc)
		rc = rp_stream_drain_log_open(s);
	if (rc)
		return rc;
	/*
	 * A command that brings its probes reads from now on: what the
	 * rings hold is of other probes, perhaps deleted ones (their ids
	 * print as '?'), and trace would count it as "filtered out here".
	 */
	if (c->nreqs)
		rp_reader_skip_to_head(s->map.reader);
	/* this command's losses only */
	s->lost0 = rp_reader_ring_lost(s->map.reader);
	rp_reader_prepare(s->map.reader);	/* before the probes fire */
	/* before the probes fire (and modules with stacks' frames go) */
	if (!c->quiet && c->format != RP_FMT_RAW &&
	    (c->format != RP_FMT_HIST || c->hist.value == RP_HIST_STACK))
		rp_ksyms_preload();
	if (rp_stream_types(c))
		rp_btf_labels_preload(c->reqs, c->nreqs);
	err = rp_stream_add(s, c->reqs, c->nreqs);
	if (err)	/* a Ctrl-C while a glob armed is not a failure */
		return rp_stop ? RP_EXIT_OK : rp_exit_from_errno(err);
	/* trace and hist with probes: those probes' records only */
	if (c->mode != RP_MODE_STREAM && c->nreqs && !c->nids) {
		c->ids = s->owned;
		c->nids = s->nr_owned;
		qsort(c->ids, c->nids, sizeof(*c->ids), rp_id_cmp);
	}
	if (rp_stream_sink(s))
		return RP_EXIT_FAIL;
	rp_stream_refresh(s);
	rp_stream_ready(s);
	rp_stream_loop(s, c->duration);

	/* Stop producing, take what is left, then account. */
	rp_stream_owned_cmd(s, RAWPROBE_CMD_PROBE_DISABLE);
	rp_stream_drain_rest(s);
	rc = rp_stream_sink_end(s);
	err = rp_stream_drain_log_close(s);
	rc = rc ?: err;
	if (c->format != RP_FMT_JSON || s->out != stdout)
		rp_stream_summary(s);
	rp_stream_owned_del(s);
	return rc;
}

/*
 * -f openmetrics: one exposition of the kernel's counts, so one probe
 * that counts (two would repeat the families' HELP and TYPE).
 */
static int rp_hist_om_check(const struct rp_stream_cfg *c)
{
	size_t i, n = 0;

	if (!c->hist.openmetrics)
		return 0;
	for (i = 0; i < c->nreqs; i++)
		n += !!(c->reqs[i].flags & RAWPROBE_F_AGG);
	if (!c->in_kernel || c->pair.records)
		return rp_usage_error("-f openmetrics prints the kernel's counts: "
				      "hist's own probes, or latency without "
				      "--records");
	if (n != 1)
		return rp_usage_error("-f openmetrics prints one probe's counts: "
				      "give one (latency: one --to)");
	return 0;
}

/*
 * Globs expanded, then checked and resolved as one: -1 after --dry-run
 * printed the requests, an exit code, or 0.
 */
static int rp_stream_prepare(struct rp_stream_cfg *c)
{
	int rc, err;

	rc = rp_probe_reqs_expand(&c->reqs, &c->nreqs, c->max_probes);
	if (rc)
		return rc;
	err = rp_probe_check(c->reqs, c->nreqs);
	if (err)
		return rp_exit_from_errno(err);
	rc = rp_probe_auto_args(c->reqs, c->nreqs) ?: rp_hist_strings(c) ?:
	     rp_hist_om_check(c);
	if (rc || !c->dry_run)
		return rc;
	rp_probe_dry_run(c->reqs, c->nreqs);
	return -1;
}

int rp_stream_main(int mode, int argc, char **argv,
		   rp_stream_run_fn in_kernel)
{
	static struct rp_stream_cfg c;
	struct rp_stream s = { .map.fd = -1, .out = stdout, .cfg = &c };
	struct sigaction sa = { .sa_handler = rp_on_signal };
	int rc, err;

	memset(&c, 0, sizeof(c));
	c.mode = mode;
	c.format = -1;
	c.ring_mode = -1;
	c.max_probes = RP_GLOB_CAP_DEFAULT;
	rc = rp_stream_parse(argc, argv, &c);
	if (!rc)
		rc = rp_stream_prepare(&c);
	if (rc) {
		free(c.reqs);
		rp_template_free(c.tmpl);
		return rc < 0 ? RP_EXIT_OK : rc;
	}
	/* named arguments, return values: bools and enums by name, from BTF */
	rp_format_set_labels(rp_btf_arg_label);
	rp_format_set_ret_labels(rp_btf_ret_label);
	/* a directory for ctf, made ready before any probe is added */
	if (c.format == RP_FMT_CTF && (rc = rp_ctf_prepare(c.output)))
		return rc;
	if (c.output && c.format != RP_FMT_CTF &&
	    !(s.out = fopen(c.output, "w"))) {
		fprintf(stderr, "rawprobectl: %s: %s\n", c.output,
			strerror(errno));
		return RP_EXIT_FAIL;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (c.input)
		rc = rp_stream_replay(&s);
	else if (!(rc = rp_connect(&s.nl)))
		rc = c.in_kernel ? in_kernel(&s, &c, &rp_stop) :
				   rp_stream_live(&s, &c);
	err = rp_stream_drain_log_close(&s);	/* if live returned early */
	rc = rc ?: err;
	rp_rings_close(&s.map);
	rp_nl_close(&s.nl);
	free(c.reqs);
	rp_template_free(c.tmpl);
	free(s.owned);
	free(s.probes);
	free(s.descs);
	free(s.seen);
	if (s.out != stdout)
		fclose(s.out);
	return rc;
}
