/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAWPROBE_RINGS_MAP_H
#define RAWPROBE_RINGS_MAP_H

#include "rawprobe.h"
#include "lib/ring_reader.h"

struct rp_rings_map {
	int fd;
	struct rawprobe_info info;
	void *ctrl;
	void *data;
	struct rp_reader *reader;
};

/*
 * Open /dev/rawprobe and map every ring; flags go to rp_reader_new().
 * Returns 0 or a negative errno (-EPROTO: another ABI). Whatever it
 * returns, rp_rings_close() undoes it; set fd to -1 before the first call.
 */
int rp_rings_open(struct rp_rings_map *m, unsigned int flags);
void rp_rings_close(struct rp_rings_map *m);

#endif
