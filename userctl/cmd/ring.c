// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl ring create|del|list|show|set: sessions, each a set of
 * per-CPU rings: their geometry, mode and clock, owner, probes, readers
 * and losses. Session 0 is the default, where persistent probes write
 * unless told otherwise; named sessions stay until 'ring del'; the
 * commands that read records make unnamed ones of their own, which end
 * with them.
 */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/ring_nl.h"

/* The owner's user name, or its uid as text. */
static const char *rp_ring_owner(const struct rp_session *s, char *buf,
				 size_t len)
{
	struct passwd pw, *res = NULL;
	char pwbuf[1024];

	if (!s->has_owner)
		snprintf(buf, len, "-");
	else if (!getpwuid_r((uid_t)s->uid, &pw, pwbuf, sizeof(pwbuf), &res) &&
		 res)
		snprintf(buf, len, "%s", res->pw_name);
	else
		snprintf(buf, len, "%" PRIu32, s->uid);
	return buf;
}

static void rp_ring_json(const struct rp_session *s)
{
	char owner[64];

	json_obj_open(&rp_json);
	json_kv_u64(&rp_json, "session", s->id);
	if (s->name[0])
		json_kv_str(&rp_json, "name", s->name);
	if (s->has_owner) {
		json_kv_u64(&rp_json, "owner_uid", s->uid);
		json_kv_str(&rp_json, "owner",
			    rp_ring_owner(s, owner, sizeof(owner)));
	}
	json_kv_u64(&rp_json, "rings", s->nr_rings);
	json_kv_u64(&rp_json, "records", s->records);
	json_kv_u64(&rp_json, "record_size", RAWPROBE_RECORD_SIZE);
	json_kv_str(&rp_json, "mode", rp_ring_mode_name(s->mode));
	if (s->bytes >= 0)
		json_kv_u64(&rp_json, "allocated_bytes", (uint64_t)s->bytes);
	json_kv_str(&rp_json, "clock", rp_clock_name(s->clock));
	json_kv_u64(&rp_json, "tsc_khz", s->tsc_khz);
	if (s->has_owner) {
		json_kv_u64(&rp_json, "probes", s->nr_probes);
		json_kv_u64(&rp_json, "readers", s->readers);
		json_kv_u64(&rp_json, "lost", s->lost);
	}
	json_obj_close(&rp_json);
}

static void rp_ring_text(const struct rp_session *s)
{
	char label[RP_SESSION_LABEL_MAX], owner[64];

	/* a module without sessions says nothing of them */
	if (s->has_owner)
		printf("session %s (id %" PRIu32 ", %s), owner %s: %u probe%s, "
		       "%u reader%s, %" PRIu64 " lost\n",
		       rp_session_label(s->id, s->name, label, sizeof(label)),
		       s->id, s->name[0] ? "named" : s->id ? "a command's" :
		       "persistent probes'", rp_ring_owner(s, owner,
							   sizeof(owner)),
		       s->nr_probes, s->nr_probes == 1 ? "" : "s", s->readers,
		       s->readers == 1 ? "" : "s", s->lost);
	printf("rings %u, records %u per ring (%u KiB), mode %s\n",
	       s->nr_rings, s->records,
	       s->records * RAWPROBE_RECORD_SIZE / 1024,
	       rp_ring_mode_name(s->mode));
	if (s->bytes > 0)
		printf("allocated %llu KiB\n",
		       (unsigned long long)s->bytes / 1024);
	else if (!s->bytes)
		printf("not allocated yet: the first probe or reader allocates them\n");
	printf("clock %s", rp_clock_name(s->clock));
	if (s->tsc_khz)
		printf(" (tsc offered: %u.%03u MHz)", s->tsc_khz / 1000,
		       s->tsc_khz % 1000);
	else
		printf(" (tsc not offered: no TSC the kernel trusts)");
	printf("\n");
}

static void rp_ring_print(const struct rp_session *s)
{
	if (rp_opts.json) {
		rp_ring_json(s);
		json_end_doc(&rp_json);
	} else {
		rp_ring_text(s);
	}
}

