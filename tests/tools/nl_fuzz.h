/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink fuzzer's parts, and what they share:
 *   nl_fuzz.c          the run: each message sent, its answer checked and
 *                      judged; the classes, --dry-run and main
 *   nl_fuzz_rand.c     the seeded randomness and the per-message allocator
 *   nl_fuzz_attr.c     the attribute tree messages are generated as
 *   nl_fuzz_tmpl.c     the values attributes take; the templates
 *   nl_fuzz_mut.c      the mutations
 *   nl_fuzz_ser.c      serialization; generate(), message i of a seed
 *   nl_fuzz_state.c    snapshots of the module's state, from a root socket
 *   nl_fuzz_session.c  the sessions' templates and answers
 */
#ifndef RAWPROBE_TESTS_NL_FUZZ_H
#define RAWPROBE_TESTS_NL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include "rawprobe.h"
#include "sessions.h"

#define MSG_MAX		(128 * 1024)	/* well under the socket's sndbuf */
#define ARENA_SIZE	(8u << 20)
#define FAMILY_NONE	0		/* nlmsg_type before the family id */

enum fclass { C_ROOT, C_USER, C_USERNS };

/* --- deterministic randomness: splitmix64, a stream per message --- */

struct rng {
	uint64_t s;
};

/* Message i of a seed has its own stream: any message can be replayed. */
void rng_init(struct rng *r, uint64_t seed, uint64_t index);
uint64_t rnd(struct rng *r);
uint32_t below(struct rng *r, uint32_t n);	/* [0, n) */
int chance(struct rng *r, unsigned int percent);

#define PICK(r, a) ((a)[below((r), sizeof(a) / sizeof((a)[0]))])

/* --- a bump allocator, reset per message (arena_used = 0) --- */

extern unsigned char *arena;	/* ARENA_SIZE bytes, main's */
extern size_t arena_used;
void *zalloc(size_t n);		/* zeroed; exits when the arena is full */

/* --- the attribute tree a message is generated and mutated as --- */

enum vk { VK_U8, VK_U16, VK_U32, VK_U64, VK_STR, VK_BIN, VK_NEST };

/*
 * Which learned value a u32 attribute takes when sent: any probe's id,
 * an aggregating probe's, or a session's (RING_NEW's answers). The
 * generated value stays in the digest (--dry-run); the run substitutes.
 */
enum learn { L_NONE, L_ANY, L_AGG, L_SESSION };

struct flist;

struct fattr {
	uint16_t type;		/* nla_type, NLA_F_* bits included */
	uint8_t vk;		/* what the payload holds (enum vk) */
	uint8_t learned;	/* replace with a learned value (enum learn) */
	int32_t len_fix;	/* -1, or the nla_len to write instead */
	uint32_t len;
	unsigned char *data;
	struct flist *kids;	/* VK_NEST */
};

struct flist {
	int n, cap;
	struct fattr *v;
};

struct flist *list_new(int cap);
struct fattr *list_add(struct flist *l);	/* a new, empty attribute */
void attr_copy(struct fattr *dst, const struct fattr *src);	/* deep */
size_t attr_size(const struct fattr *a);	/* on the wire, aligned */
size_t list_size(const struct flist *l);

struct fattr *put_raw(struct flist *l, uint16_t type, uint8_t vk,
		      const void *data, uint32_t len);
void put_u8(struct flist *l, uint16_t type, uint8_t v);
void put_u16(struct flist *l, uint16_t type, uint16_t v);
struct fattr *put_u32(struct flist *l, uint16_t type, uint32_t v);
void put_u64(struct flist *l, uint16_t type, uint64_t v);
void put_str(struct flist *l, uint16_t type, const char *s);
struct flist *put_nest(struct flist *l, uint16_t type);

/* --- nl_fuzz_tmpl.c: the values attributes take --- */

/* What each attribute holds, for values and foreign attributes. */
extern const uint8_t attr_vk[RAWPROBE_A_MAX + 1];
/* Probe targets (the size, for PICK(): the definition must agree). */
extern const char *const symbols[6];
/* A value for attribute type t holding kind vk, in or out of range. */
uint64_t interesting(struct rng *r, uint16_t t, uint8_t vk);
/* Attributes whose random bits could make a costly valid value. */
bool no_bitflips(uint16_t t);

