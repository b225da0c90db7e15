// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <string.h>
#include "lib/json.h"
#include "lib/escape.h"
#include "lib/outbuf.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->ob = NULL;
	j->pretty = pretty;
	j->depth = 0;
	j->first = true;
	j->after_key = false;
}

void json_set_outbuf(struct json *j, struct rp_outbuf *ob)
{
	j->ob = ob;
}

static void json_put(struct json *j, const char *s, size_t n)
{
	if (j->ob)
		rp_ob_put(j->ob, s, n);
	else
		fwrite(s, 1, n, j->out);
}

static void json_putc(struct json *j, char c)
{
	if (j->ob)
		rp_ob_putc(j->ob, c);
	else
		fputc(c, j->out);
}

static void json_indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	json_putc(j, '\n');
	for (i = 0; i < j->depth; i++)
		json_put(j, "  ", 2);
}

/* Separator and indentation before a value or a key. */
static void json_sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first)
		json_putc(j, ',');
	if (j->depth)
		json_indent(j);
	j->first = false;
}

/*
 * How each byte goes into a JSON string: 0, as it is; else the letter
 * after the backslash ('u': \u00XX). Every byte outside printable ASCII
 * is escaped on its own, so strings that are not UTF-8 stay valid JSON.
 */
static const char json_escape_of[256] = {
	[0x00 ... 0x08] = 'u', ['\t'] = 't', ['\n'] = 'n',
	[0x0b ... 0x0c] = 'u', ['\r'] = 'r', [0x0e ... 0x1f] = 'u',
	['"'] = '"', ['\\'] = '\\', [0x7f ... 0xff] = 'u',
};

static bool json_plain(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (json_escape_of[(unsigned char)s[i]])
			return false;
	return true;
}

/*
 * The fast path of compact output into a buffer: the separator due, s
 * (n bytes that need no escaping), quoted or not, and tail, reserved and
 * written at once. Returns false, having written nothing, when the
 * output is a FILE or pretty: the caller then takes the piecewise path.
 */
static bool json_piece(struct json *j, const char *s, size_t n, bool quote,
		       const char *tail, size_t tail_n)
{
	char *p;

	if (!j->ob || j->pretty)
		return false;
	p = rp_ob_begin(j->ob, 1 + 2 + n + tail_n);
	if (j->after_key)
		j->after_key = false;
	else if (j->first)
		j->first = false;
	else
		*p++ = ',';
	if (quote)
		*p++ = '"';
	p = rp_put(p, s, n);
	if (quote)
		*p++ = '"';
	p = rp_put(p, tail, tail_n);
	rp_ob_end(j->ob, p);
	return true;
}

static void json_open(struct json *j, char c)
{
	if (!json_piece(j, &c, 1, false, "", 0)) {
		json_sep(j);
		json_putc(j, c);
	}
	j->depth++;
	j->first = true;
}

static void json_close(struct json *j, char c)
{
	j->depth--;
	if (!j->first)
		json_indent(j);
	json_putc(j, c);
	j->first = false;
}

void json_obj_open(struct json *j)
{
	json_open(j, '{');
}

void json_obj_close(struct json *j)
{
	json_close(j, '}');
}

void json_arr_open(struct json *j)
{
	json_open(j, '[');
}

void json_arr_close(struct json *j)
{
	json_close(j, ']');
}

/* The escape of byte c at p (2 or 6 bytes). */
static char *json_put_escape(char *p, unsigned char c)
{
	static const char hex[16] = "0123456789abcdef";

	*p++ = '\\';
	*p++ = json_escape_of[c];
	if (p[-1] != 'u')
		return p;
	*p++ = '0';
	*p++ = '0';
	*p++ = hex[c >> 4];
	*p++ = hex[c & 15];
	return p;
}

static void json_escape_byte(struct json *j, unsigned char c)
{
	char esc[6];

	json_put(j, esc, (size_t)(json_put_escape(esc, c) - esc));
}

/*
 * Does a byte of w need a JSON escape (below 0x20, '"', '\\', 0x7f and
 * up)? rp_word_needs_escape() (escape.h) with '"' as a second byte that
 * must be escaped: ~((x ^ c) + 0x7f) has its high bit set if x is c.
 */
