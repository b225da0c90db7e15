/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink fuzzer's parts (nl_fuzz.c, the model and the run;
 * nl_fuzz_session.c, the sessions' templates and answers): the seeded
 * randomness and the attribute tree messages are generated as.
 */
#ifndef RAWPROBE_TESTS_NL_FUZZ_H
#define RAWPROBE_TESTS_NL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include "rawprobe.h"

enum fclass { C_ROOT, C_USER, C_USERNS };

/* --- deterministic randomness: splitmix64, a stream per message --- */

struct rng {
	uint64_t s;
};

uint64_t rnd(struct rng *r);
uint32_t below(struct rng *r, uint32_t n);	/* [0, n) */
int chance(struct rng *r, unsigned int percent);

#define PICK(r, a) ((a)[below((r), sizeof(a) / sizeof((a)[0]))])

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

struct fattr *put_raw(struct flist *l, uint16_t type, uint8_t vk,
		      const void *data, uint32_t len);
void put_u8(struct flist *l, uint16_t type, uint8_t v);
void put_u16(struct flist *l, uint16_t type, uint16_t v);
struct fattr *put_u32(struct flist *l, uint16_t type, uint32_t v);
void put_u64(struct flist *l, uint16_t type, uint64_t v);
void put_str(struct flist *l, uint16_t type, const char *s);
struct flist *put_nest(struct flist *l, uint16_t type);

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

#endif
