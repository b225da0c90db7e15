// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions from the shell, for the tests (the fault walks of
 * tests/vm/debug-cases/70-alloc-faults.sh, the fuzzer's case), through
 * rawprobectl's netlink layer and without rawprobectl's commands:
 *
 *   nl_session new NAME|- [records N] [mode M] [probe SYMBOL]...
 *       RING_NEW (named, or "-": the socket's, gone when this exits);
 *       records 0 or none: the automatic size; mode 0 discard, 1
 *       overwrite. Then a kprobe on each SYMBOL into the new session
 *       (by id, added by this socket). Prints the session's id, then
 *       each probe's.
 *   nl_session add ID|NAME SYMBOL [persistent]
 *       a kprobe into a session (a number: by RAWPROBE_A_SESSION, else
 *       by RAWPROBE_A_SESSION_NAME); prints its id
 *   nl_session del ID|NAME     RING_DEL
 *   nl_session list            the RING_GET dump, a line a session:
 *       id=N name=S records=N mode=N probes=N uid=N readers=N bytes=N
 *   nl_session wait-default [MS]
 *       until the default session is the only one (a closed socket's
 *       sessions go in a work item), up to MS (default 5000)
 *   nl_session budget [MS]
 *       the budget check of sessions.h (sessions of the largest sizes
 *       that fit, then E2BIG), retried for up to MS (default 3000)
 *
 * A failure prints "nl_session: WHAT: REASON (ENAME)" and exits 1; a
 * wrong command line exits 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include "sessions.h"

static struct rp_nl nl;

static int fail(const char *what, int err)
{
	const char *name = strerrorname_np(-err);

	fprintf(stderr, "nl_session: %s: %s (%s)\n", what,
		nl.errmsg[0] ? nl.errmsg : strerror(-err), name ? name : "?");
	return 1;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: nl_session new NAME|- [records N] [mode M] [probe SYMBOL]...\n"
		"       nl_session add ID|NAME SYMBOL [persistent]\n"
		"       nl_session del ID|NAME\n"
		"       nl_session list\n"
		"       nl_session wait-default [MS]\n"
		"       nl_session budget [MS]\n");
	return 2;
}

/* A number names a session by id, anything else by name. */
static bool session_id(const char *s, uint32_t *id)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || v > UINT32_MAX)
		return false;
	*id = v;
	return true;
}

static int probe_id_of(struct nlattr **a, void *ctx)
{
	if (a[RAWPROBE_A_PROBE_ID])
		*(uint32_t *)ctx = nla_get_u32(a[RAWPROBE_A_PROBE_ID]);
	return 0;
}

/* A kprobe on sym into the session (by id, or name when name is set). */
static int add_probe(uint32_t id, const char *name, const char *sym,
		     bool persistent)
{
	struct nl_msg *msg = rp_nl_msg(&nl, RAWPROBE_CMD_PROBE_ADD, 0);
	uint32_t probe = 0;
	int err;

	if (!msg)
		return fail("probe add", -ENOMEM);
	nla_put_u8(msg, RAWPROBE_A_KIND, RAWPROBE_KIND_KPROBE);
	nla_put_string(msg, RAWPROBE_A_SYMBOL, sym);
	if (persistent)
		nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_PERSISTENT);
	if (name)
		nla_put_string(msg, RAWPROBE_A_SESSION_NAME, name);
	else
		nla_put_u32(msg, RAWPROBE_A_SESSION, id);
	err = rp_nl_call(&nl, msg, probe_id_of, &probe);
	if (err)
		return fail("probe add", err);
	printf("%u\n", probe);
	return 0;
}

static int cmd_new(int argc, char **argv)
{
	const char *name = strcmp(argv[0], "-") ? argv[0] : NULL;
	uint32_t records = 0;
	int mode = -1, i, err, first_probe = argc;
	struct ts_session s;

	/* the whole command line first: nothing made for a wrong one */
	for (i = 1; i < argc; i += 2) {
		if (i + 1 == argc)
			return usage();
		if (!strcmp(argv[i], "probe")) {
			if (first_probe == argc)
				first_probe = i;
		} else if (first_probe < argc) {
			return usage();
		} else if (!strcmp(argv[i], "records")) {
			records = strtoul(argv[i + 1], NULL, 0);
		} else if (!strcmp(argv[i], "mode")) {
			mode = atoi(argv[i + 1]);
		} else {
			return usage();
		}
	}
	err = ts_session_new(&nl, name, records, mode, &s);
	if (err)
		return fail("ring new", err);
	if (!s.has_id || !s.has_records) {
		fprintf(stderr, "nl_session: ring new: an answer without "
			"SESSION or RING_RECORDS\n");
		return 1;
	}
	printf("%u\n", s.id);
	for (i = first_probe; i < argc; i += 2)
		if (add_probe(s.id, NULL, argv[i + 1], false))
			return 1;
	return 0;
}

static int cmd_list(void)
{
	struct ts_session *v = calloc(TS_MAX_SESSIONS, sizeof(*v));
	int n, i, err;

	if (!v)
		return fail("ring list", -ENOMEM);
	err = ts_session_list(&nl, v, TS_MAX_SESSIONS, &n);
	if (err)
		return fail("ring list", err);
	for (i = 0; i < n; i++)
		printf("id=%u name=%s records=%u mode=%u probes=%u uid=%u "
		       "readers=%u bytes=%" PRIu64 "\n", v[i].id,
		       v[i].name[0] ? v[i].name : "-", v[i].records, v[i].mode,
		       v[i].nr_probes, v[i].uid, v[i].readers, v[i].bytes);
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	char detail[300];
	uint32_t id;
	int err, left;
	bool by_id;

	if (argc < 2)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = rp_nl_open(&nl);
	if (err)
		return fail("the rawprobe family", err);
	if (!strcmp(argv[1], "new") && argc >= 3)
		return cmd_new(argc - 2, argv + 2);
	if (!strcmp(argv[1], "add") && (argc == 4 || argc == 5)) {
		if (argc == 5 && strcmp(argv[4], "persistent"))
			return usage();
		by_id = session_id(argv[2], &id);
		return add_probe(id, by_id ? NULL : argv[2], argv[3], argc == 5);
	}
	if (!strcmp(argv[1], "del") && argc == 3) {
		by_id = session_id(argv[2], &id);
		err = ts_session_del(&nl, id, by_id ? NULL : argv[2]);
		return err ? fail("ring del", err) : 0;
	}
	if (!strcmp(argv[1], "list") && argc == 2)
		return cmd_list();
	if (!strcmp(argv[1], "wait-default") && argc <= 3) {
		if (ts_session_wait_default(&nl, argc == 3 ? atoi(argv[2]) : 5000,
					    &left))
			return 0;
		fprintf(stderr, "nl_session: %d sessions besides the default "
			"one are still listed\n", left);
		return 1;
	}
	if (!strcmp(argv[1], "budget") && argc <= 3) {
		if (ts_budget_check(&nl, argc == 3 ? atoi(argv[2]) : 3000,
				    detail, sizeof(detail))) {
			printf("budget: %s\n", detail);
			return 0;
		}
		fprintf(stderr, "nl_session: budget: %s\n", detail);
		return 1;
	}
	return usage();
}
