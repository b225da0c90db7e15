// SPDX-License-Identifier: GPL-2.0
/*
 * Field fetches and value filters: the small programs of struct
 * rawprobe_fetch that rawprobectl compiles from BTF (--args 'skb->len',
 * --filter 'retval < 0'). The kernel checks their shape at add time and
 * runs them in probe handlers: bounded (at most RAWPROBE_FETCH_MAX_LOADS
 * reads, RAWPROBE_MAX_VALUE_TERMS terms), no locks, no allocation, and
 * every read through copy_from_kernel_nofault(), so a bad offset or a
 * stale pointer costs a flagged value, never an oops. Offsets are not
 * checked against any type: the kernel has no reason to trust them, and
 * needs none, since a read can only fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include "core.h"

/*
 * The return value is known to kretprobes only, at return; a pair's end
 * that writes records has its latency there, for its filter's terms.
 */
static int rp_fetch_src_check(const struct rawprobe_fetch *f, bool at_return,
			      struct netlink_ext_ack *extack)
{
	if (f->src < RAWPROBE_FETCH_RETVAL ||
	    (f->src == RAWPROBE_FETCH_RETVAL && at_return))
		return 0;
	if (f->src == RAWPROBE_FETCH_RETVAL)
		NL_SET_ERR_MSG(extack, "retval is only known to kretprobes");
	else
		NL_SET_ERR_MSG(extack, "a fetch reads argument 0..5 or retval");
	return -EINVAL;
}

static bool rp_fetch_shape_ok(const struct rawprobe_fetch *f)
{
	unsigned int bits = f->size * 8;

	if (f->nloads > RAWPROBE_FETCH_MAX_LOADS || f->reserved ||
	    (f->flags & ~RAWPROBE_FETCH_SIGNED))
		return false;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return false;
	if (!f->bit_size)
		return !f->bit_off;
	return f->bit_size <= bits && f->bit_off < bits &&
	       f->bit_off + f->bit_size <= bits;
}

static bool rp_cmp_is_str(u8 cmp)
{
	return cmp >= RAWPROBE_CMP_STR_EQ && cmp <= RAWPROBE_CMP_NGLOB;
}

/*
 * A string term: its fetch gives an address (8 bytes, no bitfield), its
 * constant is a whole string of the spec's strs, shorter than what the
 * handler reads; a number's term has no string fields.
 */
static int rp_check_str_term(const struct rp_probe_spec *s,
			     const struct rawprobe_value_term *t,
			     struct netlink_ext_ack *extack)
{
	const char *c;

	if (!rp_cmp_is_str(t->cmp)) {
		if (!t->str_size && !(t->flags & RAWPROBE_TERM_USER))
			return 0;
		NL_SET_ERR_MSG(extack, "value filter: string fields on a number's term");
		return -EINVAL;
	}
	if (t->fetch.size != 8 || t->fetch.bit_size) {
		NL_SET_ERR_MSG(extack, "value filter: a string term's fetch is an address");
		return -EINVAL;
	}
	if (t->value >= s->strs_len) {
		NL_SET_ERR_MSG(extack, "value filter: a string term's constant is past RAWPROBE_A_VALUE_FILTER_STRS");
		return -EINVAL;
	}
	c = s->strs + t->value;
	if (strnlen(c, s->strs_len - t->value) >= RAWPROBE_CMP_STR_LEN) {
		NL_SET_ERR_MSG(extack, "value filter: a string constant of RAWPROBE_CMP_STR_LEN bytes or more");
		return -EINVAL;
	}
	return 0;
}

static int rp_check_terms(const struct rp_probe_spec *s, bool at_return,
			  struct netlink_ext_ack *extack)
{
	/* (rp_pair_check() says what a latency's terms may be) */
	bool ret = at_return || (s->pair.role == RAWPROBE_PAIR_END &&
				 !(s->flags & RAWPROBE_F_AGG));
	unsigned int i;

	for (i = 0; i < s->nterms; i++) {
		const struct rawprobe_value_term *t = &s->terms[i];

		if (rp_fetch_src_check(&t->fetch, ret, extack))
			return -EINVAL;
		if (!rp_fetch_shape_ok(&t->fetch)) {
			NL_SET_ERR_MSG(extack, "value filter: a malformed fetch");
			return -EINVAL;
		}
		if (!t->cmp || t->cmp >= __RAWPROBE_CMP_MAX ||
		    (t->flags & ~(RAWPROBE_TERM_OR | RAWPROBE_TERM_USER)) ||
		    (!i && (t->flags & RAWPROBE_TERM_OR))) {
			NL_SET_ERR_MSG(extack, "value filter: a malformed term");
			return -EINVAL;
		}
		if (rp_check_str_term(s, t, extack))
			return -EINVAL;
	}
	return 0;
}

