// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's serialization: a message's headers and attribute
 * tree written out as the bytes sent, with the places of the ids the run
 * substitutes; and generate(), message i of a seed from its template,
 * mutations and bytes. Apart because it is where generation ends: the
 * run and --dry-run see only its wire (nl_fuzz.h).
 */
#include <stdbool.h>
#include <string.h>
#include <linux/genetlink.h>
#include "nl_fuzz.h"

/* --- serialization --- */

static void put_list(struct wire *w, const struct flist *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		const struct fattr *a = &l->v[i];
		size_t sz = attr_size(a), start = w->len;
		struct nlattr h;

		if (w->len + sz > sizeof(w->buf)) {
			w->overflow = true;
			return;
		}
		h.nla_len = a->len_fix >= 0 ? (uint16_t)a->len_fix :
			    (uint16_t)(NLA_HDRLEN + (a->kids ?
				list_size(a->kids) : a->len));
		h.nla_type = a->type;
		memcpy(w->buf + w->len, &h, sizeof(h));
		w->len += NLA_HDRLEN;
		if (a->vk == VK_NEST && a->kids) {
			put_list(w, a->kids);
		} else {
			if (a->learned && a->len == 4 &&
			    w->npatch < (int)(sizeof(w->patch) /
					      sizeof(w->patch[0]))) {
				w->patch[w->npatch].off = w->len;
				memcpy(&w->patch[w->npatch].k, a->data, 4);
				w->patch[w->npatch].which = a->learned;
				w->npatch++;
			}
			memcpy(w->buf + w->len, a->data, a->len);
			w->len += a->len;
		}
		memset(w->buf + w->len, 0, start + sz - w->len);
		w->len = start + sz;
	}
}

static void serialize(const struct fmsg *m, struct wire *w)
{
	struct nlmsghdr nlh = { 0 };
	struct genlmsghdr g = { 0 };

	w->len = NLMSG_HDRLEN + GENL_HDRLEN;
	w->npatch = 0;
	w->overflow = false;
	put_list(w, m->attrs);
	w->full = w->len;
	nlh.nlmsg_len = m->nlmsg_len == -1 ? w->len :
			m->nlmsg_len <= -100 ? w->len + (-m->nlmsg_len - 100) + 1 :
			m->nlmsg_len < 0 ? w->len - (-m->nlmsg_len - 1) :
			(uint32_t)m->nlmsg_len;
	nlh.nlmsg_type = m->nltype;
	nlh.nlmsg_flags = m->flags;
	nlh.nlmsg_pid = m->pid;
	g.cmd = m->cmd;
	g.version = m->version;
	g.reserved = m->reserved;
	memcpy(w->buf, &nlh, sizeof(nlh));
	memcpy(w->buf + NLMSG_HDRLEN, &g, sizeof(g));
	if (m->send_len >= 0 && (size_t)m->send_len < w->len)
		w->len = m->send_len;
}

/* --plain: the templates alone, to see that they are valid. */
bool plain;

void generate(uint64_t seed, uint64_t index, struct fmsg *m,
	      struct wire *w)
{
	struct rng r;
	int n;

	arena_used = 0;
	memset(m, 0, sizeof(*m));
	rng_init(&r, seed, index);
	build_template(&r, m);
	for (n = 1 + below(&r, 3); n && !plain; n--)
		mutate(&r, m);
	serialize(m, w);
	if (w->overflow) {	/* too big for one message: the template */
		strcat(m->muts, ",toobig");
		rng_init(&r, seed, index);
		arena_used = 0;
		memset(m, 0, sizeof(*m));
		build_template(&r, m);
		strcpy(m->muts, "none(toobig)");
		serialize(m, w);
	}
}
