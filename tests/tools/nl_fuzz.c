// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded fuzzer for the "rawprobe" generic netlink family.
 *
 *   nl_fuzz --seed S --count N [--class root|user|userns] [--allow-changes]
 *           [--first I] [--ids ID,...] [--sessions ID,...] [--epoch N]
 *           [--dry-run] [--verbose]
 *
 * Message i of seed S is a pure function of (S, i): a valid template of
 * one command (every RAWPROBE_CMD_*, the EVENT and UNSPEC numbers and
 * unknown ones, with each of their attributes, nested batch entries and
 * filters included, aggregating probes' keys, values and histograms, and
 * sessions: RING_NEW named or not, RING_DEL, RING_GET of one or dumped,
 * RING_SET and probes into one, by id or name; nl_fuzz_session.c)
 * damaged by 1 to 3 mutations: attributes dropped,
 * duplicated, reordered, retyped, resized, with lying lengths, values out
 * of range, strings without NUL, overlong or with control bytes, nested
 * garbage and deep nesting, batches around RAWPROBE_MAX_BATCH, truncated
 * nlmsghdr and genlmsghdr, wrong genl version and reserved field, flag
 * combinations (DUMP on doit commands, no ACK, no REQUEST), control
 * message types, unknown command numbers. The one thing taken from the
 * run is the value of PROBE_ID and SESSION attributes marked "learned":
 * an id the run's own ADD or RING_NEW answers returned (or --ids,
 * --sessions), so that delete, enable and get reach real probes,
 * AGG_READ mostly the aggregating ones (RAWPROBE_F_AGG), and the
 * session commands and probes real sessions; --dry-run prints the digest
 * of the messages before that substitution, the same on any machine.
 *
 * The socket is libnl's (userctl/lib/nl.c opens it, with extended acks and
 * capped acks), a new one every --epoch messages (by index): the old
 * one's probes and unnamed sessions go with it, in the module's reaper,
 * while the run goes on. The fuzzed bytes go out through nl_sendto() and the
 * answers come back through nl_recv(). A genl request is handled within
 * the send, so once send returns every answer but the later rounds of a
 * dump is queued: each message is followed by a drain that waits (2 s)
 * only while the answer it must get is incomplete. Checks per message:
 * no hang; every answer well formed (lengths, sequence, port, genl
 * header, attributes, strings, extended ack; an AGG_READ dump's interval
 * first, entries of the interval's size, hits = the entries' counts +
 * dropped, and exactly the stacks its entries name; a ring answer's
 * session and size, a new session not the default one and empty, a
 * probe's session); the answer is the one the
 * netlink core promises for what was sent (nothing for a message it
 * cannot parse or that is not a request, an ack when asked, an error, or
 * a reply then an ack or DONE); errno in the set the class may see; and
 * for unprivileged classes, no command that changes or reads probes or
 * sessions ever succeeds (a RING_GET of the default session's geometry
 * may: it answers that session, no other).
 *
 * Classes:
 *   root    root of the initial namespace; needs --allow-changes, since
 *           the messages add, delete (all of them) and resize the rings.
 *           Afterwards every probe is deleted, the ring geometry of before
 *           is restored, every named session is deleted, the listing must
 *           come down to the default session (the sockets' own end with
 *           them, in a work item: polled for up to 5 s), and the module
 *           must still answer GET_INFO.
 *   user    started as root: a root socket snapshots probes, rings and
 *           sessions, a child drops to uid/gid 65534 without groups and
 *           fuzzes; the parent compares the snapshot every second and at
 *           the end.
 *   userns  run under `unshare -Ur` (root of a new user namespace); the
 *           caller checks from outside that nothing changed.
 *
 * Output: "# " comment lines (seed, count, class, outcome and errno
 * histograms, the first failures with a one-command repro), TAP-style
 * verdicts (tap.h) and the final "N passed, N failed" line.
 *
 * This file has the run: sending, checking and judging each message,
 * the classes and main. The generator and the snapshots are the other
 * nl_fuzz_*.c files (nl_fuzz.h lists them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include "lib/nl.h"
#include "nl_fuzz.h"
#include "sessions.h"
#include "tap.h"

#define WAIT_MS		2000		/* an answer later than this: a hang */
#define MAX_REPORTS	20		/* failures printed in full */
#define MAX_LEARNED	64

static const char *const class_name[] = { "root", "user", "userns" };

/* --- the run --- */

#define EPOCH_DEFAULT	1000

struct opts {
	uint64_t seed;
	long count, first;
	long epoch;		/* a new socket every epoch messages; 0: one */
	enum fclass cls;
	bool allow_changes, dry_run, verbose;
	uint32_t ids[MAX_LEARNED];
	int nids;
	uint32_t sessions[FZ_MAX_SESSIONS];	/* --sessions */
	int nsessions;
	const char *argv0;
};

struct stats {
	long sent, ok, none, errors, failures;
	long hist[4096];		/* by errno */
	long t_sent[T_NR], t_ok[T_NR], t_err[T_NR], t_none[T_NR];
	/* aggregating probes added; AGG_READ dumps that ended well */
	long agg_added, agg_reads, agg_entries, agg_stacks, agg_hits;
	long agg_dropped;
	/*
	 * sessions RING_NEW made (named ones), RING_DEL ended, probes added
	 * into one (by PROBE_ADD: a batch's answer has ids only); sockets
	 */
	long sess_new, sess_named, sess_del, sess_probes, sockets;
	/* unprivileged: errors other than EPERM for privileged commands */
	long preparse[4096];
	/* ... and their reasons */
	struct {
		char text[72];
		long n;
	} why[24];
	int nwhy;
};

struct run {
	struct opts *o;
	struct rp_nl nl;
	uint32_t port;
	uint32_t learned[MAX_LEARNED];
	int nlearned, next_learned;
	uint32_t learned_agg[MAX_LEARNED];	/* aggregating ones, oldest first */
	int nlearned_agg;
	struct fz_sessions sess;	/* session ids RING_NEW answered */
	struct stats st;
	int reports;
	bool changed;		/* an unprivileged change succeeded */
};

/* What the netlink core must answer to these bytes. */
struct expect {
	bool answer;		/* anything at all */
	bool ack_only;		/* nothing processed: one ack, error 0 */
	bool dump;
	bool ack;		/* NLM_F_ACK */
	uint8_t cmd;
	bool privileged;	/* probes (read or written) or ring changes */
};

static bool cmd_privileged(uint8_t cmd)
{
	switch (cmd) {
	case RAWPROBE_CMD_GET_INFO:
	case RAWPROBE_CMD_RING_GET:
		return false;
	default:
		return true;	/* every other command, known or not */
	}
}

static void expectation(const struct wire *w, struct expect *e)
{
	struct nlmsghdr h;
	struct genlmsghdr g = { 0 };

	memset(e, 0, sizeof(*e));
	if (w->len < NLMSG_HDRLEN)
		return;		/* not even a header: dropped */
	memcpy(&h, w->buf, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > w->len)
		return;		/* netlink_rcv_skb() drops it silently */
	e->ack = h.nlmsg_flags & NLM_F_ACK;
	if (!(h.nlmsg_flags & NLM_F_REQUEST) || h.nlmsg_type < NLMSG_MIN_TYPE) {
		e->answer = e->ack_only = e->ack;
		return;
	}
	e->answer = true;
	if (w->len >= NLMSG_HDRLEN + GENL_HDRLEN)
		memcpy(&g, w->buf + NLMSG_HDRLEN, sizeof(g));
	e->cmd = g.cmd;
	e->dump = (h.nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	e->privileged = cmd_privileged(g.cmd);
	/*
	 * The default session's geometry is everyone's; every session (a
	 * dump) or one named (parsed: it reaches the command) is not.
	 */
	if (g.cmd == RAWPROBE_CMD_RING_GET && h.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
		e->privileged = e->dump ||
			fz_names_session(w->buf + NLMSG_HDRLEN + GENL_HDRLEN,
					 (long)h.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN);
}

/* An AGG_READ dump's answer, across its messages. */
#define AGG_IDS 256
struct agg_answer {
	bool interval, stacks_begun, overflow;
	uint32_t key_words, val_words;
	int stack_word;		/* the key word of a stack id, or -1 */
	uint64_t hits, dropped, counted;
	long entries, stacks;
	int nnamed, nsent;
	uint64_t named[AGG_IDS], sent[AGG_IDS];	/* stack ids */
};

struct answer {
	int replies;		/* family messages */
	bool error_seen;	/* an NLMSG_ERROR */
	int error;
	bool done_seen;
	int done_error;
	char reason[160];	/* extended ack message */
	char bad[200];		/* the first malformation */
	struct agg_answer agg;
};

#define BAD(an, ...) \
	do { if (!(an)->bad[0]) snprintf((an)->bad, sizeof((an)->bad), \
					 __VA_ARGS__); } while (0)

static bool is_string_attr(int t)
{
	return t == RAWPROBE_A_MODULE_VERSION ||
	       t == RAWPROBE_A_KERNEL_RELEASE || t == RAWPROBE_A_SYMBOL ||
	       t == RAWPROBE_A_MODULE || t == RAWPROBE_A_FILTER_COMM ||
	       t == RAWPROBE_A_NAME || t == RAWPROBE_A_OWNER_MODULE ||
	       t == RAWPROBE_A_ARG_NAMES || t == RAWPROBE_A_SESSION_NAME;
}

static void learn(uint32_t *v, int *n, int *next, uint32_t id)
{
	if (*n < MAX_LEARNED)
		v[(*n)++] = id;
	else
		v[(*next)++ % MAX_LEARNED] = id;
}

/* The aggregating probes, newest last: AGG_READ reads the newest. */
static void learn_agg(struct run *rn, uint32_t id)
{
	if (rn->nlearned_agg == MAX_LEARNED)
		memmove(rn->learned_agg, rn->learned_agg + 1,
			--rn->nlearned_agg * sizeof(*rn->learned_agg));
	rn->learned_agg[rn->nlearned_agg++] = id;
}

/* An id found gone (ENOENT): deleted since, no more a target. */
static void forget_agg(struct run *rn, uint32_t id)
{
	int i;

	for (i = 0; i < rn->nlearned_agg; i++)
		if (rn->learned_agg[i] == id) {
			memmove(rn->learned_agg + i, rn->learned_agg + i + 1,
				(rn->nlearned_agg - i - 1) *
				sizeof(*rn->learned_agg));
			rn->nlearned_agg--;
			return;
		}
}

/* Is id in v[0..n)? Else add it, if there is room. */
static bool id_seen(uint64_t *v, int *n, uint64_t id, bool *overflow)
{
	int i;

	for (i = 0; i < *n; i++)
		if (v[i] == id)
			return true;
	if (*n < AGG_IDS)
		v[(*n)++] = id;
	else
		*overflow = true;
	return false;
}

/* AGG_READ's interval: its counters and the shape of its entries. */
static void check_agg_interval(struct answer *an, struct nlattr *nest)
{
	static const int len[RAWPROBE_AGG_I_MAX + 1] = {
		[RAWPROBE_AGG_I_START_NS] = 8, [RAWPROBE_AGG_I_END_NS] = 8,
		[RAWPROBE_AGG_I_HITS] = 8, [RAWPROBE_AGG_I_DROPPED] = 8,
		[RAWPROBE_AGG_I_KEY_WORDS] = 4, [RAWPROBE_AGG_I_VAL_WORDS] = 4,
		[RAWPROBE_AGG_I_STACK_WORD] = 4,
	};
	struct nlattr *tb[RAWPROBE_AGG_I_MAX + 1] = { 0 }, *s;
	struct agg_answer *g = &an->agg;
	int rem, t;

	if (g->interval || an->replies != 1)
		BAD(an, "AGG_INTERVAL in message %d of the dump", an->replies);
	g->interval = true;
	nla_for_each_nested(s, nest, rem) {
		t = nla_type(s);
		if (t < 1 || t > RAWPROBE_AGG_I_MAX || t == RAWPROBE_AGG_I_PAD) {
			BAD(an, "AGG_INTERVAL holds type %d", t);
			continue;
		}
		if (nla_len(s) != len[t])
			BAD(an, "AGG_INTERVAL type %d of %d bytes", t, nla_len(s));
		else
			tb[t] = s;
	}
	if (rem != 0)
		BAD(an, "AGG_INTERVAL has %d stray bytes", rem);
	for (t = RAWPROBE_AGG_I_START_NS; t <= RAWPROBE_AGG_I_VAL_WORDS; t++)
		if (!tb[t]) {
			BAD(an, "AGG_INTERVAL without type %d", t);
			return;
		}
	if (nla_get_u64(tb[RAWPROBE_AGG_I_END_NS]) <
	    nla_get_u64(tb[RAWPROBE_AGG_I_START_NS]))
		BAD(an, "AGG_INTERVAL ends before it starts");
	g->hits = nla_get_u64(tb[RAWPROBE_AGG_I_HITS]);
	g->dropped = nla_get_u64(tb[RAWPROBE_AGG_I_DROPPED]);
	g->key_words = nla_get_u32(tb[RAWPROBE_AGG_I_KEY_WORDS]);
	g->val_words = nla_get_u32(tb[RAWPROBE_AGG_I_VAL_WORDS]);
	g->stack_word = tb[RAWPROBE_AGG_I_STACK_WORD] ?
			(int)nla_get_u32(tb[RAWPROBE_AGG_I_STACK_WORD]) : -1;
	if (g->key_words > 2 * RAWPROBE_AGG_MAX_KEYS || g->val_words < 1 ||
	    g->val_words > 4 + RAWPROBE_AGG_LIN_BUCKETS_MAX ||
	    g->stack_word >= (int)g->key_words || g->dropped > g->hits)
		BAD(an, "AGG_INTERVAL: %u key words, %u value words, stack "
		    "word %d, %" PRIu64 " of %" PRIu64 " hits dropped",
		    g->key_words, g->val_words, g->stack_word, g->dropped,
		    g->hits);
}

/* AGG_ENTRIES: entries of the interval's size; AGG_STACKS after them. */
static void check_agg_items(struct answer *an, struct nlattr *nest, int t)
{
	struct agg_answer *g = &an->agg;
	uint32_t words = g->key_words + g->val_words;
	uint64_t w[1 + RAWPROBE_STACK_MAX];
	struct nlattr *s;
	int rem;

	if (!g->interval) {
		BAD(an, "AGG_READ attribute %d before the interval", t);
		return;
	}
	if (t == RAWPROBE_A_AGG_ENTRIES && g->stacks_begun)
		BAD(an, "AGG_ENTRIES after AGG_STACKS");
	g->stacks_begun |= t == RAWPROBE_A_AGG_STACKS;
	nla_for_each_nested(s, nest, rem) {
		if (t == RAWPROBE_A_AGG_ENTRIES) {
			if (nla_type(s) != RAWPROBE_A_AGG_ENTRY ||
			    nla_len(s) != (int)(words * 8)) {
				BAD(an, "AGG_ENTRIES holds type %d of %d bytes "
				    "(want %u)", nla_type(s), nla_len(s),
				    words * 8);
				continue;
			}
			g->entries++;
			memcpy(w, (char *)nla_data(s) + g->key_words * 8, 8);
			g->counted += w[0];
			if (g->stack_word < 0)
				continue;
			memcpy(w, (char *)nla_data(s) + g->stack_word * 8, 8);
			if (!w[0])
				BAD(an, "an entry names stack id 0");
			id_seen(g->named, &g->nnamed, w[0], &g->overflow);
			continue;
		}
		if (nla_type(s) != RAWPROBE_A_AGG_STACK || nla_len(s) % 8 ||
		    nla_len(s) < 8 || nla_len(s) > (int)sizeof(w)) {
			BAD(an, "AGG_STACKS holds type %d of %d bytes",
			    nla_type(s), nla_len(s));
			continue;
		}
		g->stacks++;
		memcpy(w, nla_data(s), 8);
		if (g->stack_word < 0 || !w[0])
			BAD(an, "AGG_STACK id %" PRIu64 " (stack word %d)",
			    w[0], g->stack_word);
		if (id_seen(g->sent, &g->nsent, w[0], &g->overflow))
			BAD(an, "AGG_STACK id %" PRIu64 " twice", w[0]);
	}
	if (rem != 0)
		BAD(an, "reply nest %d has %d stray bytes", t, rem);
}

/*
 * Calls through the fuzzer's targets (symbols[]), made at once when an
 * aggregating probe was added: whatever its keys (a stack, a caller), it
 * has hits for the reads to come, however the background load is timed.
 */
static void agg_exercise(void)
{
	char buf[64];
	int fd = open("/proc/version", O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			buf[0] = 0;
		close(fd);
	}
	getpid();
	getppid();
}

/* A whole AGG_READ: every hit accounted for, the stacks its entries name. */
static void check_agg_end(struct run *rn, struct answer *an)
{
	struct agg_answer *g = &an->agg;
	int i, k;

	if (!g->interval) {
		BAD(an, "AGG_READ without an interval");
		return;
	}
	if (g->hits != g->counted + g->dropped)
		BAD(an, "AGG_READ: %" PRIu64 " hits, but %" PRIu64 " counted in "
		    "%ld entries and %" PRIu64 " dropped", g->hits, g->counted,
		    g->entries, g->dropped);
	if (!g->overflow) {
		for (i = 0; i < g->nnamed; i++) {
			for (k = 0; k < g->nsent && g->sent[k] != g->named[i]; k++)
				;
			if (k == g->nsent)
				BAD(an, "AGG_READ: stack %" PRIu64 " named, not sent",
				    g->named[i]);
		}
		if (g->nsent != g->nnamed)
			BAD(an, "AGG_READ: %d stacks sent, %d named", g->nsent,
			    g->nnamed);
	}
	rn->st.agg_reads++;
	rn->st.agg_entries += g->entries;
	rn->st.agg_stacks += g->stacks;
	rn->st.agg_hits += g->hits;
	rn->st.agg_dropped += g->dropped;
}

/* A reply's attributes: lengths, known types, strings, nests. */
static void check_reply_attrs(struct run *rn, struct answer *an,
			      struct nlattr *head, int len, uint8_t cmd)
{
	struct nlattr *tb[RAWPROBE_A_MAX + 1] = { 0 };
	struct nlattr *a, *s;
	int rem, r2;

	nla_for_each_attr(a, head, len, rem) {
		int t = nla_type(a);

		if (t < 1 || t > RAWPROBE_A_MAX) {
			BAD(an, "reply attribute of unknown type %d", t);
			continue;
		}
		tb[t] = a;
		if (is_string_attr(t) &&
		    (nla_len(a) < 1 || memchr(nla_data(a), '\0', nla_len(a)) ==
		     NULL))
			BAD(an, "reply string attribute %d without NUL", t);
		if (t == RAWPROBE_A_STATS || t == RAWPROBE_A_BATCH) {
			nla_for_each_nested(s, a, r2)
				if (nla_type(s) < 1 || (t == RAWPROBE_A_STATS &&
				    nla_type(s) > RAWPROBE_STAT_MAX))
					BAD(an, "reply nest %d holds type %d",
					    t, nla_type(s));
			if (r2 != 0)
				BAD(an, "reply nest %d has %d stray bytes", t,
				    r2);
		}
		if (t == RAWPROBE_A_AGG_INTERVAL ||
		    t == RAWPROBE_A_AGG_ENTRIES ||
		    t == RAWPROBE_A_AGG_STACKS) {
			if (cmd != RAWPROBE_CMD_AGG_READ)
				BAD(an, "attribute %d in a reply to %u", t, cmd);
			else if (t == RAWPROBE_A_AGG_INTERVAL)
				check_agg_interval(an, a);
			else
				check_agg_items(an, a, t);
		}
	}
	if (rem != 0)
		BAD(an, "reply has %d stray bytes after its attributes", rem);
	switch (cmd) {
	case RAWPROBE_CMD_GET_INFO:
		if (!tb[RAWPROBE_A_ABI_VERSION] ||
		    nla_get_u32(tb[RAWPROBE_A_ABI_VERSION]) != RAWPROBE_ABI_VERSION)
			BAD(an, "GET_INFO answer without ABI version %d",
			    RAWPROBE_ABI_VERSION);
		break;
	case RAWPROBE_CMD_RING_GET:
	case RAWPROBE_CMD_RING_SET:
	case RAWPROBE_CMD_RING_NEW: {
		const char *why = fz_ring_answer_problem(cmd, tb, rn->o->cls);

		if (why) {
			BAD(an, "%s", why);
			break;
		}
		if (cmd != RAWPROBE_CMD_RING_NEW)
			break;
		fz_session_learn(&rn->sess, nla_get_u32(tb[RAWPROBE_A_SESSION]));
		rn->st.sess_new++;
		rn->st.sess_named += tb[RAWPROBE_A_SESSION_NAME] != NULL;
		break;
	}
	case RAWPROBE_CMD_PROBE_ADD:
	case RAWPROBE_CMD_PROBE_GET:
		if (!tb[RAWPROBE_A_PROBE_ID]) {
			BAD(an, "probe answer without PROBE_ID");
			break;
		}
		if (!tb[RAWPROBE_A_SESSION] ||
		    nla_len(tb[RAWPROBE_A_SESSION]) != 4) {
			BAD(an, "probe answer without a u32 SESSION");
			break;
		}
		if (cmd != RAWPROBE_CMD_PROBE_ADD)
			break;
		learn(rn->learned, &rn->nlearned, &rn->next_learned,
		      nla_get_u32(tb[RAWPROBE_A_PROBE_ID]));
		rn->st.sess_probes += nla_get_u32(tb[RAWPROBE_A_SESSION]) !=
				      RAWPROBE_SESSION_DEFAULT;
		if (!tb[RAWPROBE_A_FLAGS] ||
		    !(nla_get_u32(tb[RAWPROBE_A_FLAGS]) & RAWPROBE_F_AGG))
			break;
		learn_agg(rn, nla_get_u32(tb[RAWPROBE_A_PROBE_ID]));
		rn->st.agg_added++;
		agg_exercise();
		break;
	case RAWPROBE_CMD_AGG_READ:
		if (an->replies == 1 && !an->agg.interval)
			BAD(an, "AGG_READ's first message without its interval");
		break;
	case RAWPROBE_CMD_PROBE_ADD_BATCH:
		if (!tb[RAWPROBE_A_BATCH]) {
			BAD(an, "batch answer without BATCH");
			break;
		}
		nla_for_each_nested(s, tb[RAWPROBE_A_BATCH], r2)
			if (nla_type(s) == RAWPROBE_A_PROBE_ID &&
			    nla_len(s) == 4)
				learn(rn->learned, &rn->nlearned,
				      &rn->next_learned, nla_get_u32(s));
		break;
	default:
		break;
	}
}

/* The TLVs of an extended ack: parse, take the reason, check offsets. */
static void check_extack(struct answer *an, struct nlmsghdr *nlh,
			 const struct wire *w)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e);
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len < 0) {
		BAD(an, "extended ack runs past its message");
		return;
	}
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + off),
		      len, NULL) < 0) {
		BAD(an, "extended ack TLVs do not parse");
		return;
	}
	if (tb[NLMSGERR_ATTR_MSG]) {
		struct nlattr *m = tb[NLMSGERR_ATTR_MSG];

		if (nla_len(m) < 1 || !memchr(nla_data(m), '\0', nla_len(m)))
			BAD(an, "extended ack message without NUL");
		else
			snprintf(an->reason, sizeof(an->reason), "%s",
				 (char *)nla_data(m));
	}
	if (tb[NLMSGERR_ATTR_OFFS] &&
	    (nla_len(tb[NLMSGERR_ATTR_OFFS]) != 4 ||
	     nla_get_u32(tb[NLMSGERR_ATTR_OFFS]) >= w->len))
		BAD(an, "extended ack offset past the request");
}

