// SPDX-License-Identifier: GPL-2.0
/*
 * Record filters: pid, tgid, comm, cpu, cgroup. The kernel applies them
 * in the probe handler (RAWPROBE_A_FILTER_*); stream applies the same
 * test in user space to probes it did not add, but for the cgroup,
 * which a record does not carry.
 */
#define _GNU_SOURCE	/* nftw()'s FTW_ACTIONRETVAL */
#include <errno.h>
#include <ftw.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
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
	if ((f->set & RP_TASK_CGROUP) && n < len && f->cgroup[0])
		n += snprintf(buf + n, len - n, "cgroup=%s ", f->cgroup);
	else if ((f->set & RP_TASK_CGROUP) && n < len)
		n += snprintf(buf + n, len - n, "cgroup=#%llu ",
			      (unsigned long long)f->cgroup_id);
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

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* Where cgroup2 is mounted: /proc/self/mounts says, /sys/fs/cgroup if not */
static void rp_cgroup2_mount(char *buf, size_t len)
{
	FILE *m = setmntent("/proc/self/mounts", "r");
	struct mntent *e;

	snprintf(buf, len, "/sys/fs/cgroup");
	while (m && (e = getmntent(m))) {
		if (!strcmp(e->mnt_type, "cgroup2")) {
			snprintf(buf, len, "%s", e->mnt_dir);
			break;
		}
	}
	if (m)
		endmntent(m);
}

/* nftw() has no context pointer: the walk's target and result */
static uint64_t rp_cgroup_find_id;
static char rp_cgroup_found[RP_CGROUP_PATH_MAX];

static int rp_cgroup_visit(const char *path, const struct stat *st, int type,
			   struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_D || (uint64_t)st->st_ino != rp_cgroup_find_id)
		return FTW_CONTINUE;
	snprintf(rp_cgroup_found, sizeof(rp_cgroup_found), "%s", path);
	return FTW_STOP;
}

void rp_cgroup_path(uint64_t id, char *buf, size_t len)
{
	char mnt[RP_CGROUP_PATH_MAX];

	rp_cgroup2_mount(mnt, sizeof(mnt));
	rp_cgroup_find_id = id;
	rp_cgroup_found[0] = '\0';
	nftw(mnt, rp_cgroup_visit, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	snprintf(buf, len, "%s", rp_cgroup_found);
}

/*
 * --cgroup PATH: a cgroup v2 directory, absolute or under the cgroup2
 * mount. Its id is its inode number (kernfs gives the node's 64-bit id),
 * what name_to_handle_at() gives bpftrace's cgroupid().
 */
static int rp_task_filter_cgroup(const char *arg, struct rp_task_filter *f)
{
	char mnt[RP_CGROUP_PATH_MAX], path[4096];
	struct statfs sfs;
	struct stat st;

	rp_cgroup2_mount(mnt, sizeof(mnt));
	if (!*arg)
		return rp_usage_error("--cgroup wants a cgroup v2 directory, "
				      "e.g. %s/system.slice", mnt);
	snprintf(path, sizeof(path), "%s%s%s", *arg == '/' ? "" : mnt,
		 *arg == '/' ? "" : "/", arg);
	if (stat(path, &st))
		return rp_usage_error("--cgroup %s: %s", path, strerror(errno));
	if (statfs(path, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC ||
	    !S_ISDIR(st.st_mode))
		return rp_usage_error("--cgroup %s: not a cgroup v2 directory "
				      "(cgroup2 is mounted on %s)", path, mnt);
	f->cgroup_id = (uint64_t)st.st_ino;
	/* shown only: a longer path is cut */
	snprintf(f->cgroup, sizeof(f->cgroup), "%.*s",
		 (int)sizeof(f->cgroup) - 1, path);
	f->set |= RP_TASK_CGROUP;
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
	case RP_OPT_CGROUP:
		return rp_task_filter_cgroup(arg, f);
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
