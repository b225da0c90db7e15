// SPDX-License-Identifier: GPL-2.0
/*
 * --format ctf: a CTF 1.8 trace (https://diamon.org/ctf/v1.8.3/).
 *
 * One stream class; each CPU's records go to a stream file of their own,
 * channel0_CPU, in packets of at most RP_CTF_PACKET bytes: a packet
 * header (magic, trace UUID, stream class, the CPU as stream instance)
 * and context (first and last timestamp, sizes, sequence number, CPU),
 * then events. Every field is byte aligned and little-endian, so an event
 * is packed bytes, written with no padding.
 *
 * An event is its header (class id, timestamp: the record's ts_ns on a
 * clock class "monotonic" of 1 GHz), a context common to all classes
 * (probe id, kind, sequence, thread, process, command, address and its
 * symbol) and the fields of its class. A record says on its own which
 * arguments, string and return value it carries (RAWPROBE_REC_*), and a
 * CTF event class fixes its fields, so there is one class per probe and
 * record shape, made when a record needs it; the fields are what text
 * output prints (rp_record_text()), typed as it prints them, and a
 * kernel stack as a sequence of the frames' names.
 *
 * The metadata describes every class made, so it is written at the end.
 * It is also written at the start and before any packet with a class it
 * does not describe yet (as a new file renamed over the old one): the
 * directory is a readable trace of the packets written so far, and
 * recognisably ours, even if the command is killed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "lib/cli.h"
#include "out/ctf.h"
#include "lib/escape.h"
#include "lib/record_str.h"
#include "out/stack.h"
#include "lib/symbols.h"

#define RP_CTF_MAGIC	0xc1fc1fc1U
/* Packets of 64 KiB: a few MiB of buffers even for many CPUs. */
#define RP_CTF_PACKET	(64 * 1024)
/* packet.header 32 bytes, packet.context 44 */
#define RP_CTF_HEADER	76
/* The longest string field of each kind, with its NUL */
#define RP_CTF_COMM_MAX	(RAWPROBE_COMM_LEN + 1)
#define RP_CTF_STR_MAX	(RAWPROBE_STR_LEN + 1)
#define RP_CTF_SYM_MAX	RP_KSYM_MAX
/*
 * The longest event: header, context, six ptr arguments with their
 * symbols, a string of its own, its flags, return value and latency,
 * and a stack's frames as symbols.
 */
#define RP_CTF_EVENT_MAX						\
	(12 + 4 + 1 + 8 + 4 + 4 + RP_CTF_COMM_MAX + 8 + RP_CTF_SYM_MAX +	\
	 RAWPROBE_MAX_ARGS * (8 + RP_CTF_SYM_MAX) + RP_CTF_STR_MAX + 2 + 16 + \
	 1 + RAWPROBE_STACK_MAX * RP_CTF_SYM_MAX)
_Static_assert(RP_CTF_HEADER + RP_CTF_EVENT_MAX <= RP_CTF_PACKET,
	       "an event fits in a packet");

#define RP_CTF_METADATA		"metadata"
#define RP_CTF_METADATA_NEW	"metadata.new"
#define RP_CTF_STREAM		"channel0_"
/* How the metadata says who wrote it (and how a reused directory is told) */
#define RP_CTF_TRACER		"\ttracer_name = \"rawprobectl\";\n"

/* How an argument field is typed: as text output prints it. */
enum rp_ctf_fmt {
	RP_CTF_HEX,	/* u64 and anything untyped: 0x... */
	RP_CTF_UDEC,	/* u32 */
	RP_CTF_SDEC,	/* s32, s64 */
	RP_CTF_PTR,	/* 0x..., and a field argN_sym */
	RP_CTF_STR,	/* the captured string */
	RP_CTF_FAULT,	/* its string's fetch faulted: 0x..., argN_fault = 1 */
	/* a field fetch faulted (record's fault_mask): argN_fetch_fault = 1 */
	RP_CTF_FETCH_FAULT,
};

/*
 * Which string fields of an event are empty. babeltrace2 2.0.4 (Debian
 * 12) reuses the events of a class with their strings, and prints an
 * empty string as the text the reused event last held (fixed in later
 * versions): a class whose field is always empty, or never, reads right.
 */
