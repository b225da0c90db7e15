// SPDX-License-Identifier: GPL-2.0
/*
 * The session client: RING_NEW, RING_GET (one session, or a dump of
 * every one), RING_SET and RING_DEL, and a session's attributes parsed.
 * The commands that read records make their own sessions with it, and
 * ring and probe show them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/names.h"
#include "lib/ring_nl.h"
#include "lib/symbols.h"

/* --- names --- */

/* the words ring's commands take, which a name would shadow */
static const char *const rp_session_words[] = {
	"default", "records", "mode", "clock", "help",
};

int rp_session_name_check(const char *name)
{
	size_t len = strlen(name), i;
	bool digits = true;

	if (!len)
		return -EINVAL;
	if (len >= RAWPROBE_SESSION_NAME_LEN)
		return -ENAMETOOLONG;
	if (name[0] == '-' || name[0] == '.')
		return -EINVAL;
	for (i = 0; i < sizeof(rp_session_words) / sizeof(rp_session_words[0]);
	     i++)
		if (!strcmp(name, rp_session_words[i]))
			return -EINVAL;
	/* ASCII, whatever the locale */
	for (i = 0; i < len; i++) {
		char c = name[i];
		bool digit = c >= '0' && c <= '9';

		if (!digit && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && c != '_' && c != '-' && c != '.')
			return -EINVAL;
		digits &= digit;
	}
	return digits ? -EINVAL : 0;
}

int rp_session_ref_parse(const char *arg, struct rp_session_ref *ref)
{
	uint64_t id;
	int err;

	memset(ref, 0, sizeof(*ref));
	if (!strcmp(arg, "default"))
		return 0;		/* id 0 */
	/* ids are decimal: a name is never all digits */
	if (arg[0] && strspn(arg, "0123456789") == strlen(arg)) {
		if (rp_parse_u64(arg, 0, UINT32_MAX, &id) ||
		    (arg[0] == '0' && arg[1]))
			return -ERANGE;
		ref->id = (uint32_t)id;
		return 0;
	}
	err = rp_session_name_check(arg);
	if (err)
		return err;
	snprintf(ref->name, sizeof(ref->name), "%s", arg);
	return 0;
}

static int rp_ring_name_error(const char *what, const char *arg, int err)
{
	if (err == -ENAMETOOLONG)
		return rp_usage_error("%s: a session's name is at most %d "
				      "characters, not %zu ('%.40s...')", what,
				      RAWPROBE_SESSION_NAME_LEN - 1,
				      strlen(arg), arg);
	if (err == -ERANGE)
		return rp_usage_error("%s: '%s' is not a session id (0..%u)",
				      what, arg, UINT32_MAX);
	return rp_usage_error("%s: bad session name '%s': letters, digits, "
			      "'_', '-' and '.' (not first '-' or '.'), not "
			      "all digits (that is an id), not 'default', "
			      "'records', 'mode', 'clock' or 'help'", what, arg);
}

int rp_ring_name_opt(const char *what, const char *arg,
		     struct rp_session_ref *ref)
{
	int err = rp_session_ref_parse(arg, ref);

	return err ? rp_ring_name_error(what, arg, err) : RP_EXIT_OK;
}

int rp_ring_new_name(const char *what, const char *arg)
{
	int err = rp_session_name_check(arg);

	return err ? rp_ring_name_error(what, arg, err) : RP_EXIT_OK;
}

int rp_ring_records_opt(const char *what, const char *arg, uint32_t *records)
{
	uint64_t v;

	if (rp_parse_u64(arg, 0, RAWPROBE_RING_MAX, &v) ||
	    (v && (v < RAWPROBE_RING_MIN || (v & (v - 1)))))
		return rp_usage_error("%s must be a power of two in %u..%u "
				      "(0: automatic), not '%s'", what,
				      RAWPROBE_RING_MIN, RAWPROBE_RING_MAX, arg);
	*records = (uint32_t)v;
	return RP_EXIT_OK;
}

int rp_ring_mode_opt(const char *what, const char *arg, int *mode)
{
	*mode = rp_ring_mode_parse(arg);
	if (*mode < 0)
		return rp_usage_error("%s is discard or overwrite, not '%s'",
				      what, arg);
	return RP_EXIT_OK;
}

