// SPDX-License-Identifier: GPL-2.0
/*
 * A struct's or union's layout, computed as pahole (1.24) computes it
 * from BTF: people check a layout against pahole, so its numbers are the
 * reference, down to its rules for bit fields (a unit as wide as the
 * field's type, aligned to that width) and for holes (a struct's only:
 * in a union every member starts at 0).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "resolve/btf_layout.h"

/* pahole's base types: the only ones whose bit fields it places in units */
static bool rp_layout_is_base(const struct btf_type *t)
{
	return btf_is_int(t) || btf_is_any_enum(t) || btf_is_float(t);
}

#define RP_LAYOUT_DEPTH	32	/* of structs in structs we follow */
#define RP_CACHELINE	64	/* pahole's default */

/* pahole's natural alignment of type id: its widest scalar's size */
static uint32_t rp_layout_natural(const struct btf *btf, uint32_t id,
				  int depth)
{
	const struct btf_type *t = rp_btf_skip(btf, &id);
	uint32_t align = 0, a;
	unsigned int i;

	if (!t || depth > RP_LAYOUT_DEPTH)
		return 1;
	if (btf_is_ptr(t))
		return (uint32_t)btf__pointer_size(btf);
	if (btf_is_int(t) || btf_is_any_enum(t) || btf_is_float(t))
		return t->size ?: 1;
	if (btf_is_array(t))
		return rp_layout_natural(btf, btf_array(t)->type, depth + 1);
	if (!btf_is_struct(t) && !btf_is_union(t))
		return 1;
	for (i = 0; i < btf_vlen(t); i++) {
		a = rp_layout_natural(btf, btf_members(t)[i].type, depth + 1);
		align = a > align ? a : align;
	}
	return align ?: 1;
}

/*
 * BTF has no alignments: pahole infers one where a member starts past
 * where the one before it ended, at an even offset, further than its
 * type's natural alignment explains (the next power of two above the
 * gap; a cacheline's if the offset is one's).
 */
static uint32_t rp_layout_infer(uint32_t offset, uint32_t natural,
				uint32_t smallest)
{
	uint32_t delta = offset - smallest, align = 0;

	if (delta && offset % 2 == 0)	/* (a wrapped delta gives 1) */
		align = delta >> 31 ? 1 : 1u << (32 - __builtin_clz(delta));
	if (align <= natural || align == 1)
		return 0;
	if (align < RP_CACHELINE && RP_CACHELINE % align == 0 &&
	    offset % RP_CACHELINE == 0)
		return RP_CACHELINE;
	return align;
}

/* The alignments of l's members and of l itself, as pahole infers them */
static void rp_layout_aligns(const struct btf *btf, struct rp_btf_layout *l)
{
	uint32_t smallest = 0, id;
	struct rp_btf_field *f;
	unsigned int i;

	for (i = 0; i < l->nfields; i++) {
		f = &l->fields[i];
		id = f->type;
		if (!rp_btf_skip(btf, &id) || !f->size)
			continue;	/* pahole skips what has no size */
		f->align = rp_layout_infer(f->offset,
					   rp_layout_natural(btf, id, 0), smallest);
		smallest = f->offset + f->size;
	}
	l->align = rp_layout_infer(l->size, rp_layout_natural(btf, l->id, 0),
				   smallest);
}