static inline bool json_word_needs_escape(uint64_t w)
{
	uint64_t x = w & ~RP_HIGH_BITS;

	return ((w | ~(x + RP_BYTES(0x60)) | (x + RP_BYTES(0x01)) |
		 ~((x ^ RP_BYTES('\\')) + RP_BYTES(0x7f)) |
		 ~((x ^ RP_BYTES('"')) + RP_BYTES(0x7f))) & RP_HIGH_BITS) != 0;
}

/* Byte by byte: plain runs copied at once, the rest escaped. */
static char *json_put_escaped_bytes(char *p, const unsigned char *at,
				    const unsigned char *end)
{
	const unsigned char *run;

	while (at < end) {
		for (run = at; at < end && !json_escape_of[*at]; at++)
			;
		p = rp_put(p, run, (size_t)(at - run));
		if (at < end)
			p = json_put_escape(p, *at++);
	}
	return p;
}

/*
 * As rp_put_escaped() (escape.h): eight bytes checked and copied a step,
 * the tail as the last word (overlapping the one before); byte by byte
 * from the first word that holds something to escape.
 */
char *json_put_string(char *p, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	uint64_t w;

	*p++ = '"';
	if (n >= sizeof(w)) {
		for (; i + sizeof(w) <= n; i += sizeof(w)) {
			memcpy(&w, u + i, sizeof(w));
			if (json_word_needs_escape(w))
				goto bytes;
			memcpy(p + i, &w, sizeof(w));
		}
		memcpy(&w, u + n - sizeof(w), sizeof(w));
		if (i < n && json_word_needs_escape(w))
			goto bytes;
		memcpy(p + n - sizeof(w), &w, sizeof(w));
		p += n;
		*p++ = '"';
		return p;
	}
bytes:
	p = json_put_escaped_bytes(p + i, u + i, u + n);
	*p++ = '"';
	return p;
}

char *json_cursor(struct json *j, size_t max)
{
	if (!j->ob || j->pretty)
		return NULL;
	return rp_ob_begin(j->ob, max);
}

void json_cursor_done(struct json *j, char *p, int depth)
{
	rp_ob_end(j->ob, p);
	j->depth = depth;
	j->first = false;
	j->after_key = false;
}

/* s[0..n), quoted and escaped; plain runs in one piece. */
static void json_escaped(struct json *j, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + n;
	const unsigned char *run;

	json_putc(j, '"');
	while (p < end) {
		for (run = p; p < end && !json_escape_of[*p]; p++)
			;
		json_put(j, (const char *)run, (size_t)(p - run));
		if (p < end)
			json_escape_byte(j, *p++);
	}
	json_putc(j, '"');
}

void json_key(struct json *j, const char *key)
{
	size_t n = strlen(key);

	if (json_plain(key, n) && json_piece(j, key, n, true, ":", 1)) {
		j->after_key = true;
		return;
	}
	json_sep(j);
	json_escaped(j, key, n);
	if (j->pretty)
		json_put(j, ": ", 2);
	else
		json_putc(j, ':');
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	json_strn(j, s, SIZE_MAX);
}

void json_strn(struct json *j, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	if (json_plain(s, n) && json_piece(j, s, n, true, "", 0))
		return;
	json_sep(j);
	json_escaped(j, s, n);
}

/* A number, true, false, null: never escaped. */
static void json_literal(struct json *j, const char *s, size_t n)
{
	if (json_piece(j, s, n, false, "", 0))
		return;
	json_sep(j);
	json_put(j, s, n);
}

void json_u64(struct json *j, uint64_t v)
{
	char tmp[RP_U64_DIGITS_MAX];

	json_literal(j, tmp, (size_t)(rp_put_u64(tmp, v) - tmp));
}

void json_s64(struct json *j, int64_t v)
{
	char tmp[RP_S64_CHARS_MAX];

	json_literal(j, tmp, (size_t)(rp_put_s64(tmp, v) - tmp));
}

void json_bool(struct json *j, bool v)
{
	json_raw(j, v ? "true" : "false");
}

void json_null(struct json *j)
{
	json_raw(j, "null");
}

void json_raw(struct json *j, const char *literal)
{
	json_literal(j, literal, strlen(literal));
}

void json_end_doc(struct json *j)
{
	json_putc(j, '\n');
	/* A buffer is written by its owner, after a whole batch. */
	if (!j->ob)
		fflush(j->out);
	j->first = true;
	j->after_key = false;
}