/* One datagram: every message in it. */
static void check_datagram(struct run *rn, struct answer *an,
			   unsigned char *buf, int n, uint32_t seq,
			   const struct wire *w, const struct expect *ex)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int rem = n;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		if (an->error_seen || an->done_seen)
			BAD(an, "message of type %u after the end", nlh->nlmsg_type);
		if (nlh->nlmsg_seq != seq)
			BAD(an, "answer for sequence %u, not %u",
			    nlh->nlmsg_seq, seq);
		if (nlh->nlmsg_pid != rn->port)
			BAD(an, "answer for port %u, not %u", nlh->nlmsg_pid,
			    rn->port);
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = nlmsg_data(nlh);

			if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
				BAD(an, "NLMSG_ERROR of %u bytes", nlh->nlmsg_len);
				an->error_seen = true;
				continue;
			}
			an->error_seen = true;
			an->error = e->error;
			if (e->error > 0 || e->error < -4095)
				BAD(an, "NLMSG_ERROR with error %d", e->error);
			if (e->msg.nlmsg_seq != seq)
				BAD(an, "NLMSG_ERROR quotes sequence %u",
				    e->msg.nlmsg_seq);
			check_extack(an, nlh, w);
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			an->done_seen = true;
			if (nlmsg_datalen(nlh) < (int)sizeof(int)) {
				BAD(an, "NLMSG_DONE without its error");
				continue;
			}
			memcpy(&an->done_error, nlmsg_data(nlh), sizeof(int));
			if (an->done_error > 0 || an->done_error < -4095)
				BAD(an, "NLMSG_DONE with error %d", an->done_error);
			if (!(nlh->nlmsg_flags & NLM_F_MULTI))
				BAD(an, "NLMSG_DONE without NLM_F_MULTI");
		} else if (nlh->nlmsg_type == rn->nl.family) {
			struct genlmsghdr *g = nlmsg_data(nlh);
			/* dumps too: PROBE_GET's, RING_GET's, AGG_READ's */
			uint8_t want = ex->cmd;

			an->replies++;
			if (!genlmsg_valid_hdr(nlh, 0)) {
				BAD(an, "reply with a short genl header");
				continue;
			}
			if (g->cmd != want || g->version != RAWPROBE_GENL_VERSION)
				BAD(an, "reply cmd %u version %u to cmd %u",
				    g->cmd, g->version, want);
			if (!!(nlh->nlmsg_flags & NLM_F_MULTI) != ex->dump)
				BAD(an, "reply %s NLM_F_MULTI", ex->dump ?
				    "without" : "with");
			check_reply_attrs(rn, an, genlmsg_attrdata(g, 0),
					  genlmsg_attrlen(g, 0), g->cmd);
		} else {
			BAD(an, "answer of type %u", nlh->nlmsg_type);
		}
	}
	if (rem != 0)
		BAD(an, "%d stray bytes after the last message", rem);
}

