// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl btf show 'struct NAME' (union, enum, typedef): a type's
 * layout as 'pahole -C NAME' prints it from the same BTF, so that its
 * offsets, sizes, holes and summary lines read (and parse) the same; and
 * one JSON document of it with -j.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "out/btf_type.h"
#include "lib/cli.h"
#include "lib/json.h"

#define RP_CACHELINE	64	/* pahole's default */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define RP_NAME_COL	35	/* where pahole starts a member's name */
#define RP_COMMENT_COL	57	/* and its offset comment, in a struct */

static const char rp_tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

static void rp_indent(int depth)
{
	printf("%.*s", depth < 16 ? depth : 16, rp_tabs);
}

/* Where a body is: its depth, its base offset and the cacheline seen */
struct rp_body {
	const struct rp_btf_layout *l;
	uint32_t base;			/* the outermost type's offset of l */
	int depth;
	uint32_t *cacheline;		/* shared by nested bodies */
	int comment_col;		/* pahole's: 2 less in a union */
	bool in_union;			/* l is one, or is in one */
	int narrow;			/* pahole's columns, less in a const */
	bool pending;			/* a note was said: a blank line next */
	uint32_t last_size;		/* pahole's, for its bit field notes */
};

/*
 * A line's indent and, when its offset is past the last cacheline seen,
 * pahole's "--- cacheline N boundary ---" before it.
 */
static void rp_line_start(struct rp_body *b, uint32_t offset)
{
	uint32_t line = offset / RP_CACHELINE, pos = offset % RP_CACHELINE;

	rp_indent(b->depth);
	if (line <= *b->cacheline)
		return;
	*b->cacheline = line;
	if (pos)
		printf("/* --- cacheline %u boundary (%u bytes) was %u byte%s "
		       "ago --- */\n", line, offset - pos, pos, pos > 1 ? "s" : "");
	else
		printf("/* --- cacheline %u boundary (%u bytes) --- */\n", line,
		       offset);
	rp_indent(b->depth);
}

/*
 * pahole spells a pointer to const (or volatile) with two spaces: "const
 * struct cred  *" (in a function pointer's arguments too), the const's
 * own and the pointer's.
 */
static void rp_const_ptr(char *type, size_t len)
{
	char *seg = type, *star, *end;
	size_t n;

	for (; seg && *seg; seg = end ? end + 1 : NULL) {
		seg += strspn(seg, " (");
		end = strpbrk(seg, ",(");
		star = strstr(seg, " *");
		if ((strncmp(seg, "const ", 6) && strncmp(seg, "volatile ", 9)) ||
		    !star || (end && star > end))
			continue;
		n = strlen(type);
		if (n + 1 >= len)
			return;
		memmove(star + 1, star, n + 1 - (size_t)(star - type));
		if (end)
			end++;
	}
}

/* pahole's "struct attribute * *" for a pointer to a pointer */
static void rp_ptr_ptr(char *type, size_t len)
{
	char *p;
	size_t n;

	while ((p = strstr(type, "**"))) {
		n = strlen(type);
		if (n + 1 >= len)
			return;
		memmove(p + 2, p + 1, n - (size_t)(p - type));
		p[1] = ' ';
	}
}

/* pahole's pointer to an array is to its element: "char *" */
static void rp_ptr_array(char *type)
{
	char *p, *open;

	while ((p = strstr(type, "] *"))) {
		for (open = p; open > type && *open != '['; open--)
			;
		if (*open != '[')
			return;
		memmove(open, p + 1, strlen(p + 1) + 1);
	}
}

/* "const " and "volatile " before *id, which is left past them */
static void rp_quals(const struct btf *btf, uint32_t *id, char *quals,
		     size_t len)
{
	const struct btf_type *t;
	size_t at = 0;

	quals[0] = '\0';
	while ((t = btf__type_by_id(btf, *id)) && at < len &&
	       (btf_is_const(t) || btf_is_volatile(t))) {
		at += (size_t)snprintf(quals + at, len - at, "%s ",
				       btf_is_const(t) ? "const" : "volatile");
		*id = t->type;
	}
}