#define RP_CTF_EMPTY_COMM	(1U << 0)
#define RP_CTF_EMPTY_SYM	(1U << 1)
#define RP_CTF_EMPTY_STR	(1U << 2)
#define RP_CTF_EMPTY_ARG_SYM(i)	(1U << (3 + (i)))
#define RP_CTF_EMPTY_ARG_STR(i)	(1U << (3 + RAWPROBE_MAX_ARGS + (i)))
_Static_assert(3 + 2 * RAWPROBE_MAX_ARGS <= 16, "empty's bits");

/* An event class: what its records carry. Compared whole (memcmp). */
struct rp_ctf_shape {
	uint32_t probe_id;
	uint16_t empty;			/* RP_CTF_EMPTY_* */
	uint8_t known;			/* the probe has a description */
	uint8_t nargs;			/* argument fields */
	uint8_t fmt[RAWPROBE_MAX_ARGS];	/* enum rp_ctf_fmt of each */
	uint8_t own_str;		/* a string after the arguments */
	uint8_t multi;			/* several strings: each truncated
					 * on its own (argN_truncated)
					 */
	uint8_t fault;			/* a fetch faulted, for no argument */
	uint8_t retval;			/* return value and latency */
	uint8_t stack;			/* a sequence of frames */
	char name[RP_PROBE_NAME_MAX];	/* the probe's, zero-padded */
};

struct rp_ctf_stream {
	unsigned char *buf;		/* the packet being filled */
	size_t len;			/* RP_CTF_HEADER when it has no event */
	uint64_t ts_begin;		/* its first event's timestamp */
	uint64_t ts_last;		/* the stream's last timestamp */
	uint64_t seq_num;		/* packets written before it */
};

struct rp_ctf {
	int dfd;			/* the trace directory */
	char *dir;			/* its name, for messages */
	unsigned char uuid[16];
	struct rp_ctf_stream **streams;	/* by CPU, NULL until one record */
	unsigned int nr_streams;
	struct rp_ctf_shape *classes;	/* by event class id */
	uint32_t nr_classes;
	uint32_t described;		/* classes the metadata on disk has */
	uint32_t *slots;		/* hash of classes: id + 1, 0 is free */
	uint32_t nr_slots;
	uint32_t last;			/* class of the last record */
};

/* --- the trace directory --- */

/* metadata, metadata.new and channel0_N: what a trace of ours holds */
static bool rp_ctf_own_name(const char *name)
{
	size_t n = strlen(RP_CTF_STREAM);

	if (!strcmp(name, RP_CTF_METADATA) || !strcmp(name, RP_CTF_METADATA_NEW))
		return true;
	return !strncmp(name, RP_CTF_STREAM, n) && name[n] &&
	       strspn(name + n, "0123456789") == strlen(name + n);
}

