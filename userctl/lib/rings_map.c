// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rawprobe mapped for reading: the device opened, its geometry read,
 * control pages and record arrays mapped, and a ring reader over them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "lib/rings_map.h"

int rp_rings_open(struct rp_rings_map *m, uint32_t session,
		  unsigned int flags)
{
	struct rp_reader_ring *rings;
	size_t ctrl_len, data_len;
	unsigned int i;

	m->step = RP_RINGS_OPEN;
	m->fd = open("/dev/" RAWPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (m->fd < 0)
		return -errno;
	/* the ABI first: an older module has no RAWPROBE_IOC_ATTACH */
	if (ioctl(m->fd, RAWPROBE_IOC_INFO, &m->info))
		return -errno;
	m->step = RP_RINGS_ABI;
	if (m->info.abi_version != RAWPROBE_ABI_VERSION ||
	    m->info.record_size != sizeof(struct rawprobe_record))
		return -EPROTO;
	if (session != RAWPROBE_SESSION_DEFAULT) {
		m->step = RP_RINGS_ATTACH;
		if (ioctl(m->fd, RAWPROBE_IOC_ATTACH, &session))
			return -errno;
		/* the geometry is the session's now */
		if (ioctl(m->fd, RAWPROBE_IOC_INFO, &m->info))
			return -errno;
	}
	m->step = RP_RINGS_MAP;
	ctrl_len = (size_t)m->info.nr_rings * m->info.page_size;
	data_len = (size_t)m->info.nr_rings * m->info.ring_bytes;
	m->ctrl = mmap(NULL, ctrl_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       m->fd, (off_t)m->info.ctrl_offset);
	if (m->ctrl == MAP_FAILED)
		return -errno;
	/*
	 * A resize between the info ioctl and the first mmap changes the
	 * record area (the control pages stay): read the geometry again, now
	 * that this mapping holds the rings still.
	 */
	if (ioctl(m->fd, RAWPROBE_IOC_INFO, &m->info))
		return -errno;
	data_len = (size_t)m->info.nr_rings * m->info.ring_bytes;
	m->data = mmap(NULL, data_len, PROT_READ, MAP_SHARED, m->fd,
		       (off_t)m->info.data_offset);
	if (m->data == MAP_FAILED)
		return -errno;

	rings = calloc(m->info.nr_rings, sizeof(*rings));
	if (!rings)
		return -ENOMEM;
	for (i = 0; i < m->info.nr_rings; i++) {
		rings[i].ctrl = (void *)((char *)m->ctrl +
					 (size_t)i * m->info.page_size);
		rings[i].recs = (void *)((char *)m->data +
					 (size_t)i * m->info.ring_bytes);
		rings[i].nr_records = m->info.nr_records;
		rings[i].mode = m->info.mode;
	}
	m->reader = rp_reader_new(rings, m->info.nr_rings, flags);
	free(rings);
	if (!m->reader)
		return -errno;
	/* Records of the tsc clock reach every output in ns. */
	return rp_reader_set_tsc(m->reader, m->info.tsc_khz);
}

void rp_rings_close(struct rp_rings_map *m)
{
	if (m->reader)
		rp_reader_free(m->reader);
	if (m->ctrl && m->ctrl != MAP_FAILED)
		munmap(m->ctrl, (size_t)m->info.nr_rings * m->info.page_size);
	if (m->data && m->data != MAP_FAILED)
		munmap(m->data, (size_t)m->info.nr_rings * m->info.ring_bytes);
	if (m->fd >= 0)
		close(m->fd);
}
