/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAWPROBE_RINGS_MAP_H
#define RAWPROBE_RINGS_MAP_H

#include <stdint.h>
#include "rawprobe.h"
#include "lib/ring_reader.h"

/* Where rp_rings_open() stopped, for its caller's message. */
enum rp_rings_step {
	RP_RINGS_OPEN,		/* open() of /dev/rawprobe, its info */
	RP_RINGS_ABI,		/* -EPROTO: info.abi_version is the module's */
	RP_RINGS_ATTACH,	/* RAWPROBE_IOC_ATTACH: EPERM, ENOENT, EBUSY */
	RP_RINGS_MAP,		/* mmap(), the reader */
};

struct rp_rings_map {
	int fd;
	enum rp_rings_step step;
	struct rawprobe_info info;
	void *ctrl;
	void *data;
	struct rp_reader *reader;
};

/*
 * Open /dev/rawprobe, attach to session (RAWPROBE_IOC_ATTACH, unless it
 * is RAWPROBE_SESSION_DEFAULT, which a file reads unattached) and map
 * every ring of it; flags go to rp_reader_new(). Returns 0 or a negative
 * errno (-EPROTO: another ABI, in info.abi_version), m->step saying at
 * which step. Whatever it returns, rp_rings_close() undoes it; set fd to
 * -1 before the first call.
 */
int rp_rings_open(struct rp_rings_map *m, uint32_t session,
		  unsigned int flags);
void rp_rings_close(struct rp_rings_map *m);

#endif