/* A failed request about ref: the kernel's reason, a hint, the exit code */
static int rp_ring_failed(struct rp_nl *nl, const char *cmd,
			  const struct rp_session_ref *ref, int err)
{
	char label[RP_SESSION_LABEL_MAX], what[RP_SESSION_LABEL_MAX + 32];

	if (ref)
		snprintf(what, sizeof(what), "%s %s", cmd,
			 rp_session_label(ref->id, ref->name, label,
					  sizeof(label)));
	else
		snprintf(what, sizeof(what), "%s", cmd);
	rp_nl_perror(nl, what, err);
	rp_session_hint(nl, ref, err);
	return rp_exit_from_errno(err);
}

/* --- show --- */

static int rp_ring_show(int argc, char **argv)
{
	static const char usage[] =
		"Usage: rawprobectl ring show [SESSION]\n"
		"A session's rings: geometry, mode, clock, owner, probes,\n"
		"readers, records lost. SESSION: a name, an id or 'default'\n"
		"(the default: persistent probes' session).\n";
	struct rp_session_ref ref = { 0 };
	struct rp_session s;
	struct rp_nl nl;
	int rc, err;

	if (argc == 2 && rp_is_help(argv[1])) {
		fputs(usage, stdout);
		return RP_EXIT_OK;
	}
	if (argc > 2) {
		fputs(usage, stderr);
		return RP_EXIT_USAGE;
	}
	if (argc == 2 && (rc = rp_ring_name_opt("ring show", argv[1], &ref)))
		return rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_session_get(&nl, &ref, &s);
	if (err) {
		rc = rp_ring_failed(&nl, "ring show", argc == 2 ? &ref : NULL,
				    err);
		rp_nl_close(&nl);
		return rc;
	}
	rp_nl_close(&nl);
	rp_ring_print(&s);
	return RP_EXIT_OK;
}

/* --- list --- */

/* 4194304 -> "4M": the BYTES column */
static const char *rp_ring_size(int64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	double v = (double)bytes;
	int u = -1;

	if (bytes < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRId64, bytes);
	else if (v == (double)(uint64_t)v || v >= 100)
		snprintf(buf, len, "%.0f%c", v, units[u]);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
	return buf;
}

static void rp_ring_table(const struct rp_session *v, size_t n)
{
	char label[RP_SESSION_LABEL_MAX], owner[64], size[24];
	size_t i;

	printf("%10s %-16s %-10s %8s %-9s %7s %6s %7s %10s\n", "ID", "NAME",
	       "OWNER", "RECORDS", "MODE", "BYTES", "PROBES", "READERS",
	       "LOST");
	for (i = 0; i < n; i++) {
		const struct rp_session *s = &v[i];

		printf("%10" PRIu32 " %-16s %-10s %8u %-9s %7s %6u %7u %10"
		       PRIu64 "\n", s->id,
		       s->name[0] || !s->id ?
		       rp_session_label(s->id, s->name, label, sizeof(label)) :
		       "-", rp_ring_owner(s, owner, sizeof(owner)),
		       s->records, rp_ring_mode_name(s->mode),
		       rp_ring_size(s->bytes, size, sizeof(size)),
		       s->nr_probes, s->readers, s->lost);
	}
}

static int rp_session_id_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct rp_session *)a)->id;
	uint32_t y = ((const struct rp_session *)b)->id;

	return x < y ? -1 : x > y;
}