/* --- nl_fuzz_tmpl.c: templates, one valid message per command --- */

enum tmpl {
	T_INFO, T_ADD, T_BATCH, T_DEL, T_GET, T_DUMP, T_ENABLE, T_DISABLE,
	T_RESET, T_RING_GET, T_RING_SET, T_RING_DUMP, T_RING_NEW, T_RING_DEL,
	T_AGG_READ, T_EVENT, T_UNSPEC, T_UNKNOWN, T_NR
};

extern const char *const tmpl_name[T_NR];

struct fmsg {
	int tmpl;
	uint16_t nltype;	/* FAMILY_NONE: the family, or a control type */
	bool family;		/* nltype is the family's */
	uint16_t flags;
	uint32_t pid;
	uint8_t cmd, version;
	uint16_t reserved;
	struct flist *attrs;
	long send_len;		/* -1: the whole message */
	long nlmsg_len;		/* -1: the true length */
	char muts[160];		/* what was done to it */
};

/* PROBE_ADD's attributes, one probe spec (also a batch entry). */
void build_spec(struct rng *r, struct flist *l, bool in_batch);
void build_template(struct rng *r, struct fmsg *m);

/* --- nl_fuzz_mut.c: one mutation, named in m->muts --- */

void mutate(struct rng *r, struct fmsg *m);

/* --- nl_fuzz_ser.c: serialization --- */

struct wire {
	unsigned char buf[MSG_MAX];
	size_t len;		/* bytes to send */
	size_t full;		/* the message's true length */
	int npatch;
	struct {
		size_t off;
		uint32_t k;
		uint8_t which;	/* enum learn */
	} patch[32];		/* learned probe and session ids */
	bool overflow;
};

/* --plain: the templates alone, to see that they are valid. */
extern bool plain;

/* Message index of seed: its template, mutated, serialized into w. */
void generate(uint64_t seed, uint64_t index, struct fmsg *m,
	      struct wire *w);

/* --- nl_fuzz_session.c: sessions --- */

/* A session named by id (most often a learned one) or by name. */
void fz_session_ref(struct rng *r, struct flist *l);
/* A name for RING_NEW: mostly of a small pool, so others reach it. */
const char *fz_session_name(struct rng *r);
/* RING_NEW's attributes. */
void fz_build_ring_new(struct rng *r, struct flist *l);
/* RING_DEL's attributes. */
void fz_build_ring_del(struct rng *r, struct flist *l);

/* Session ids RING_NEW answered, newest last (and --sessions). */
#define FZ_MAX_SESSIONS	64
struct fz_sessions {
	uint32_t id[FZ_MAX_SESSIONS];
	int n;
};

void fz_session_learn(struct fz_sessions *s, uint32_t id);
/* A learned id for the substitution key k: mostly one of the newest. */
uint32_t fz_session_pick(const struct fz_sessions *s, uint32_t k);

/*
 * Do the top-level attributes of a request (what the kernel parses:
 * len bytes after the genl header) name a session?
 */
bool fz_names_session(const unsigned char *attrs, long len);

/*
 * What is wrong with a ring command's answer (RING_GET, its dump,
 * RING_NEW, RING_SET), or NULL: tb holds its attributes.
 */
const char *fz_ring_answer_problem(uint8_t cmd, struct nlattr **tb,
				   enum fclass cls);

/* --- nl_fuzz_state.c: state snapshots, through rawprobectl's calls --- */

struct pstate {
	uint32_t id;
	uint8_t kind, state;
	uint32_t flags;
	uint64_t hits;
	char target[80];
	bool module_owned;
};

struct snapshot {
	int n;
	struct pstate p[1024];
	uint32_t records, mode, nr_probes;
	int nsess;
	struct ts_session sess[64];	/* the first sessions listed */
	bool ok;
};

/* Probes, the default rings and the sessions; s->ok if all answered. */
void snapshot(struct rp_nl *nl, struct snapshot *s);
/* Unchanged: the same probes in the same states, no counter went back. */
bool same_state(const struct snapshot *a, const struct snapshot *b,
		char *why, size_t len);

#endif
