// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stacks in records: decoded from the string area, named from
 * kallsyms (symbols.c) for every output format.
 */
#include <endian.h>
#include <string.h>
#include "out/stack.h"

unsigned int rp_stack_frames(const struct rawprobe_record *r,
			     uint64_t *frames)
{
	unsigned int n, i;

	if (!rp_has_stack(r))
		return 0;
	/* a capture may say more than the area holds: what it holds */
	n = r->str_len / sizeof(*frames);
	if (n > RAWPROBE_STACK_MAX)
		n = RAWPROBE_STACK_MAX;
	memcpy(frames, r->str, n * sizeof(*frames));
	for (i = 0; i < n; i++)
		frames[i] = le64toh(frames[i]);	/* the ABI's byte order */
	return n;
}

/* Not "": a frame is there, even where kallsyms cannot name it. */
static const char *rp_frame_addr(uint64_t addr, char *buf, size_t *len)
{
	*len = (size_t)(rp_put_hex(buf, addr) - buf);
	buf[*len] = '\0';
	return buf;
}

const char *rp_frame_str(uint64_t addr, char *buf, size_t *len)
{
	const char *sym = rp_ksym_cached(addr, len);

	return *len ? sym : rp_frame_addr(addr, buf, len);
}

char *rp_put_frame(char *p, uint64_t addr)
{
	char buf[RP_KSYM_MAX];
	size_t len;
	const char *s = rp_frame_str(addr, buf, &len);

	return rp_put_escaped(p, s, len);
}

void rp_stack_json_as(struct json *j, const char *key, const uint64_t *frames,
		      unsigned int n)
{
	char buf[RP_KSYM_MAX];
	unsigned int i;
	size_t len;

	json_key(j, key);
	json_arr_open(j);
	for (i = 0; i < n; i++)
		json_str(j, rp_frame_str(frames[i], buf, &len));
	json_arr_close(j);
}

void rp_stack_json(struct json *j, const uint64_t *frames, unsigned int n)
{
	rp_stack_json_as(j, "stack", frames, n);
}

/* s[0..n) escaped, and each ';' as "\x3b": it separates the frames. */
static char *rp_put_folded(char *p, const char *s, size_t n)
{
	const char *semi;

	while ((semi = memchr(s, ';', n))) {
		p = rp_put_escaped(p, s, (size_t)(semi - s));
		p = rp_put(p, "\\x3b", 4);
		n -= (size_t)(semi - s) + 1;
		s = semi + 1;
	}
	return rp_put_escaped(p, s, n);
}

char *rp_put_folded_str(char *p, const char *s, size_t max)
{
	return rp_put_folded(p, s, strnlen(s, max));
}

const char *rp_frame_func(uint64_t addr, char *buf, size_t *len)
{
	const char *name = rp_ksym_func(addr, len);

	return *len ? name : rp_frame_addr(addr, buf, len);
}

char *rp_put_folded_name(char *p, uint64_t addr)
{
	char buf[RP_KSYM_MAX];
	size_t len;
	const char *name = rp_frame_func(addr, buf, &len);

	return rp_put_folded(p, name, len);
}

char *rp_put_folded_stack(char *p, uint64_t addr, const uint64_t *frames,
			  unsigned int n)
{
	/*
	 * root first: the outermost caller, down to the probed function;
	 * a tracepoint's (addr 0) ends at the function that hit it
	 */
	while (n--) {
		p = rp_put_folded_name(p, frames[n]);
		if (n || addr)
			*p++ = ';';
	}
	return addr ? rp_put_folded_name(p, addr) : p;
}

void rp_record_folded(struct rp_outbuf *ob, const struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = rp_stack_frames(r, frames);
	char *p = rp_ob_begin(ob, RP_FOLDED_LINE_MAX);

	p = rp_put_folded_str(p, r->comm, RAWPROBE_COMM_LEN);
	*p++ = ';';
	p = rp_put_folded_stack(p, r->kind == RAWPROBE_KIND_TRACEPOINT ? 0 :
				r->addr, frames, n);
	p = rp_put(p, " 1\n", 3);
	rp_ob_end(ob, p);
}
