// SPDX-License-Identifier: GPL-2.0
/*
 * Field fetches and value filters, compiled from BTF (--args 'skb->len',
 * --filter 'retval < 0 && skb->len > 1000') into the small programs of
 * struct rawprobe_fetch that the kernel runs in its probe handlers
 * (probes/fetch.c). The kernel checks their shape only: every offset,
 * size and sign comes from here, from the function's prototype and the
 * types behind it, as pahole shows them.
 *
 * A path is walked from its head, a parameter (in a register: the value
 * itself) or retval, keeping where the value is: in hand, or in memory
 * at v + off once a pointer was followed. '->' follows a pointer (one
 * 8-byte load if the pointer is itself in memory), '.' adds a member's
 * offset, '[N]' an element's; at the end, a value in memory is loaded
 * at its size (a bitfield: the fewest bytes that hold it), and a char
 * array is a string at v + off, not loaded at all.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resolve/btf_int.h"
#include "lib/cli.h"
#include "resolve/fetch.h"
#include "lib/names.h"
#include "lib/path.h"
#include "lib/symbols.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define RP_CONST_MAX	32	/* a constant as written, with its NUL */

/* What paths are compiled against: the probed function's prototype. */
struct rp_fctx {
	unsigned int kind;		/* enum rawprobe_kind: retval or not */
	const char *function;
	const struct rp_btf_proto *pr;	/* NULL: no BTF (argN, retval only) */
	const char *what;		/* for messages: "--args 'skb->len'" */
	bool what_names_it;		/* ...which names the whole path */
	bool quiet;			/* labels: a path that fails says nothing */
};

/* A value, compiled. */
struct rp_operand {
	struct rawprobe_fetch f;
	uint32_t type;		/* its BTF type, modifiers skipped; 0: unknown */
	uint32_t declared;	/* as declared (a typedef's name, for messages) */
	unsigned char argtype;	/* enum rawprobe_argtype */
};

/* Where the walk of a path is. */
struct rp_walk {
	const struct rp_fctx *cx;
	const struct rp_path *p;
	const struct btf *btf;
	struct rawprobe_fetch *f;
	uint32_t type;		/* of the value so far; 0: unknown (raw) */
	bool mem;		/* it is in memory at v + off, not v itself */
	int64_t off;
	unsigned int bit, bits;	/* a bitfield: its first bit past off, width */
	size_t at;		/* the path so far: text[0..at), for messages */
};

/* --- messages --- */

