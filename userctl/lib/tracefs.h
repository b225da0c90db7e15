/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs' files: $RAWPROBECTL_TRACEFS (a copy, for tests and for files
 * taken on another machine), else where the kernel mounts it,
 * /sys/kernel/tracing, or under debugfs, /sys/kernel/debug/tracing.
 */
#ifndef RAWPROBECTL_TRACEFS_H
#define RAWPROBECTL_TRACEFS_H

#include <stddef.h>
#include <stdio.h>

/* The directory: $RAWPROBECTL_TRACEFS, or the first that exists; or NULL */
const char *rp_tracefs_dir(void);
/* $RAWPROBECTL_TRACEFS, or NULL when it is not set */
const char *rp_tracefs_env(void);
/*
 * Open tracefs' file name for reading, from the first place that has it;
 * path gets that place, or the first tried when none has (for messages).
 * NULL and errno on failure.
 */
FILE *rp_tracefs_open(const char *name, char *path, size_t len);

#endif