/* Is the answer complete (nothing more may come)? */
static bool complete(const struct expect *ex, const struct answer *an)
{
	if (!ex->answer)
		return true;
	if (an->error_seen || an->done_seen)
		return true;
	/* a doit's success without NLM_F_ACK ends with its reply */
	return !ex->dump && !ex->ack && !ex->ack_only && an->replies > 0;
}

static int exchange(struct run *rn, struct wire *w, uint32_t seq,
		    const struct expect *ex, struct answer *an)
{
	int fd = nl_socket_get_fd(rn->nl.sk);
	struct sockaddr_nl peer;
	unsigned char *buf;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n, pr;

	memset(an, 0, sizeof(*an));
	errno = 0;
	if (w->len)
		n = nl_sendto(rn->nl.sk, w->buf, w->len);
	else
		n = send(fd, w->buf, 0, 0);
	/* netlink refuses an empty datagram at the send: a clean answer */
	if (n < 0 && !w->len && errno == ENODATA)
		return 0;
	if (n < 0) {
		BAD(an, "send refused: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		bool done = complete(ex, an);

		pr = poll(&p, 1, done ? 0 : WAIT_MS);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			if (!done)
				BAD(an, "no %s within %d ms (%d replies so far)",
				    an->replies ? "end" : "answer", WAIT_MS,
				    an->replies);
			else if (ex->dump && ex->cmd == RAWPROBE_CMD_AGG_READ &&
				 an->done_seen && !an->done_error)
				check_agg_end(rn, an);
			return 0;
		}
		buf = NULL;
		errno = 0;
		n = nl_recv(rn->nl.sk, &peer, &buf, NULL);
		if (n <= 0) {
			free(buf);
			BAD(an, "receive failed: %s (%s)", nl_geterror(n),
			    strerror(errno));
			return -1;
		}
		check_datagram(rn, an, buf, n, seq, w, ex);
		free(buf);
	}
}

