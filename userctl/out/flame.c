// SPDX-License-Identifier: GPL-2.0
/*
 * Counted stacks into a flame graph's frames, and speedscope's file.
 * The rows come folded ("root;...;leaf" and a count) from count --by
 * stack, hist --stack or a file (the flamegraph command); merging them
 * is flamegraph.pl's: equal stacks added up, then one frame per distinct
 * prefix, siblings in name order, each as wide as the stacks through it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/json.h"
#include "out/flame.h"

int rp_flame_format_parse(const char *s)
{
	if (!strcmp(s, "svg"))
		return RP_FLAME_SVG;
	if (!strcmp(s, "speedscope"))
		return RP_FLAME_SPEEDSCOPE;
	return -1;
}

void rp_flame_init(struct rp_flame *f, const char *title)
{
	memset(f, 0, sizeof(*f));
	f->title = title;
}

void rp_flame_free(struct rp_flame *f)
{
	size_t i;

	for (i = 0; i < f->nrows; i++)
		free(f->rows[i].stack);
	free(f->rows);
	free(f->nodes);
	rp_flame_init(f, f->title);
}

int rp_flame_add(struct rp_flame *f, const char *stack, size_t len,
		 uint64_t count)
{
	struct rp_flame_row *r;

	if (!count)		/* nothing to draw */
		return 0;
	if (count > UINT64_MAX - f->total)
		return -EOVERFLOW;
	if (f->nrows == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;

		r = realloc(f->rows, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		f->rows = r;
		f->cap = cap;
	}
	r = &f->rows[f->nrows];
	r->stack = malloc(len + 1);
	if (!r->stack)
		return -ENOMEM;
	memcpy(r->stack, stack, len);
	r->stack[len] = '\0';
	r->len = len;
	r->count = count;
	f->nrows++;
	f->total += count;
	return 0;
}

/* The count at the end of a folded line: digits only, as a u64 */
static int rp_flame_count(const char *s, size_t n, uint64_t *count)
{
	uint64_t v = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]) ||
		    v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*count = v;
	return 0;
}

/*
 * "STACK COUNT": the count is the last word, after the last blank, so
 * a frame may hold blanks ("ext4_read [ext4]"), as flamegraph.pl reads.
 * 1: an empty line; 0: added; -EINVAL: not a folded line.
 */
static int rp_flame_line(struct rp_flame *f, char *line, size_t n)
{
	uint64_t count;
	size_t sp;

	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	if (!n)
		return 1;
	if (memchr(line, '\0', n))	/* a NUL would end the stack early */
		return -EINVAL;
	for (sp = n; sp && !isblank((unsigned char)line[sp - 1]); sp--)
		;
	if (!sp || rp_flame_count(line + sp, n - sp, &count))
		return -EINVAL;
	while (sp && isblank((unsigned char)line[sp - 1]))
		sp--;
	return rp_flame_add(f, line, sp, count);
}

long rp_flame_read(struct rp_flame *f, FILE *in, unsigned long *bad)
{
	unsigned long lineno = 0;
	size_t size = 0;
	char *line = NULL;
	ssize_t n;
	long nbad = 0;
	int rc;

	*bad = 0;
	while ((n = getline(&line, &size, in)) >= 0) {
		lineno++;
		rc = rp_flame_line(f, line, (size_t)n);
		if (rc == -ENOMEM) {
			free(line);
			return rc;
		}
		if (rc < 0 && !nbad++)
			*bad = lineno;
	}
	free(line);
	return nbad;
}

/*
 * Frame by frame: ';' ends a frame, so it sorts before any byte of a
 * longer name ("a;x" before "a-;y"), and a stack before the stacks it
 * is the prefix of. A frame's stacks are then side by side, which is
 * what merging them into one frame needs.
 */
static int rp_flame_cmp(const void *a, const void *b)
{
	const unsigned char *x = (const unsigned char *)
				 ((const struct rp_flame_row *)a)->stack;
	const unsigned char *y = (const unsigned char *)
				 ((const struct rp_flame_row *)b)->stack;
	int kx, ky;

	for (; *x == *y; x++, y++)
		if (!*x)
			return 0;
	kx = *x == ';' ? 1 : *x ? *x + 1 : 0;
	ky = *y == ';' ? 1 : *y ? *y + 1 : 0;
	return kx - ky;
}

/* Equal stacks as one row, their counts added; rows sorted. */
static void rp_flame_sum_rows(struct rp_flame *f)
{
	size_t i, k = 0;

	qsort(f->rows, f->nrows, sizeof(*f->rows), rp_flame_cmp);
	for (i = 1; i < f->nrows; i++) {
		if (!rp_flame_cmp(&f->rows[k], &f->rows[i])) {
			f->rows[k].count += f->rows[i].count;
			free(f->rows[i].stack);
		} else {
			f->rows[++k] = f->rows[i];
		}
	}
	f->nrows = k + 1;
}

