// SPDX-License-Identifier: GPL-2.0
/*
 * Record filters: pid, tgid, comm, cpu. The kernel applies them in the
 * probe handler (RAWPROBE_A_FILTER_*); stream applies the same test in
 * user space to probes it did not add.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/cli.h"
#include "lib/escape.h"
#include "resolve/task_filter.h"

bool rp_task_filter_match(const struct rp_task_filter *f,
			  const struct rawprobe_record *r)
{
	if ((f->set & RP_TASK_PID) && r->pid != f->pid)
		return false;
	if ((f->set & RP_TASK_TGID) && r->tgid != f->tgid)
		return false;
	if ((f->set & RP_TASK_NOT_TGID) && r->tgid == f->not_tgid)
		return false;
	if ((f->set & RP_TASK_CPU) && r->cpu != f->cpu)
		return false;
	if ((f->set & RP_TASK_COMM) &&
	    strncmp(r->comm, f->comm, RAWPROBE_COMM_LEN))
		return false;
	return true;
}

void rp_task_filter_str(const struct rp_task_filter *f, char *buf, size_t len)
{
	char comm[RP_ESCAPED_MAX(RAWPROBE_COMM_LEN) + 1];
	size_t n = 0;

	buf[0] = '\0';
	if (f->set & RP_TASK_PID)
		n += snprintf(buf + n, len - n, "pid=%u ", f->pid);
	if ((f->set & RP_TASK_TGID) && n < len)
		n += snprintf(buf + n, len - n, "tgid=%u ", f->tgid);
	if ((f->set & RP_TASK_COMM) && n < len)
		n += snprintf(buf + n, len - n, "comm=%s ",
			      rp_escape_str(comm, sizeof(comm), f->comm,
					    sizeof(f->comm)));
	if ((f->set & RP_TASK_CPU) && n < len)
		n += snprintf(buf + n, len - n, "cpu=%u ", f->cpu);
	if ((f->set & RP_TASK_NOT_TGID) && n < len)
		n += snprintf(buf + n, len - n, "not-tgid=%u ", f->not_tgid);
	if (n && n <= len)
		buf[n - 1] = '\0';	/* the last space */
}

static int rp_task_filter_u32(const char *name, const char *arg, uint32_t max,
			      uint32_t *out)
{
	uint64_t v;

	if (rp_parse_u64(arg, 0, max, &v))
		return rp_usage_error("--%s wants a number 0..%u, not '%s'",
				      name, max, arg);
	*out = (uint32_t)v;
	return 0;
}

void rp_task_filter_leave_self_out(struct rp_task_filter *f)
{
	if (f->set & (RP_TASK_SELF | RP_TASK_PID | RP_TASK_TGID))
		return;
	f->set |= RP_TASK_NOT_TGID;
	f->not_tgid = (uint32_t)getpid();
}

int rp_task_filter_opt(int opt, const char *arg, struct rp_task_filter *f)
{
	int rc;

	switch (opt) {
	case RP_OPT_INCLUDE_SELF:
		f->set |= RP_TASK_SELF;
		return 0;
	case 'P':
		rc = rp_task_filter_u32("pid", arg, INT32_MAX, &f->pid);
		f->set |= rc ? 0 : RP_TASK_PID;
		return rc;
	case 'T':
		rc = rp_task_filter_u32("tgid", arg, INT32_MAX, &f->tgid);
		f->set |= rc ? 0 : RP_TASK_TGID;
		return rc;
	case 'U':
		rc = rp_task_filter_u32("cpu", arg, 65535, &f->cpu);
		f->set |= rc ? 0 : RP_TASK_CPU;
		return rc;
	case 'C':
		if (!*arg || strlen(arg) >= RAWPROBE_COMM_LEN)
			return rp_usage_error("--comm wants a command name of 1..%d "
					      "characters (the kernel keeps %d), not '%s'",
					      RAWPROBE_COMM_LEN - 1,
					      RAWPROBE_COMM_LEN - 1, arg);
		strcpy(f->comm, arg);
		f->set |= RP_TASK_COMM;
		return 0;
	default:
		return RP_EXIT_USAGE;
	}
}