static int rp_fetch_error(const struct rp_fctx *cx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rp_fetch_error(const struct rp_fctx *cx, const char *fmt, ...)
{
	va_list ap;

	if (cx->quiet)
		return RP_EXIT_USAGE;
	fprintf(stderr, "rawprobectl: %s: ", cx->what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RP_EXIT_USAGE;
}

/* "'skb->dev' <what is wrong with it>": the value the walk is at */
static int rp_walk_error(const struct rp_walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rp_walk_error(const struct rp_walk *w, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w->cx->what_names_it && w->at == strlen(w->p->text))
		return rp_fetch_error(w->cx, "%s", msg);
	return rp_fetch_error(w->cx, "'%.*s' %s", (int)w->at, w->p->text, msg);
}

static const char *rp_walk_spell(const struct rp_walk *w, uint32_t id,
				 char *buf)
{
	rp_btf_spell(w->btf, id, buf, RP_BTF_TYPE_MAX, 0);
	return buf;
}

/* --- BTF --- */

typedef bool (*rp_member_fn)(void *ctx, const char *name, uint32_t bitoff,
			     uint32_t type, uint32_t bitsize);

/*
 * Every named member of struct or union t, with its bit offset from
 * base: those of anonymous members too, which C names as t's own
 * (skb->dev is in an anonymous union). Stops when fn says so.
 */
static bool rp_btf_each_member(const struct btf *btf, const struct btf_type *t,
			       uint32_t base, rp_member_fn fn, void *ctx,
			       int depth)
{
	const struct btf_member *m = btf_members(t);
	unsigned int i, n = btf_vlen(t);
	const struct btf_type *in;
	const char *name;
	uint32_t off, id;

	for (i = 0; i < n; i++) {
		name = rp_btf_str(btf, m[i].name_off);
		off = base + btf_member_bit_offset(t, i);
		if (*name) {
			if (fn(ctx, name, off, m[i].type,
			       btf_member_bitfield_size(t, i)))
				return true;
			continue;
		}
		id = m[i].type;
		in = rp_btf_skip(btf, &id);
		if (in && btf_is_composite(in) && depth < RP_BTF_DEPTH &&
		    rp_btf_each_member(btf, in, off, fn, ctx, depth + 1))
			return true;
	}
	return false;
}

struct rp_member {
	const char *name;
	uint32_t bitoff, type, bitsize;
};

static bool rp_member_is(void *ctx, const char *name, uint32_t bitoff,
			 uint32_t type, uint32_t bitsize)
{
	struct rp_member *m = ctx;

	if (strcmp(name, m->name))
		return false;
	m->bitoff = bitoff;
	m->type = type;
	m->bitsize = bitsize;
	return true;
}

struct rp_near_names {
	const char *query;
	struct rp_btf_near best[RP_BTF_NEAR];
	int n;
};

static bool rp_member_near(void *ctx, const char *name, uint32_t bitoff,
			   uint32_t type, uint32_t bitsize)
{
	struct rp_near_names *nn = ctx;
	int score = rp_near_score(nn->query, name);

	(void)bitoff;
	(void)type;
	(void)bitsize;
	if (score >= 0)
		rp_btf_near_add(nn->best, &nn->n, score, name);
	return false;
}

/* Is the pointer's target __user (a type tag "user" on the way)? */
static bool rp_btf_user(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	int depth;

	for (depth = 0; id && depth < RP_BTF_DEPTH; depth++) {
		t = btf__type_by_id(btf, id);
		if (!t || !(btf_is_mod(t) || btf_is_typedef(t)))
			return false;
		if (btf_is_type_tag(t) &&
		    !strcmp(rp_btf_str(btf, t->name_off), "user"))
			return true;
		id = t->type;
	}
	return false;
}

static bool rp_btf_signed(const struct btf_type *t)
{
	if (btf_is_int(t))
		return btf_int_encoding(t) & BTF_INT_SIGNED;
	return btf_is_any_enum(t) && btf_kflag(t);
}

/* --- walking a path --- */

/* Offsets are s32 in struct rawprobe_fetch; types are far smaller */
static int rp_walk_range(const struct rp_walk *w)
{
	if (w->off > INT32_MAX || w->off < INT32_MIN)
		return rp_walk_error(w, "is %" PRId64 " bytes away from its "
				     "pointer: more than a fetch's offset holds",
				     w->off);
	return 0;
}

/* One more read of memory: size bytes at v + off */
static int rp_walk_load(struct rp_walk *w, unsigned int size)
{
	struct rawprobe_fetch *f = w->f;

	if (f->nloads == RAWPROBE_FETCH_MAX_LOADS) {
		w->at = strlen(w->p->text);
		return rp_walk_error(w, "needs more than %d reads of memory "
				     "(each pointer followed, and the value): "
				     "rawprobe does at most %d "
				     "(RAWPROBE_FETCH_MAX_LOADS)",
				     RAWPROBE_FETCH_MAX_LOADS,
				     RAWPROBE_FETCH_MAX_LOADS);
	}
	if (rp_walk_range(w))
		return RP_EXIT_USAGE;
	f->off[f->nloads++] = (int32_t)w->off;
	f->size = (uint8_t)size;
	return 0;
}

static int rp_walk_untyped(const struct rp_walk *w)
{
	return rp_walk_error(w, "has no type known to BTF here: rawprobe "
			     "cannot follow it");
}

/* v is a pointer: what it points to is now in memory at v + 0 */
static int rp_walk_deref(struct rp_walk *w)
{
	char ty[RP_BTF_TYPE_MAX];
	const struct btf_type *t;
	uint32_t id = w->type;

	if (!id)
		return rp_walk_untyped(w);
	t = rp_btf_skip(w->btf, &id);
	if (!t || !btf_is_ptr(t))
		return rp_walk_error(w, "is %s, not a pointer",
				     rp_walk_spell(w, w->type, ty));
	/* copy_from_kernel_nofault() refuses user addresses: always 0 */
	if (rp_btf_user(w->btf, t->type))
		return rp_walk_error(w, "is a user-space pointer (__user): "
				     "rawprobe reads kernel memory only");
	if (w->mem && rp_walk_load(w, 8))
		return RP_EXIT_USAGE;
	w->mem = true;
	w->off = 0;
	w->bit = w->bits = 0;
	w->type = t->type;
	return 0;
}

static int rp_walk_no_member(const struct rp_walk *w, const struct btf_type *t,
			     const char *name)
{
	struct rp_near_names nn = { .query = name };
	int rc;

	rc = rp_walk_error(w, "(%s %s) has no member '%s'", rp_btf_tag(t),
			   t->name_off ? rp_btf_str(w->btf, t->name_off) :
			   "{...}", name);
	if (!w->cx->quiet) {
		rp_btf_each_member(w->btf, t, 0, rp_member_near, &nn, 0);
		rp_btf_near_print(nn.best, nn.n);
	}
	return rc;
}

/* '.' MEMBER, or '->' MEMBER once the pointer was followed (arrow) */
static int rp_walk_member(struct rp_walk *w, const char *name, bool arrow)
{
	struct rp_member m = { .name = name };
	char ty[RP_BTF_TYPE_MAX];
	const struct btf_type *t;
	uint32_t id = w->type;

	if (!id)
		return rp_walk_untyped(w);
	t = rp_btf_skip(w->btf, &id);
	if (!arrow && t && btf_is_ptr(t))
		return rp_walk_error(w, "is a pointer: '%.*s->%s' follows it",
				     (int)w->at, w->p->text, name);
	if (!t || !btf_is_composite(t))
		return rp_walk_error(w, "%s %s, not a struct or union: it has "
				     "no member '%s'", arrow ? "points to" : "is",
				     rp_walk_spell(w, w->type, ty), name);
	if (!w->mem)
		return rp_walk_error(w, "is a struct passed by value: rawprobe "
				     "cannot read its members");
	if (!rp_btf_each_member(w->btf, t, 0, rp_member_is, &m, 0))
		return rp_walk_no_member(w, t, name);
	/* an old-style bitfield: the bits are its int type's encoding */
	id = m.type;
	t = rp_btf_skip(w->btf, &id);
	if (!m.bitsize && t && btf_is_int(t) && btf_int_bits(t) != t->size * 8) {
		m.bitsize = btf_int_bits(t);
		m.bitoff += btf_int_offset(t);
	}
	w->off += m.bitoff / 8;
	w->bit = m.bitoff % 8;
	w->bits = m.bitsize;
	w->type = m.type;
	return rp_walk_range(w);
}

/* [N] of an array in memory, or of what a pointer points to */
static int rp_walk_index(struct rp_walk *w, uint32_t n)
{
	char ty[RP_BTF_TYPE_MAX];
	const struct btf_type *t;
	uint32_t id = w->type;
	int64_t size;

	if (!id)
		return rp_walk_untyped(w);
	t = rp_btf_skip(w->btf, &id);
	if (t && btf_is_array(t) && w->mem) {
		const struct btf_array *a = btf_array(t);

		if (a->nelems && n >= a->nelems)
			return rp_walk_error(w, "has %u elements: [%u] is past "
					     "its end", a->nelems, n);
		size = btf__resolve_size(w->btf, a->type);
		w->type = a->type;
	} else if (t && btf_is_ptr(t)) {
		size = btf__resolve_size(w->btf, t->type);
		if (size > 0 && rp_walk_deref(w))
			return RP_EXIT_USAGE;
	} else {
		return rp_walk_error(w, "is %s, not an array or a pointer: it "
				     "has no [%u]", rp_walk_spell(w, w->type, ty),
				     n);
	}
	if (size <= 0)
		return rp_walk_error(w, "is %s: its elements have no size",
				     rp_walk_spell(w, w->type, ty));
	w->off += (int64_t)n * size;
	w->bit = w->bits = 0;
	return rp_walk_range(w);
}

/* The parameter called name (or argN): its index, or -1 */
static int rp_param_index(const struct rp_btf_proto *pr, const char *name)
{
	unsigned int i;
	unsigned long v;
	char *end;

	for (i = 0; pr && i < pr->nparams && i < RP_BTF_PARAMS_MAX; i++)
		if (!strcmp(pr->params[i].name, name))
			return (int)i;
	if (strncmp(name, "arg", 3) || !isdigit((unsigned char)name[3]))
		return -1;
	v = strtoul(name + 3, &end, 10);
	return *end || v > 64 ? -1 : (int)v;
}

/* What the task filters (--pid, --tgid, --comm, --cpu) test */
static bool rp_task_word(const char *s)
{
	return !strcmp(s, "pid") || !strcmp(s, "tgid") ||
	       !strcmp(s, "comm") || !strcmp(s, "cpu");
}

static int rp_head_unknown(const struct rp_walk *w)
{
	const struct rp_btf_proto *pr = w->cx->pr;
	char list[RP_BTF_PARAMS_MAX * (RP_BTF_NAME_MAX + 2)] = "";
	size_t at = 0;
	unsigned int i;

	if (!pr)
		return rp_walk_error(w, "is not argN or retval (with no BTF of "
				     "%s, those are all there is)",
				     w->cx->function);
	for (i = 0; i < pr->nparams && i < RP_BTF_PARAMS_MAX; i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
				       i ? ", " : "", pr->params[i].name);
	if (rp_task_word(w->p->head))
		return rp_walk_error(w, "is not an argument of %s (%s%s): the "
				     "task's %s is --%s, an option of its own",
				     w->cx->function, pr->nparams ?
				     "its arguments: " : "it takes none", list,
				     w->p->head, w->p->head);
	return rp_walk_error(w, "is not an argument of %s (%s%s), nor argN "
			     "or retval", w->cx->function, pr->nparams ?
			     "its arguments: " : "it takes none", list);
}

static int rp_walk_retval(struct rp_walk *w)
{
	const struct rp_btf_proto *pr = w->cx->pr;

	if (w->cx->kind != RAWPROBE_KIND_KRETPROBE)
		return rp_walk_error(w, "is only known to kretprobes, at "
				     "return (this is a %s)",
				     rp_kind_name(w->cx->kind));
	if (pr && !pr->ret_id && !strcmp(pr->ret, "void"))
		return rp_walk_error(w, "is nothing: %s returns void",
				     w->cx->function);
	w->f->src = RAWPROBE_FETCH_RETVAL;
	w->type = pr ? pr->ret_id : 0;
	return 0;
}

static int rp_walk_head(struct rp_walk *w)
{
	const struct rp_btf_proto *pr = w->cx->pr;
	int i, k;

	if (!strcmp(w->p->head, "retval"))
		return rp_walk_retval(w);
	i = rp_param_index(pr, w->p->head);
	if (i < 0)
		return rp_head_unknown(w);
	if (i >= RAWPROBE_MAX_ARGS)
		return rp_walk_error(w, "is argument %d of %s: rawprobe reads "
				     "the first %d", i + 1, w->cx->function,
				     RAWPROBE_MAX_ARGS);
	/* past an argument that is no register's, none is where we read */
	for (k = 0; pr && k <= i && k < (int)pr->nparams; k++)
		if (pr->params[k].fit == RP_FIT_STOP)
			return rp_walk_error(w, "is not in the register rawprobe "
					     "reads for it: '%s %s' before it is "
					     "not one general register's value",
					     pr->params[k].type,
					     pr->params[k].name);
	w->f->src = (uint8_t)i;
	w->type = pr && (unsigned int)i < pr->nparams ? pr->params[i].type_id : 0;
	return 0;
}

static int rp_walk_step(struct rp_walk *w, const struct rp_path_step *st)
{
	switch (st->op) {
	case '>':
		return rp_walk_deref(w) ?: rp_walk_member(w, st->name, true);
	case '.':
		return rp_walk_member(w, st->name, false);
	default:
		return rp_walk_index(w, st->index);
	}
}

/* A value with no type known (no BTF): a register, as it is */
static int rp_walk_raw(struct rp_walk *w, int want, struct rp_operand *o)
{
	bool ret = w->f->src == RAWPROBE_FETCH_RETVAL;

	w->f->size = 8;
	if (ret)	/* what regs_return_value() gives: a long */
		w->f->flags |= RAWPROBE_FETCH_SIGNED;
	o->argtype = want >= 0 ? (unsigned char)want :
		     ret ? RAWPROBE_ARG_S64 : RAWPROBE_ARG_U64;
	return 0;
}

static bool rp_is_str_type(int type)
{
	return type == RAWPROBE_ARG_KSTR || type == RAWPROBE_ARG_USTR;
}

/* What the record's string area carries: strings, an IPv6 address. */
static bool rp_is_area_type(int type)
{
	return rp_is_str_type(type) || type == RAWPROBE_ARG_IP6;
}

/*
 * An array: a char array is a string, at v + off (no load: add is its
 * address); :ptr or :u64 give that address.
 */
static int rp_walk_array_end(struct rp_walk *w, const struct btf_type *t,
			     int want, struct rp_operand *o)
{
	uint32_t elem = btf_array(t)->type;
	const struct btf_type *e = rp_btf_skip(w->btf, &elem);
	bool chars = e && btf_is_int(e) && e->size == 1;
	char ty[RP_BTF_TYPE_MAX];

	rp_walk_spell(w, w->type, ty);
	if (want == RAWPROBE_ARG_USTR || want == RAWPROBE_ARG_S32 ||
	    want == RAWPROBE_ARG_U32 || want == RAWPROBE_ARG_S64)
		return rp_walk_error(w, "is an array (%s): ':str' takes it as "
				     "a string, ':ptr' its address", ty);
	if (!chars && (want < 0 || want == RAWPROBE_ARG_KSTR))
		return rp_walk_error(w, "is %s, %s: name an element "
				     "('%s[0]') or its address (':ptr')", ty,
				     want < 0 ? "an array" :
				     "not a char array: no string",
				     w->p->text);
	o->argtype = want < 0 ? RAWPROBE_ARG_KSTR : (unsigned char)want;
	if (rp_walk_range(w))
		return RP_EXIT_USAGE;
	w->f->add = (int32_t)w->off;
	w->f->size = 8;		/* an address, or the pointer loaded last */
	return 0;
}

/* The smallest load of 1, 2, 4 or 8 bytes that holds that many bits */
static unsigned int rp_cover(unsigned int bits)
{
	unsigned int bytes = (bits + 7) / 8;

	return bytes <= 2 ? bytes : bytes <= 4 ? 4 : 8;
}

/* An integer, an enum or a pointer: loaded at its size, if in memory */
static int rp_walk_scalar_end(struct rp_walk *w, const struct btf_type *t,
			      int want, struct rp_operand *o)
{
	unsigned int size = btf_is_ptr(t) ? 8 : t->size;
	struct rawprobe_fetch *f = w->f;
	char ty[RP_BTF_TYPE_MAX];

	rp_walk_spell(w, w->type, ty);
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return rp_walk_error(w, "is %s, of %u bytes: rawprobe reads 1, "
				     "2, 4 or 8", ty, size);
	if (rp_is_str_type(want) && !btf_is_ptr(t))
		return rp_walk_error(w, "is %s: a string is a char array or a "
				     "pointer", ty);
	rp_btf_fit(w->btf, w->type, &o->argtype);
	if (want >= 0)
		o->argtype = (unsigned char)want;
	if (rp_btf_signed(t))
		f->flags |= RAWPROBE_FETCH_SIGNED;
	if (w->bits) {
		/* (little-endian: the low bytes loaded hold the low bits) */
		if (w->bit + w->bits > 64)
			return rp_walk_error(w, "is a bitfield across 9 bytes: "
					     "rawprobe reads at most 8");
		size = rp_cover(w->bit + w->bits);
		f->bit_off = (uint8_t)w->bit;
		f->bit_size = (uint8_t)w->bits;
	}
	if (!w->mem) {		/* the argument itself: its register, cut */
		f->size = (uint8_t)size;
		return 0;
	}
	return rp_walk_load(w, size);
}

/*
 * :ip6, the kernel copies 16 bytes from an address: a struct in6_addr's
 * (or any 16-byte field's) in memory, no load; a pointer's value.
 */
static int rp_walk_ip6_end(struct rp_walk *w, const struct btf_type *t,
			   uint32_t id, struct rp_operand *o)
{
	char ty[RP_BTF_TYPE_MAX];

	if (btf_is_ptr(t))
		return rp_walk_scalar_end(w, t, RAWPROBE_ARG_IP6, o);
	rp_walk_spell(w, w->type, ty);
	if ((!btf_is_composite(t) && !btf_is_array(t)) ||
	    btf__resolve_size(w->btf, id) != 16)
		return rp_walk_error(w, "is %s: ':ip6' takes a 16-byte address "
				     "(struct in6_addr) or a pointer to one", ty);
	if (!w->mem)
		return rp_walk_error(w, "is a struct passed by value: ':ip6' "
				     "reads one in memory");
	o->argtype = RAWPROBE_ARG_IP6;
	if (rp_walk_range(w))
		return RP_EXIT_USAGE;
	w->f->add = (int32_t)w->off;
	w->f->size = 8;		/* an address, or the pointer loaded last */
	return 0;
}

static int rp_walk_end(struct rp_walk *w, int want, struct rp_operand *o)
{
	char ty[RP_BTF_TYPE_MAX];
	const struct btf_type *t;
	uint32_t id = w->type;

	w->at = strlen(w->p->text);
	if (!id)
		return rp_walk_raw(w, want, o);
	t = rp_btf_skip(w->btf, &id);
	o->type = id;
	o->declared = w->type;
	if (!t)
		return rp_walk_error(w, "is void: there is no value to read");
	if (want == RAWPROBE_ARG_IP6)
		return rp_walk_ip6_end(w, t, id, o);
	if (btf_is_array(t))
		return rp_walk_array_end(w, t, want, o);
	if (btf_is_composite(t))
		return rp_walk_error(w, "is a %s: name one of its fields",
				     rp_walk_spell(w, w->type, ty));
	if (!btf_is_ptr(t) && !btf_is_int(t) && !btf_is_any_enum(t))
		return rp_walk_error(w, "is %s: rawprobe records integers, "
				     "pointers and strings",
				     rp_walk_spell(w, w->type, ty));
	return rp_walk_scalar_end(w, t, want, o);
}

/* A path into a program; want: a :TYPE given, or -1 */
static int rp_operand_compile(const struct rp_fctx *cx, const struct rp_path *p,
			      int want, struct rp_operand *o)
{
	struct rp_walk w = {
		.cx = cx, .p = p, .btf = cx->pr ? cx->pr->btf : NULL,
		.f = &o->f, .at = strlen(p->head),
	};
	unsigned int k;
	int rc;

	memset(o, 0, sizeof(*o));
	rc = rp_walk_head(&w);
	for (k = 0; !rc && k < p->nsteps; k++) {
		w.at = rp_path_prefix(p, (int)k - 1);
		rc = rp_walk_step(&w, &p->steps[k]);
	}
	return rc ?: rp_walk_end(&w, want, o);
}

int rp_fetch_path_type(const struct rp_btf_proto *pr, unsigned int kind,
		       const char *path, size_t len, uint32_t *type)
{
	struct rp_fctx cx = { .kind = kind, .pr = pr, .quiet = true };
	char buf[RAWPROBE_ARG_NAMES_LEN];
	const char *c = buf;
	struct rp_operand o;
	struct rp_path p;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, path, len);
	buf[len] = '\0';
	if (rp_path_parse(&c, &p) || *c || rp_operand_compile(&cx, &p, -1, &o))
		return -1;
	*type = o.type;
	return 0;
}

/* --- --args by name --- */

/* How the text at is wrong, where a path (or what follows it) is */
static int rp_syntax_error(const struct rp_fctx *cx, const struct rp_path *p,
			   const char *at, int err)
{
	if (err == -ERANGE)
		return rp_fetch_error(cx, "too long at '%s' (names of at most "
				      "%d characters, %d steps, indexes below "
				      "2^31, %d characters in all)", at,
				      RP_PATH_NAME_MAX - 1, RP_PATH_STEPS_MAX,
				      RAWPROBE_ARG_NAMES_LEN - 1);
	if (err)
		return rp_fetch_error(cx, "expected a name%s %s%s%s", p->text[0] ?
				      " or an index" : " (an argument's)",
				      *at ? "at '" : "at the end", at,
				      *at ? "'" : "");
	return rp_fetch_error(cx, "unexpected '%s' after '%s' (a path is "
			      "ARG, then ->MEMBER, .MEMBER or [N], then :TYPE "
			      "if any)", at, p->text);
}

static char *rp_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/*
 * One element of --args: PATH[:TYPE[:LEN]]; LEN, the name of another
 * element whose value bounds a string's length, goes to len (or "").
 */
static int rp_arg_compile(const struct rp_fctx *cx, const char *elem,
			  struct rp_path *p, struct rp_operand *o, char *len,
			  size_t len_size)
{
	char type[16];
	const char *c = elem, *l;
	int want = -1, err;

	len[0] = '\0';
	err = rp_path_parse(&c, p);
	if (err || (*c && *c != ':'))
		return rp_syntax_error(cx, p, c, err);
	if (*c == ':') {
		l = strchr(c + 1, ':');
		snprintf(type, sizeof(type), "%.*s",
			 (int)(l ? l - c - 1 : (long)strlen(c + 1)), c + 1);
		if (l)
			snprintf(len, len_size, "%s", l + 1);
		want = strlen(type) < sizeof(type) - 1 ?
		       rp_argtype_parse(rp_trim(type)) : -1;
		if (want < 0)
			return rp_fetch_error(cx, "unknown type '%s' (u64, s64, "
					      "s32, u32, ptr, str, ustr, hex, "
					      "ksym, ip4, be16, be32, ip6)", c + 1);
	}
	return rp_operand_compile(cx, p, want, o);
}

/*
 * Several strings share the record's string area, read together (at a
 * kretprobe's entry): one read from the return value, at return, is its
 * probe's only string (the kernel's rule).
 */
static int rp_args_strings(const struct rp_probe_req *r,
			   char names[][RAWPROBE_ARG_NAMES_LEN])
{
	int i, nstr = 0, ret = -1;

	for (i = 0; i < r->nargs; i++) {
		if (!rp_is_area_type(r->argtypes[i]))
			continue;
		nstr++;
		if (r->fetch[i].src == RAWPROBE_FETCH_RETVAL)
			ret = i;
	}
	if (nstr > 1 && ret >= 0)
		return rp_usage_error("--args: '%s' is read from the return "
				      "value, at return, where the other "
				      "strings are not: it is its probe's only "
				      "string", names[ret]);
	return RP_EXIT_OK;
}

/*
 * buf:str:count: LEN names another element of the list, an integer one,
 * whose value the kernel takes as the string's length (it stops at a NUL
 * before it, and at --strmax).
 */
static int rp_args_lens(struct rp_probe_req *r,
			char names[][RAWPROBE_ARG_NAMES_LEN],
			char lens[][RAWPROBE_ARG_NAMES_LEN])
{
	int i, j;

	memset(r->str_len_arg, 0, sizeof(r->str_len_arg));
	for (i = 0; i < r->nargs; i++) {
		if (!lens[i][0])
			continue;
		if (!rp_is_str_type(r->argtypes[i]))
			return rp_usage_error("--args '%s:...:%s': a length is "
					      "for a string (:str, :ustr)",
					      names[i], lens[i]);
		for (j = 0; j < r->nargs; j++)
			if (j != i && !strcmp(names[j], lens[i]))
				break;
		if (j == r->nargs)
			return rp_usage_error("--args: '%s', the length of '%s', "
					      "is not in the list: add it "
					      "('%s:str:%s,%s')", lens[i],
					      names[i], names[i], lens[i],
					      lens[i]);
		if (rp_is_area_type(r->argtypes[j]) ||
		    r->argtypes[j] == RAWPROBE_ARG_PTR)
			return rp_usage_error("--args: '%s', the length of '%s', "
					      "is a %s: a length is an integer",
					      lens[i], names[i],
					      rp_argtype_name(r->argtypes[j]));
		r->str_len_arg[i] = (uint8_t)(j + 1);
	}
	return RP_EXIT_OK;
}

/* "a,b,c", the names sent: paths without spaces, one per argument */
static int rp_args_names(struct rp_probe_req *r,
			 char names[][RAWPROBE_ARG_NAMES_LEN])
{
	size_t at = 0;
	int i;

	r->arg_names[0] = '\0';
	for (i = 0; i < r->nargs; i++) {
		at += (size_t)snprintf(r->arg_names + at,
				       at < sizeof(r->arg_names) ?
				       sizeof(r->arg_names) - at : 0,
				       "%s%s", i ? "," : "", names[i]);
		if (at >= sizeof(r->arg_names))
			return rp_usage_error("--args '%s': its paths take %zu "
					      "characters or more: the kernel "
					      "keeps %d (RAWPROBE_ARG_NAMES_LEN)",
					      r->args_by_name, at,
					      RAWPROBE_ARG_NAMES_LEN - 1);
	}
	return RP_EXIT_OK;
}

int rp_fetch_args_compile(struct rp_probe_req *r)
{
	char spec[RP_ARGSPEC_MAX], *rest = spec, *elem;
	char names[RAWPROBE_MAX_ARGS][RAWPROBE_ARG_NAMES_LEN];
	char lens[RAWPROBE_MAX_ARGS][RAWPROBE_ARG_NAMES_LEN];
	char what[RP_ARGSPEC_MAX + 16];
	struct rp_fctx cx = { .kind = (unsigned int)r->kind,
			      .function = r->symbol, .what = what,
			      .what_names_it = true };
	struct rp_btf_proto pr;
	struct rp_operand o;
	struct rp_path p;
	int n = 0, rc, err;

	rc = rp_entry_check(r, "--args by name");
	if (rc)
		return rc;
	err = rp_btf_proto_get(r->symbol, r->module, &pr, true);
	if (err)
		return rp_exit_from_errno(err);
	cx.pr = &pr;
	snprintf(spec, sizeof(spec), "%s", r->args_by_name);
	while ((elem = strsep(&rest, ","))) {
		elem = rp_trim(elem);
		snprintf(what, sizeof(what), "--args '%s'", elem);
		if (n == RAWPROBE_MAX_ARGS)
			return rp_usage_error("--args '%s': more than %d "
					      "arguments", r->args_by_name,
					      RAWPROBE_MAX_ARGS);
		rc = rp_arg_compile(&cx, elem, &p, &o, lens[n], sizeof(lens[n]));
		if (rc)
			return rc;
		snprintf(names[n], sizeof(names[n]), "%s", p.text);
		r->fetch[n] = o.f;
		r->argtypes[n++] = o.argtype;
	}
	r->nargs = n;
	r->nfetch = (uint8_t)n;
	if (pr.syscall)
		r->flags |= RAWPROBE_F_SYSCALL;
	return rp_args_names(r, names) ?: rp_args_strings(r, names) ?:
	       rp_args_lens(r, names, lens);
}

int rp_fetch_labels_compile(struct rp_probe_req *r)
{
	struct rp_btf_proto pr;

	if (!r->symbol[0] || r->offset ||
	    rp_btf_proto_get(r->symbol, r->module, &pr, false)) {
		r->args_by_name[0] = '\0';
		return RP_EXIT_OK;
	}
	return rp_fetch_args_compile(r);
}

/*
 * Not a count nor a type: a parameter's name, resolved by name. C's
 * type words are no parameter's: "s32,float" is a type list, wrong.
 */
static bool rp_arg_is_name(const char *elem, size_t len)
{
	static const char *const ctypes[] = {
		"char", "short", "float", "double", "void", "signed",
		"unsigned", "bool", "_Bool",
	};
	char word[16];
	size_t i;

	if (!len || memchr(elem, ':', len))
		return false;
	if (len >= sizeof(word))
		return true;
	memcpy(word, elem, len);
	word[len] = '\0';
	for (i = 0; i < ARRAY_SIZE(ctypes); i++)
		if (!strcmp(word, ctypes[i]))
			return false;
	return !isdigit((unsigned char)word[0]) && rp_argtype_parse(word) < 0;
}

/* A bare type word of the positional form (u64, s32, ...). */
static bool rp_arg_is_type(const char *elem, size_t len)
{
	char word[16];

	if (!len || len >= sizeof(word))
		return false;
	memcpy(word, elem, len);
	word[len] = '\0';
	return rp_argtype_parse(word) >= 0;
}

/*
 * By name when an element is a path, or names a parameter in a list
 * with no type word: "s32,bogus" is a typo in a list of types, and is
 * refused as one.
 */
bool rp_args_by_name(const char *spec)
{
	bool name = false, type = false;
	const char *e = spec, *colon;
	size_t len;

	for (;;) {
		len = strcspn(e, ",");
		/* a path, or a string's length (buf:str:count) */
		colon = memchr(e, ':', len);
		if (strcspn(e, "-.[") < len ||
		    (colon && memchr(colon + 1, ':', len - (colon + 1 - e))))
			return true;
		name |= rp_arg_is_name(e, len);
		type |= rp_arg_is_type(e, len);
		if (!e[len])
			return name && !type;
		e += len + 1;
	}
}

/* --- --filter --- */

/* A term as written: OPERAND[:str|:ustr] CMP CONST, CONST "a string" */
struct rp_term_text {
	struct rp_path path;
	unsigned char cmp;		/* enum rawprobe_cmp */
	bool or;			/* starts an alternative (||) */
	int want;			/* :str or :ustr given; else -1 */
	bool is_str;			/* the constant is in quotes */
	char cnst[RP_CONST_MAX];
	char str[RAWPROBE_CMP_STR_LEN];
};

static const struct {
	const char *op;
	unsigned char cmp;
} rp_cmp_ops[] = {
	{ "==", RAWPROBE_CMP_EQ }, { "!=", RAWPROBE_CMP_NE },
	{ "<=", RAWPROBE_CMP_LE }, { ">=", RAWPROBE_CMP_GE },
	{ "<", RAWPROBE_CMP_LT }, { ">", RAWPROBE_CMP_GT },
	{ "&", RAWPROBE_CMP_ANY },
	{ "!~", RAWPROBE_CMP_NGLOB }, { "~", RAWPROBE_CMP_GLOB },
};

static const char *rp_skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* text up to end, without the spaces before end */
static size_t rp_trimmed_len(const char *text, const char *end)
{
	while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return (size_t)(end - text);
}

static bool rp_at_join(const char *c)
{
	return !strncmp(c, "&&", 2) || !strncmp(c, "||", 2);
}

/* The comparison at *c: its rp_cmp_ops[] index, -1 if there is none */
static int rp_cmp_parse(const char **c)
{
	size_t i, n;

	if (rp_at_join(*c))
		return -1;
	for (i = 0; i < ARRAY_SIZE(rp_cmp_ops); i++) {
		n = strlen(rp_cmp_ops[i].op);
		if (!strncmp(*c, rp_cmp_ops[i].op, n)) {
			*c = rp_skip_spaces(*c + n);
			return (int)i;
		}
	}
	return -1;
}

static int rp_value_filter_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int rp_value_filter_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rp_usage_error("--filter: %s", msg);
}