static bool errno_expected(enum fclass cls, int err)
{
	switch (-err) {
	case EPERM: case EINVAL: case ERANGE: case EOPNOTSUPP:
		return true;
	case ENOENT: case EEXIST: case EBUSY: case EILSEQ: case ENOSPC:
	case E2BIG: case ENXIO: case EMSGSIZE: case ENAMETOOLONG:
	case EACCES:	/* AGG_READ of another socket's probe */
		return cls == C_ROOT;
	default:
		return false;
	}
}

/*
 * Reasons the module itself gives (kmod/, probes/), all after its
 * privilege check: one of them for an unprivileged caller means a
 * request was judged before the caller was. What the netlink core
 * refuses before the module runs (policy validation, unknown command,
 * DUMP on a doit-only command, short or reserved genl header: EINVAL,
 * ERANGE, EOPNOTSUPP) comes with the core's own reasons, or none.
 */
static const char *const module_reasons[] = {
	"the probe kind is missing", "a probe id is required",
	"one argument type per argument", "the batch of probes is missing",
	"a batch holds", "ring size must be", "a symbol or an address",
	"give a symbol or an address", "a module needs a symbol",
	"maxactive applies", "the comm filter is empty", "no such CPU",
	"unknown argument type", "unknown probe kind", "return probes attach",
	"arguments are only defined", "arguments need a function entry",
	"jprobe-style probes attach",
	"only one string argument", "cannot probe here", "no probe with",
	"an identical probe", "too many probes", "unknown symbol",
	"symbol not found", "offset is not on", "give one of",
	"probe ids: an array", "the same probe id appears twice",
	"argument names:", "aggregation attributes without",
	"an aggregating probe writes no record", "the caller and stack keys",
	"the retval key is", "an argument key names", "unknown aggregation key",
	"retval and latency are", "the value names an argument",
	"a histogram needs", "a linear histogram needs",
	"one argument index per key", "the probe id is missing",
	"the probe does not aggregate", "the probe's tables belong",
	"kretprobe instances and aggregation", "not enough memory for the agg",
	/* sessions */
	"name a session by id or by name", "no such session",
	"a new session gets its id", "a session name is not empty",
	"which session?", "the default session stays",
	"a command's session ends", "a session of that name exists",
	"too many sessions", "the session has ended",
	"probes write into", "a reader has the rings mapped",
	"the rings would take more", "not enough memory for the rings",
	"set the clock", "could not allocate the record rings",
};