static int rp_flame_node_new(struct rp_flame *f, size_t *cap,
			     const char *name, size_t len, unsigned int depth,
			     uint64_t start)
{
	struct rp_flame_node *n;

	if (f->nnodes == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		n = realloc(f->nodes, *cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->nodes = n;
	}
	n = &f->nodes[f->nnodes++];
	n->name = name;
	n->len = len;
	n->depth = depth;
	n->start = start;
	n->count = 0;
	if (depth > f->depth)
		f->depth = depth;
	return 0;
}

/*
 * One row's frames under the root: a frame that names the frame open at
 * its depth (the last row's, same prefix) adds to it; the first that
 * does not, and all after it, open new ones at 'start'. open[] has room
 * for the deepest row's frames.
 */
static int rp_flame_walk(struct rp_flame *f, const struct rp_flame_row *r,
			 size_t *open, size_t *nopen, size_t *cap,
			 uint64_t start)
{
	const char *p = r->stack, *end = r->stack + r->len, *semi;
	unsigned int d = 1;
	size_t n;

	f->nodes[0].count += r->count;
	for (; r->len && p <= end; p = semi + 1, d++) {
		semi = memchr(p, ';', (size_t)(end - p));
		semi = semi ? semi : end;
		n = (size_t)(semi - p);
		if (d >= *nopen || f->nodes[open[d]].len != n ||
		    memcmp(f->nodes[open[d]].name, p, n)) {
			if (rp_flame_node_new(f, cap, p, n, d, start))
				return -ENOMEM;
			open[d] = f->nnodes - 1;
			*nopen = d + 1;
		}
		f->nodes[open[d]].count += r->count;
	}
	*nopen = d;	/* a deeper frame of the last row is not this one's */
	return 0;
}

/* The most frames a row has */
static size_t rp_flame_max_frames(const struct rp_flame *f)
{
	size_t i, max = 0, n;
	const char *p, *end;

	for (i = 0; i < f->nrows; i++) {
		p = f->rows[i].stack;
		end = p + f->rows[i].len;
		for (n = 1; (p = memchr(p, ';', (size_t)(end - p))); p++)
			n++;
		max = n > max ? n : max;
	}
	return max;
}

int rp_flame_merge(struct rp_flame *f)
{
	size_t i, nopen = 1, cap = 0, *open;
	uint64_t start = 0;
	int err;

	free(f->nodes);
	f->nodes = NULL;
	f->nnodes = 0;
	f->depth = 0;
	if (f->nrows)
		rp_flame_sum_rows(f);
	open = calloc(rp_flame_max_frames(f) + 1, sizeof(*open));
	if (!open)
		return -ENOMEM;
	/* the root, which flamegraph.pl calls "all": every stack's */
	err = rp_flame_node_new(f, &cap, "all", 3, 0, 0);
	for (i = 0; !err && i < f->nrows; i++) {
		err = rp_flame_walk(f, &f->rows[i], open, &nopen, &cap, start);
		start += f->rows[i].count;
	}
	free(open);
	return err;
}

/* --- speedscope: https://www.speedscope.app/file-format-schema.json --- */

/*
 * A name as a JSON string of its text (rp_put_escaped_keep_bs()), UTF-8
 * kept:
 * json.c escapes each byte past ASCII on its own (\u00XX, the byte),
 * which keeps a record's raw bytes but shows "café" as "cafÃ©" in
 * speedscope. Nothing the text holds needs more than '"' and '\\'
 * escaped. buf holds 2 * RP_ESCAPED_MAX(n) + 3 bytes.
 */
static const char *rp_flame_json_name(char *buf, const char *s, size_t n)
{
	char *text = buf + RP_ESCAPED_MAX(n) + 2;
	char *end = rp_put_escaped_keep_bs(text, s, n), *p = buf;

	*p++ = '"';
	for (; text < end; text++) {
		if (*text == '"' || *text == '\\')
			*p++ = '\\';
		*p++ = *text;
	}
	*p++ = '"';
	*p = '\0';
	return buf;
}

/* A frame's index in shared.frames, by name: open addressing */
struct rp_flame_names {
	uint32_t *slots;	/* index + 1; 0: free */
	size_t mask;
	const struct rp_flame_node **frames;	/* by index: a node of it */
	uint32_t n;
};

static uint32_t rp_flame_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The index of a name, added if new: every name is a node's, so it fits */
static uint32_t rp_flame_name_index(struct rp_flame_names *t,
				    const struct rp_flame_node *node)
{
	size_t at = rp_flame_hash(node->name, node->len) & t->mask;
	const struct rp_flame_node *x;

	for (; t->slots[at]; at = (at + 1) & t->mask) {
		x = t->frames[t->slots[at] - 1];
		if (x->len == node->len && !memcmp(x->name, node->name, x->len))
			return t->slots[at] - 1;
	}
	t->frames[t->n] = node;
	t->slots[at] = ++t->n;
	return t->n - 1;
}

static int rp_flame_names_init(struct rp_flame_names *t,
			       const struct rp_flame *f)
{
	size_t size = 2;
	size_t i;

	while (size < 2 * f->nnodes)
		size *= 2;
	t->slots = calloc(size, sizeof(*t->slots));
	t->frames = calloc(f->nnodes, sizeof(*t->frames));
	t->mask = size - 1;
	t->n = 0;
	if (!t->slots || !t->frames)
		return -ENOMEM;
	for (i = 1; i < f->nnodes; i++)	/* not the root: no sample names it */
		rp_flame_name_index(t, &f->nodes[i]);
	return 0;
}

/*
 * A row's sample: its frames' indexes, root first. The row's frames are
 * the nodes open when the walk took it, so they are looked up by name.
 */
static void rp_flame_sample(struct json *j, struct rp_flame_names *t,
			    const struct rp_flame_row *r)
{
	const char *p = r->stack, *end = r->stack + r->len, *semi;
	struct rp_flame_node key;

	json_arr_open(j);
	for (; r->len && p <= end; p = semi + 1) {
		semi = memchr(p, ';', (size_t)(end - p));
		semi = semi ? semi : end;
		key.name = p;
		key.len = (size_t)(semi - p);
		json_u64(j, rp_flame_name_index(t, &key));
	}
	json_arr_close(j);
}

/* name: rp_flame_json_name()'s buffer, the title's room too */
static void rp_flame_profile(struct json *j, const struct rp_flame *f,
			     struct rp_flame_names *t, char *name)
{
	size_t i;

	json_obj_open(j);
	json_kv_str(j, "type", "sampled");
	json_key(j, "name");
	json_raw(j, rp_flame_json_name(name, f->title, strlen(f->title)));
	json_kv_str(j, "unit", "none");
	json_kv_u64(j, "startValue", 0);
	json_kv_u64(j, "endValue", f->total);
	json_key(j, "samples");
	json_arr_open(j);
	for (i = 0; i < f->nrows; i++)
		rp_flame_sample(j, t, &f->rows[i]);
	json_arr_close(j);
	json_key(j, "weights");
	json_arr_open(j);
	for (i = 0; i < f->nrows; i++)
		json_u64(j, f->rows[i].count);
	json_arr_close(j);
	json_obj_close(j);
}

int rp_flame_speedscope(const struct rp_flame *f, FILE *out)
{
	struct rp_flame_names t;
	size_t i, max = strlen(f->title);
	char *name = NULL;
	struct json j;
	int err;

	for (i = 0; i < f->nnodes; i++)
		max = f->nodes[i].len > max ? f->nodes[i].len : max;
	err = rp_flame_names_init(&t, f);
	name = malloc(2 * RP_ESCAPED_MAX(max) + 3);
	if (!err && !name)
		err = -ENOMEM;
	if (err)
		goto out;
	json_init(&j, out, false);
	json_obj_open(&j);
	json_kv_str(&j, "$schema",
		    "https://www.speedscope.app/file-format-schema.json");
	json_key(&j, "shared");
	json_obj_open(&j);
	json_key(&j, "frames");
	json_arr_open(&j);
	for (i = 0; i < t.n; i++) {
		json_obj_open(&j);
		json_key(&j, "name");
		json_raw(&j, rp_flame_json_name(name, t.frames[i]->name,
						t.frames[i]->len));
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_key(&j, "profiles");
	json_arr_open(&j);
	rp_flame_profile(&j, f, &t, name);
	json_arr_close(&j);
	json_key(&j, "name");
	json_raw(&j, rp_flame_json_name(name, f->title, strlen(f->title)));
	json_kv_u64(&j, "activeProfileIndex", 0);
	json_kv_str(&j, "exporter", "rawprobectl " RAWPROBECTL_VERSION);
	json_obj_close(&j);
	json_end_doc(&j);
out:
	free(name);
	free(t.slots);
	free(t.frames);
	return err;
}

int rp_flame_write(struct rp_flame *f, FILE *out, int fmt)
{
	int err = rp_flame_merge(f);

	if (err)
		return err;
	if (fmt == RP_FLAME_SPEEDSCOPE)
		err = rp_flame_speedscope(f, out);
	else
		err = rp_flame_svg(f, out);
	if (!err && (fflush(out) || ferror(out)))
		err = -EIO;
	return err;
}
