// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's mutations: what damages a template, in its
 * attribute tree or in its headers (nl_fuzz.c's opening comment lists
 * them). Apart because they are the generator's largest part and draw
 * only on the tree and on the templates' values and probe specs
 * (nl_fuzz_attr.c, nl_fuzz_tmpl.c).
 */
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include "nl_fuzz.h"

/* --- mutations --- */

/* Every attribute list of the tree, the top one first. */
static int collect_lists(struct flist *l, struct flist **out, int n, int max)
{
	int i;

	if (n < max)
		out[n++] = l;
	for (i = 0; i < l->n && n < max; i++)
		if (l->v[i].kids)
			n = collect_lists(l->v[i].kids, out, n, max);
	return n;
}

static struct flist *pick_list(struct rng *r, struct fmsg *m, bool nonempty)
{
	struct flist *all[64];
	int n = collect_lists(m->attrs, all, 0, 64), i, k;

	/* the top level half the time, else any list */
	if (!nonempty || m->attrs->n)
		if (chance(r, 50))
			return m->attrs;
	for (k = 0; k < 8; k++) {
		i = below(r, n);
		if (!nonempty || all[i]->n)
			return all[i];
	}
	return nonempty && !m->attrs->n ? NULL : m->attrs;
}

static struct fattr *pick_attr(struct rng *r, struct fmsg *m)
{
	struct flist *l = pick_list(r, m, true);

	return l ? &l->v[below(r, l->n)] : NULL;
}

static void set_payload(struct fattr *a, const void *data, uint32_t len,
			uint8_t vk)
{
	a->data = zalloc(len + 1);
	if (len)
		memcpy(a->data, data, len);
	a->len = len;
	a->vk = vk;
	a->kids = NULL;
	a->learned = L_NONE;
}

static void random_bytes(struct rng *r, unsigned char *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)rnd(r);
}

static void add_foreign(struct rng *r, struct flist *l)
{
	uint16_t t = 1 + below(r, RAWPROBE_A_MAX + 2);
	uint8_t vk = t <= RAWPROBE_A_MAX ? attr_vk[t] : VK_U32;
	uint64_t v = interesting(r, t, vk);

	switch (vk) {
	case VK_U8:  put_u8(l, t, (uint8_t)v); break;
	case VK_U16: put_u16(l, t, (uint16_t)v); break;
	case VK_U64: put_u64(l, t, v); break;
	case VK_STR: put_str(l, t, PICK(r, symbols)); break;
	case VK_NEST: {
		struct flist *k = put_nest(l, t);

		if (chance(r, 50))
			build_spec(r, put_nest(k, 1), true);
		break;
	}
	case VK_BIN: {
		unsigned char b[8];

		random_bytes(r, b, sizeof(b));
		put_raw(l, t, VK_BIN, b, below(r, 9));
		break;
	}
	default: put_u32(l, t, (uint32_t)v); break;
	}
}

/* Strings: no NUL, overlong, control bytes, empty, embedded NUL. */
static void mutate_string(struct rng *r, struct fattr *a)
{
	static const char *const odd[] = {
		"vfs\x01read", "vfs_read\n", "\x7f", "\xff\xfe\xfd", "vfs_read ",
		"%s%n%x", "../../etc", "\xc3\xa9t\xc3\xa9",
	};
	static const uint32_t longs[] = { 15, 16, 55, 56, 127, 128, 511, 512,
					  513, 1000, 4000 };
	unsigned char buf[4100];
	uint32_t n;

	switch (below(r, 6)) {
	case 0:	/* the NUL dropped */
		if (a->len && a->data[a->len - 1] == '\0')
			a->len--;
		else
			a->len = a->len ? a->len - 1 : 0;
		break;
	case 1:	/* overlong, with or without its NUL */
		n = PICK(r, longs);
		memset(buf, 'a' + below(r, 26), n);
		buf[n] = '\0';
		set_payload(a, buf, n + (chance(r, 70) ? 1 : 0), VK_STR);
		break;
	case 2:	/* control and non-ASCII bytes */
		snprintf((char *)buf, sizeof(buf), "%s", PICK(r, odd));
		set_payload(a, buf, strlen((char *)buf) + 1, VK_STR);
		break;
	case 3:	/* empty: a lone NUL, or nothing at all */
		set_payload(a, "", chance(r, 50) ? 1 : 0, VK_STR);
		break;
	case 4:	/* an embedded NUL */
		set_payload(a, "vfs\0read", 9, VK_STR);
		break;
	default: /* random bytes */
		n = 1 + below(r, 40);
		random_bytes(r, buf, n);
		set_payload(a, buf, n, VK_STR);
		break;
	}
	a->vk = VK_STR;
}