static bool module_reason(const char *reason)
{
	size_t i;

	for (i = 0; i < sizeof(module_reasons) / sizeof(module_reasons[0]); i++)
		if (!strncmp(reason, module_reasons[i],
			     strlen(module_reasons[i])))
			return true;
	return false;
}

/* The answer against what was sent; false and a reason if it is wrong. */
static bool judge(struct run *rn, const struct expect *ex,
		  const struct answer *an, char *why, size_t whylen)
{
	int err = an->error_seen ? an->error : an->done_error;
	bool got = an->error_seen || an->done_seen || an->replies;

	if (an->bad[0]) {
		snprintf(why, whylen, "%s", an->bad);
		return false;
	}
	if (!ex->answer) {
		if (got)
			snprintf(why, whylen,
				 "an answer to a message the kernel must drop");
		return !got;
	}
	if (ex->ack_only) {
		if (an->replies || !an->error_seen || an->error)
			snprintf(why, whylen, "want a bare ack, got %d replies, "
				 "error %d", an->replies, an->error);
		return !an->replies && an->error_seen && !an->error;
	}
	if (err && !errno_expected(rn->o->cls, err)) {
		snprintf(why, whylen, "unexpected errno %s (%d) '%s'",
			 strerrorname_np(-err) ?: "?", err, an->reason);
		return false;
	}
	if (an->error_seen && an->error) {
		if (an->replies && !ex->dump) {
			snprintf(why, whylen, "%d replies before error %d",
				 an->replies, an->error);
			return false;
		}
	} else if (ex->dump) {
		if (!an->done_seen && !(an->error_seen && !an->replies)) {
			snprintf(why, whylen, "dump without NLMSG_DONE");
			return false;
		}
	} else {
		/* a doit's success: exactly one answer, and the ack if asked */
		if (an->replies != 1 || an->error_seen != ex->ack) {
			snprintf(why, whylen, "success with %d replies and %s ack"
				 " (NLM_F_ACK %s)", an->replies,
				 an->error_seen ? "an" : "no",
				 ex->ack ? "set" : "clear");
			return false;
		}
	}
	if (rn->o->cls != C_ROOT && ex->privileged && err && err != -EPERM &&
	    module_reason(an->reason)) {
		snprintf(why, whylen, "command %u judged before the privilege "
			 "check: %s '%s'", ex->cmd, strerrorname_np(-err) ?: "?",
			 an->reason);
		return false;
	}
	if (rn->o->cls != C_ROOT && ex->privileged && !err) {
		snprintf(why, whylen,
			 "an unprivileged caller succeeded with command %u",
			 ex->cmd);
		rn->changed = true;
		return false;
	}
	return true;
}

static void print_hex(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%s%02x", i % 32 ? "" : (i ? "\n#   " : "#   "), p[i]);
	printf("\n");
}

static void print_repro(const struct opts *o, long index)
{
	char ids[(MAX_LEARNED + FZ_MAX_SESSIONS) * 11 + 40] = "";
	int i;

	for (i = 0; i < o->nids; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%u",
			 i ? "," : " --ids ", o->ids[i]);
	for (i = 0; i < o->nsessions; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%u",
			 i ? "," : " --sessions ", o->sessions[i]);
	if (o->epoch != EPOCH_DEFAULT)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids),
			 " --epoch %ld", o->epoch);
	printf("# repro: %s%s --seed %" PRIu64 " --count %ld --class %s%s%s\n",
	       o->cls == C_USERNS ? "unshare -Ur " : "", o->argv0, o->seed,
	       o->first + o->count, class_name[o->cls],
	       o->allow_changes ? " --allow-changes" : "", ids);
	printf("# message %ld alone: %s%s --seed %" PRIu64
	       " --first %ld --count 1 --class %s%s%s --verbose\n", index,
	       o->cls == C_USERNS ? "unshare -Ur " : "", o->argv0, o->seed,
	       index, class_name[o->cls],
	       o->allow_changes ? " --allow-changes" : "", ids);
}

