/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer (the shape of bpftool's json_writer):
 * compact, one document per line (-j), or indented (-p).
 */
#ifndef RAWPROBECTL_JSON_H
#define RAWPROBECTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rp_outbuf;

struct json {
	FILE *out;
	struct rp_outbuf *ob;	/* if set, output goes there, not to out */
	bool pretty;
	int depth;
	bool first;		/* no member written yet at this depth */
	bool after_key;		/* a key was just written */
};

void json_init(struct json *j, FILE *out, bool pretty);
/*
 * Write into ob instead of the FILE (the stream's record sinks: one
 * write per batch). json_end_doc() then neither flushes nor writes.
 */
void json_set_outbuf(struct json *j, struct rp_outbuf *ob);
void json_obj_open(struct json *j);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j);
void json_arr_close(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
/* At most max bytes of s (a fixed-size field that may fill up). */
void json_strn(struct json *j, const char *s, size_t max);
void json_u64(struct json *j, uint64_t v);
void json_s64(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* A number already formatted, e.g. "12.345" */
void json_raw(struct json *j, const char *literal);
/* Ends a top-level document: a newline, flushed (JSON lines). */
void json_end_doc(struct json *j);

/*
 * The cursor form, for a caller that writes many members at once in
 * compact output (a record of the stream): json_cursor() reserves max
 * bytes and returns where to write them, or NULL when the output is a
 * FILE or pretty (then use the calls above); json_cursor_done() takes
 * the end and the depth there (1: inside the object the piece opened).
 * Write with rp_put_* (outbuf.h), JSON_PUT_LIT and json_put_string().
 */
char *json_cursor(struct json *j, size_t max);
void json_cursor_done(struct json *j, char *p, int depth);
/* s[0..n) quoted and escaped at p: up to 2 + 6n bytes. */
char *json_put_string(char *p, const char *s, size_t n);
#define JSON_PUT_LIT(p, lit) rp_put(p, lit, sizeof(lit) - 1)

static inline void json_kv_str(struct json *j, const char *k, const char *v)
{
	json_key(j, k);
	json_str(j, v);
}

static inline void json_kv_strn(struct json *j, const char *k, const char *v,
				size_t max)
{
	json_key(j, k);
	json_strn(j, v, max);
}

static inline void json_kv_u64(struct json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	json_u64(j, v);
}

static inline void json_kv_s64(struct json *j, const char *k, int64_t v)
{
	json_key(j, k);
	json_s64(j, v);
}

static inline void json_kv_raw(struct json *j, const char *k, const char *v)
{
	json_key(j, k);
	json_raw(j, v);
}

static inline void json_kv_bool(struct json *j, const char *k, bool v)
{
	json_key(j, k);
	json_bool(j, v);
}

#endif