static int rp_ring_list(int argc, char **argv)
{
	struct rp_session *v = NULL;
	struct rp_nl nl;
	size_t n = 0, i;
	int rc, err;

	rc = rp_no_args(argc, argv, "Usage: rawprobectl ring list\n"
			"Every session the caller may see: the default, named "
			"ones (ring create)\nand commands' own (NAME '-'), with "
			"owner, size, mode, probes, readers\nand records lost.\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_session_dump(&nl, &v, &n);
	if (err) {
		rc = rp_ring_failed(&nl, "ring list", NULL, err);
		rp_nl_close(&nl);
		return rc;
	}
	rp_nl_close(&nl);
	qsort(v, n, sizeof(*v), rp_session_id_cmp);
	if (rp_opts.json) {
		json_arr_open(&rp_json);
		for (i = 0; i < n; i++)
			rp_ring_json(&v[i]);
		json_arr_close(&rp_json);
		json_end_doc(&rp_json);
	} else {
		rp_ring_table(v, n);
	}
	free(v);
	return RP_EXIT_OK;
}

/* --- create, set: "records N", "mode M" (and set's "clock C") --- */

struct rp_ring_args {
	uint32_t records;	/* 0: not given (create: automatic) */
	int mode, clock;	/* -1: not given */
};

/*
 * argv[i..]: pairs of a word and its value (clock: ring set's, which
 * also refuses records 0). 0, -1 after a help, or an exit code.
 */
static int rp_ring_pairs(int argc, char **argv, int i, const char *cmd,
			 bool clock, struct rp_ring_args *r,
			 void (*usage)(FILE *))
{
	uint64_t v = 0;
	int rc;

	r->records = 0;
	r->mode = r->clock = -1;
	for (; i < argc; i += 2) {
		if (rp_is_help(argv[i])) {
			usage(stdout);
			return -1;
		}
		if (strcmp(argv[i], "records") && strcmp(argv[i], "mode") &&
		    (!clock || strcmp(argv[i], "clock")))
			return rp_usage_error("%s: unknown word '%s' (records, "
					      "mode%s; try 'rawprobectl %s "
					      "help')", cmd, argv[i],
					      clock ? ", clock" : "", cmd);
		if (i + 1 >= argc)
			return rp_usage_error("%s %s: missing value", cmd,
					      argv[i]);
		if (!strcmp(argv[i], "records") && !clock) {
			/* create: 0 is the automatic size, as when left out */
			rc = rp_ring_records_opt("records", argv[i + 1],
						 &r->records);
		} else if (!strcmp(argv[i], "records")) {
			rc = rp_parse_u64(argv[i + 1], RAWPROBE_RING_MIN,
					  RAWPROBE_RING_MAX, &v) ||
			     (v & (v - 1)) ?
			     rp_usage_error("records must be a power of two in "
					    "%u..%u, not '%s'",
					    RAWPROBE_RING_MIN,
					    RAWPROBE_RING_MAX, argv[i + 1]) : 0;
			r->records = rc ? 0 : (uint32_t)v;
		} else if (!strcmp(argv[i], "mode")) {
			rc = rp_ring_mode_opt("mode", argv[i + 1], &r->mode);
		} else {
			r->clock = rp_clock_parse(argv[i + 1]);
			rc = r->clock < 0 ?
			     rp_usage_error("clock is auto, mono or tsc, not '%s'",
					    argv[i + 1]) : 0;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static void rp_ring_create_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl ring create NAME [records N] [mode discard|overwrite]\n"
		"A named session: rings of their own for the probes added with\n"
		"'probe add --ring NAME', read by 'stream --ring NAME', until\n"
		"'ring del NAME' (a daemon's, a flight recorder's). Needs\n"
		"CAP_SYS_ADMIN. Prints its id.\n"
		"  NAME     1 to %d letters, digits, '_', '-' or '.'; not all\n"
		"           digits, not 'default', 'records', 'mode', 'clock', 'help'\n"
		"  records  per-CPU ring size, a power of two in %u..%u\n"
		"           (default: the module's automatic size)\n"
		"  mode     discard: a full ring drops new records (default)\n"
		"           overwrite: a full ring overwrites the oldest\n",
		RAWPROBE_SESSION_NAME_LEN - 1, RAWPROBE_RING_MIN,
		RAWPROBE_RING_MAX);
}

static int rp_ring_create(int argc, char **argv)
{
	struct rp_ring_args r;
	struct rp_session s;
	struct rp_nl nl;
	int rc, err;

	if (argc >= 2 && rp_is_help(argv[1])) {
		rp_ring_create_usage(stdout);
		return RP_EXIT_OK;
	}
	if (argc < 2) {
		rp_ring_create_usage(stderr);
		return RP_EXIT_USAGE;
	}
	rc = rp_ring_new_name("ring create", argv[1]) ?:
	     rp_ring_pairs(argc, argv, 2, "ring create", false, &r,
			   rp_ring_create_usage);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_session_new(&nl, argv[1], r.records, r.mode, &s);
	if (err) {
		rc = rp_ring_failed(&nl, "ring create", NULL, err);
		rp_nl_close(&nl);
		return rc;
	}
	rp_nl_close(&nl);
	if (rp_opts.json)
		rp_ring_print(&s);
	else
		printf("%" PRIu32 "\n", s.id);
	return RP_EXIT_OK;
}

static void rp_ring_set_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl ring set [SESSION] [records N] [mode discard|overwrite]\n"
		"       rawprobectl ring set clock auto|mono|tsc\n"
		"  SESSION  a name, an id or 'default' (the default, without one)\n"
		"  records  per-CPU ring size, a power of two in %u..%u\n"
		"  mode     discard: a full ring drops new records (default)\n"
		"           overwrite: a full ring overwrites the oldest\n"
		"  clock    auto: tsc where the kernel's clocksource is tsc, else\n"
		"           mono (the module's default)\n"
		"           mono: records carry CLOCK_MONOTONIC ns\n"
		"           tsc: the TSC, cheaper to read; readers convert it\n"
		"Records and mode only while no stream is reading the session;\n"
		"before its first probe or reader, they only change what will be\n"
		"allocated. The clock is every session's, only while no probe is\n"
		"registered.\n",
		RAWPROBE_RING_MIN, RAWPROBE_RING_MAX);
}