/* Member i of t: its name, offset and size as pahole's BTF loader has them. */
static void rp_layout_place(const struct btf *btf, const struct btf_type *t,
			    unsigned int i, struct rp_btf_field *f)
{
	const struct btf_member *m = btf_members(t) + i;
	const struct btf_type *mt;
	uint32_t id = m->type, unit;
	long long size;

	memset(f, 0, sizeof(*f));
	f->name = rp_btf_str(btf, m->name_off);
	f->type = m->type;
	f->bits = btf_member_bit_offset(t, i);
	f->bit_size = btf_member_bitfield_size(t, i);
	f->offset = f->bits / 8;
	/* a type defined in place: pahole shows it there (not a typedef's) */
	for (f->inner = m->type; (mt = btf__type_by_id(btf, f->inner)) &&
	     (btf_is_const(mt) || btf_is_volatile(mt) || btf_is_array(mt));
	     f->inner = btf_is_array(mt) ? btf_array(mt)->type : mt->type)
		f->array |= btf_is_array(mt);
	f->expand = mt && (btf_is_struct(mt) || btf_is_union(mt) ||
			   btf_is_any_enum(mt)) && !mt->name_off;
	mt = rp_btf_skip(btf, &id);
	if (!mt)
		return;
	size = btf__resolve_size(btf, id);
	f->size = size > 0 ? (uint32_t)size : 0;
	if (!f->size || !rp_layout_is_base(mt) || !f->bit_size)
		return;
	/* bit fields are aligned to their type's size, packed or not */
	unit = f->size * 8;
	f->offset = f->bits / unit * unit / 8;
	f->bit_offset = f->bits - f->offset * 8;
}

/*
 * Where a run of bit fields ends: the end of the unit of the widest type
 * seen in it, or of the next unit when a field spills over (a field that
 * "borrows" bits has the previous unit's offset).
 */
struct rp_layout_unit {
	bool in;
	uint32_t size, end;
};

static void rp_layout_unit_next(struct rp_layout_unit *u,
				const struct rp_btf_field *f, uint32_t end)
{
	if (!f->bit_size) {
		u->in = false;
		u->size = 0;
		u->end = end;
		return;
	}
	u->in = true;
	if (end > u->end || f->size * 8 > u->size) {
		u->size = f->size * 8;
		u->end = f->offset * 8 + u->size;
		if (end > u->end)
			u->end += u->size;
	}
}

/* The hole (bytes and bits) before f, from the last bit seen on. */
static void rp_layout_gap(const struct rp_btf_field *f,
			  const struct rp_layout_unit *u, uint32_t *seen,
			  int *bytes, int *bits)
{
	uint32_t start = f->bits, aligned = f->offset * 8;

	*bytes = *bits = 0;
	if (u->in) {	/* bits left at the end of the last unit */
		uint32_t end = start < u->end ? start : u->end;

		*bits = (int)(end - *seen);
		*seen = end;
	}
	if (!f->bit_size) {
		*bytes = (int)(start / 8 - *seen / 8);
		return;
	}
	/* alignment bytes before a new unit, unless a field spans two */
	if (*seen < aligned && aligned <= start) {
		*bytes = (int)(f->offset - *seen / 8);
		*seen = aligned;
	}
	*bits += (int)(start - *seen);
}

/* pahole's class__find_holes(): holes after each member, and padding. */
static void rp_layout_holes(struct rp_btf_layout *l)
{
	struct rp_layout_unit u = { .end = l->size * 8 };
	struct rp_btf_field *f, *last = NULL;
	uint32_t seen = 0, end;
	int bytes, bits;
	unsigned int i;

	for (i = 0; i < l->nfields; i++) {
		f = &l->fields[i];
		end = f->bits + (f->bit_size ? f->bit_size : f->size * 8);
		rp_layout_gap(f, &u, &seen, &bytes, &bits);
		seen = end;
		rp_layout_unit_next(&u, f, end);
		if (last) {
			last->hole = (uint16_t)bytes;
			last->bit_hole = (uint8_t)bits;
		} else {
			l->pre_hole = (uint16_t)bytes;
			l->pre_bit_hole = (uint8_t)bits;
		}
		l->nr_bit_holes += bits != 0;
		l->nr_holes += bytes != 0;
		last = f;
	}
	if (u.in) {
		end = l->size * 8 < u.end ? l->size * 8 : u.end;
		l->bit_padding = (uint8_t)(end - seen);
		seen = end;
	}
	l->padding = (uint16_t)(l->size - seen / 8);
}

static int rp_layout_get(const struct btf *btf, uint32_t id,
			 struct rp_btf_layout *l, bool paddings);

/* The padding at the end of struct id, as pahole notes it for a member. */
static uint16_t rp_layout_padding_of(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	struct rp_btf_layout l;
	uint16_t padding;

	/* pahole looks at the member's type itself: not through typedefs */
	if (!t || !btf_is_struct(t) || rp_layout_get(btf, id, &l, false))
		return 0;
	padding = l.padding;
	rp_btf_layout_free(&l);
	return padding;
}

