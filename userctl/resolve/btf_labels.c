// SPDX-License-Identifier: GPL-2.0
/*
 * Bools and enums by name in output (--args' named arguments, a
 * kretprobe's return value), from the probed function's BTF: through
 * its prototype, or the field a path names (resolve/path.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/names.h"
#include "resolve/btf_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- labels: bools and enums by name, in output --- */

enum { RP_LABEL_NONE, RP_LABEL_BOOL, RP_LABEL_ENUM };

struct rp_btf_labels {
	uint32_t id;			/* the probe's */
	char name[RP_PROBE_NAME_MAX];
	char arg_names[RAWPROBE_ARG_NAMES_LEN];
	const struct btf *btf;
	unsigned char how[RAWPROBE_MAX_ARGS];
	uint32_t type[RAWPROBE_MAX_ARGS];
	/* the return value's (kretprobes): how, type id, enum rp_ret_type */
	unsigned char ret_how, ret_kind;
	uint32_t ret_type;
};

#define RP_BTF_LABEL_CACHE 64

/* "kprobe:ext4:ext4_sync_file" -> module and function; -1 if not one */
static int rp_btf_desc_target(const char *name, char *module, size_t mlen,
			      char *fn, size_t flen)
{
	const char *t = strchr(name, ':'), *colon;

	if (!strncmp(name, "tracepoint:", 11)) {	/* its "SUBSYSTEM:EVENT" */
		module[0] = '\0';
		snprintf(fn, flen, "%s", name + 11);
		return strchr(fn, ':') ? 0 : -1;
	}
	if (!t || strchr(t, '+') || !strncmp(name, "custom:", 7))
		return -1;
	t++;
	colon = strchr(t, ':');
	module[0] = '\0';
	if (colon) {
		snprintf(module, mlen, "%.*s", (int)(colon - t), t);
		t = colon + 1;
	}
	snprintf(fn, flen, "%s", t);
	return rp_is_ident(fn, strlen(fn), flen - 1) ? 0 : -1;
}

/* How a value of type id (modifiers skipped) is labelled */
static unsigned char rp_btf_label_how(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL))
		return RP_LABEL_BOOL;
	return t && btf_is_any_enum(t) ? RP_LABEL_ENUM : RP_LABEL_NONE;
}

/*
 * Field fetches name their values (parameters, paths) in any order;
 * other probes' names label their arguments only when they are the
 * function's own, in order.
 */
static int rp_btf_label_type(const struct rp_probe_desc *d,
			     const struct rp_btf_proto *pr, unsigned int i,
			     bool by_name, uint32_t *id)
{
	const char *name = d->arg_names + d->path_off[i];
	size_t len = d->path_len[i];

	/* (an alias's path: what BTF knows, not what output calls it) */
	if (by_name)
		return rp_fetch_path_type(pr, d->kind, name, len, id) ? 0 : 1;
	if (i >= pr->nparams || i >= RP_BTF_PARAMS_MAX ||
	    strlen(pr->params[i].name) != len ||
	    memcmp(pr->params[i].name, name, len))
		return -1;
	*id = pr->params[i].type_id;
	return rp_btf_skip(pr->btf, id) ? 1 : 0;
}

/*
 * The return value's type: as an argument of it would be recorded, so
 * printed, or a bool; not known (the register, signed) when there is
 * none (void) or it fits no register.
 */
static void rp_btf_ret_make(struct rp_btf_labels *l,
			    const struct rp_btf_proto *pr)
{
	static const unsigned char kinds[] = {
		[RAWPROBE_ARG_U64] = RP_RET_U64,
		[RAWPROBE_ARG_S64] = RP_RET_S64,
		[RAWPROBE_ARG_S32] = RP_RET_S32,
		[RAWPROBE_ARG_U32] = RP_RET_U32,
		[RAWPROBE_ARG_PTR] = RP_RET_PTR,
	};
	uint32_t id = pr->ret_id;
	unsigned char t;

	l->ret_kind = RP_RET_RAW;
	if (!id || rp_btf_fit(pr->btf, id, &t) != RP_FIT_OK ||
	    t >= ARRAY_SIZE(kinds))
		return;
	rp_btf_skip(pr->btf, &id);
	l->ret_how = rp_btf_label_how(pr->btf, id);
	l->ret_type = id;
	l->ret_kind = l->ret_how == RP_LABEL_BOOL ? RP_RET_BOOL : kinds[t];
}

static void rp_btf_labels_make(struct rp_btf_labels *l,
			       const struct rp_probe_desc *d)
{
	char module[64], fn[RP_PROBE_NAME_MAX];
	struct rp_btf_proto pr;
	unsigned int i;
	uint32_t id;
	bool by_name;
	int rc;

	memset(l, 0, sizeof(*l));
	l->id = d->id;
	memcpy(l->name, d->name, sizeof(l->name));
	memcpy(l->arg_names, d->arg_names, sizeof(l->arg_names));
	if (rp_btf_desc_target(d->name, module, sizeof(module), fn, sizeof(fn)) ||
	    rp_btf_proto_get(fn, module, &pr, false))
		return;
	l->btf = pr.btf;
	rp_btf_ret_make(l, &pr);
	/* (a path is a field fetch's name, whatever the capture says) */
	by_name = d->by_name || strpbrk(d->arg_names, "-.[=(");
	for (i = 0; i < d->nargs && i < RAWPROBE_MAX_ARGS; i++) {
		rc = rp_btf_label_type(d, &pr, i, by_name, &id);
		if (rc < 0)
			return;
		if (rc)
			l->how[i] = rp_btf_label_how(pr.btf, id);
		l->type[i] = id;
	}
}