/* A number or a name: [-]digits, 0x..., an enumerator */
static size_t rp_const_len(const char *c)
{
	size_t n = *c == '-';

	while (isalnum((unsigned char)c[n]) || c[n] == '_')
		n++;
	return n == 1 && *c == '-' ? 0 : n;
}

static int rp_const_take(const char **c, char *out, const char *after,
			 const char *op)
{
	size_t n = rp_const_len(*c);

	if (!n)
		return rp_value_filter_error("expected a number after '%s %s'%s%s%s",
					     after, op, **c ? ", not '" : "", *c,
					     **c ? "'" : "");
	if (n >= RP_CONST_MAX)
		return rp_value_filter_error("'%.*s' is too long for a constant",
					     (int)n, *c);
	memcpy(out, *c, n);
	out[n] = '\0';
	*c = rp_skip_spaces(*c + n);
	return 0;
}

/* "x & c", "x & c == 0" (none of the bits), "x & c != 0" (any) */
static int rp_bits_test(const char **c, struct rp_term_text *t)
{
	char zero[RP_CONST_MAX];
	bool none = !strncmp(*c, "==", 2);
	const char *at = rp_skip_spaces(*c + 2);

	if (!none && strncmp(*c, "!=", 2))
		return 0;
	if (rp_const_take(&at, zero, t->path.text, none ? "& ... ==" : "& ... !="))
		return RP_EXIT_USAGE;
	if (strcmp(zero, "0"))
		return rp_value_filter_error("'%s & %s' compares with 0 only ('== 0': "
					     "none of those bits, '!= 0': any), not "
					     "with %s", t->path.text, t->cnst, zero);
	t->cmp = none ? RAWPROBE_CMP_NONE : RAWPROBE_CMP_ANY;
	*c = at;
	return 0;
}

