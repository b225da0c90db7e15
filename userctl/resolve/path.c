// SPDX-License-Identifier: GPL-2.0
/*
 * Field paths (--args 'skb->len', the operands of --filter 'skb->len >
 * 1000'), resolved against the probed function's BTF into the small
 * programs of struct rawprobe_fetch that the kernel runs in its probe
 * handlers (probes/fetch.c). The kernel checks their shape only: every
 * offset, size and sign comes from here, from the function's prototype
 * and the types behind it, as pahole shows them. lib/path.c parses a
 * path's syntax; --args (args.c) and --filter (filter.c) compile their
 * paths here, and the filter learns whether one is a string.
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
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resolve/btf_int.h"
#include "lib/cli.h"
#include "resolve/fetch_int.h"
#include "lib/names.h"
#include "lib/path.h"
#include "lib/symbols.h"

/* Where the walk of a path is. */
struct rp_walk {
	const struct rp_fctx *cx;
	const struct rp_path *p;
	const struct btf *btf;
	struct rawprobe_fetch *f;
	uint32_t type;		/* of the value so far; 0: unknown (raw) */
	uint32_t cast;		/* a pointer cast to this struct's, or 0 */
	bool mem;		/* it is in memory at v + off, not v itself */
	int64_t off;
	unsigned int bit, bits;	/* a bitfield: its first bit past off, width */
	size_t from, at;	/* the path so far: text[from..at), for messages */
};

/* --- messages --- */

int rp_fetch_error(const struct rp_fctx *cx, const char *fmt, ...)
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
	if (w->cx->what_names_it && !w->from && w->at == strlen(w->p->text))
		return rp_fetch_error(w->cx, "%s", msg);
	return rp_fetch_error(w->cx, "'%.*s' %s", (int)(w->at - w->from),
			      w->p->text + w->from, msg);
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
	if (!w->cast && rp_btf_user(w->btf, t->type))
		return rp_walk_error(w, "is a user-space pointer (__user): "
				     "rawprobe reads kernel memory only");
	if (w->mem && rp_walk_load(w, 8))
		return RP_EXIT_USAGE;
	w->mem = true;
	w->off = 0;
	w->bit = w->bits = 0;
	w->type = w->cast ?: t->type;
	w->cast = 0;
	return 0;
}

/*
 * (struct NAME *): the pointer in hand points to a struct NAME, found
 * in the function's BTF (a module's split BTF holds vmlinux's too).
 */
static int rp_walk_cast(struct rp_walk *w, const char *name)
{
	char ty[RP_BTF_TYPE_MAX];
	const struct btf_type *t;
	uint32_t id = w->type;
	int sid;

	if (!w->btf)
		return rp_walk_error(w, "is cast to struct %s, with no BTF of "
				     "%s to find it in", name, w->cx->function);
	if (!id)
		return rp_walk_untyped(w);
	t = rp_btf_skip(w->btf, &id);
	if (!t || !btf_is_ptr(t))
		return rp_walk_error(w, "is %s, not a pointer: a cast takes a "
				     "pointer as one to struct %s",
				     rp_walk_spell(w, w->type, ty), name);
	sid = btf__find_by_name_kind(w->btf, name, BTF_KIND_STRUCT);
	if (sid <= 0)
		return rp_walk_error(w, "is cast to struct %s, which the BTF "
				     "of %s (vmlinux's, or its module's) does "
				     "not have", name, w->cx->function);
	w->cast = (uint32_t)sid;
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
				     (int)(w->at - w->from),
				     w->p->text + w->from, name);
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
		size = btf__resolve_size(w->btf, w->cast ?: t->type);
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
int rp_param_index(const struct rp_btf_proto *pr, const char *name)
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
	/* the kernel tests it where a kretprobe has its return value */
	if (w->cx->pair_latency && !strcmp(w->p->head, "latency")) {
		w->f->src = RAWPROBE_FETCH_RETVAL;
		w->type = 0;
		return 0;
	}
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
	/* a pair's latency is a u64 */
	bool ret = w->f->src == RAWPROBE_FETCH_RETVAL &&
		   w->cx->kind == RAWPROBE_KIND_KRETPROBE;

	w->f->size = 8;
	if (ret)	/* what regs_return_value() gives: a long */
		w->f->flags |= RAWPROBE_FETCH_SIGNED;
	o->argtype = want >= 0 ? (unsigned char)want :
		     ret ? RAWPROBE_ARG_S64 : RAWPROBE_ARG_U64;
	return 0;
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