/* Per probe, made at its first named record: BTF is read once. */
static struct {
	struct rp_btf_labels *v;
	unsigned int n, last, next;
} rp_labels;

static void rp_btf_labels_free(void)
{
	free(rp_labels.v);
	rp_labels.v = NULL;
}

static const struct rp_btf_labels *rp_btf_labels(const struct rp_probe_desc *d)
{
	struct rp_btf_labels *l;
	unsigned int i, k;

	if (!rp_labels.v) {
		rp_labels.v = calloc(RP_BTF_LABEL_CACHE, sizeof(*rp_labels.v));
		if (!rp_labels.v)
			return NULL;
		atexit(rp_btf_labels_free);
	}
	for (i = 0; i < rp_labels.n; i++) {
		/* records come in runs: the last one first */
		k = (rp_labels.last + i) % rp_labels.n;
		l = &rp_labels.v[k];
		if (l->id == d->id && !strcmp(l->name, d->name) &&
		    !strcmp(l->arg_names, d->arg_names)) {
			rp_labels.last = k;
			return l;
		}
	}
	if (rp_labels.n < RP_BTF_LABEL_CACHE)
		k = rp_labels.n++;
	else
		k = rp_labels.next++ % RP_BTF_LABEL_CACHE;
	rp_labels.last = k;
	rp_btf_labels_make(&rp_labels.v[k], d);
	return &rp_labels.v[k];
}

static const char *rp_btf_enumerator(const struct btf *btf, uint32_t id,
				     uint64_t v)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	unsigned int i, n = btf_vlen(t);
	uint64_t mask;

	if (!t->size || t->size > 8)
		return NULL;
	/* the value's width: an argument's upper bits are not the enum's */
	mask = t->size < 8 ? (1ULL << (t->size * 8)) - 1 : ~0ULL;
	if (btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (i = 0; i < n; i++)
			if (((uint64_t)(uint32_t)e[i].val & mask) == (v & mask))
				return rp_btf_str(btf, e[i].name_off);
	} else {
		const struct btf_enum64 *e = btf_enum64(t);

		for (i = 0; i < n; i++)
			if ((btf_enum64_value(e + i) & mask) == (v & mask))
				return rp_btf_str(btf, e[i].name_off);
	}
	return NULL;
}

/* Value v of type id, labelled how */
static const char *rp_btf_label(const struct btf *btf, unsigned char how,
				uint32_t id, uint64_t v)
{
	switch (how) {
	case RP_LABEL_BOOL:
		return v & 0xff ? "true" : "false";	/* _Bool: its low byte */
	case RP_LABEL_ENUM:
		return rp_btf_enumerator(btf, id, v);
	default:
		return NULL;
	}
}

const char *rp_btf_arg_label(const struct rp_probe_desc *d, unsigned int i,
			     uint64_t v)
{
	const struct rp_btf_labels *l;

	if (!rp_desc_has_names(d) || i >= RAWPROBE_MAX_ARGS)
		return NULL;
	l = rp_btf_labels(d);
	if (!l || !l->btf)
		return NULL;
	return rp_btf_label(l->btf, l->how[i], l->type[i], v);
}

void rp_btf_labels_preload(const struct rp_probe_req *reqs, unsigned int n)
{
	struct rp_btf_proto pr;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (reqs[i].symbol[0] && !reqs[i].offset &&
		    (reqs[i].kind == RAWPROBE_KIND_KRETPROBE ||
		     reqs[i].arg_names[0]))
			rp_btf_proto_get(reqs[i].symbol, reqs[i].module, &pr,
					 false);
}

void rp_btf_desc_types(struct rp_probe_desc *d)
{
	const struct rp_btf_labels *l;
	unsigned int i;

	d->types_known = 1;
	/* (rp_btf_ret_label()'s answer, known here once) */
	d->ret_label = RP_RET_LABEL_NONE;
	if (d->kind != RAWPROBE_KIND_KRETPROBE && !rp_desc_has_names(d))
		return;
	l = rp_btf_labels(d);
	if (!l || !l->btf)
		return;
	if (d->kind == RAWPROBE_KIND_KRETPROBE) {
		d->ret_type = l->ret_kind;
		if (l->ret_how == RP_LABEL_ENUM)
			d->ret_label = RP_RET_LABEL_ENUM;
	}
	for (i = 0; rp_desc_has_names(d) && i < RAWPROBE_MAX_ARGS; i++)
		if (l->how[i] == RP_LABEL_BOOL)
			d->arg_bool |= 1U << i;
	d->arg_bool &= rp_desc_bool_args(d);
}

const char *rp_btf_ret_label(const struct rp_probe_desc *d, uint64_t v)
{
	const struct rp_btf_labels *l;

	if (d->kind != RAWPROBE_KIND_KRETPROBE)
		return NULL;
	l = rp_btf_labels(d);
	if (!l || !l->btf || l->ret_how != RP_LABEL_ENUM)
		return NULL;
	return rp_btf_label(l->btf, l->ret_how, l->ret_type, v);
}