static void record(struct run *rn, const struct fmsg *m, const struct expect *ex,
		   const struct answer *an)
{
	struct stats *st = &rn->st;
	int err = an->error_seen ? an->error : an->done_error;

	st->sent++;
	st->t_sent[m->tmpl]++;
	if (!ex->answer || ex->ack_only) {
		st->none++;
		st->t_none[m->tmpl]++;
	} else if (err) {
		st->errors++;
		st->t_err[m->tmpl]++;
		st->hist[-err < 4096 ? -err : 0]++;
		if (rn->o->cls != C_ROOT && ex->privileged && err != -EPERM) {
			char text[72];
			int k;

			st->preparse[-err < 4096 ? -err : 0]++;
			snprintf(text, sizeof(text), "%s %.60s",
				 strerrorname_np(-err) ?: "?",
				 an->reason[0] ? an->reason : "(no reason)");
			for (k = 0; k < st->nwhy; k++)
				if (!strcmp(st->why[k].text, text))
					break;
			if (k == st->nwhy && k < (int)(sizeof(st->why) /
						       sizeof(st->why[0])))
				strcpy(st->why[st->nwhy++].text, text);
			if (k < st->nwhy)
				st->why[k].n++;
		}
	} else {
		st->ok++;
		st->t_ok[m->tmpl]++;
		st->hist[0]++;
	}
}

static int open_fuzz_socket(struct run *rn);

/* Substitute learned ids for the generated ones marked so. */
static uint32_t patch_learned(struct run *rn, struct wire *w, int k)
{
	uint32_t id;
	int newest;

	if (w->patch[k].which == L_SESSION) {
		id = fz_session_pick(&rn->sess, w->patch[k].k);
	} else {
		id = rn->learned[w->patch[k].k % rn->nlearned];
		/*
		 * an aggregating probe: the newest or the one before (a
		 * delete of all probes, now and then, ends older ones)
		 */
		if (w->patch[k].which == L_AGG && rn->nlearned_agg) {
			newest = rn->nlearned_agg - 1;
			newest -= w->patch[k].k % 4 == 0 && newest > 0;
			id = rn->learned_agg[newest];
		}
	}
	if (w->patch[k].off + 4 <= w->len)
		memcpy(w->buf + w->patch[k].off, &id, 4);
	return id;
}

/*
 * A new socket every --epoch messages (by index, whatever --first): the
 * old one's probes and unnamed sessions go with it (the module's reaper,
 * while the run goes on), and the unnamed sessions' rings do not pile up.
 */
static bool next_epoch(struct run *rn)
{
	rp_nl_close(&rn->nl);
	if (open_fuzz_socket(rn)) {
		printf("# FAIL: a new socket after %ld messages\n", rn->st.sent);
		rn->st.failures++;
		return false;
	}
	return true;
}

/* The fuzzing loop; true if every message was answered as it must be. */
static bool fuzz(struct run *rn)
{
	struct opts *o = rn->o;
	struct wire *w = malloc(sizeof(*w));
	struct fmsg m;
	struct expect ex;
	struct answer an;
	char why[240];
	long i;

	if (!w)
		return false;
	for (i = o->first; i < o->first + o->count; i++) {
		uint32_t seq = (uint32_t)i + 1, agg_id = 0, id;
		int k;

		if (o->epoch && i > o->first && i % o->epoch == 0 &&
		    !next_epoch(rn))
			break;
		generate(o->seed, i, &m, w);
		if (w->len >= NLMSG_HDRLEN) {
			struct nlmsghdr *h = (struct nlmsghdr *)w->buf;

			h->nlmsg_seq = seq;
			if (m.family)
				h->nlmsg_type = rn->nl.family;
		} else if (w->len >= 8) {
			memcpy(w->buf + 4, &(uint16_t){ m.family ?
			       rn->nl.family : m.nltype }, 2);
		}
		for (k = 0; k < w->npatch; k++) {
			if (w->patch[k].which == L_SESSION ? !rn->sess.n :
			    !rn->nlearned)
				continue;	/* none yet: the generated value */
			id = patch_learned(rn, w, k);
			if (w->patch[k].which == L_AGG && rn->nlearned_agg)
				agg_id = id;
		}
		expectation(w, &ex);
		exchange(rn, w, seq, &ex, &an);
		if (agg_id && an.error_seen && an.error == -ENOENT)
			forget_agg(rn, agg_id);
		if (ex.cmd == RAWPROBE_CMD_RING_DEL && ex.answer &&
		    !ex.ack_only && an.error_seen && !an.error)
			rn->st.sess_del++;
		record(rn, &m, &ex, &an);
		why[0] = '\0';
		if (o->verbose) {
			printf("# %ld %s [%s] %zu bytes: ", i, tmpl_name[m.tmpl],
			       m.muts, w->len);
			if (an.error_seen)
				printf("error %s '%s'",
				       an.error ? strerrorname_np(-an.error) : "0",
				       an.reason);
			if (an.done_seen)
				printf(" done %d", an.done_error);
			printf(" replies %d\n", an.replies);
			print_hex(w->buf, w->len);
		}
		if (!judge(rn, &ex, &an, why, sizeof(why))) {
			rn->st.failures++;
			if (rn->reports++ < MAX_REPORTS) {
				printf("# FAIL message %ld (%s; %s; %zu bytes): %s\n",
				       i, tmpl_name[m.tmpl], m.muts, w->len, why);
				if (rn->reports == 1)
					print_repro(o, i);
			}
		}
	}
	free(w);
	return rn->st.failures == 0;
}

static void print_stats(const struct run *rn, double secs)
{
	const struct stats *st = &rn->st;
	int e, t;

	printf("# outcome: %ld valid answers, %ld errors, %ld without answer "
	       "(none due), %ld learned ids\n", st->ok, st->errors, st->none,
	       (long)rn->nlearned);
	printf("# aggregation: %ld aggregating probes added, %ld AGG_READ dumps "
	       "read %ld entries, %ld stacks, %ld hits (%ld dropped)\n",
	       st->agg_added, st->agg_reads, st->agg_entries, st->agg_stacks,
	       st->agg_hits, st->agg_dropped);
	printf("# sessions: %ld made (%ld named), %ld deleted, %ld probes "
	       "added into them, %ld sockets\n", st->sess_new, st->sess_named,
	       st->sess_del, st->sess_probes, st->sockets);
	printf("# errno histogram:");
	for (e = 0; e < 4096; e++)
		if (st->hist[e])
			printf(" %s=%ld", e ? strerrorname_np(e) ?: "?" : "OK",
			       st->hist[e]);
	printf("\n");
	for (t = 0; t < T_NR; t++)
		printf("# %-16s sent %5ld  ok %5ld  error %5ld  none %5ld\n",
		       tmpl_name[t], st->t_sent[t], st->t_ok[t], st->t_err[t],
		       st->t_none[t]);
	if (rn->o->cls != C_ROOT) {
		printf("# privileged commands refused before the privilege "
		       "check (netlink core's parsing):");
		for (e = 1; e < 4096; e++)
			if (st->preparse[e])
				printf(" %s=%ld", strerrorname_np(e) ?: "?",
				       st->preparse[e]);
		printf("\n");
		for (e = 0; e < st->nwhy; e++)
			printf("#   %6ld %s\n", st->why[e].n, st->why[e].text);
	}
	printf("# %.0f messages per second (%.1f s)\n",
	       secs > 0 ? st->sent / secs : 0.0, secs);
}