/* Words ring set takes first; anything else first is a SESSION */
static bool rp_ring_set_word(const char *arg)
{
	return !strcmp(arg, "records") || !strcmp(arg, "mode") ||
	       !strcmp(arg, "clock") || rp_is_help(arg);
}

static int rp_ring_set(int argc, char **argv)
{
	struct rp_session_ref ref = { 0 }, *named = NULL;
	struct rp_ring_args r;
	struct rp_nl nl;
	int i = 1, rc, err;

	if (argc > 1 && !rp_ring_set_word(argv[1])) {
		rc = rp_ring_name_opt("ring set", argv[1], &ref);
		if (rc)
			return rc;
		named = &ref;
		i = 2;
	}
	rc = rp_ring_pairs(argc, argv, i, "ring set", true, &r,
			   rp_ring_set_usage);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	if (!r.records && r.mode < 0 && r.clock < 0) {
		rp_ring_set_usage(stderr);
		return RP_EXIT_USAGE;
	}
	if (r.clock >= 0 && (r.records || r.mode >= 0))
		return rp_usage_error("ring set: the clock goes in a command of its own");
	if (r.clock >= 0 && named)
		return rp_usage_error("ring set: the clock is every session's: "
				      "'ring set clock %s', without a SESSION",
				      rp_clock_name((unsigned int)r.clock));
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_session_set(&nl, &ref, r.records, r.mode, r.clock, NULL);
	rc = err ? rp_ring_failed(&nl, "ring set", named, err) : RP_EXIT_OK;
	rp_nl_close(&nl);
	return rc;
}

/* --- del --- */

static int rp_ring_del(int argc, char **argv)
{
	struct rp_session_ref ref;
	struct rp_nl nl;
	int rc, err;

	rc = rp_one_arg(argc, argv,
			"Usage: rawprobectl ring del SESSION\n"
			"Remove a named session (a name or its id) and free its "
			"rings; refused\nwhile probes write into it (EBUSY): "
			"delete them first ('probe list'\nshows each probe's "
			"RING).\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_ring_name_opt("ring del", argv[1], &ref);
	if (rc)
		return rc;
	if (!ref.name[0] && ref.id == RAWPROBE_SESSION_DEFAULT)
		return rp_usage_error("ring del: the default session stays as "
				      "long as the module: remove its probes "
				      "with 'probe del'");
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_session_del(&nl, &ref);
	rc = err ? rp_ring_failed(&nl, "ring del", &ref, err) : RP_EXIT_OK;
	if (err == -EBUSY)
		fprintf(stderr, "  'rawprobectl probe list' shows its probes "
			"(RING); 'probe del ID...' removes them\n");
	rp_nl_close(&nl);
	return rc;
}

static const struct rp_cmd rp_ring_cmds[] = {
	{ "create", rp_ring_create, "NAME [records N] [mode M]             a named session" },
	{ "del",    rp_ring_del,    "SESSION                               remove a named session" },
	{ "list",   rp_ring_list,   "                                      every session" },
	{ "show",   rp_ring_show,   "[SESSION]                             geometry, mode, clock, owner" },
	{ "set",    rp_ring_set,    "[SESSION] [records N] [mode M] | clock C  resize, mode or clock" },
	{ NULL, NULL, NULL },
};

int rp_cmd_ring(int argc, char **argv)
{
	return rp_dispatch("ring", rp_ring_cmds, argc - 1, argv + 1);
}