/* Does the struct id begin with a struct sock_common, at offset 0? */
static bool rp_btf_is_sock(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	int depth;

	for (depth = 0; depth < 8; depth++) {
		t = rp_btf_skip(btf, &id);
		if (!t || !btf_is_struct(t))
			return false;
		if (!strcmp(btf__name_by_offset(btf, t->name_off), "sock_common"))
			return true;
		if (!btf_vlen(t) || btf_member_bit_offset(t, 0))
			return false;
		id = btf_members(t)[0].type;
	}
	return false;
}

/*
 * :saddr, :daddr, the kernel reads a socket's family and address: the
 * value is a struct sock_common's address, a pointer to a struct that
 * begins with one (struct sock, inet_sock, tcp_sock), or such a struct
 * in memory (no load).
 */
static int rp_walk_inet_end(struct rp_walk *w, const struct btf_type *t,
			    uint32_t id, int want, struct rp_operand *o)
{
	uint32_t to = btf_is_ptr(t) ? t->type : id;
	char ty[RP_BTF_TYPE_MAX];

	rp_walk_spell(w, w->type, ty);
	if (!rp_btf_is_sock(w->btf, to))
		return rp_walk_error(w, "is %s: ':%s' takes a socket (struct "
				     "sock *, or a struct that begins with "
				     "struct sock_common)", ty,
				     rp_argtype_name((unsigned int)want));
	if (btf_is_ptr(t))
		return rp_walk_scalar_end(w, t, want, o);
	if (!w->mem)
		return rp_walk_error(w, "is a struct passed by value: ':%s' "
				     "reads one in memory",
				     rp_argtype_name((unsigned int)want));
	o->argtype = (unsigned char)want;
	if (rp_walk_range(w))
		return RP_EXIT_USAGE;
	w->f->add = (int32_t)w->off;
	w->f->size = 8;		/* the struct's address */
	return 0;
}

static int rp_walk_end(struct rp_walk *w, int want, struct rp_operand *o)
{
	char ty[RP_BTF_TYPE_MAX];
	const struct btf_type *t;
	uint32_t id = w->type;

	w->from = 0;
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
	if (want == RAWPROBE_ARG_INET_SADDR || want == RAWPROBE_ARG_INET_DADDR)
		return rp_walk_inet_end(w, t, id, want, o);
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
int rp_operand_compile(const struct rp_fctx *cx, const struct rp_path *p,
		       int want, struct rp_operand *o)
{
	struct rp_walk w = {
		.cx = cx, .p = p, .btf = cx->pr ? cx->pr->btf : NULL,
		.f = &o->f, .at = p->head_end, .from = p->head_off,
	};
	unsigned int k;
	int rc;

	memset(o, 0, sizeof(*o));
	rc = rp_walk_head(&w);
	for (k = 0; !rc && k <= p->nsteps; k++) {
		/* inside a cast's parentheses, messages name the inner path */
		w.from = p->cast[0] && k <= p->cast_at ? p->head_off : 0;
		w.at = rp_path_prefix(p, (int)k - 1);
		if (p->cast[0] && k == p->cast_at) {
			rc = rp_walk_cast(&w, p->cast);
			if (p->cast_end) {	/* ((struct S *)PATH): now its own */
				w.from = 0;
				w.at = p->cast_end;
			}
		}
		if (!rc && k < p->nsteps)
			rc = rp_walk_step(&w, &p->steps[k]);
	}
	return rc ?: rp_walk_end(&w, want, o);
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
 * A string operand (what --filter compares with a string, filter.c):
 * :str or :ustr, a char array (bounded by its size), or a pointer to
 * char. A user one: :ustr, a __user pointer (clang's BTF tags them),
 * or a system call's own argument; the kernel tries a kernel string's
 * address in user memory too, where it faults there (gcc's BTF has no
 * __user: do_sys_openat2's filename is untagged).
 */
bool rp_operand_str(const struct rp_fctx *cx, const struct rp_path *p,
		    const struct rp_operand *o, uint16_t *size, bool *user)
{
	const struct btf *btf = cx->pr ? cx->pr->btf : NULL;
	const struct btf_type *t = btf && o->type ?
				   btf__type_by_id(btf, o->type) : NULL;
	const struct btf_type *e;
	uint32_t id;

	*size = 0;
	*user = o->argtype == RAWPROBE_ARG_USTR;
	if (!t && rp_param_char_ptr(cx, p)) {
		*user = *user || cx->pr->user_ptrs;
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
	*user = rp_btf_user(btf, t->type) || (cx->pr->user_ptrs && !o->f.nloads);
	return true;
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