/* pahole's summary lines: the sums of members, holes and paddings. */
static void rp_layout_sums(struct rp_btf_layout *l, bool paddings)
{
	const struct rp_btf_field *f;
	unsigned int i;

	l->sum_holes = l->pre_hole;
	l->sum_bit_holes = l->pre_bit_hole;
	for (i = 0; i < l->nfields; i++) {
		f = &l->fields[i];
		if (f->align) {	/* and the hole that alignment made */
			uint16_t hole = i ? f[-1].hole : l->pre_hole;

			l->nr_forced++;
			l->nr_forced_holes += hole != 0;
			l->sum_forced_holes += hole;
		}
		if (f->bit_size)
			l->sum_bits += f->bit_size;
		else
			l->sum_bytes += f->size;
		l->sum_holes += f->hole;
		l->sum_bit_holes += f->bit_hole;
		if (paddings && f->padding) {
			l->nr_paddings++;
			l->sum_paddings += f->padding;
		}
	}
}

/*
 * pahole's __packed__: a struct with no hole and no padding whose member
 * is at an offset its type's alignment does not allow, or whose size is
 * not a multiple of its widest member's alignment.
 */
static bool rp_layout_packed(const struct rp_btf_layout *l)
{
	uint32_t widest = 1, natural;
	unsigned int i;

	if (l->is_union || l->padding || l->nr_holes)
		return false;
	for (i = 0; i < l->nfields; i++) {
		natural = rp_layout_natural(l->btf, l->fields[i].type, 0);
		if (natural == 1)
			continue;
		widest = natural > widest ? natural : widest;
		if (l->fields[i].offset % natural)
			return true;
	}
	return l->size % widest != 0;
}

bool rp_btf_layout_packs(const struct rp_btf_layout *l,
			 const struct rp_btf_field *f)
{
	uint32_t id = f->type, natural;
	const struct btf_type *t = rp_btf_skip(l->btf, &id);

	if (!t || !btf_is_struct(t))
		return false;
	natural = rp_layout_natural(l->btf, id, 0);
	if (l->is_union)	/* an array of l would misalign it */
		return l->size % natural != 0;
	return (l->padding || l->nr_holes) && f->offset % natural;
}

static int rp_layout_fill(struct rp_btf_layout *l, bool paddings)
{
	const struct btf_type *t = btf__type_by_id(l->btf, l->id);
	unsigned int i;

	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -EINVAL;
	l->is_union = btf_is_union(t);
	l->size = t->size;
	l->nfields = btf_vlen(t);
	l->fields = calloc(l->nfields ? l->nfields : 1, sizeof(*l->fields));
	if (!l->fields)
		return -ENOMEM;
	for (i = 0; i < l->nfields; i++)
		rp_layout_place(l->btf, t, i, &l->fields[i]);
	rp_layout_aligns(l->btf, l);
	if (l->is_union)
		return 0;
	rp_layout_holes(l);
	for (i = 0; paddings && i < l->nfields; i++)
		l->fields[i].padding = rp_layout_padding_of(l->btf,
							    l->fields[i].type);
	rp_layout_sums(l, paddings);
	l->packed = rp_layout_packed(l);
	return 0;
}

/*
 * A member's padding needs its struct's layout, not that struct's
 * members' paddings: one level, however deep types nest.
 */
static int rp_layout_get(const struct btf *btf, uint32_t id,
			 struct rp_btf_layout *l, bool paddings)
{
	int err;

	memset(l, 0, sizeof(*l));
	l->btf = btf;
	l->id = id;
	err = rp_layout_fill(l, paddings);
	if (err)
		rp_btf_layout_free(l);
	return err;
}

int rp_btf_layout_get(const struct btf *btf, uint32_t id,
		      struct rp_btf_layout *l)
{
	return rp_layout_get(btf, id, l, true);
}

void rp_btf_layout_free(struct rp_btf_layout *l)
{
	free(l->fields);
	l->fields = NULL;
	l->nfields = 0;
}