static int rp_no_cmp(const char *c, const struct rp_path *p)
{
	size_t n = strspn(c, "=!<>&|~");

	if (!*c || rp_at_join(c) || !n)
		return rp_value_filter_error("expected a comparison after '%s'%s%s%s "
					     "(==, !=, <, <=, >, >=, &, ~, !~)",
					     p->text, *c ? ", not '" : "", c,
					     *c ? "'" : "");
	return rp_value_filter_error("unknown operator '%.*s' after '%s' (==, !=, "
				     "<, <=, >, >=, &, ~, !~)", (int)n, c,
				     p->text);
}

/* "a string": printable, no quote or backslash inside, bounded */
static int rp_str_take(const char **c, struct rp_term_text *t, const char *op)
{
	const char *end = strchr(*c + 1, '"');
	size_t n;

	if (!end)
		return rp_value_filter_error("unterminated string after '%s %s': "
					     "%s", t->path.text, op, *c);
	n = (size_t)(end - *c - 1);
	if (n >= sizeof(t->str))
		return rp_value_filter_error("\"%.*s\" is %zu characters: a string "
					     "compares on its first %d bytes, so "
					     "constants are shorter "
					     "(RAWPROBE_CMP_STR_LEN)", (int)n,
					     *c + 1, n, RAWPROBE_CMP_STR_LEN);
	memcpy(t->str, *c + 1, n);
	t->str[n] = '\0';
	t->is_str = true;
	*c = rp_skip_spaces(end + 1);
	return 0;
}

