/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session client (lib/ring_nl.c): a session's rings as the kernel
 * describes them (RING_NEW, RING_GET and its dump, RING_SET), and the
 * requests that make, read, change and remove sessions.
 *
 * A session is named by its id, or, if named, by its name; the default
 * session (RAWPROBE_SESSION_DEFAULT, where persistent probes write unless
 * told otherwise) by id 0. A struct rp_session_ref says which: a request
 * about the default session carries neither attribute, so that it works
 * with a module that predates sessions too.
 */
#ifndef RAWPROBECTL_RING_NL_H
#define RAWPROBECTL_RING_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"
#include "lib/nl.h"

/* Which session a request is about: name if set, else id (0: default). */
struct rp_session_ref {
	uint32_t id;
	char name[RAWPROBE_SESSION_NAME_LEN];
};

/* A session, as RING_NEW, RING_GET (do and dump) and RING_SET answer. */
struct rp_session {
	uint32_t id;
	char name[RAWPROBE_SESSION_NAME_LEN];	/* "": unnamed or default */
	uint32_t nr_rings, records, mode;
	int64_t bytes;		/* allocated now; -1: not said */
	uint32_t clock, tsc_khz;
	bool has_owner;		/* uid, probes, lost, readers: said (ABI 6) */
	uint32_t uid;
	uint32_t nr_probes;
	uint64_t lost;
	uint32_t readers;
};

/*
 * A session's name as the command line gives it: 1 to
 * RAWPROBE_SESSION_NAME_LEN - 1 letters, digits, '_', '-' or '.', not
 * starting with '-' or '.', not all digits (those are ids), and none of
 * the words ring's commands take ("default": session 0; "records",
 * "mode", "clock", "help"). 0, -EINVAL or -ENAMETOOLONG.
 */
int rp_session_name_check(const char *name);
/*
 * NAME, an id or "default" from the command line, into ref: 0, or
 * -EINVAL / -ENAMETOOLONG as rp_session_name_check() says of a name.
 */
int rp_session_ref_parse(const char *arg, struct rp_session_ref *ref);
/*
 * The same as usage errors, for the command line: what is the option or
 * command ("--ring", "ring create"). RP_EXIT_OK, or RP_EXIT_USAGE after
 * saying why. rp_ring_name_opt() takes NAME, an id or "default";
 * rp_ring_new_name() a new session's NAME only.
 */
int rp_ring_name_opt(const char *what, const char *arg,
		     struct rp_session_ref *ref);
int rp_ring_new_name(const char *what, const char *arg);
/* --ring-records N, records N: a power of two in range, or 0 (automatic) */
int rp_ring_records_opt(const char *what, const char *arg, uint32_t *records);
/* --ring-mode M, mode M: discard or overwrite */
int rp_ring_mode_opt(const char *what, const char *arg, int *mode);

/* Put ref into msg: SESSION_NAME, SESSION, or nothing for the default. */
int rp_session_ref_put(struct nl_msg *msg, const struct rp_session_ref *ref);
/*
 * "default", the name (escaped: the kernel's), or the id (an unnamed
 * session); buf of RP_SESSION_LABEL_MAX bytes holds any.
 */
#define RP_SESSION_LABEL_MAX (4 * RAWPROBE_SESSION_NAME_LEN + 1)
const char *rp_session_label(uint32_t id, const char *name, char *buf,
			     size_t len);

/* Sessions, as a dump gives them: to name a probe's. */
struct rp_sessions {
	struct rp_session *v;
	size_t n;
};

/* Session id among ss (or NULL), or NULL */
const struct rp_session *rp_sessions_find(const struct rp_sessions *ss,
					  uint32_t id);
/*
 * Session id as probes show it: its name, "default", or the id; ss (or
 * NULL) the sessions known, whose names are shown escaped.
 */
const char *rp_sessions_label(const struct rp_sessions *ss, uint32_t id,
			      char *buf, size_t len);

/* A RING_* answer's attributes: 0 or -EBADMSG. */
int rp_session_parse(struct nlattr **a, struct rp_session *s);

/*
 * RING_NEW: a named session (name; CAP_SYS_ADMIN; stays until RING_DEL)
 * or, with name NULL or "", one that the socket nl owns and that ends
 * when it closes. records 0: the module's automatic size; mode < 0: the
 * module's default. *s gets the new session. 0 or -errno, not said.
 */
int rp_session_new(struct rp_nl *nl, const char *name, uint32_t records,
		   int mode, struct rp_session *s);
/* RING_GET of one session: 0 or -errno, not said. */
int rp_session_get(struct rp_nl *nl, const struct rp_session_ref *ref,
		   struct rp_session *s);
/* RING_GET's dump: every session the caller may see; *v is malloc'd. */
int rp_session_dump(struct rp_nl *nl, struct rp_session **v, size_t *n);
/*
 * RING_SET: records (0: unchanged) and mode (< 0: unchanged), or clock
 * (>= 0) alone; *s (if not NULL) gets the new geometry.
 */
int rp_session_set(struct rp_nl *nl, const struct rp_session_ref *ref,
		   uint32_t records, int mode, int clock,
		   struct rp_session *s);
/* RING_DEL of a named session. */
int rp_session_del(struct rp_nl *nl, const struct rp_session_ref *ref);

/*
 * After a failed request about ref: print near names of the sessions
 * there are (an unknown name: ENOENT), or that the module predates
 * sessions. Prints nothing when it has nothing to add.
 */
void rp_session_hint(struct rp_nl *nl, const struct rp_session_ref *ref,
		     int err);

#endif
