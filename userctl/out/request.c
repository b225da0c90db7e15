// SPDX-License-Identifier: GPL-2.0
/*
 * What --dry-run shows of a probe request's compiled fields: a fetch
 * program ("src=arg0 loads=112 size=8 signed"), a comparison's name,
 * and a value filter's terms as JSON. Plain uapi data in, as the
 * kernel would get it (resolve/ compiles them).
 */
#include <stdint.h>
#include <stdio.h>
#include "out/request.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

static void rp_str_term_json(struct json *j, const char *strs,
			     const struct rawprobe_value_term *t)
{
	json_kv_str(j, "value", strs + t->value);
	json_kv_u64(j, "str_size", t->str_size);
	json_kv_bool(j, "user", t->flags & RAWPROBE_TERM_USER);
}

void rp_value_filter_json(struct json *j, const char *text,
			  const struct rawprobe_value_term *t,
			  unsigned int nterms, const char *strs)
{
	unsigned int i;

	json_key(j, "value_filter");
	json_obj_open(j);
	json_kv_str(j, "text", text);
	json_key(j, "terms");
	json_arr_open(j);
	for (i = 0; i < nterms; i++) {
		json_obj_open(j);
		json_key(j, "fetch");
		rp_fetch_json(j, &t[i].fetch);
		json_kv_str(j, "cmp", rp_cmp_name(t[i].cmp));
		if (t[i].cmp >= RAWPROBE_CMP_STR_EQ)
			rp_str_term_json(j, strs, &t[i]);
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