/* == and != of strings, and the globs; nothing else takes a string */
static int rp_str_cmp(struct rp_term_text *t, const char *op)
{
	if (!t->is_str) {
		if (t->cmp != RAWPROBE_CMP_GLOB && t->cmp != RAWPROBE_CMP_NGLOB)
			return 0;
		return rp_value_filter_error("'%s %s' matches a string with a glob: "
					     "give it in quotes ('%s %s \"pts*\"')",
					     t->path.text, op, t->path.text, op);
	}
	if (t->cmp == RAWPROBE_CMP_EQ)
		t->cmp = RAWPROBE_CMP_STR_EQ;
	else if (t->cmp == RAWPROBE_CMP_NE)
		t->cmp = RAWPROBE_CMP_STR_NE;
	else if (t->cmp != RAWPROBE_CMP_GLOB && t->cmp != RAWPROBE_CMP_NGLOB)
		return rp_value_filter_error("'%s %s \"%s\"': strings compare "
					     "with ==, != and the globs ~ and !~",
					     t->path.text, op, t->str);
	return 0;
}

/* PATH:str or PATH:ustr: the operand is read as that string */
static int rp_term_want(const char **c, struct rp_term_text *t)
{
	size_t n;

	t->want = -1;
	if (**c != ':')
		return 0;
	n = strspn(*c + 1, "abcdefghijklmnopqrstuvwxyz0123456789");
	if (n == 3 && !strncmp(*c + 1, "str", 3))
		t->want = RAWPROBE_ARG_KSTR;
	else if (n == 4 && !strncmp(*c + 1, "ustr", 4))
		t->want = RAWPROBE_ARG_USTR;
	else
		return rp_value_filter_error("'%s:%.*s': a filter's operand takes "
					     ":str (a kernel string) or :ustr (a "
					     "user string)", t->path.text,
					     (int)n, *c + 1);
	*c = rp_skip_spaces(*c + 1 + n);
	return 0;
}