/* Does the directory's metadata say rawprobectl wrote it? */
static bool rp_ctf_metadata_ours(int dfd)
{
	char buf[4096];
	int fd = openat(dfd, RP_CTF_METADATA, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return !strncmp(buf, "/* CTF 1.8 */", 13) && strstr(buf, RP_CTF_TRACER);
}

static int rp_ctf_dir_error(const char *dir, const char *name)
{
	fprintf(stderr, "rawprobectl: %s%s%s: %s\n", dir, name ? "/" : "",
		name ?: "", strerror(errno));
	return RP_EXIT_FAIL;
}

/*
 * An existing directory is used when it is empty, or when it holds a
 * trace of ours and nothing else: then that trace goes first, so that no
 * stream file of a trace with more CPUs is left beside the new one.
 */
static int rp_ctf_clear(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	bool any = false, foreign = false;
	int rc = 0;

	if (!dp)
		return rp_ctf_dir_error(dir, NULL);
	while ((e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		any = true;
		foreign |= !rp_ctf_own_name(e->d_name);
	}
	if (any && (foreign || !rp_ctf_metadata_ours(dirfd(dp)))) {
		closedir(dp);
		return rp_usage_error("%s: not empty, and not a trace rawprobectl "
				      "wrote: give a new or empty directory", dir);
	}
	rewinddir(dp);
	while (!rc && (e = readdir(dp)))
		if (rp_ctf_own_name(e->d_name) &&
		    unlinkat(dirfd(dp), e->d_name, 0) && errno != ENOENT)
			rc = rp_ctf_dir_error(dir, e->d_name);
	closedir(dp);
	return rc;
}

int rp_ctf_prepare(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST)
		return rp_ctf_dir_error(dir, NULL);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return rp_usage_error("%s: not a directory (--format ctf writes "
				      "a trace directory: -o DIR)", dir);
	return rp_ctf_clear(dir);
}

/* --- metadata --- */

/* A name as a TSDL string: escaped as text output escapes it, quoted. */
static void rp_ctf_put_name(FILE *f, const char *name)
{
	char esc[RP_ESCAPED_MAX(RP_PROBE_NAME_MAX) + 1];
	const char *c;

	rp_escape_str(esc, sizeof(esc), name, RP_PROBE_NAME_MAX);
	fputc('"', f);
	for (c = esc; *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

static void rp_ctf_uuid_str(char *buf, const unsigned char *u)
{
	snprintf(buf, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		"%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5],
		u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

static void rp_ctf_trace_tsdl(FILE *f, const struct rp_ctf *c)
{
	char uuid[37];

	rp_ctf_uuid_str(uuid, c->uuid);
	fprintf(f,
		"/* CTF 1.8 */\n"
		"\n"
		"/*\n"
		" * rawprobectl " RAWPROBECTL_VERSION ": rawprobe records, one stream file per\n"
		" * CPU (channel0_CPU). Timestamps are CLOCK_MONOTONIC in ns.\n"
		" */\n"
		"\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; base = 16; } := xint64_t;\n"
		"\n"
		"trace {\n"
		"\tmajor = 1;\n"
		"\tminor = 8;\n"
		"\tuuid = \"%s\";\n"
		"\tbyte_order = le;\n"
		"\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n"
		"\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n"
		"\t};\n"
		"};\n"
		"\n"
		"env {\n"
		RP_CTF_TRACER
		"\ttracer_version = \"" RAWPROBECTL_VERSION "\";\n"
		"\trawprobe_abi = %d;\n"
		"};\n"
		"\n"
		"clock {\n"
		"\tname = \"monotonic\";\n"
		"\tdescription = \"CLOCK_MONOTONIC\";\n"
		"\tfreq = 1000000000;\n"
		"\toffset_s = 0;\n"
		"\toffset = 0;\n"
		"};\n"
		"\n"
		"typealias integer {\n"
		"\tsize = 64; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value;\n"
		"} := uint64_clock_monotonic_t;\n"
		"\n", uuid, RAWPROBE_ABI_VERSION);
}

static void rp_ctf_stream_tsdl(FILE *f)
{
	unsigned int k;

	fprintf(f,
		"stream {\n"
		"\tid = 0;\n"
		"\tpacket.context := struct {\n"
		"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n"
		"\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n"
		"\t\tuint32_t cpu_id;\n"
		"\t};\n"
		"\tevent.header := struct {\n"
		"\t\tuint32_t id;\n"
		"\t\tuint64_clock_monotonic_t timestamp;\n"
		"\t};\n"
		"\tevent.context := struct {\n"
		"\t\tuint32_t probe_id;\n"
		"\t\tenum : uint8_t {");
	for (k = 1; k < __RAWPROBE_KIND_MAX; k++)
		fprintf(f, "%s \"%s\" = %u", k > 1 ? "," : "", rp_kind_name(k), k);
	fprintf(f, " } kind;\n"
		"\t\tuint64_t seq;\n"
		"\t\tuint32_t pid;\n"
		"\t\tuint32_t tgid;\n"
		"\t\tstring comm;\n"
		"\t\txint64_t addr;\n"
		"\t\tstring sym;\n"
		"\t};\n"
		"};\n\n");
}

static void rp_ctf_event_tsdl(FILE *f, const struct rp_ctf_shape *sh,
			      uint32_t id)
{
	static const char *const types[] = {
		[RP_CTF_HEX] = "xint64_t", [RP_CTF_UDEC] = "uint64_t",
		[RP_CTF_SDEC] = "int64_t", [RP_CTF_PTR] = "xint64_t",
		[RP_CTF_STR] = "string", [RP_CTF_FAULT] = "xint64_t",
		[RP_CTF_FETCH_FAULT] = "xint64_t",
	};
	bool str = sh->own_str;
	unsigned int i;

	fputs("event {\n\tname = ", f);
	rp_ctf_put_name(f, sh->known ? sh->name : "?");
	fprintf(f, ";\n\tid = %" PRIu32 ";\n\tstream_id = 0;\n", id);
	if (!sh->nargs && !sh->own_str && !sh->fault && !sh->retval &&
	    !sh->stack) {
		fputs("};\n\n", f);	/* no fields: CTF has no empty struct */
		return;
	}
	fputs("\tfields := struct {\n", f);
	for (i = 0; i < sh->nargs; i++) {
		fprintf(f, "\t\t%s arg%u;\n", types[sh->fmt[i]], i);
		if (sh->fmt[i] == RP_CTF_STR && sh->multi)
			fprintf(f, "\t\tuint8_t arg%u_truncated;\n", i);
		if (sh->fmt[i] == RP_CTF_PTR)
			fprintf(f, "\t\tstring arg%u_sym;\n", i);
		if (sh->fmt[i] == RP_CTF_FAULT)
			fprintf(f, "\t\tuint8_t arg%u_fault;\n", i);
		if (sh->fmt[i] == RP_CTF_FETCH_FAULT)
			fprintf(f, "\t\tuint8_t arg%u_fetch_fault;\n", i);
		str |= sh->fmt[i] == RP_CTF_STR;
	}
	if (sh->own_str)
		fputs("\t\tstring str;\n", f);
	if (str && !sh->multi)
		fputs("\t\tuint8_t str_truncated;\n", f);
	if (sh->fault)
		fputs("\t\tuint8_t str_fault;\n", f);
	/* the register's, as JSON has it (text types it from BTF, if any) */
	if (sh->retval)
		fputs("\t\tint64_t retval;\n\t\tuint64_t latency_ns;\n", f);
	/* as JSON's "stack": never an empty string (babeltrace2 2.0.4) */
	if (sh->stack)
		fputs("\t\tuint8_t stack_len;\n"
		      "\t\tstring stack[stack_len];\n", f);
	fputs("\t};\n};\n\n", f);
}

/* Written aside, then renamed over the old one: never half a file. */
static int rp_ctf_metadata(struct rp_ctf *c)
{
	int fd = openat(c->dfd, RP_CTF_METADATA_NEW,
			O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	uint32_t id;
	int err;

	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	rp_ctf_trace_tsdl(f, c);
	rp_ctf_stream_tsdl(f);
	for (id = 0; id < c->nr_classes; id++)
		rp_ctf_event_tsdl(f, &c->classes[id], id);
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && renameat(c->dfd, RP_CTF_METADATA_NEW, c->dfd,
			     RP_CTF_METADATA))
		err = -errno;
	if (!err)
		c->described = c->nr_classes;
	return err;
}

/* --- event classes --- */

static unsigned int rp_ctf_fmt_of(const struct rawprobe_record *r,
				  const struct rp_probe_desc *d, unsigned int i)
{
	unsigned int t = rp_argtype_of(d, i);

	struct rp_rec_str rs;

	/* as rp_text_args(): "(fault)", the string, else "<fault>" */
	if (rp_arg_faulted(r, i))
		return RP_CTF_FETCH_FAULT;
	if (rp_rec_arg_str(r, i, &rs))
		return rs.flags & RAWPROBE_REC_STR ? RP_CTF_STR : RP_CTF_FAULT;
	switch (t) {
	case RAWPROBE_ARG_S64:
	case RAWPROBE_ARG_S32:
		return RP_CTF_SDEC;
	case RAWPROBE_ARG_U32:
		return RP_CTF_UDEC;
	case RAWPROBE_ARG_PTR:
		return RP_CTF_PTR;
	default:
		return RP_CTF_HEX;
	}
}

/* The captured string's length: as much of str[] as text output prints. */
static size_t rp_ctf_str_len(const struct rawprobe_record *r)
{
	return strnlen(r->str, r->str_len < RAWPROBE_STR_LEN ? r->str_len :
			       RAWPROBE_STR_LEN);
}

static bool rp_ctf_no_sym(uint64_t addr)
{
	size_t len;

	rp_ksym_cached(addr, &len);
	return !len;
}

static unsigned int rp_ctf_empty(const struct rawprobe_record *r,
				 const struct rp_ctf_shape *sh)
{
	unsigned int i, empty = 0;
	struct rp_rec_str rs;

	if (!strnlen(r->comm, RAWPROBE_COMM_LEN))
		empty |= RP_CTF_EMPTY_COMM;
	if (rp_ctf_no_sym(r->addr))
		empty |= RP_CTF_EMPTY_SYM;
	for (i = 0; i < sh->nargs; i++) {
		if (sh->fmt[i] == RP_CTF_STR && rp_rec_arg_str(r, i, &rs) &&
		    !rs.len)
			empty |= RP_CTF_EMPTY_ARG_STR(i);
		if (sh->fmt[i] == RP_CTF_PTR && rp_ctf_no_sym(r->args[i]))
			empty |= RP_CTF_EMPTY_ARG_SYM(i);
	}
	if (sh->own_str && !rp_ctf_str_len(r))
		empty |= RP_CTF_EMPTY_STR;
	return empty;
}

/* What r carries, decided as rp_record_text() decides what it prints. */
static void rp_ctf_shape_of(struct rp_ctf_shape *sh,
			    const struct rawprobe_record *r,
			    const struct rp_probe_desc *d)
{
	bool args = r->flags & RAWPROBE_REC_ARGS;
	bool fault = r->flags & RAWPROBE_REC_STR_FAULT;
	struct rp_rec_str rs;
	unsigned int i;

	memset(sh, 0, sizeof(*sh));
	sh->probe_id = r->probe_id;
	if (d) {
		sh->known = 1;
		memcpy(sh->name, d->name, strnlen(d->name, sizeof(d->name)));
	}
	if (args)
		sh->nargs = r->nargs < RAWPROBE_MAX_ARGS ? r->nargs :
			    RAWPROBE_MAX_ARGS;
	for (i = 0; i < sh->nargs; i++) {
		sh->fmt[i] = (uint8_t)rp_ctf_fmt_of(r, d, i);
		fault &= sh->fmt[i] != RP_CTF_FAULT;
	}
	sh->own_str = rp_rec_own_str(r, &rs);
	sh->multi = rp_rec_multi_str(r);
	sh->fault = fault;
	sh->retval = !!(r->flags & RAWPROBE_REC_RETVAL);
	sh->stack = (uint8_t)rp_has_stack(r);
	sh->empty = (uint16_t)rp_ctf_empty(r, sh);
}

/* The name is left out: a probe has one, its records a few shapes. */
static uint32_t rp_ctf_hash(const struct rp_ctf_shape *sh)
{
	const unsigned char *p = (const unsigned char *)sh;
	uint32_t h = 2166136261u;	/* FNV-1a */
	size_t i;

	for (i = 0; i < offsetof(struct rp_ctf_shape, name); i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void rp_ctf_slot_put(uint32_t *slots, uint32_t nr_slots,
			    const struct rp_ctf_shape *sh, uint32_t id)
{
	uint32_t i = rp_ctf_hash(sh) & (nr_slots - 1);

	while (slots[i])
		i = (i + 1) & (nr_slots - 1);
	slots[i] = id + 1;
}

/* Room for one more class: the hash at most half full, classes[] as big. */
static int rp_ctf_grow(struct rp_ctf *c)
{
	uint32_t i, nr = c->nr_slots ? c->nr_slots * 2 : 64;
	uint32_t *slots;
	void *v;

	if (2 * (c->nr_classes + 1) <= c->nr_slots)
		return 0;
	v = reallocarray(c->classes, nr / 2, sizeof(*c->classes));
	slots = calloc(nr, sizeof(*slots));
	if (v)
		c->classes = v;
	if (!v || !slots) {
		free(slots);
		return -ENOMEM;
	}
	for (i = 0; i < c->nr_classes; i++)
		rp_ctf_slot_put(slots, nr, &c->classes[i], i);
	free(c->slots);
	c->slots = slots;
	c->nr_slots = nr;
	return 0;
}

/* The id of the class of shape sh, made if new; -ENOMEM. */
static int64_t rp_ctf_class(struct rp_ctf *c, const struct rp_ctf_shape *sh)
{
	uint32_t i;

	if (c->last < c->nr_classes &&
	    !memcmp(&c->classes[c->last], sh, sizeof(*sh)))
		return c->last;
	for (i = c->nr_slots ? rp_ctf_hash(sh) & (c->nr_slots - 1) : 0;
	     c->nr_slots && c->slots[i]; i = (i + 1) & (c->nr_slots - 1)) {
		if (!memcmp(&c->classes[c->slots[i] - 1], sh, sizeof(*sh)))
			return c->last = c->slots[i] - 1;
	}
	if (rp_ctf_grow(c))
		return -ENOMEM;
	c->classes[c->nr_classes] = *sh;
	rp_ctf_slot_put(c->slots, c->nr_slots, sh, c->nr_classes);
	return c->last = c->nr_classes++;
}

/* --- events and packets --- */

static unsigned char *rp_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
	return p + 4;
}

static unsigned char *rp_le64(unsigned char *p, uint64_t v)
{
	return rp_le32(rp_le32(p, (uint32_t)v), (uint32_t)(v >> 32));
}

/* At most max bytes of s, up to a NUL, and the NUL. */
static unsigned char *rp_ctf_str(unsigned char *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	memcpy(p, s, n);
	p[n] = '\0';
	return p + n + 1;
}

static unsigned char *rp_ctf_sym(unsigned char *p, uint64_t addr)
{
	size_t len;
	const char *sym = rp_ksym_cached(addr, &len);

	return rp_ctf_str(p, len ? sym : "", RP_CTF_SYM_MAX - 1);
}

static unsigned char *rp_ctf_rec_str(unsigned char *p,
				     const struct rawprobe_record *r)
{
	return rp_ctf_str(p, r->str, rp_ctf_str_len(r));
}

/* Argument i's string (its class says it has one); several: its flag */
static unsigned char *rp_ctf_arg_str(unsigned char *p,
				     const struct rawprobe_record *r,
				     const struct rp_ctf_shape *sh,
				     unsigned int i)
{
	struct rp_rec_str rs = { .s = "", .len = 0 };

	rp_rec_arg_str(r, i, &rs);
	p = rp_ctf_str(p, rs.s, rs.len);
	if (sh->multi)
		*p++ = !!(rs.flags & RAWPROBE_REC_STR_TRUNC);
	return p;
}

/* The frames' count, then each as rp_frame_str() names it. */
static unsigned char *rp_ctf_stack(unsigned char *p,
				   const struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = rp_stack_frames(r, frames), i;
	char buf[RP_KSYM_MAX];
	size_t len;

	*p++ = (unsigned char)n;
	for (i = 0; i < n; i++)
		p = rp_ctf_str(p, rp_frame_str(frames[i], buf, &len),
			       RP_CTF_SYM_MAX - 1);
	return p;
}

static unsigned char *rp_ctf_payload(unsigned char *p,
				     const struct rawprobe_record *r,
				     const struct rp_ctf_shape *sh)
{
	bool str = sh->own_str;
	unsigned int i;

	for (i = 0; i < sh->nargs; i++) {
		if (sh->fmt[i] == RP_CTF_STR) {
			p = rp_ctf_arg_str(p, r, sh, i);
			str = !sh->multi;
			continue;
		}
		p = rp_le64(p, r->args[i]);
		if (sh->fmt[i] == RP_CTF_PTR)
			p = rp_ctf_sym(p, r->args[i]);
		if (sh->fmt[i] == RP_CTF_FAULT || sh->fmt[i] == RP_CTF_FETCH_FAULT)
			*p++ = 1;
	}
	if (sh->own_str)
		p = rp_ctf_rec_str(p, r);
	if (str)
		*p++ = !!(r->flags & RAWPROBE_REC_STR_TRUNC);
	if (sh->fault)
		*p++ = 1;
	if (sh->retval) {
		p = rp_le64(p, (uint64_t)r->retval);
		p = rp_le64(p, r->latency_ns);
	}
	if (sh->stack)
		p = rp_ctf_stack(p, r);
	return p;
}

/* Header, the context every class shares, then the class's fields. */
static unsigned char *rp_ctf_event(unsigned char *p,
				   const struct rawprobe_record *r,
				   const struct rp_ctf_shape *sh, uint32_t id,
				   uint64_t ts)
{
	p = rp_le32(p, id);
	p = rp_le64(p, ts);
	p = rp_le32(p, r->probe_id);
	*p++ = r->kind;
	p = rp_le64(p, r->seq);
	p = rp_le32(p, r->pid);
	p = rp_le32(p, r->tgid);
	p = rp_ctf_str(p, r->comm, RAWPROBE_COMM_LEN);
	p = rp_le64(p, r->addr);
	p = rp_ctf_sym(p, r->addr);
	return rp_ctf_payload(p, r, sh);
}

static void rp_ctf_packet_header(const struct rp_ctf *c,
				 struct rp_ctf_stream *st, unsigned int cpu)
{
	unsigned char *p = st->buf;
	uint64_t bits = (uint64_t)st->len * 8;

	p = rp_le32(p, RP_CTF_MAGIC);
	memcpy(p, c->uuid, sizeof(c->uuid));
	p = rp_le32(p + sizeof(c->uuid), 0);	/* stream class */
	p = rp_le64(p, cpu);			/* stream instance */
	p = rp_le64(p, st->ts_begin);
	p = rp_le64(p, st->ts_last);
	p = rp_le64(p, bits);			/* content_size */
	p = rp_le64(p, bits);			/* packet_size: no padding */
	p = rp_le64(p, st->seq_num);
	rp_le32(p, cpu);
}

static int rp_ctf_write_all(int fd, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Append the CPU's packet to its file, opened for that packet only: a
 * capture may name more CPUs than a process may keep files open.
 */
static int rp_ctf_flush(struct rp_ctf *c, unsigned int cpu)
{
	struct rp_ctf_stream *st = c->streams[cpu];
	char name[32];
	int fd, err;

	if (!st || st->len == RP_CTF_HEADER)
		return 0;
	if (c->described < c->nr_classes) {
		err = rp_ctf_metadata(c);
		if (err)
			return err;
	}
	rp_ctf_packet_header(c, st, cpu);
	snprintf(name, sizeof(name), RP_CTF_STREAM "%u", cpu);
	fd = openat(c->dfd, name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return -errno;
	err = rp_ctf_write_all(fd, st->buf, st->len);
	if (close(fd) && !err)
		err = -errno;
	st->len = RP_CTF_HEADER;
	st->seq_num++;
	return err;
}

static struct rp_ctf_stream *rp_ctf_stream_of(struct rp_ctf *c,
					      unsigned int cpu)
{
	struct rp_ctf_stream **v, *st;

	if (cpu >= c->nr_streams) {
		v = reallocarray(c->streams, cpu + 1, sizeof(*v));
		if (!v)
			return NULL;
		memset(v + c->nr_streams, 0,
		       (cpu + 1 - c->nr_streams) * sizeof(*v));
		c->streams = v;
		c->nr_streams = cpu + 1;
	}
	if (c->streams[cpu])
		return c->streams[cpu];
	st = calloc(1, sizeof(*st));
	if (st)
		st->buf = malloc(RP_CTF_PACKET);
	if (!st || !st->buf) {
		free(st);
		return NULL;
	}
	st->len = RP_CTF_HEADER;
	return c->streams[cpu] = st;
}

/* The first error is reported; the trace stops there, the command exits 1. */
static void rp_ctf_fail(struct rp_sink *s, int err)
{
	struct rp_ctf *c = s->priv;

	if (s->err)
		return;
	s->err = err;
	fprintf(stderr, "rawprobectl: %s: cannot write the trace: %s\n",
		c->dir, strerror(-err));
}

/* --- the sink --- */

static void rp_ctf_begin(struct rp_sink *s)
{
	int err = rp_ctf_metadata(s->priv);

	if (err)
		rp_ctf_fail(s, err);
}

static void rp_ctf_record(struct rp_sink *s, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	struct rp_ctf *c = s->priv;
	struct rp_ctf_stream *st;
	struct rp_ctf_shape sh;
	int64_t id;
	int err;

	if (s->err)
		return;
	rp_ctf_shape_of(&sh, r, d);
	id = rp_ctf_class(c, &sh);
	st = rp_ctf_stream_of(c, r->cpu);
	err = id < 0 || !st ? -ENOMEM : 0;
	if (!err && st->len + RP_CTF_EVENT_MAX > RP_CTF_PACKET)
		err = rp_ctf_flush(c, r->cpu);
	if (err) {
		rp_ctf_fail(s, err);
		return;
	}
	/* A stream never goes back in time (only a hand-made capture would). */
	if (r->ts_ns > st->ts_last)
		st->ts_last = r->ts_ns;
	if (st->len == RP_CTF_HEADER)
		st->ts_begin = st->ts_last;
	st->len = (size_t)(rp_ctf_event(st->buf + st->len, r,
					&c->classes[id], (uint32_t)id,
					st->ts_last) - st->buf);
	s->n++;
}

static void rp_ctf_end(struct rp_sink *s)
{
	struct rp_ctf *c = s->priv;
	unsigned int cpu;
	int err = 0;

	for (cpu = 0; !s->err && !err && cpu < c->nr_streams; cpu++)
		err = rp_ctf_flush(c, cpu);
	if (!s->err && !err)
		err = rp_ctf_metadata(c);
	if (err)
		rp_ctf_fail(s, err);
}

static void rp_ctf_free(struct rp_sink *s)
{
	struct rp_ctf *c = s->priv;
	unsigned int cpu;

	for (cpu = 0; cpu < c->nr_streams; cpu++) {
		if (c->streams[cpu])
			free(c->streams[cpu]->buf);
		free(c->streams[cpu]);
	}
	free(c->streams);
	free(c->classes);
	free(c->slots);
	free(c->dir);
	close(c->dfd);
	free(c);
}

static const struct rp_sink_ops rp_ctf_ops = {
	.begin = rp_ctf_begin, .record = rp_ctf_record, .end = rp_ctf_end,
	.free = rp_ctf_free,
};

/* A random (version 4) UUID; the time and pid if there is no entropy. */
static void rp_ctf_make_uuid(unsigned char *u)
{
	struct timespec ts;

	if (getrandom(u, 16, GRND_NONBLOCK) != 16) {
		clock_gettime(CLOCK_REALTIME, &ts);
		rp_le64(rp_le64(u, (uint64_t)ts.tv_sec * 1000000000ULL +
				   (uint64_t)ts.tv_nsec), (uint64_t)getpid());
	}
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
}

int rp_ctf_sink_init(struct rp_sink *s, const char *dir)
{
	struct rp_ctf *c = calloc(1, sizeof(*c));

	memset(s, 0, sizeof(*s));
	if (!c)
		return -ENOMEM;
	c->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c->dir = strdup(dir);
	if (c->dfd < 0 || !c->dir) {
		int err = c->dfd < 0 ? -errno : -ENOMEM;

		fprintf(stderr, "rawprobectl: %s: %s\n", dir, strerror(-err));
		if (c->dfd >= 0)
			close(c->dfd);
		free(c->dir);
		free(c);
		return err;
	}
	rp_ctf_make_uuid(c->uuid);
	s->ops = &rp_ctf_ops;
	s->out = stdout;	/* nothing goes there */
	s->priv = c;
	return 0;
}
