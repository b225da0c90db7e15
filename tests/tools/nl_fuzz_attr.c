// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's attribute tree (its types: nl_fuzz.h): lists
 * built, copied and measured. Apart because the templates build it, the
 * mutations change it and serialization writes it out, and it knows
 * nothing of rawprobe's attributes.
 */
#include <string.h>
#include "nl_fuzz.h"

/* --- the attribute tree a message is generated and mutated as --- */

struct flist *list_new(int cap)
{
	struct flist *l = zalloc(sizeof(*l));

	l->cap = cap > 4 ? cap : 4;
	l->v = zalloc(sizeof(*l->v) * l->cap);
	return l;
}

struct fattr *list_add(struct flist *l)
{
	struct fattr *a;

	if (l->n == l->cap) {
		struct fattr *v = zalloc(sizeof(*v) * l->cap * 2);

		memcpy(v, l->v, sizeof(*v) * l->n);
		l->v = v;
		l->cap *= 2;
	}
	a = &l->v[l->n++];
	memset(a, 0, sizeof(*a));
	a->len_fix = -1;
	return a;
}

struct fattr *put_raw(struct flist *l, uint16_t type, uint8_t vk,
		      const void *data, uint32_t len)
{
	struct fattr *a = list_add(l);

	a->type = type;
	a->vk = vk;
	a->len = len;
	a->data = zalloc(len + 1);
	if (len)
		memcpy(a->data, data, len);
	return a;
}

void put_u8(struct flist *l, uint16_t type, uint8_t v)
{
	put_raw(l, type, VK_U8, &v, 1);
}

void put_u16(struct flist *l, uint16_t type, uint16_t v)
{
	put_raw(l, type, VK_U16, &v, 2);
}

struct fattr *put_u32(struct flist *l, uint16_t type, uint32_t v)
{
	return put_raw(l, type, VK_U32, &v, 4);
}

void put_u64(struct flist *l, uint16_t type, uint64_t v)
{
	put_raw(l, type, VK_U64, &v, 8);
}

void put_str(struct flist *l, uint16_t type, const char *s)
{
	put_raw(l, type, VK_STR, s, strlen(s) + 1);
}

struct flist *put_nest(struct flist *l, uint16_t type)
{
	struct fattr *a = list_add(l);

	a->type = type | NLA_F_NESTED;
	a->vk = VK_NEST;
	a->kids = list_new(4);
	return a->kids;
}

static struct flist *list_copy(const struct flist *src)
{
	struct flist *l = list_new(src->n);
	int i;

	for (i = 0; i < src->n; i++)
		attr_copy(list_add(l), &src->v[i]);
	return l;
}

void attr_copy(struct fattr *dst, const struct fattr *src)
{
	*dst = *src;
	dst->data = zalloc(src->len + 1);
	if (src->len)
		memcpy(dst->data, src->data, src->len);
	if (src->kids)
		dst->kids = list_copy(src->kids);
}

/* The bytes an attribute and a list take on the wire, padding included. */
size_t attr_size(const struct fattr *a)
{
	size_t p = a->vk == VK_NEST && a->kids ? list_size(a->kids) : a->len;

	return NLA_ALIGN(NLA_HDRLEN + p);
}

size_t list_size(const struct flist *l)
{
	size_t n = 0;
	int i;

	for (i = 0; i < l->n; i++)
		n += attr_size(&l->v[i]);
	return n;
}