/* A batch of n entries, each small (so that 2048 of them fit in u16). */
static void batch_count(struct rng *r, struct fmsg *m)
{
	static const uint32_t counts[] = { 0, 1, RAWPROBE_MAX_BATCH - 1,
					   RAWPROBE_MAX_BATCH,
					   RAWPROBE_MAX_BATCH + 1, 1500, 2000 };
	uint32_t n = PICK(r, counts), i;
	struct flist *b = NULL;
	int k;

	for (k = 0; k < m->attrs->n; k++)
		if ((m->attrs->v[k].type & NLA_TYPE_MASK) == RAWPROBE_A_BATCH &&
		    m->attrs->v[k].kids) {
			b = m->attrs->v[k].kids;
			break;
		}
	if (!b)
		b = put_nest(m->attrs, RAWPROBE_A_BATCH);
	b->n = 0;
	/* identical entries (refused as duplicates) or five distinct */
	for (i = 0; i < n; i++) {
		struct flist *e = put_nest(b, 1 + (i & 0x3fff));

		put_u8(e, RAWPROBE_A_KIND, RAWPROBE_KIND_KPROBE);
		put_str(e, RAWPROBE_A_SYMBOL, symbols[n < 8 ? i % 5 : 0]);
		put_u32(e, RAWPROBE_A_FLAGS, RAWPROBE_F_DISABLED);
	}
}

/* Wrap a list's attributes in depth levels of nesting. */
static void deep_nest(struct rng *r, struct flist *l)
{
	int depth = 2 + below(r, 40), d;
	struct flist *inner = l;
	uint16_t t = chance(r, 50) ? RAWPROBE_A_BATCH : 1 + below(r, 30);

	for (d = 0; d < depth; d++)
		inner = put_nest(inner, d ? 1 + below(r, 4) : t);
	if (chance(r, 50))
		build_spec(r, inner, true);
	else
		put_u32(inner, RAWPROBE_A_PROBE_ID, 1);
}