static int rp_term_parse(const char **c, struct rp_term_text *t)
{
	int err, op;

	err = rp_path_parse(c, &t->path);
	if (err == -ERANGE)
		return rp_value_filter_error("too long at '%s' (names of at most %d "
					     "characters, %d steps)", *c,
					     RP_PATH_NAME_MAX - 1, RP_PATH_STEPS_MAX);
	if (err)
		return rp_value_filter_error("expected a value (retval, argN, an "
					     "argument's name or a field path) %s%s%s",
					     **c ? "at '" : "at the end", *c,
					     **c ? "'" : "");
	if (rp_term_want(c, t))
		return RP_EXIT_USAGE;
	op = rp_cmp_parse(c);
	if (op < 0)
		return rp_no_cmp(*c, &t->path);
	t->cmp = rp_cmp_ops[op].cmp;
	if (**c == '"' ? rp_str_take(c, t, rp_cmp_ops[op].op) :
	    rp_const_take(c, t->cnst, t->path.text, rp_cmp_ops[op].op))
		return RP_EXIT_USAGE;
	if (rp_str_cmp(t, rp_cmp_ops[op].op))
		return RP_EXIT_USAGE;
	return t->cmp == RAWPROBE_CMP_ANY ? rp_bits_test(c, t) : 0;
}

/* TERM ('&&' TERM | '||' TERM)*, at most RAWPROBE_MAX_VALUE_TERMS */
static int rp_value_filter_parse(const char *text, struct rp_term_text *tt,
				 unsigned int *n)
{
	const char *c = rp_skip_spaces(text);
	bool or = false;
	int rc;

	for (*n = 0;; c = rp_skip_spaces(c + 2)) {
		if (*n == RAWPROBE_MAX_VALUE_TERMS)
			return rp_value_filter_error("more than %d comparisons: the "
						     "kernel takes at most %d "
						     "(RAWPROBE_MAX_VALUE_TERMS)",
						     RAWPROBE_MAX_VALUE_TERMS,
						     RAWPROBE_MAX_VALUE_TERMS);
		memset(&tt[*n], 0, sizeof(tt[*n]));
		tt[*n].or = or;
		rc = rp_term_parse(&c, &tt[(*n)++]);
		if (rc)
			return rc;
		if (!*c)
			return 0;
		if (!rp_at_join(c))
			return rp_value_filter_error("expected &&, || or the end "
						     "after '%.*s', not '%s'",
						     (int)rp_trimmed_len(text, c), text,
						     c);
		or = *c == '|';
	}
}

/* Does the filter need BTF: a path, a parameter's name, an enumerator? */
static bool rp_filter_needs_btf(const struct rp_term_text *tt, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct rp_path *p = &tt[i].path;

		if (p->nsteps || (strcmp(p->head, "retval") &&
				  rp_param_index(NULL, p->head) < 0))
			return true;
		if (tt[i].is_str ? tt[i].want < 0 :
		    !isdigit((unsigned char)tt[i].cnst[tt[i].cnst[0] == '-']))
			return true;
	}
	return false;
}

/* An enumerator of enum t (or true/false of a bool), by name */
static int rp_const_name(const struct rp_fctx *cx, const char *s,
			 const struct rp_operand *o, uint64_t *out)
{
	const struct btf *btf = cx->pr ? cx->pr->btf : NULL;
	const struct btf_type *t = btf && o->type ?
				   btf__type_by_id(btf, o->type) : NULL;
	struct rp_near_names nn = { .query = s };
	char ty[RP_BTF_TYPE_MAX];
	unsigned int i, n;
	const char *name;
	int rc;

	if (t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL) &&
	    (!strcmp(s, "true") || !strcmp(s, "false"))) {
		*out = s[0] == 't';
		return 0;
	}
	if (!t || !btf_is_any_enum(t))
		return rp_fetch_error(cx, "'%s' is not a number (decimal, or 0x "
				      "hex)%s", s, t ? "; names are for enums" :
				      "");
	for (i = 0, n = btf_vlen(t); i < n; i++) {
		if (btf_is_enum(t)) {
			name = rp_btf_str(btf, btf_enum(t)[i].name_off);
			*out = btf_kflag(t) ? (uint64_t)(int64_t)btf_enum(t)[i].val :
			       (uint32_t)btf_enum(t)[i].val;
		} else {
			name = rp_btf_str(btf, btf_enum64(t)[i].name_off);
			*out = btf_enum64_value(btf_enum64(t) + i);
		}
		if (!strcmp(name, s))
			return 0;
		if (rp_near_score(s, name) >= 0)
			rp_btf_near_add(nn.best, &nn.n, rp_near_score(s, name),
					name);
	}
	rp_btf_spell(btf, o->declared, ty, sizeof(ty), 0);
	rc = rp_fetch_error(cx, "'%s' is no enumerator of %s", s, ty);
	rp_btf_near_print(nn.best, nn.n);
	return rc;
}

