// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's sessions (nl_fuzz_state.c has the model): templates for
 * RING_NEW and RING_DEL, the session a RING_GET, RING_SET, PROBE_ADD or
 * batch entry names, the ids RING_NEW answers (learned, as probe ids
 * are), and what a ring command's answer must hold.
 *
 * Names come from a small pool, so that a RING_DEL, a RING_GET or a
 * probe by name reaches a session a RING_NEW made (or the one the
 * unprivileged classes' setup made, rp-fuzz-victim); now and then one
 * that is empty, too long, or no session's.
 */
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include "nl_fuzz.h"

static const char *const names_pool[] = {
	"rp-fuzz-a", "rp-fuzz-b", "rp-fuzz-c", "rp-fuzz-victim",
};

static const char *const names_odd[] = {
	"",				/* RING_NEW: EINVAL; else no such */
	"rp-fuzz-xxxxxxxxxxxxxxxxxxxxxxx",	/* 31 bytes: the longest */
	"rp-fuzz-xxxxxxxxxxxxxxxxxxxxxxxx",	/* 32: the policy refuses */
	"no-such-session", "0", "rp-fuzz-a\n",
};

const char *fz_session_name(struct rng *r)
{
	return chance(r, 85) ? PICK(r, names_pool) : PICK(r, names_odd);
}

void fz_session_ref(struct rng *r, struct flist *l)
{
	static const uint32_t ids[] = { 0, 1, 2, 3, 1023, 1024, 0x7fffffff,
					0xffffffff };
	bool both = chance(r, 3), by_id = chance(r, 55);
	struct fattr *a;

	if (by_id || both) {
		a = put_u32(l, RAWPROBE_A_SESSION, PICK(r, ids));
		/* mostly a session the run made; now and then 0 or junk */
		if (chance(r, 80))
			a->learned = L_SESSION;
	}
	if (!by_id || both)
		put_str(l, RAWPROBE_A_SESSION_NAME, fz_session_name(r));
}

/*
 * Sizes: mostly small (an unnamed session's rings stay until its socket
 * closes: nl_fuzz --epoch), 0 the automatic size; and sizes the kernel
 * refuses: not a power of two, past the budget (1 << 20: E2BIG), past
 * the policy.
 */
void fz_build_ring_new(struct rng *r, struct flist *l)
{
	static const uint32_t ok[] = { 0, 64, 64, 128, 128, 256, 1024, 4096 };
	static const uint32_t bad[] = { 1, 63, 65, 100, 4097, 1U << 20,
					(1U << 20) + 1, 0xffffffff };

	if (chance(r, 55))
		put_str(l, RAWPROBE_A_SESSION_NAME, fz_session_name(r));
	if (chance(r, 90))
		put_u32(l, RAWPROBE_A_RING_RECORDS,
			chance(r, 90) ? PICK(r, ok) : PICK(r, bad));
	if (chance(r, 40))
		put_u32(l, RAWPROBE_A_RING_MODE, chance(r, 95) ? below(r, 2) :
			PICK(r, ((const uint32_t[]){ 2, 0xffffffff })));
	if (chance(r, 3))	/* the kernel gives ids: EINVAL */
		put_u32(l, RAWPROBE_A_SESSION, below(r, 3));
}

void fz_build_ring_del(struct rng *r, struct flist *l)
{
	if (chance(r, 95))
		fz_session_ref(r, l);
	else if (chance(r, 50))	/* which session? */
		put_u32(l, RAWPROBE_A_RING_RECORDS, RAWPROBE_RING_MIN);
}

void fz_session_learn(struct fz_sessions *s, uint32_t id)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->id[i] == id)
			return;
	if (s->n == FZ_MAX_SESSIONS)
		memmove(s->id, s->id + 1, --s->n * sizeof(s->id[0]));
	s->id[s->n++] = id;
}

uint32_t fz_session_pick(const struct fz_sessions *s, uint32_t k)
{
	int recent = s->n < 4 ? s->n : 4;

	if (k % 4)
		return s->id[s->n - 1 - (int)((k / 4) % recent)];
	return s->id[(k / 4) % s->n];
}

bool fz_names_session(const unsigned char *attrs, long len)
{
	struct nlattr h;
	long off = 0;
	int t;

	while (len - off >= NLA_HDRLEN) {
		memcpy(&h, attrs + off, sizeof(h));
		if (h.nla_len < NLA_HDRLEN || h.nla_len > len - off)
			return false;	/* the kernel refuses it: EINVAL */
		t = h.nla_type & NLA_TYPE_MASK;
		if (t == RAWPROBE_A_SESSION || t == RAWPROBE_A_SESSION_NAME)
			return true;
		off += NLA_ALIGN(h.nla_len);
	}
	return false;
}

const char *fz_ring_answer_problem(uint8_t cmd, struct nlattr **tb,
				   enum fclass cls)
{
	static char why[120];
	uint32_t id;

	if (!tb[RAWPROBE_A_RING_RECORDS])
		return "ring answer without RING_RECORDS";
	if (!tb[RAWPROBE_A_SESSION] || nla_len(tb[RAWPROBE_A_SESSION]) != 4)
		return "ring answer without a u32 SESSION";
	id = nla_get_u32(tb[RAWPROBE_A_SESSION]);
	if (tb[RAWPROBE_A_SESSION_NAME] &&
	    (nla_len(tb[RAWPROBE_A_SESSION_NAME]) < 2 ||
	     nla_len(tb[RAWPROBE_A_SESSION_NAME]) > RAWPROBE_SESSION_NAME_LEN)) {
		snprintf(why, sizeof(why), "session %u's name of %d bytes", id,
			 nla_len(tb[RAWPROBE_A_SESSION_NAME]));
		return why;
	}
	if (cmd == RAWPROBE_CMD_RING_NEW && id == RAWPROBE_SESSION_DEFAULT)
		return "RING_NEW answered with the default session";
	if (cmd == RAWPROBE_CMD_RING_NEW &&
	    (!tb[RAWPROBE_A_NR_PROBES] ||
	     nla_get_u32(tb[RAWPROBE_A_NR_PROBES]) != 0)) {
		snprintf(why, sizeof(why), "a new session (%u) with probes", id);
		return why;
	}
	/* the default session's geometry is everyone's, no other's */
	if (cls != C_ROOT && id != RAWPROBE_SESSION_DEFAULT) {
		snprintf(why, sizeof(why),
			 "an unprivileged caller was answered session %u", id);
		return why;
	}
	return NULL;
}
