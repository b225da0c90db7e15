// SPDX-License-Identifier: GPL-2.0
/*
 * Where tracefs' files are (tracefs.h). /sys/kernel/tracing exists as an
 * empty mount point where tracefs is not mounted there, so a file is
 * looked for in each place, not the first directory that exists.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "lib/tracefs.h"

static const char *const rp_tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

#define RP_NDIRS (sizeof(rp_tracefs_dirs) / sizeof(rp_tracefs_dirs[0]))

const char *rp_tracefs_env(void)
{
	const char *env = getenv("RAWPROBECTL_TRACEFS");

	return env && *env ? env : NULL;
}

const char *rp_tracefs_dir(void)
{
	struct stat st;
	size_t i;

	if (rp_tracefs_env())
		return rp_tracefs_env();
	for (i = 0; i < RP_NDIRS; i++)
		if (!stat(rp_tracefs_dirs[i], &st) && S_ISDIR(st.st_mode))
			return rp_tracefs_dirs[i];
	return NULL;
}

FILE *rp_tracefs_open(const char *name, char *path, size_t len)
{
	const char *env = rp_tracefs_env();
	int first_errno = 0;
	size_t i;
	FILE *f;

	if (env) {
		snprintf(path, len, "%s/%s", env, name);
		return fopen(path, "r");
	}
	for (i = 0; i < RP_NDIRS; i++) {
		snprintf(path, len, "%s/%s", rp_tracefs_dirs[i], name);
		f = fopen(path, "r");
		if (f)
			return f;
		if (!i)
			first_errno = errno;
	}
	snprintf(path, len, "%s/%s", rp_tracefs_dirs[0], name);
	errno = first_errno;
	return NULL;
}