/*
 * The constant, as the kernel compares it: sign-extended for a signed
 * comparison, else at the value's width (-1 of a u32 is 0xffffffff).
 */
static int rp_const_value(const struct rp_fctx *cx,
			  const struct rp_term_text *t,
			  const struct rp_operand *o, uint64_t *out)
{
	unsigned int w = o->f.bit_size ? o->f.bit_size : o->f.size * 8u;
	bool bits = t->cmp == RAWPROBE_CMP_ANY || t->cmp == RAWPROBE_CMP_NONE;
	bool sgn = (o->f.flags & RAWPROBE_FETCH_SIGNED) && !bits;
	uint64_t umax = w >= 64 ? UINT64_MAX : (1ULL << w) - 1, mag;
	const char *s = t->cnst, *digits = s + (*s == '-');
	bool hex = digits[0] == '0' && (digits[1] | 0x20) == 'x';
	char *end;

	if (!isdigit((unsigned char)*digits))
		return rp_const_name(cx, s, o, out);
	errno = 0;
	mag = strtoull(digits, &end, hex ? 16 : 10);
	if (*end || errno || (hex && !digits[2]))
		return rp_fetch_error(cx, "'%s' is not a number (decimal, or 0x "
				      "hex)", s);
	/* negative down to -2^(w-1); positive to the type's maximum */
	if (*s == '-' ? mag > umax / 2 + 1 : mag > (sgn ? umax / 2 : umax))
		return rp_fetch_error(cx, "%s does not fit '%s', a %s%u-bit "
				      "value", s, t->path.text,
				      sgn ? "signed " : "", w);
	*out = *s == '-' ? -mag : mag;
	if (!sgn)
		*out &= umax;
	return 0;
}

/*
 * A parameter known by its declared type alone (a system call's, from
 * its tracepoint's format): "const char *".
 */
static bool rp_param_char_ptr(const struct rp_fctx *cx, const struct rp_path *p)
{
	const char *ty;
	size_t n;
	int i;

	if (!cx->pr || p->nsteps)
		return false;
	i = rp_param_index(cx->pr, p->head);
	if (i < 0 || i >= (int)cx->pr->nparams || i >= RP_BTF_PARAMS_MAX)
		return false;
	ty = cx->pr->params[i].type;
	n = strlen(ty);
	return n >= 6 && !strcmp(ty + n - 6, "char *");
}

/*
 * A string operand: :str or :ustr, a char array (bounded by its size),
 * or a pointer to char. A user one: :ustr, a __user pointer (clang's
 * BTF tags them), or a system call's own argument; the kernel tries a
 * kernel string's address in user memory too, where it faults there
 * (gcc's BTF has no __user: do_sys_openat2's filename is untagged).
 */
static bool rp_operand_str(const struct rp_fctx *cx, const struct rp_path *p,
			   const struct rp_operand *o, uint16_t *size,
			   bool *user)
{
	const struct btf *btf = cx->pr ? cx->pr->btf : NULL;
	const struct btf_type *t = btf && o->type ?
				   btf__type_by_id(btf, o->type) : NULL;
	const struct btf_type *e;
	uint32_t id;

	*size = 0;
	*user = o->argtype == RAWPROBE_ARG_USTR;
	if (!t && rp_param_char_ptr(cx, p)) {
		*user = *user || cx->pr->syscall;
		return true;
	}
	if (t && btf_is_array(t) && rp_is_str_type(o->argtype)) {
		*size = btf_array(t)->nelems > UINT16_MAX ? UINT16_MAX :
			(uint16_t)btf_array(t)->nelems;
		return true;
	}
	if (rp_is_str_type(o->argtype))
		return true;
	if (!t || !btf_is_ptr(t))
		return false;
	id = t->type;
	e = rp_btf_skip(btf, &id);
	if (!e || !btf_is_int(e) || e->size != 1)
		return false;
	*user = rp_btf_user(btf, t->type) || (cx->pr->syscall && !o->f.nloads);
	return true;
}

/* The constant, appended to the probe's strings (once) */
static int rp_str_const(struct rp_probe_req *r, const char *str,
			uint64_t *off)
{
	size_t n = strlen(str) + 1, at;

	for (at = 0; at < r->filter_strs_len; at += strlen(r->filter_strs + at) + 1)
		if (!strcmp(r->filter_strs + at, str)) {
			*off = at;
			return 0;
		}
	if (r->filter_strs_len + n > sizeof(r->filter_strs))
		return rp_value_filter_error("its strings take more than %d bytes "
					     "(RAWPROBE_FILTER_STRS_LEN)",
					     RAWPROBE_FILTER_STRS_LEN);
	memcpy(r->filter_strs + r->filter_strs_len, str, n);
	*off = r->filter_strs_len;
	r->filter_strs_len += (uint16_t)n;
	return 0;
}

/* A number's operand with a string, or the other way round */
static int rp_term_kinds(const struct rp_fctx *cx,
			 const struct rp_term_text *t,
			 const struct rp_operand *o, bool str)
{
	if (t->is_str == str)
		return 0;
	if (str)
		return rp_fetch_error(cx, "'%s' is a string: compare it with a "
				      "string in quotes ('%s == \"...\"'), or "
				      "one of its chars ([N]) with a number",
				      t->path.text, t->path.text);
	if (o->argtype == RAWPROBE_ARG_PTR || o->argtype == RAWPROBE_ARG_U64)
		return rp_fetch_error(cx, "'%s' is not a string (a char array or "
				      "a char pointer): compare it with a number, "
				      "or what it points to with '%s:str' (or "
				      ":ustr)", t->path.text, t->path.text);
	return rp_fetch_error(cx, "'%s' is a number, not a string: compare it "
			      "with a number", t->path.text);
}

static int rp_term_compile(const struct rp_fctx *cx, struct rp_probe_req *r,
			   const struct rp_term_text *t,
			   struct rawprobe_value_term *vt)
{
	struct rp_operand o;
	uint64_t value = 0;
	bool str, user;
	uint16_t size;
	int rc;

	rc = rp_operand_compile(cx, &t->path, t->want, &o);
	if (rc)
		return rc;
	str = rp_operand_str(cx, &t->path, &o, &size, &user);
	rc = rp_term_kinds(cx, t, &o, str);
	if (rc)
		return rc;
	memset(vt, 0, sizeof(*vt));
	vt->fetch = o.f;
	vt->cmp = t->cmp;
	vt->flags = t->or ? RAWPROBE_TERM_OR : 0;
	if (str) {
		vt->fetch.size = 8;	/* the string's address */
		vt->fetch.flags = 0;
		vt->str_size = size;
		vt->flags |= user ? RAWPROBE_TERM_USER : 0;
		rc = rp_str_const(r, t->str, &value);
	} else {
		rc = rp_const_value(cx, t, &o, &value);
	}
	vt->value = value;
	return rc;
}

int rp_value_filter_compile(struct rp_probe_req *r)
{
	struct rp_term_text tt[RAWPROBE_MAX_VALUE_TERMS];
	struct rp_fctx cx = { .kind = (unsigned int)r->kind,
			      .function = r->symbol, .what = "--filter" };
	struct rp_btf_proto pr;
	unsigned int n, i;
	bool need;
	int rc, err;

	rc = rp_value_filter_parse(r->value_filter, tt, &n) ?:
	     rp_entry_check(r, "--filter");
	if (rc)
		return rc;
	/* retval and argN need no BTF: it only types them, when there */
	need = rp_filter_needs_btf(tt, n);
	err = rp_btf_proto_get(r->symbol, r->module, &pr, need);
	if (err && need)
		return rp_exit_from_errno(err);
	cx.pr = err ? NULL : &pr;
	r->filter_strs_len = 0;
	for (i = 0; i < n; i++) {
		rc = rp_term_compile(&cx, r, &tt[i], &r->terms[i]);
		if (rc)
			return rc;
	}
	r->nterms = (uint8_t)n;
	return RP_EXIT_OK;
}