/* Also computes how many argument registers the programs read. */
int rp_fetch_check(struct rawprobe_probe *p, struct netlink_ext_ack *extack)
{
	struct rp_probe_spec *s = &p->spec;
	bool at_return = s->kind == RAWPROBE_KIND_KRETPROBE;
	unsigned int i, nraw = 0;

	if ((s->nfetch || s->nterms) && (s->offset || !s->symbol[0])) {
		NL_SET_ERR_MSG(extack,
			       "field fetches and value filters read arguments: only at a function entry given by name");
		return -EINVAL;
	}
	for (i = 0; i < s->nfetch; i++) {
		if (rp_fetch_src_check(&s->fetch[i], at_return, extack))
			return -EINVAL;
		if (!rp_fetch_shape_ok(&s->fetch[i])) {
			NL_SET_ERR_MSG(extack, "argument fetch: malformed");
			return -EINVAL;
		}
		if (s->fetch[i].src < RAWPROBE_MAX_ARGS)
			nraw = max(nraw, s->fetch[i].src + 1U);
	}
	if (rp_check_terms(s, at_return, extack))
		return -EINVAL;
	for (i = 0; i < s->nterms; i++)
		if (s->terms[i].fetch.src < RAWPROBE_MAX_ARGS)
			nraw = max(nraw, s->terms[i].fetch.src + 1U);
	p->nraw = nraw;
	return 0;
}

/* Runs one program. Returns false if a read faulted (*out is then 0). */
static bool rp_fetch_run(const struct rawprobe_fetch *f, const u64 *raw,
			 u64 retval, u64 *out)
{
	u64 v = f->src == RAWPROBE_FETCH_RETVAL ? retval : raw[f->src];
	unsigned int bits = f->size * 8, k;

	for (k = 0; k < f->nloads; k++) {
		const void *from = (const void *)(unsigned long)(v + f->off[k]);
		size_t n = k + 1 == f->nloads ? f->size : sizeof(v);

		v = 0;
		if (copy_from_kernel_nofault(&v, from, n)) {
			*out = 0;
			return false;
		}
	}
	if (f->bit_size) {
		v >>= f->bit_off;
		bits = f->bit_size;
	}
	if (bits < 64) {
		v &= (1ULL << bits) - 1;
		if ((f->flags & RAWPROBE_FETCH_SIGNED) && (v >> (bits - 1)))
			v |= ~0ULL << bits;
	}
	*out = v + (s64)f->add;
	return true;
}
NOKPROBE_SYMBOL(rp_fetch_run);

/*
 * Computes the arguments whose source is known now: at entry, all but
 * retval's; at return (raw == NULL), retval's only.
 */
void rp_fetch_args(struct rawprobe_probe *p, const u64 *raw, u64 retval,
		   u64 *args, u8 *fault_mask)
{
	const struct rp_probe_spec *s = &p->spec;
	unsigned int i;

	for (i = 0; i < s->nfetch; i++) {
		const struct rawprobe_fetch *f = &s->fetch[i];

		if ((f->src == RAWPROBE_FETCH_RETVAL) != !raw)
			continue;
		if (!rp_fetch_run(f, raw, retval, &args[i])) {
			*fault_mask |= 1U << i;
			this_cpu_inc(p->stats->fetch_faults);
		}
	}
}
NOKPROBE_SYMBOL(rp_fetch_args);

static bool rp_term_holds(const struct rawprobe_value_term *t, u64 v)
{
	bool sign = t->fetch.flags & RAWPROBE_FETCH_SIGNED;
	s64 sv = (s64)v, sc = (s64)t->value;
	u64 c = t->value;

	switch (t->cmp) {
	case RAWPROBE_CMP_EQ:
		return v == c;
	case RAWPROBE_CMP_NE:
		return v != c;
	case RAWPROBE_CMP_LT:
		return sign ? sv < sc : v < c;
	case RAWPROBE_CMP_LE:
		return sign ? sv <= sc : v <= c;
	case RAWPROBE_CMP_GT:
		return sign ? sv > sc : v > c;
	case RAWPROBE_CMP_GE:
		return sign ? sv >= sc : v >= c;
	case RAWPROBE_CMP_ANY:
		return v & c;
	default:	/* RAWPROBE_CMP_NONE, the only other shape accepted */
		return !(v & c);
	}
}
NOKPROBE_SYMBOL(rp_term_holds);

/*
 * '*' matches any run, '?' one character. Iterative, remembering the
 * last '*' only: at most strlen(pat) * strlen(s) steps, both bounded by
 * RAWPROBE_CMP_STR_LEN, and no recursion on a handler's stack.
 */
static bool rp_glob_match(const char *pat, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*pat == '*') {
			star = ++pat;
			resume = s;
		} else if (*pat == '?' || *pat == *s) {
			pat++;
			s++;
		} else if (star) {
			pat = star;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}
NOKPROBE_SYMBOL(rp_glob_match);

/*
 * A kernel string, else a user one: gcc's BTF has no __user tags, so a
 * user pointer the CLI could not tell (do_sys_openat2's filename) is
 * read where it points, as bpf_probe_read_compat_str() reads on x86; a
 * kernel read of a user address fails at once, never faults in.
 */