static void verdict(const struct opts *o, const char *name, bool ok,
		    const char *detail)
{
	char area[32];

	snprintf(area, sizeof(area), "fuzz %s", class_name[o->cls]);
	tap_verdict(area, name, ok, detail);
}

static int open_fuzz_socket(struct run *rn)
{
	int err = rp_nl_open(&rn->nl);

	if (err)
		return err;
	nl_socket_enable_msg_peek(rn->nl.sk);
	/* room to send the largest messages (batches past the maximum) */
	nl_socket_set_buffer_size(rn->nl.sk, 0, MSG_MAX + 4096);
	rn->port = nl_socket_get_local_port(rn->nl.sk);
	rn->st.sockets++;
	return 0;
}

static void run_and_report(struct run *rn)
{
	struct timespec t0, t1;
	char detail[120];
	bool ok;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok = fuzz(rn);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_stats(rn, (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_nsec - t0.tv_nsec) / 1e9);
	snprintf(detail, sizeof(detail), "%ld of %ld messages failed",
		 rn->st.failures, rn->st.sent);
	verdict(rn->o, "every message answered cleanly, none hung", ok, detail);
	if (rn->o->cls != C_ROOT)
		verdict(rn->o, "no command on probes or rings succeeded",
			!rn->changed, "see the FAIL lines");
}

/* uid_map of the initial namespace: "0 0 4294967295". */
static bool initial_userns(void)
{
	FILE *f = fopen("/proc/self/uid_map", "r");
	unsigned long a = 1, b = 1, c = 0;
	int n;

	if (!f)		/* no CONFIG_USER_NS: the initial one is all there is */
		return errno == ENOENT;
	n = fscanf(f, "%lu %lu %lu", &a, &b, &c);
	fclose(f);
	return n == 3 && a == 0 && b == 0 && c == 4294967295UL;
}

static int class_root(struct run *rn)
{
	struct opts *o = rn->o;
	struct snapshot *before = calloc(1, sizeof(*before));
	struct snapshot *after = calloc(1, sizeof(*after));
	struct rp_nl chk;
	struct nl_msg *msg;
	char detail[200];
	int n = 0, i, deleted, left;
	bool only_default;

	if (!before || !after || rp_nl_open(&chk)) {
		fprintf(stderr, "nl_fuzz: rawprobe module not loaded\n");
		return 2;
	}
	snapshot(&chk, before);
	if (!before->ok) {
		fprintf(stderr, "nl_fuzz: cannot list probes as root\n");
		return 2;
	}
	if (open_fuzz_socket(rn))
		return 2;
	run_and_report(rn);
	rp_nl_close(&rn->nl);	/* its own probes and sessions go with it */

	/* Clean up: every probe, the named sessions, the rings as they were. */
	msg = rp_nl_msg(&chk, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	i = rp_nl_call(&chk, msg, NULL, NULL);
	snprintf(detail, sizeof(detail), "%s", strerror(-i));
	verdict(o, "delete every probe afterwards", !i, detail);
	msg = rp_nl_msg(&chk, RAWPROBE_CMD_RING_SET, 0);
	nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, before->records);
	nla_put_u32(msg, RAWPROBE_A_RING_MODE, before->mode);
	i = rp_nl_call(&chk, msg, NULL, NULL);
	snapshot(&chk, after);
	snprintf(detail, sizeof(detail), "%s; %u/%u, was %u/%u", strerror(-i),
		 after->records, after->mode, before->records, before->mode);
	verdict(o, "ring geometry restored", !i && after->ok &&
		after->records == before->records &&
		after->mode == before->mode, detail);
	/* (no probe writes into them now: RING_DEL takes each) */
	i = ts_session_del_named(&chk, &deleted);
	snprintf(detail, sizeof(detail), "%s (%d deleted)", strerror(-i),
		 deleted);
	verdict(o, "delete every named session afterwards", !i, detail);
	/*
	 * The closed socket's sessions go in the module's reaper (a work
	 * item): the listing comes down to the default session within
	 * seconds, not at once.
	 */
	only_default = ts_session_wait_default(&chk, 5000, &left);
	snprintf(detail, sizeof(detail), "%d sessions besides the default "
		 "one after 5 s", left);
	verdict(o, "only the default session left (the sockets' went with "
		"them)", only_default, detail);
	snapshot(&chk, after);
	for (i = 0; i < after->n; i++)
		n += !after->p[i].module_owned;
	snprintf(detail, sizeof(detail), "%d probes left (%u counted)", n,
		 after->nr_probes);
	verdict(o, "the module answers GET_INFO, no probe left",
		after->ok && n == 0 && after->nr_probes == (uint32_t)after->n,
		detail);
	rp_nl_close(&chk);
	free(before);
	free(after);
	return tap_summary();
}

static void drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("nl_fuzz: dropping privileges");
		_exit(2);
	}
	if (setuid(0) == 0) {
		fprintf(stderr, "nl_fuzz: could regain root\n");
		_exit(2);
	}
}

static int class_user(struct run *rn)
{
	struct opts *o = rn->o;
	struct snapshot *before = calloc(1, sizeof(*before));
	struct snapshot *now = calloc(1, sizeof(*now));
	struct rp_nl chk;
	char detail[240] = "";
	int pfd[2], status, checks = 0, i;
	bool same = true;
	pid_t pid;

	if (!before || !now || rp_nl_open(&chk)) {
		fprintf(stderr, "nl_fuzz: rawprobe module not loaded\n");
		return 2;
	}
	snapshot(&chk, before);
	if (!before->ok) {
		fprintf(stderr, "nl_fuzz: --class user starts as root\n");
		return 2;
	}
	printf("# %d probes before, rings %u records mode %u\n", before->n,
	       before->records, before->mode);
	for (i = 0; i < before->n && rn->nlearned < MAX_LEARNED; i++) {
		rn->learned[rn->nlearned++] = before->p[i].id;
		if (before->p[i].flags & RAWPROBE_F_AGG)
			learn_agg(rn, before->p[i].id);
	}
	if (pipe(pfd))
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		int counts[2];

		close(pfd[0]);
		rp_nl_close(&chk);
		drop_privileges();
		if (open_fuzz_socket(rn))
			_exit(2);
		run_and_report(rn);
		counts[0] = tap_passed;
		counts[1] = tap_failed;
		fflush(stdout);
		if (write(pfd[1], counts, sizeof(counts)) != sizeof(counts))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		int counts[2];

		if (poll(&p, 1, 1000) == 0) {
			snapshot(&chk, now);
			checks++;
			if (same && !same_state(before, now, detail,
						sizeof(detail)))
				same = false;
			continue;
		}
		if (read(pfd[0], counts, sizeof(counts)) == sizeof(counts)) {
			tap_passed += counts[0];
			tap_failed += counts[1];
		} else {
			tap_failed++;
			printf("not ok - fuzz user: the unprivileged child "
			       "reported nothing\n");
		}
		break;
	}
	waitpid(pid, &status, 0);
	snapshot(&chk, now);
	checks++;
	if (same && !same_state(before, now, detail, sizeof(detail)))
		same = false;
	if (same)
		snprintf(detail, sizeof(detail), "%d checks", checks);
	printf("# %d checks of the probe list and rings from a root socket\n",
	       checks);
	verdict(o, "probe list and rings unchanged (checked as root)", same,
		detail);
	rp_nl_close(&chk);
	free(before);
	free(now);
	return tap_summary();
}

