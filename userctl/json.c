// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include "json.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->pretty = pretty;
	j->depth = 0;
	j->first = true;
	j->after_key = false;
}

static void json_indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Separator and indentation before a value or a key. */
static void json_sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first)
		fputc(',', j->out);
	if (j->depth)
		json_indent(j);
	j->first = false;
}

static void json_open(struct json *j, char c)
{
	json_sep(j);
	fputc(c, j->out);
	j->depth++;
	j->first = true;
}

static void json_close(struct json *j, char c)
{
	j->depth--;
	if (!j->first)
		json_indent(j);
	fputc(c, j->out);
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

static void json_escaped(FILE *out, const char *s)
{
	const unsigned char *p;

	fputc('"', out);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void json_key(struct json *j, const char *key)
{
	json_sep(j);
	json_escaped(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	json_sep(j);
	json_escaped(j->out, s);
}

void json_u64(struct json *j, uint64_t v)
{
	json_sep(j);
	fprintf(j->out, "%" PRIu64, v);
}

void json_s64(struct json *j, int64_t v)
{
	json_sep(j);
	fprintf(j->out, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	json_sep(j);
	fputs("null", j->out);
}

void json_raw(struct json *j, const char *literal)
{
	json_sep(j);
	fputs(literal, j->out);
}

void json_end_doc(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
	j->first = true;
	j->after_key = false;
}