static long rp_str_term_read(const struct rawprobe_value_term *t, u64 v,
			     char *buf, size_t max, bool *trunc)
{
	long n;

	if (!(t->flags & RAWPROBE_TERM_USER)) {
		n = rp_copy_string(buf, v, max, false, trunc);
		if (n >= 0)
			return n;
	}
	return rp_copy_string(buf, v, max, true, trunc);
}
NOKPROBE_SYMBOL(rp_str_term_read);

/*
 * A string term at address v: read through the nofault copies, at most
 * str_size (a char array's end) and RAWPROBE_CMP_STR_LEN bytes. A string
 * that goes on past that equals no constant (each is shorter), and
 * matches a glob only if the glob ends in '*', whatever followed. NULL
 * and an unreadable address compare as "", as bpftrace's str() gives.
 */
static bool rp_str_term_holds(struct rawprobe_probe *p,
			      const struct rawprobe_value_term *t, u64 v)
{
	const char *c = p->spec.strs + t->value;
	char buf[RAWPROBE_CMP_STR_LEN + 1];
	size_t max = RAWPROBE_CMP_STR_LEN;
	bool trunc, match;
	long n;

	if (t->str_size && t->str_size < max)
		max = t->str_size;
	/* NULL: a NULL pointer, or a fetch that faulted (counted) */
	n = v ? rp_str_term_read(t, v, buf, max, &trunc) : 0;
	if (n <= 0) {
		buf[0] = '\0';
		trunc = false;
	}
	if (n < 0)
		this_cpu_inc(p->stats->fetch_faults);
	/* a char array full to its end is a string of its size */
	if (trunc && max == t->str_size)
		trunc = false;
	if (t->cmp == RAWPROBE_CMP_STR_EQ || t->cmp == RAWPROBE_CMP_STR_NE)
		match = !trunc && !strcmp(buf, c);
	else
		match = rp_glob_match(c, buf) &&
			(!trunc || (*c && c[strlen(c) - 1] == '*'));
	return t->cmp == RAWPROBE_CMP_STR_EQ || t->cmp == RAWPROBE_CMP_GLOB ?
	       match : !match;
}
NOKPROBE_SYMBOL(rp_str_term_holds);

/*
 * Terms joined by && in alternatives joined by ||: once an alternative
 * fails, its remaining terms are skipped up to the next ||. Without the
 * return value (!ret: an entry), terms on it hold: a pair's end tests its
 * latency after its match (rp_value_filter_latency()), and joins its
 * terms with && only.
 */
static bool rp_value_filter_run(struct rawprobe_probe *p, const u64 *raw,
				u64 retval, bool ret)
{
	const struct rp_probe_spec *s = &p->spec;
	bool alive = true;
	unsigned int i;

	for (i = 0; i < s->nterms; i++) {
		const struct rawprobe_value_term *t = &s->terms[i];
		u64 v;

		if (t->flags & RAWPROBE_TERM_OR) {
			if (alive)
				return true;
			alive = true;
		} else if (!alive) {
			continue;
		}
		if (!ret && t->fetch.src == RAWPROBE_FETCH_RETVAL)
			continue;
		if (!rp_fetch_run(&t->fetch, raw, retval, &v))
			this_cpu_inc(p->stats->fetch_faults);
		alive = rp_cmp_is_str(t->cmp) ? rp_str_term_holds(p, t, v) :
						rp_term_holds(t, v);
	}
	return alive;
}
NOKPROBE_SYMBOL(rp_value_filter_run);

bool rp_value_filter_pass(struct rawprobe_probe *p, const u64 *raw,
			  u64 retval)
{
	return rp_value_filter_run(p, raw, retval, true);
}
NOKPROBE_SYMBOL(rp_value_filter_pass);

/* A pair's end: the terms on its latency (ns), once it found its start */
bool rp_value_filter_latency(struct rawprobe_probe *p, u64 ns)
{
	const struct rp_probe_spec *s = &p->spec;
	unsigned int i;
	u64 v;

	for (i = 0; i < s->nterms; i++)
		if (s->terms[i].fetch.src == RAWPROBE_FETCH_RETVAL &&
		    (!rp_fetch_run(&s->terms[i].fetch, NULL, ns, &v) ||
		     !rp_term_holds(&s->terms[i], v)))
			return false;
	return true;
}
NOKPROBE_SYMBOL(rp_value_filter_latency);

/* Entry probes: the argument registers the filter reads, then its test. */
bool rp_value_filter_entry(struct rawprobe_probe *p, struct pt_regs *regs)
{
	u64 raw[RAWPROBE_MAX_ARGS];

	rp_args_fetch(p, regs, raw, p->nraw);
	return rp_value_filter_run(p, raw, 0, false);
}
NOKPROBE_SYMBOL(rp_value_filter_entry);

/* Entry probes with field fetches: registers, then the programs. */
void rp_fetch_entry(struct rawprobe_probe *p, struct pt_regs *regs,
		    struct rawprobe_record *rec)
{
	u64 raw[RAWPROBE_MAX_ARGS];

	rp_args_fetch(p, regs, raw, p->nraw);
	rp_fetch_args(p, raw, 0, rec->args, &rec->fault_mask);
}
NOKPROBE_SYMBOL(rp_fetch_entry);