int rp_session_ref_put(struct nl_msg *msg, const struct rp_session_ref *ref)
{
	if (ref->name[0])
		return nla_put_string(msg, RAWPROBE_A_SESSION_NAME, ref->name) ?
		       -EMSGSIZE : 0;
	if (ref->id != RAWPROBE_SESSION_DEFAULT)
		return nla_put_u32(msg, RAWPROBE_A_SESSION, ref->id) ?
		       -EMSGSIZE : 0;
	return 0;
}

const char *rp_session_label(uint32_t id, const char *name, char *buf,
			     size_t len)
{
	if (name && name[0])	/* the kernel's: shown escaped */
		rp_escape_str(buf, len, name, RAWPROBE_SESSION_NAME_LEN);
	else if (id == RAWPROBE_SESSION_DEFAULT)
		snprintf(buf, len, "default");
	else
		snprintf(buf, len, "%" PRIu32, id);
	return buf;
}

const struct rp_session *rp_sessions_find(const struct rp_sessions *ss,
					  uint32_t id)
{
	size_t i;

	for (i = 0; ss && i < ss->n; i++)
		if (ss->v[i].id == id)
			return &ss->v[i];
	return NULL;
}

const char *rp_sessions_label(const struct rp_sessions *ss, uint32_t id,
			      char *buf, size_t len)
{
	const struct rp_session *s = rp_sessions_find(ss, id);

	return rp_session_label(id, s ? s->name : NULL, buf, len);
}

/* --- answers --- */

int rp_session_parse(struct nlattr **a, struct rp_session *s)
{
	memset(s, 0, sizeof(*s));
	if (!a[RAWPROBE_A_NR_RINGS] || !a[RAWPROBE_A_RING_RECORDS] ||
	    !a[RAWPROBE_A_RING_MODE])
		return -EBADMSG;
	s->nr_rings = nla_get_u32(a[RAWPROBE_A_NR_RINGS]);
	s->records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	s->mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	s->bytes = a[RAWPROBE_A_RING_BYTES] ?
		   (int64_t)nla_get_u64(a[RAWPROBE_A_RING_BYTES]) : -1;
	s->clock = a[RAWPROBE_A_RING_CLOCK] ?
		   nla_get_u32(a[RAWPROBE_A_RING_CLOCK]) : RAWPROBE_CLOCK_MONO;
	s->tsc_khz = a[RAWPROBE_A_TSC_KHZ] ?
		     nla_get_u32(a[RAWPROBE_A_TSC_KHZ]) : 0;
	if (a[RAWPROBE_A_SESSION])
		s->id = nla_get_u32(a[RAWPROBE_A_SESSION]);
	if (a[RAWPROBE_A_SESSION_NAME]) {
		/* a kernel string: bounded, and shown escaped */
		snprintf(s->name, sizeof(s->name), "%.*s",
			 (int)strnlen(nla_data(a[RAWPROBE_A_SESSION_NAME]),
				      (size_t)nla_len(a[RAWPROBE_A_SESSION_NAME])),
			 (const char *)nla_data(a[RAWPROBE_A_SESSION_NAME]));
	}
	if (a[RAWPROBE_A_SESSION_UID]) {
		s->has_owner = true;
		s->uid = nla_get_u32(a[RAWPROBE_A_SESSION_UID]);
	}
	if (a[RAWPROBE_A_NR_PROBES])
		s->nr_probes = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	if (a[RAWPROBE_A_SESSION_LOST])
		s->lost = nla_get_u64(a[RAWPROBE_A_SESSION_LOST]);
	if (a[RAWPROBE_A_SESSION_READERS])
		s->readers = nla_get_u32(a[RAWPROBE_A_SESSION_READERS]);
	return 0;
}

static int rp_session_one(struct nlattr **a, void *ctx)
{
	return rp_session_parse(a, ctx);
}

struct rp_session_list {
	struct rp_session *v;
	size_t n, cap;
};