void mutate(struct rng *r, struct fmsg *m)
{
	static const char *const names[] = {
		"drop", "dup", "reorder", "type", "paylen", "nlalen", "value",
		"flip", "string", "nestjunk", "deep", "foreign", "batchcount",
		"batchleaf", "trunc", "version", "reserved", "flags",
		"nltype", "cmd", "nlmsglen", "pid",
	};
	static const unsigned int weight[] = {
		8, 5, 4, 6, 6, 5, 14, 5, 8, 4, 2, 6, 2, 2,
		3, 2, 1, 5, 1, 2, 2, 1,
	};
	unsigned int total = 0, pick, op;
	struct flist *l;
	struct fattr *a;
	unsigned char buf[4096];
	uint32_t n;

	for (op = 0; op < sizeof(weight) / sizeof(weight[0]); op++)
		total += weight[op];
	pick = below(r, total);
	for (op = 0; pick >= weight[op]; op++)
		pick -= weight[op];

	switch (op) {
	case 0:	/* drop */
		l = pick_list(r, m, true);
		if (!l)
			goto foreign;
		n = below(r, l->n);
		memmove(&l->v[n], &l->v[n + 1], (l->n - n - 1) * sizeof(*l->v));
		l->n--;
		break;
	case 1: { /* duplicate, now and then many times */
		uint32_t times = chance(r, 10) ? 100 + below(r, 1500) : 1, i;
		struct fattr copy;

		l = pick_list(r, m, true);
		if (!l)
			goto foreign;
		copy = l->v[below(r, l->n)];
		if (attr_size(&copy) > 64)
			times = 1;
		for (i = 0; i < times; i++)
			attr_copy(list_add(l), &copy);
		break;
	}
	case 2:	/* reorder */
		l = pick_list(r, m, true);
		if (!l)
			goto foreign;
		for (n = l->n; n > 1; n--) {
			uint32_t j = below(r, n);
			struct fattr t = l->v[n - 1];

			l->v[n - 1] = l->v[j];
			l->v[j] = t;
		}
		break;
	case 3:	/* another type, or its flag bits */
		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		switch (below(r, 4)) {
		case 0: a->type ^= NLA_F_NESTED; break;
		case 1: a->type ^= NLA_F_NET_BYTEORDER; break;
		case 2: a->type = (a->type & ~NLA_TYPE_MASK) |
				  PICK(r, ((const uint16_t[]){ 0, RAWPROBE_A_MAX,
					RAWPROBE_A_MAX + 1, 0x3fff, 200 }));
			break;
		default: a->type = (a->type & ~NLA_TYPE_MASK) |
				   below(r, RAWPROBE_A_MAX + 1);
			break;
		}
		a->learned = L_NONE;
		break;
	case 4: { /* a payload of the wrong length */
		static const uint32_t lens[] = { 0, 1, 2, 3, 5, 7, 9, 17, 300,
						 4000 };

		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		n = PICK(r, lens);
		memset(buf, 0, sizeof(buf));
		if (a->data)
			memcpy(buf, a->data, a->len < n ? a->len : n);
		if (n > a->len)
			random_bytes(r, buf + a->len, chance(r, 50) ? 0 :
				     n - a->len);
		set_payload(a, buf, n, a->vk == VK_NEST ? VK_BIN : a->vk);
		break;
	}
	case 5: { /* nla_len lies */
		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		switch (below(r, 6)) {
		case 0: a->len_fix = below(r, NLA_HDRLEN); break;
		case 1: a->len_fix = NLA_HDRLEN; break;
		case 2: a->len_fix = NLA_HDRLEN + a->len + 1 + below(r, 7); break;
		case 3: a->len_fix = a->len ? NLA_HDRLEN + a->len - 1 : 0; break;
		case 4: a->len_fix = 0xffff; break;
		default: a->len_fix = 1000 + below(r, 3000); break;
		}
		break;
	}
	case 6: { /* a value in or out of range */
		uint64_t v;

		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		if (a->vk == VK_STR) {
			mutate_string(r, a);
			break;
		}
		if ((a->type & NLA_TYPE_MASK) == RAWPROBE_A_AGG_KEYS ||
		    (a->type & NLA_TYPE_MASK) == RAWPROBE_A_AGG_KEY_ARGS) {
			/* keys 1..8 (arguments 0..5) and junk, 0 to 5 */
			n = below(r, RAWPROBE_AGG_MAX_KEYS + 2);
			for (uint32_t i = 0; i < n; i++)
				buf[i] = chance(r, 80) ? 1 + below(r,
					__RAWPROBE_AGG_KEY_MAX - 1) :
					PICK(r, ((const uint8_t[]){ 0, 9, 0x7f,
								    0xff }));
			set_payload(a, buf, n, VK_BIN);
			break;
		}
		if ((a->type & NLA_TYPE_MASK) == RAWPROBE_A_ARGTYPES ||
		    a->vk == VK_BIN || a->vk == VK_NEST) {
			static const unsigned char t[] = { 0, 1, 4, 5, 6, 7,
							   0x7f, 0xff };

			n = below(r, 9);
			for (uint32_t i = 0; i < n; i++)
				buf[i] = PICK(r, t);
			set_payload(a, buf, n, VK_BIN);
			break;
		}
		v = interesting(r, a->type, a->vk);
		memcpy(a->data, &v, a->len < 8 ? a->len : 8);
		a->learned = L_NONE;
		break;
	}
	case 7:	/* bit flips */
		a = pick_attr(r, m);
		if (!a || !a->len || a->vk == VK_NEST || no_bitflips(a->type))
			goto foreign;
		for (n = 1 + below(r, 3); n; n--)
			a->data[below(r, a->len)] ^= 1 << below(r, 8);
		a->learned = L_NONE;
		break;
	case 8:	/* strings */
		a = pick_attr(r, m);
		if (!a || a->vk != VK_STR)
			goto foreign;
		mutate_string(r, a);
		break;
	case 9: { /* nested garbage */
		struct flist *k;

		l = pick_list(r, m, false);
		k = put_nest(l, below(r, RAWPROBE_A_MAX + 2));
		if (chance(r, 50)) {
			n = 1 + below(r, 64);
			random_bytes(r, buf, n);
			put_raw(k, below(r, 40), VK_BIN, buf, n);
		} else {
			for (n = below(r, 6); n; n--)
				add_foreign(r, k);
		}
		break;
	}
	case 10: /* deep nesting */
		deep_nest(r, pick_list(r, m, false));
		break;
	case 11:
foreign:	/* an attribute that belongs elsewhere */
		add_foreign(r, pick_list(r, m, false));
		op = 11;
		break;
	case 12: /* batch counts around RAWPROBE_MAX_BATCH */
		batch_count(r, m);
		break;
	case 13: { /* a batch with entries that are not nests */
		l = NULL;
		for (int k = 0; k < m->attrs->n; k++)
			if (m->attrs->v[k].kids &&
			    (m->attrs->v[k].type & NLA_TYPE_MASK) ==
			    RAWPROBE_A_BATCH)
				l = m->attrs->v[k].kids;
		if (!l)
			l = put_nest(m->attrs, RAWPROBE_A_BATCH);
		if (chance(r, 50))
			put_raw(l, 1, VK_BIN, "", 0);
		else
			put_u32(l, 1 + below(r, 4), RAWPROBE_KIND_KPROBE);
		break;
	}
	case 14: /* truncated: after nlmsghdr, genlmsghdr, or in attributes */
		switch (below(r, 4)) {
		case 0: m->send_len = below(r, NLMSG_HDRLEN); break;
		case 1: m->send_len = NLMSG_HDRLEN + below(r, GENL_HDRLEN); break;
		default: m->send_len = NLMSG_HDRLEN + GENL_HDRLEN +
				       below(r, 64);
			break;
		}
		/* nlmsg_len: what was sent, or still the whole message */
		if (chance(r, 70))
			m->nlmsg_len = m->send_len;
		break;
	case 15:
		m->version = PICK(r, ((const uint8_t[]){ 0, 2, 3, 0x7f, 0xff }));
		break;
	case 16:
		m->reserved = 1 + below(r, 0xffff);
		break;
	case 17: /* nlmsg_flags */
		switch (below(r, 9)) {
		case 0: m->flags &= ~NLM_F_ACK; break;
		case 1: m->flags &= ~NLM_F_REQUEST; break;
		case 2: m->flags |= NLM_F_DUMP; break;
		case 3: m->flags = (m->flags & ~NLM_F_DUMP) | NLM_F_ROOT; break;
		case 4: m->flags = (m->flags & ~NLM_F_DUMP) | NLM_F_MATCH; break;
		case 5: m->flags |= NLM_F_ECHO; break;
		case 6: m->flags |= NLM_F_ATOMIC | NLM_F_DUMP_INTR; break;
		case 7: m->flags = (uint16_t)rnd(r); break;
		default: m->flags = 0; break;
		}
		break;
	case 18: /* a control message type */
		m->family = false;
		m->nltype = below(r, NLMSG_MIN_TYPE);
		break;
	case 19: /* another command number */
		m->cmd = chance(r, 50) ? below(r, RAWPROBE_CMD_MAX + 1) :
			 (uint8_t)rnd(r);
		break;
	case 20: /* nlmsg_len: unaligned, short, or past the data */
		switch (below(r, 3)) {
		case 0: m->nlmsg_len = -2 - below(r, 7); break;	/* true - k */
		case 1: m->nlmsg_len = -100 - below(r, 64); break; /* true + k */
		default: m->nlmsg_len = 0x7fffffff; break;
		}
		break;
	default:
		m->pid = (uint32_t)rnd(r) | 1;
		break;
	}
	if (strlen(m->muts) + 14 < sizeof(m->muts))
		snprintf(m->muts + strlen(m->muts),
			 sizeof(m->muts) - strlen(m->muts), "%s%s",
			 m->muts[0] ? "," : "", names[op]);
}