static int class_userns(struct run *rn)
{
	if (initial_userns()) {
		fprintf(stderr, "nl_fuzz: --class userns runs under "
			"`unshare -Ur`, in a new user namespace\n");
		return 2;
	}
	if (open_fuzz_socket(rn)) {
		fprintf(stderr, "nl_fuzz: rawprobe module not loaded\n");
		return 2;
	}
	run_and_report(rn);
	rp_nl_close(&rn->nl);
	return tap_summary();
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

static int dry_run(const struct opts *o)
{
	struct wire *w = malloc(sizeof(*w));
	uint64_t digest = 0xcbf29ce484222325ULL;
	long i, t[T_NR] = { 0 };
	struct fmsg m;
	int k;

	if (!w)
		return 2;
	for (i = o->first; i < o->first + o->count; i++) {
		uint64_t h;

		generate(o->seed, i, &m, w);
		h = fnv1a(0xcbf29ce484222325ULL, w->buf, w->len);
		digest = fnv1a(digest, &h, sizeof(h));
		t[m.tmpl]++;
		if (o->verbose) {
			printf("%ld %016" PRIx64 " %zu %s [%s]\n", i, h, w->len,
			       tmpl_name[m.tmpl], m.muts);
			print_hex(w->buf, w->len);
		}
	}
	printf("# templates:");
	for (k = 0; k < T_NR; k++)
		printf(" %s=%ld", tmpl_name[k], t[k]);
	printf("\n# digest %016" PRIx64 "\n", digest);
	free(w);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nl_fuzz --seed S --count N [--class root|user|userns]\n"
		"               [--allow-changes] [--first I] [--ids ID,...]\n"
		"               [--sessions ID,...] [--epoch N]\n"
		"               [--dry-run] [--verbose] [--plain]\n"
		"  --class root    root of the initial namespace (the default);\n"
		"                  changes probes and rings: needs --allow-changes\n"
		"  --class user    start as root: drops to uid 65534 to fuzz, checks\n"
		"                  from a root socket that nothing changed\n"
		"  --class userns  run under `unshare -Ur`\n"
		"  --first I       start at message I (replay one: --count 1)\n"
		"  --ids LIST      probe ids the PROBE_ID attributes may target\n"
		"  --sessions LIST session ids the SESSION attributes may target\n"
		"  --epoch N       a new socket every N messages (default 1000;\n"
		"                  0: one socket for the run)\n"
		"  --dry-run       generate only; print the messages' digest\n"
		"  --verbose       print every message and its answer\n"
		"  --plain         send the templates unmutated (a debugging aid)\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "class", required_argument, NULL, 'c' },
		{ "allow-changes", no_argument, NULL, 'a' },
		{ "first", required_argument, NULL, 'f' },
		{ "ids", required_argument, NULL, 'i' },
		{ "sessions", required_argument, NULL, 'S' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "dry-run", no_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "plain", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct opts o = { .cls = C_ROOT, .count = -1, .argv0 = argv[0],
			  .epoch = EPOCH_DEFAULT };
	bool have_seed = false;
	struct run *rn;
	char *end, *tok;
	int c;

	while ((c = getopt_long(argc, argv, "s:n:c:af:i:S:e:dvph", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o.seed = strtoull(optarg, &end, 0);
			have_seed = !*end;
			break;
		case 'n':
			o.count = strtol(optarg, &end, 0);
			if (*end || o.count < 0)
				o.count = -1;
			break;
		case 'c':
			for (o.cls = 0; o.cls <= C_USERNS; o.cls++)
				if (!strcmp(optarg, class_name[o.cls]))
					break;
			if (o.cls > C_USERNS) {
				usage(stderr);
				return 2;
			}
			break;
		case 'a':
			o.allow_changes = true;
			break;
		case 'f':
			o.first = strtol(optarg, &end, 0);
			if (*end || o.first < 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'i':
			for (tok = strtok(optarg, ","); tok && o.nids < MAX_LEARNED;
			     tok = strtok(NULL, ","))
				o.ids[o.nids++] = strtoul(tok, NULL, 0);
			break;
		case 'S':
			for (tok = strtok(optarg, ","); tok &&
			     o.nsessions < FZ_MAX_SESSIONS; tok = strtok(NULL, ","))
				o.sessions[o.nsessions++] = strtoul(tok, NULL, 0);
			break;
		case 'e':
			o.epoch = strtol(optarg, &end, 0);
			if (*end || o.epoch < 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'd':
			o.dry_run = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'p':
			plain = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!have_seed || o.count < 0 || optind != argc) {
		usage(stderr);
		return 2;
	}
	arena = malloc(ARENA_SIZE);
	rn = calloc(1, sizeof(*rn));
	if (!arena || !rn)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# seed %" PRIu64 ", %ld messages, class %s%s\n", o.seed, o.count,
	       class_name[o.cls], o.dry_run ? " (dry run)" : "");
	if (o.dry_run) {
		free(rn);
		return dry_run(&o);
	}
	rn->o = &o;
	memcpy(rn->learned, o.ids, sizeof(o.ids));
	rn->nlearned = o.nids;
	for (c = 0; c < o.nsessions; c++)
		fz_session_learn(&rn->sess, o.sessions[c]);
	switch (o.cls) {
	case C_ROOT:
		if (!initial_userns() || geteuid() != 0) {
			fprintf(stderr, "nl_fuzz: --class root needs root of the "
				"initial user namespace\n");
			return 2;
		}
		if (!o.allow_changes) {
			fprintf(stderr, "nl_fuzz: --class root adds and deletes "
				"(every) probe and resizes the rings: say "
				"--allow-changes\n");
			return 2;
		}
		return class_root(rn);
	case C_USER:
		if (geteuid() != 0) {
			fprintf(stderr, "nl_fuzz: --class user starts as root "
				"(it drops to uid 65534 itself)\n");
			return 2;
		}
		return class_user(rn);
	default:
		return class_userns(rn);
	}
}