/* An array's dimensions after its name; the last member's [0] is [] */
static uint32_t rp_dims(const struct btf *btf, uint32_t id, bool flexible,
			char *name, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	size_t at = strlen(name);

	while (t && btf_is_array(t) && at < len) {
		at += (size_t)snprintf(name + at, len - at, flexible &&
				       !btf_array(t)->nelems ? "[]" : "[%u]",
				       btf_array(t)->nelems);
		id = btf_array(t)->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

/* The type and the name of a declaration: "const char" "iname[]" */
static void rp_decl(const struct btf *btf, const struct rp_btf_field *f,
		    bool flexible, char *type, char *name, size_t len)
{
	char quals[32], spelled[RP_BTF_TYPE_MAX], *fn;
	uint32_t id = f->type;

	snprintf(name, len, "%s", f->name);
	rp_quals(btf, &id, quals, sizeof(quals));
	id = rp_dims(btf, id, flexible, name, len);
	rp_btf_spell(btf, id, spelled, sizeof(spelled), 0);
	/* (a const array of const elements is said const once) */
	if (snprintf(type, RP_BTF_TYPE_MAX, "%s%s", strncmp(spelled, quals,
		     strlen(quals)) ? quals : "", spelled) >= RP_BTF_TYPE_MAX)
		snprintf(type, RP_BTF_TYPE_MAX, "?");	/* as rp_btf_spell cuts */
	rp_const_ptr(type, RP_BTF_TYPE_MAX);
	rp_ptr_ptr(type, RP_BTF_TYPE_MAX);
	rp_ptr_array(type);
	/* a function pointer's name is inside it: "void (*destructor)(...)" */
	fn = strstr(type, " (*)(");
	if (fn) {
		snprintf(spelled, sizeof(spelled), "%s", fn + 4);
		*fn = '\0';
		snprintf(name, len, "(*%s)%s", f->name, spelled);
	}
	if (f->bit_size)
		snprintf(name + strlen(name), len - strlen(name), ":%u",
			 f->bit_size);
	if (f->align)
		snprintf(name + strlen(name), len - strlen(name),
			 " __attribute__((__aligned__(%u)))", f->align);
}

/*
 * A line's text, then its offset comment where pahole puts it (which
 * does not count a type's alignment attribute: unseen chars).
 */
static void rp_line_end(const struct rp_body *b, const char *text,
			int unseen, uint32_t offset,
			const struct rp_btf_field *f)
{
	int col = b->depth * 8 + (int)strlen(text) - unseen;

	printf("%s%*s", text, col < b->comment_col ? b->comment_col - col : 1,
	       "");
	if (f->bit_size)
		printf("/* %5u:%2u %2u */\n", offset, f->bit_offset, f->size);
	else
		printf("/* %5u %5u */\n", offset, f->size);
}

/* "TYPE NAME;" with the type as wide as pahole makes it there */
static void rp_type_name(char *text, size_t len, const struct rp_body *b,
			 const char *type, const char *name)
{
	int width = RP_NAME_COL - 8 * b->depth - 1 - b->narrow;

	/* (pahole's width goes negative past 3 levels: printf's '-' then) */
	snprintf(text, len, "%-*s %s;", width < 0 ? -width : width, type, name);
}

/* pahole's flexible array: the last of several members, in no union */
static bool rp_flexible(const struct rp_body *b, const struct rp_btf_field *f)
{
	return f == &b->l->fields[b->l->nfields - 1] && b->l->nfields > 1 &&
	       !b->in_union;
}

static void rp_member_line(struct rp_body *b, const struct rp_btf_field *f)
{
	char type[RP_BTF_TYPE_MAX], name[RP_BTF_TYPE_MAX + 80], text[512];

	rp_decl(b->l->btf, f, rp_flexible(b, f), type, name, sizeof(name));
	rp_type_name(text, sizeof(text), b, type, name);
	rp_line_start(b, b->base + f->offset);
	rp_line_end(b, text, 0, b->base + f->offset, f);
}

/* A note after a member, as pahole sets them off: a blank line before */
static void rp_note(struct rp_body *b, const char *what, unsigned int n,
		    const char *unit, const char *tail)
{
	if (!b->pending)
		putchar('\n');
	b->pending = true;
	rp_indent(b->depth);
	if (unit)
		printf("/* XXX %s%u %s%s %s */\n", what, n, unit,
		       n == 1 ? "" : "s", tail);
	else
		printf("/* %s */\n", what);
}

/* What pahole notes after a struct's member: padding, bit and byte holes */
static void rp_member_notes(struct rp_body *b, const struct rp_btf_field *f)
{
	if (f->padding)
		rp_note(b, "last struct has ", f->padding, "byte", "of padding");
	if (f->bit_hole)
		rp_note(b, "", f->bit_hole, "bit", "hole, try to pack");
	if (f->hole)
		rp_note(b, "", f->hole, "byte", "hole, try to pack");
}

/*
 * Before a bit field that does not follow on from the last one, pahole
 * writes the C that makes the gap: "unsigned int :0;" to a new unit, or
 * ":N;" for bits skipped in one; and notes fields sharing a unit.
 */
static void rp_bitfield_notes(struct rp_body *b, const struct rp_btf_field *last,
			      const struct rp_btf_field *f)
{
	char type[RP_BTF_TYPE_MAX], name[16], text[RP_BTF_TYPE_MAX + 32];
	int32_t ahead = (int32_t)(f->offset - last->offset);

	if (last->bit_hole && f->bit_size) {
		if (last->offset != f->offset)
			printf("\n%.*s/* Force alignment to the next boundary: */\n",
			       b->depth, rp_tabs);
		rp_btf_spell(b->l->btf, f->type, type, sizeof(type), 0);
		snprintf(name, sizeof(name), ":%u", last->offset != f->offset ?
			 0 : last->bit_hole);
		rp_type_name(text, sizeof(text), b, type, name);
		rp_indent(b->depth);
		printf("%s\n", text);
	}
	if (f->offset < last->offset || (f->offset == last->offset &&
	    !last->bit_size && f->bit_size))
		rp_note(b, "Bitfield combined with previous fields", 0, NULL,
			NULL);
	else if (ahead > 0 && (uint32_t)ahead < b->last_size)
		rp_note(b, "Bitfield combined with next fields", 0, NULL, NULL);
}

static void rp_body_print(struct rp_body *b);

/*
 * "};", "} name;", "} __attribute__((__aligned__(64)));": the
 * attribute's length
 */
static int rp_close(char *text, size_t len, const struct rp_btf_layout *l,
		    const char *name)
{
	char attr[48] = "";

	/* (pahole shows a union's inferred alignment nowhere) */
	if (l->packed)
		snprintf(attr, sizeof(attr), " __attribute__((__packed__))");
	else if (l->align && !l->is_union)
		snprintf(attr, sizeof(attr), " __attribute__((__aligned__(%u)))",
			 l->align);
	snprintf(text, len, "}%s%s%s;", attr, name[0] ? " " : "", name);
	return l->packed ? 0 : (int)strlen(attr);
}

static void rp_enum_entries(const struct btf *btf, const struct btf_type *t,
			    int depth);

/* An anonymous enum in place: "enum {" ... "} state:16;" */
static void rp_member_enum(struct rp_body *b, const struct rp_btf_field *f,
			   const struct btf_type *t)
{
	char text[160], bits[16] = "";
	const char *packed = t->size != 4 ? " __attribute__((__packed__))" : "";

	printf("enum {\n");
	rp_enum_entries(b->l->btf, t, b->depth);
	if (f->bit_size)
		snprintf(bits, sizeof(bits), ":%u", f->bit_size);
	snprintf(text, sizeof(text), "}%s%s%s%s;", packed, f->name[0] ? " " : "",
		 f->name, bits);
	rp_indent(b->depth);
	/* (pahole's column counts neither the attribute nor the bits) */
	rp_line_end(b, text, (int)(strlen(packed) + strlen(bits)),
		    b->base + f->offset, f);
}

/* "} set[2];" and its offset comment: pahole does not align this one */
static void rp_array_close(const struct rp_body *b, uint32_t id,
			   const struct rp_btf_field *f)
{
	char name[RP_BTF_TYPE_MAX];

	snprintf(name, sizeof(name), "%s", f->name);
	rp_dims(b->l->btf, id, rp_flexible(b, f), name, sizeof(name));
	printf("} %s; /* %5u %5u */\n", name, b->base + f->offset, f->size);
}

/* An anonymous struct, union or enum, in place: "union {" ... "};" */
static void rp_member_inline(struct rp_body *b, const struct rp_btf_field *f)
{
	const struct btf *btf = b->l->btf;
	const struct btf_type *t = btf__type_by_id(btf, f->inner);
	struct rp_btf_layout nested = { .align = 0 };
	struct rp_body in = *b;
	char quals[32], text[128];
	uint32_t id = f->type;
	int unseen;

	rp_quals(btf, &id, quals, sizeof(quals));
	rp_line_start(b, b->base + f->offset);
	printf("%s", quals);
	if (btf_is_any_enum(t)) {
		rp_member_enum(b, f, t);
		return;
	}
	printf("%s {\n", btf_is_union(t) ? "union" : "struct");
	if (!rp_btf_layout_get(btf, f->inner, &nested)) {
		nested.packed |= rp_btf_layout_packs(b->l, f);
		in.l = &nested;
		in.base = b->base + f->offset;
		in.depth = b->depth + 1;
		in.pending = false;
		in.in_union = b->in_union || nested.is_union;
		/* ("const " narrows pahole's columns inside) */
		in.narrow = b->narrow + (int)strlen(quals);
		in.comment_col = b->comment_col - (int)strlen(quals);
		rp_body_print(&in);
	}
	unseen = rp_close(text, sizeof(text), &nested, f->name);
	rp_btf_layout_free(&nested);
	rp_indent(b->depth);
	if (f->array)
		rp_array_close(b, id, f);
	else
		rp_line_end(b, text, unseen, b->base + f->offset, f);
}

/* pahole's last_size: the size of the member that began the last offset */
static void rp_last_size(struct rp_body *b, const struct rp_btf_field *last,
			 const struct rp_btf_field *f)
{
	if (!last || !b->last_size || last->offset != f->offset ||
	    (!last->bit_size && f->bit_size))
		b->last_size = f->size;
}

/* Members, offsets from the outermost type's start. */
static void rp_body_print(struct rp_body *b)
{
	const struct rp_btf_layout *l = b->l;
	struct rp_btf_field pre = { .hole = l->pre_hole,
				    .bit_hole = l->pre_bit_hole };
	const struct rp_btf_field *f, *last = NULL;
	uint32_t cacheline = *b->cacheline;
	unsigned int i;

	rp_member_notes(b, &pre);
	for (i = 0; i < l->nfields; i++, last = f) {
		f = &l->fields[i];
		if (last && b->last_size && !l->is_union)
			rp_bitfield_notes(b, last, f);
		if (b->pending)
			putchar('\n');
		b->pending = false;
		if (f->expand)
			rp_member_inline(b, f);
		else
			rp_member_line(b, f);
		if (l->is_union)	/* each member starts where the union does */
			*b->cacheline = cacheline;
		else
			rp_member_notes(b, f);
		rp_last_size(b, last, f);
	}
}
/*
 * One of pahole's summary lines: its lead, then what it adds when there
 * is more to say ("sum members: 9675" ", holes: 19, sum holes: 101").
 */
static void rp_sum_line(bool more, const char *lead, const char *with,
			const char *without)
{
	printf("\t/* %s%s */\n", lead, more ? with : without);
}

/* pahole's summary, whose lines it prints only when they say something */
static void rp_summary_holes(const struct rp_btf_layout *l)
{
	char lead[64], with[96], without[32];

	if (!l->sum_holes && !l->sum_bit_holes)
		return;
	snprintf(lead, sizeof(lead), "sum members: %u", l->sum_bytes);
	snprintf(with, sizeof(with), ", holes: %u, sum holes: %u", l->nr_holes,
		 l->sum_holes);
	if (l->sum_bytes)
		rp_sum_line(l->sum_holes, lead, with, "");
	snprintf(lead, sizeof(lead), "sum bitfield members: %u bits",
		 l->sum_bits);
	snprintf(with, sizeof(with), ", bit holes: %u, sum bit holes: %u bits",
		 l->nr_bit_holes, l->sum_bit_holes);
	snprintf(without, sizeof(without), " (%u bytes)", l->sum_bits / 8);
	if (l->sum_bits)
		rp_sum_line(l->sum_bit_holes, lead, with, without);
}

static void rp_summary(const struct rp_btf_layout *l)
{
	char lead[64], with[96];

	printf("\n\t/* size: %u, cachelines: %u, members: %u */\n", l->size,
	       (l->size + RP_CACHELINE - 1) / RP_CACHELINE, l->nfields);
	rp_summary_holes(l);
	if (l->padding)
		printf("\t/* padding: %u */\n", l->padding);
	if (l->nr_paddings)
		printf("\t/* paddings: %u, sum paddings: %u */\n",
		       l->nr_paddings, l->sum_paddings);
	if (l->bit_padding)
		printf("\t/* bit_padding: %u bits */\n", l->bit_padding);
	snprintf(lead, sizeof(lead), "forced alignments: %u", l->nr_forced);
	snprintf(with, sizeof(with), ", forced holes: %u, sum forced holes: %u",
		 l->nr_forced_holes, l->sum_forced_holes);
	if (l->nr_forced)
		rp_sum_line(l->nr_forced_holes, lead, with, "");
	if (l->size % RP_CACHELINE)
		printf("\t/* last cacheline: %u bytes */\n",
		       l->size % RP_CACHELINE);
}

/*
 * "struct path {" ... "};", or "typedef struct {" ... "} atomic_t;". A
 * union gets the size line too, which pahole leaves out.
 */
static void rp_layout_text(const struct rp_btf_layout *l, const char *tdef)
{
	const struct btf_type *t = btf__type_by_id(l->btf, l->id);
	const char *name = rp_btf_str(l->btf, t->name_off);
	uint32_t cacheline = 0;
	struct rp_body b = { .l = l, .depth = 1, .cacheline = &cacheline,
			     .comment_col = RP_COMMENT_COL - 2 * l->is_union,
			     .in_union = l->is_union };
	char close[128];

	printf("%s%s%s%s {\n", tdef ? "typedef " : "", l->is_union ? "union" :
	       "struct", name[0] ? " " : "", name);
	rp_body_print(&b);
	if (l->is_union)
		printf("\n\t/* size: %u, cachelines: %u, members: %u */\n",
		       l->size, (l->size + RP_CACHELINE - 1) / RP_CACHELINE,
		       l->nfields);
	else
		rp_summary(l);
	rp_close(close, sizeof(close), l, tdef ? tdef : "");
	printf("%s\n", close);
}

/* --- JSON --- */

static void rp_json_fields(const struct rp_btf_layout *l, uint32_t base);

static void rp_json_holes(const struct rp_btf_layout *l, uint32_t base)
{
	struct json *j = &rp_json;
	const struct rp_btf_field *f, *next;
	unsigned int i;

	json_key(j, "holes");
	json_arr_open(j);
	for (i = 0; i <= l->nfields && l->nfields; i++) {
		f = i ? &l->fields[i - 1] : NULL;
		next = i < l->nfields ? &l->fields[i] : NULL;
		if (f ? !f->hole && !f->bit_hole : !l->pre_hole && !l->pre_bit_hole)
			continue;
		json_obj_open(j);
		json_key(j, "after");
		if (f)
			json_str(j, f->name);
		else
			json_null(j);
		json_key(j, "index");	/* of "after": names may repeat ("") */
		if (f)
			json_u64(j, i - 1);
		else
			json_null(j);
		if (f ? f->hole : l->pre_hole) {
			json_kv_u64(j, "offset", base + next->offset -
				    (f ? f->hole : l->pre_hole));
			json_kv_u64(j, "size", f ? f->hole : l->pre_hole);
		}
		if (f ? f->bit_hole : l->pre_bit_hole)
			json_kv_u64(j, "bits", f ? f->bit_hole : l->pre_bit_hole);
		json_obj_close(j);
	}
	json_arr_close(j);
}

static void rp_json_field(const struct rp_btf_layout *l,
			  const struct rp_btf_field *f, uint32_t base)
{
	struct json *j = &rp_json;
	char type[RP_BTF_TYPE_MAX];
	struct rp_btf_layout nested;

	json_obj_open(j);
	json_kv_str(j, "name", f->name);
	rp_btf_spell(l->btf, f->type, type, sizeof(type), 0);
	json_kv_str(j, "type", type);
	json_kv_u64(j, "offset", base + f->offset);
	json_kv_u64(j, "size", f->size);
	if (f->bit_size) {
		json_kv_u64(j, "bit_offset", f->bit_offset);
		json_kv_u64(j, "bit_size", f->bit_size);
	}
	if (f->padding)
		json_kv_u64(j, "padding", f->padding);
	if (f->expand && !rp_btf_layout_get(l->btf, f->inner, &nested)) {
		json_kv_str(j, "kind", nested.is_union ? "union" : "struct");
		rp_json_fields(&nested, base + f->offset);
		rp_btf_layout_free(&nested);
	}
	json_obj_close(j);
}

static void rp_json_fields(const struct rp_btf_layout *l, uint32_t base)
{
	struct json *j = &rp_json;
	unsigned int i;

	json_key(j, "members");
	json_arr_open(j);
	for (i = 0; i < l->nfields; i++)
		rp_json_field(l, &l->fields[i], base);
	json_arr_close(j);
	if (!l->is_union)
		rp_json_holes(l, base);
}

static void rp_json_head(const char *kind, const struct btf *btf, uint32_t id,
			 const char *module, const char *tdef)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	struct json *j = &rp_json;

	json_obj_open(j);
	json_kv_str(j, "kind", kind);
	json_kv_str(j, "name", rp_btf_str(btf, t->name_off));
	if (tdef)
		json_kv_str(j, "typedef", tdef);
	if (module[0])
		json_kv_str(j, "module", module);
}

static void rp_layout_json(const struct rp_btf_layout *l, const char *module,
			   const char *tdef)
{
	static const char *const keys[] = {
		"sum_members", "sum_holes", "sum_bitfield_members",
		"sum_bit_holes", "padding", "bit_padding",
	};
	const uint64_t sums[] = {
		l->sum_bytes, l->sum_holes, l->sum_bits, l->sum_bit_holes,
		l->padding, l->bit_padding,
	};
	struct json *j = &rp_json;
	size_t i;

	rp_json_head(l->is_union ? "union" : "struct", l->btf, l->id, module,
		     tdef);
	json_kv_u64(j, "size", l->size);
	json_kv_u64(j, "cachelines", (l->size + RP_CACHELINE - 1) / RP_CACHELINE);
	rp_json_fields(l, 0);
	for (i = 0; !l->is_union && i < ARRAY_SIZE(keys); i++)
		json_kv_u64(j, keys[i], sums[i]);
	json_obj_close(j);
	json_end_doc(j);
}

/* --- enums --- */

static int64_t rp_enum_value(const struct btf_type *t, unsigned int i)
{
	if (btf_is_enum64(t))
		return (int64_t)btf_enum64_value(btf_enum64(t) + i);
	return btf_kflag(t) ? (int64_t)btf_enum(t)[i].val :
			      (int64_t)(uint32_t)btf_enum(t)[i].val;
}

static const char *rp_enum_name(const struct btf *btf,
				const struct btf_type *t, unsigned int i)
{
	uint32_t off = btf_is_enum64(t) ? btf_enum64(t)[i].name_off :
					  btf_enum(t)[i].name_off;

	return rp_btf_str(btf, off);
}

/* A value as its enum's sign reads it: an unsigned 64-bit one stays so */
static void rp_enum_print(const struct btf_type *t, int64_t v, int width,
			  const char *name, int depth)
{
	rp_indent(depth + 1);
	if (btf_kflag(t))
		printf("%-*s = %" PRId64 ",\n", width, name, v);
	else
		printf("%-*s = %" PRIu64 ",\n", width, name, (uint64_t)v);
}

static void rp_enum_entries(const struct btf *btf, const struct btf_type *t,
			    int depth)
{
	unsigned int i, n = btf_vlen(t);
	int width = 0, len;

	for (i = 0; i < n; i++) {
		len = (int)strlen(rp_enum_name(btf, t, i));
		width = len > width ? len : width;
	}
	for (i = 0; i < n; i++)
		rp_enum_print(t, rp_enum_value(t, i), width,
			      rp_enum_name(btf, t, i), depth);
}

static void rp_enum_json(const struct btf *btf, uint32_t id,
			 const char *module, const char *tdef)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	unsigned int i, n = btf_vlen(t);
	struct json *j = &rp_json;

	rp_json_head("enum", btf, id, module, tdef);
	json_kv_u64(j, "size", t->size);
	json_kv_bool(j, "signed", btf_kflag(t));
	json_key(j, "values");
	json_arr_open(j);
	for (i = 0; i < n; i++) {
		json_obj_open(j);
		json_kv_str(j, "name", rp_enum_name(btf, t, i));
		if (btf_kflag(t))
			json_kv_s64(j, "value", rp_enum_value(t, i));
		else
			json_kv_u64(j, "value", (uint64_t)rp_enum_value(t, i));
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_close(j);
	json_end_doc(j);
}

/* As pahole: __packed__ for an enum of other than 4 bytes */
static void rp_enum_show(const struct btf *btf, uint32_t id,
			 const char *module, const char *tdef)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (rp_opts.json) {
		rp_enum_json(btf, id, module, tdef);
		return;
	}
	printf("%senum %s%s{\n", tdef ? "typedef " : "",
	       rp_btf_str(btf, t->name_off), t->name_off ? " " : "");
	rp_enum_entries(btf, t, 0);
	printf("}%s%s%s;\n", t->size != 4 ? " __attribute__((__packed__))" : "",
	       tdef ? " " : "", tdef ? tdef : "");
}