/*
 * What a bpftrace or ftrace user may write, and what to write instead:
 * the command name is --comm (a task filter, not a value), and there are
 * no parentheses (&& binds tighter than ||, as in C).
 */
/*
 * f with what is between double quotes blanked: a string constant may
 * hold parentheses, an apostrophe or the word comm ("(deleted)").
 */
static void rp_blank_strings(const char *f, char *out, size_t size)
{
	bool in = false;
	size_t i;

	for (i = 0; f[i] && i + 1 < size; i++) {
		out[i] = in && f[i] != '"' ? ' ' : f[i];
		in ^= f[i] == '"';
	}
	out[i] = '\0';
}

static int rp_value_filter_words(const char *text)
{
	char f[RAWPROBE_FILTER_STR_LEN];
	const char *c, *v;
	size_t n;

	rp_blank_strings(text, f, sizeof(f));
	if (strpbrk(f, "()"))
		return rp_value_filter_error("parentheses are not supported: "
					     "write alternatives of terms "
					     "('a && b || c' is (a && b) || c, "
					     "as in C), or a probe per case");
	for (c = f; (c = strstr(c, "comm")); c += 4) {
		if ((c > f && (isalnum((unsigned char)c[-1]) || c[-1] == '_' ||
			       c[-1] == '>' || c[-1] == '.')) ||
		    isalnum((unsigned char)c[4]) || c[4] == '_')
			continue;
		v = rp_skip_spaces(c + 4);
		if (strncmp(v, "==", 2))
			continue;
		v = rp_skip_spaces(v + 2);
		if (*v != '"' && *v != '\'')
			continue;
		v = text + (v - f);	/* the name, as written */
		n = strcspn(v + 1, "\"'");
		return rp_value_filter_error("the command name is not a value "
					     "--filter compares: use --comm "
					     "%.*s", (int)n, v + 1);
	}
	if (strchr(f, '\''))
		return rp_value_filter_error("strings are in double quotes "
					     "('name == \"pts0\"')");
	return 0;
}

int rp_value_filter_opt(const char *arg, struct rp_probe_req *req)
{
	char buf[RAWPROBE_FILTER_STR_LEN];
	const char *s = rp_skip_spaces(arg), *c;
	size_t len = strlen(s);
	int rc;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len)
		return rp_value_filter_error("empty: give comparisons, e.g. "
					     "'retval < 0'");
	if (len >= sizeof(buf))
		return rp_value_filter_error("%zu characters: the kernel keeps at "
					     "most %d (RAWPROBE_FILTER_STR_LEN)",
					     len, RAWPROBE_FILTER_STR_LEN - 1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	rc = rp_value_filter_words(buf);
	if (rc)
		return rc;
	/* what the kernel echoes back: printable, no escapes */
	for (c = buf; *c; c++)
		if (*c < 0x20 || *c > 0x7e || *c == '\\')
			return rp_value_filter_error("unexpected character 0x%02x: "
						     "printable ASCII only, without "
						     "backslashes",
						     (unsigned char)*c);
	memcpy(req->value_filter, buf, len + 1);
	req->nterms = 0;
	return 0;
}

/* --- showing them (--dry-run) --- */

static const char *const rp_cmp_names[] = {
	[RAWPROBE_CMP_EQ] = "eq", [RAWPROBE_CMP_NE] = "ne",
	[RAWPROBE_CMP_LT] = "lt", [RAWPROBE_CMP_LE] = "le",
	[RAWPROBE_CMP_GT] = "gt", [RAWPROBE_CMP_GE] = "ge",
	[RAWPROBE_CMP_ANY] = "any", [RAWPROBE_CMP_NONE] = "none",
	[RAWPROBE_CMP_STR_EQ] = "str_eq", [RAWPROBE_CMP_STR_NE] = "str_ne",
	[RAWPROBE_CMP_GLOB] = "glob", [RAWPROBE_CMP_NGLOB] = "nglob",
};

const char *rp_cmp_name(unsigned int cmp)
{
	return cmp < ARRAY_SIZE(rp_cmp_names) &&
	       rp_cmp_names[cmp] ? rp_cmp_names[cmp] : "?";
}

void rp_fetch_str(const struct rawprobe_fetch *f, char *buf, size_t len)
{
	size_t at;
	unsigned int k;

	if (f->src == RAWPROBE_FETCH_RETVAL)
		at = (size_t)snprintf(buf, len, "src=retval");
	else
		at = (size_t)snprintf(buf, len, "src=arg%u", f->src);
	for (k = 0; k < f->nloads && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d",
				       k ? "," : " loads=", f->off[k]);
	if (at < len)
		at += (size_t)snprintf(buf + at, len - at, " size=%u%s", f->size,
				       f->flags & RAWPROBE_FETCH_SIGNED ?
				       " signed" : "");
	if (f->bit_size && at < len)
		at += (size_t)snprintf(buf + at, len - at,
				       " bit_off=%u bit_size=%u", f->bit_off,
				       f->bit_size);
	if (f->add && at < len)
		snprintf(buf + at, len - at, " add=%d", f->add);
}

void rp_fetch_json(struct json *j, const struct rawprobe_fetch *f)
{
	unsigned int k;

	json_obj_open(j);
	json_key(j, "src");
	if (f->src == RAWPROBE_FETCH_RETVAL)
		json_str(j, "retval");
	else
		json_u64(j, f->src);
	json_key(j, "loads");
	json_arr_open(j);
	for (k = 0; k < f->nloads && k < RAWPROBE_FETCH_MAX_LOADS; k++)
		json_s64(j, f->off[k]);
	json_arr_close(j);
	json_kv_u64(j, "size", f->size);
	json_kv_bool(j, "signed", f->flags & RAWPROBE_FETCH_SIGNED);
	json_kv_u64(j, "bit_off", f->bit_off);
	json_kv_u64(j, "bit_size", f->bit_size);
	json_kv_s64(j, "add", f->add);
	json_obj_close(j);
}

static void rp_str_term_json(struct json *j, const struct rp_probe_req *r,
			     const struct rawprobe_value_term *t)
{
	json_kv_str(j, "value", r->filter_strs + t->value);
	json_kv_u64(j, "str_size", t->str_size);
	json_kv_bool(j, "user", t->flags & RAWPROBE_TERM_USER);
}

void rp_value_filter_json(struct json *j, const struct rp_probe_req *r)
{
	const struct rawprobe_value_term *t = r->terms;
	unsigned int i;

	json_key(j, "value_filter");
	json_obj_open(j);
	json_kv_str(j, "text", r->value_filter);
	json_key(j, "terms");
	json_arr_open(j);
	for (i = 0; i < r->nterms; i++) {
		json_obj_open(j);
		json_key(j, "fetch");
		rp_fetch_json(j, &t[i].fetch);
		json_kv_str(j, "cmp", rp_cmp_name(t[i].cmp));
		if (t[i].cmp >= RAWPROBE_CMP_STR_EQ)
			rp_str_term_json(j, r, &t[i]);
		else if (t[i].fetch.flags & RAWPROBE_FETCH_SIGNED)
			json_kv_s64(j, "value", (int64_t)t[i].value);
		else
			json_kv_u64(j, "value", t[i].value);
		json_kv_bool(j, "or", t[i].flags & RAWPROBE_TERM_OR);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_obj_close(j);
}