static int rp_session_many(struct nlattr **a, void *ctx)
{
	struct rp_session_list *l = ctx;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		void *v = realloc(l->v, cap * sizeof(*l->v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	return rp_session_parse(a, &l->v[l->n++]);
}

/* --- requests --- */

int rp_session_new(struct rp_nl *nl, const char *name, uint32_t records,
		   int mode, struct rp_session *s)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_NEW, 0);
	int err;

	if (!msg)
		return -ENOMEM;
	if ((name && name[0] &&
	     nla_put_string(msg, RAWPROBE_A_SESSION_NAME, name)) ||
	    (records && nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, records)) ||
	    (mode >= 0 && nla_put_u32(msg, RAWPROBE_A_RING_MODE,
				      (uint32_t)mode))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = rp_nl_call(nl, msg, rp_session_one, s);
	/* a new session is never the default: no id, no session to use */
	if (!err && s->id == RAWPROBE_SESSION_DEFAULT) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "the module's answer names no session");
		err = -EBADMSG;
	}
	return err;
}

int rp_session_get(struct rp_nl *nl, const struct rp_session_ref *ref,
		   struct rp_session *s)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_GET, 0);

	if (!msg)
		return -ENOMEM;
	if (rp_session_ref_put(msg, ref)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return rp_nl_call(nl, msg, rp_session_one, s);
}

int rp_session_dump(struct rp_nl *nl, struct rp_session **v, size_t *n)
{
	struct rp_session_list l = { 0 };
	struct nl_msg *msg;
	int err;

	msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_GET, NLM_F_DUMP);
	err = msg ? rp_nl_call(nl, msg, rp_session_many, &l) : -ENOMEM;
	if (err) {
		free(l.v);
		return err;
	}
	*v = l.v;
	*n = l.n;
	return 0;
}

int rp_session_set(struct rp_nl *nl, const struct rp_session_ref *ref,
		   uint32_t records, int mode, int clock,
		   struct rp_session *s)
{
	struct rp_session ignored;
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_SET, 0);

	if (!msg)
		return -ENOMEM;
	if (rp_session_ref_put(msg, ref) ||
	    (records && nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, records)) ||
	    (mode >= 0 && nla_put_u32(msg, RAWPROBE_A_RING_MODE,
				      (uint32_t)mode)) ||
	    (clock >= 0 && nla_put_u32(msg, RAWPROBE_A_RING_CLOCK,
				       (uint32_t)clock))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return rp_nl_call(nl, msg, rp_session_one, s ? s : &ignored);
}

int rp_session_del(struct rp_nl *nl, const struct rp_session_ref *ref)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_DEL, 0);

	if (!msg)
		return -ENOMEM;
	/* the default session is none to delete: the kernel says so */
	if (ref->name[0] ? nla_put_string(msg, RAWPROBE_A_SESSION_NAME,
					  ref->name) :
	    nla_put_u32(msg, RAWPROBE_A_SESSION, ref->id)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return rp_nl_call(nl, msg, NULL, NULL);
}

/* --- hints --- */

#define RP_SESSION_NEAR 3

/* The named sessions nearest to name, from a dump: "did you mean". */
static void rp_session_near(struct rp_nl *nl, const char *name)
{
	struct rp_nl copy = *nl;	/* the failure's reason is kept */
	struct rp_session *v = NULL;
	size_t n = 0, i, best, shown = 0;
	char label[RP_SESSION_LABEL_MAX];
	int *score;

	if (rp_session_dump(&copy, &v, &n))
		return;
	score = calloc(n ? n : 1, sizeof(*score));
	for (i = 0; score && i < n; i++)
		score[i] = v[i].name[0] ? rp_near_score(name, v[i].name) : -1;
	/* the few nearest, nearest first: a selection, as n is small */
	while (score && shown < RP_SESSION_NEAR) {
		for (best = n, i = 0; i < n; i++)
			if (score[i] >= 0 && (best == n || score[i] < score[best]))
				best = i;
		if (best == n)
			break;
		fprintf(stderr, "%s %s", shown ? "" : "  did you mean:",
			rp_session_label(v[best].id, v[best].name, label,
					 sizeof(label)));
		score[best] = -1;
		shown++;
	}
	if (shown)
		fputc('\n', stderr);
	else if (n)
		fprintf(stderr, "  'rawprobectl ring list' shows the sessions "
			"there are\n");
	free(score);
	free(v);
}

void rp_session_hint(struct rp_nl *nl, const struct rp_session_ref *ref,
		     int err)
{
	/* an unknown command or attribute: a module without sessions */
	if (err == -EOPNOTSUPP ||
	    (err == -EINVAL && strstr(nl->errmsg, "ttribute"))) {
		rp_abi_explain(nl);
		return;
	}
	if (err == -ENOENT && ref && ref->name[0])
		rp_session_near(nl, ref->name);
}