/* --- typedefs --- */

/* "typedef __u32 u32;" for a typedef of no struct, union or enum */
static void rp_typedef_show(const struct btf *btf, uint32_t id,
			    const char *module)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = rp_btf_str(btf, t->name_off);
	char type[RP_BTF_TYPE_MAX];
	long long size = btf__resolve_size(btf, id);
	struct json *j = &rp_json;

	rp_btf_spell(btf, t->type, type, sizeof(type), 0);
	if (!rp_opts.json) {
		printf("typedef %s %s;\n", type, name);
		return;
	}
	rp_json_head("typedef", btf, id, module, NULL);
	json_kv_str(j, "type", type);
	if (size >= 0)
		json_kv_u64(j, "size", (uint64_t)size);
	json_obj_close(j);
	json_end_doc(j);
}

static int rp_aggregate_show(const struct btf *btf, uint32_t id,
			     const char *module, const char *tdef)
{
	struct rp_btf_layout l;
	int err = rp_btf_layout_get(btf, id, &l);

	if (err) {
		fprintf(stderr, "rawprobectl: cannot lay out BTF type %u: %s\n",
			id, strerror(-err));
		return RP_EXIT_FAIL;
	}
	if (rp_opts.json)
		rp_layout_json(&l, module, tdef);
	else
		rp_layout_text(&l, tdef);
	rp_btf_layout_free(&l);
	return RP_EXIT_OK;
}

/*
 * A typedef shows what it names: a struct's, union's or enum's layout
 * when it ends at one, after pahole's "typedef struct seqcount
 * seqcount_t;" line if that one has a name of its own.
 */
static int rp_type_show_at(const struct btf *btf, uint32_t id,
			   const char *module, const char *tdef)
{
	uint32_t target = id;
	const struct btf_type *t = tdef ? rp_btf_skip(btf, &target) :
				   btf__type_by_id(btf, id);
	bool aggregate = t && (btf_is_struct(t) || btf_is_union(t));

	if (!t || !(aggregate || btf_is_any_enum(t))) {
		rp_typedef_show(btf, id, module);
		return RP_EXIT_OK;
	}
	if (tdef && t->name_off && !rp_opts.json) {
		rp_typedef_show(btf, id, module);
		putchar('\n');
		tdef = NULL;
	}
	if (aggregate)
		return rp_aggregate_show(btf, target, module, tdef);
	rp_enum_show(btf, target, module, tdef);
	return RP_EXIT_OK;
}

int rp_btf_type_show(enum rp_btf_tkind kind, const char *name,
		     const char *module)
{
	struct rp_btf_found f;
	int err = rp_btf_type_find(kind, name, module, &f);

	if (err)
		return RP_EXIT_FAIL;
	return rp_type_show_at(f.btf, f.id, f.module,
			       kind == RP_TK_TYPEDEF ? name : NULL);
}
