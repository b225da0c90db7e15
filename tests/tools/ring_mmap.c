// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rawprobe from user space: the info ioctl, every way mmap must be
 * refused, single-reader exclusion, and poll(). Run as root in the VM
 * with the module loaded and no reader; ends with "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "rawprobe.h"

static int passed, failed;

static void check(const char *name, bool ok, int err)
{
	if (ok) {
		passed++;
		printf("ok - ring: %s\n", name);
	} else {
		failed++;
		printf("not ok - ring: %s (errno %s)\n", name,
		       strerrorname_np(err) ?: "0");
	}
}

/* mmap must fail with want */
static void refuse(const char *name, int fd, size_t len, int prot, int flags,
		   off_t off, int want)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);
	int err = errno;

	if (p != MAP_FAILED)
		munmap(p, len);
	check(name, p == MAP_FAILED && err == want, p == MAP_FAILED ? err : 0);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * With a probe on getpgid already armed, drain everything, sleep in
 * poll() and have a child make `calls` getpgid calls 400 ms later; the
 * reader must wake within limit_ms.
 *   --wake:  one call, well after the first flush period: one record
 *            below the watermark must still wake the reader (flush timer).
 *   --burst: a watermark's worth of calls, the module loaded with a flush
 *            period far beyond the limit: only the writers' watermark
 *            wakeup can wake the reader in time.
 */
static int wake_test(int fd, const struct rawprobe_info *info, void *ctrl,
		     unsigned int calls, long long limit_ms, const char *what)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long t0, waited;
	unsigned int i;
	pid_t child;
	int r;

	for (i = 0; i < info->nr_rings; i++) {
		struct rawprobe_ring_ctrl *c = (void *)((char *)ctrl +
						(size_t)i * info->page_size);

		__atomic_store_n(&c->consumer, c->head, __ATOMIC_RELEASE);
	}
	child = fork();
	if (child == 0) {
		usleep(400000);
		for (i = 0; i < calls; i++)
			syscall(SYS_getpgid, 0);
		_exit(0);
	}
	t0 = now_ms();
	r = poll(&pfd, 1, (int)limit_ms * 2);
	waited = now_ms() - t0;
	waitpid(child, NULL, 0);
	check(what, r == 1, errno);
	check("...in time", waited < limit_ms, 0);
	printf("    woke after %lld ms (limit %lld)\n", waited, limit_ms);
	return 0;
}

/*
 * The refused mmaps above must have left no reader reference behind:
 * another file maps the rings, and they can be resized, to half their
 * size and back, with our file still open.
 */
static void failed_mmaps_hold_nothing(const struct rawprobe_info *info,
				      size_t ctrl_len)
{
	const char *ctl = getenv("RAWPROBECTL");
	char cmd[512];
	void *p;
	int fd2;

	fd2 = open("/dev/rawprobe", O_RDWR);
	p = mmap(NULL, ctrl_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
	check("after failed mmaps, another file maps the rings",
	      p != MAP_FAILED, errno);
	if (p != MAP_FAILED)
		munmap(p, ctrl_len);
	close(fd2);
	if (!ctl)
		return;
	snprintf(cmd, sizeof(cmd),
		 "%s ring set records %u >/dev/null && %s ring set records %u",
		 ctl, info->nr_records / 2, ctl, info->nr_records);
	check("after failed mmaps, the rings resize", system(cmd) == 0, 0);
}

int main(int argc, char **argv)
{
	struct rawprobe_info info;
	size_t ctrl_len, data_len;
	struct pollfd pfd;
	void *ctrl, *data;
	int fd, fd2, r;

	fd = open("/dev/rawprobe", O_RDWR);
	if (fd < 0) {
		perror("/dev/rawprobe");
		return 2;
	}
	r = ioctl(fd, RAWPROBE_IOC_INFO, &info);
	check("info ioctl", !r && info.abi_version == RAWPROBE_ABI_VERSION &&
	      info.record_size == sizeof(struct rawprobe_record) &&
	      info.nr_rings > 0 && info.nr_records >= RAWPROBE_RING_MIN &&
	      !(info.nr_records & (info.nr_records - 1)) &&
	      info.ring_bytes == (__u64)info.nr_records * info.record_size &&
	      info.data_offset == (__u64)info.nr_rings * info.page_size, errno);
	r = ioctl(fd, _IO(RAWPROBE_IOC_MAGIC, 77));
	check("unknown ioctl: ENOTTY", r < 0 && errno == ENOTTY, errno);

	ctrl_len = (size_t)info.nr_rings * info.page_size;
	data_len = (size_t)info.nr_rings * info.ring_bytes;
	refuse("records mapped writable: EPERM", fd, data_len,
	       PROT_READ | PROT_WRITE, MAP_SHARED, info.data_offset, EPERM);
	refuse("private mapping: EINVAL", fd, ctrl_len, PROT_READ, MAP_PRIVATE,
	       0, EINVAL);
	refuse("straddling both areas: EINVAL", fd, ctrl_len + info.page_size,
	       PROT_READ, MAP_SHARED, 0, EINVAL);
	refuse("past the end: EINVAL", fd, info.page_size, PROT_READ,
	       MAP_SHARED, info.data_offset + data_len, EINVAL);
	refuse("executable: EPERM", fd, ctrl_len, PROT_READ | PROT_EXEC,
	       MAP_SHARED, 0, EPERM);
	failed_mmaps_hold_nothing(&info, ctrl_len);

	ctrl = mmap(NULL, ctrl_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check("control pages read-write", ctrl != MAP_FAILED, errno);
	data = mmap(NULL, data_len, PROT_READ, MAP_SHARED, fd,
		    info.data_offset);
	check("records read-only", data != MAP_FAILED, errno);
	if (data != MAP_FAILED)
		check("mprotect records writable: EACCES",
		      mprotect(data, info.page_size, PROT_READ | PROT_WRITE) &&
		      errno == EACCES, errno);
	if (ctrl != MAP_FAILED) {
		struct rawprobe_ring_ctrl *c = ctrl;

		check("control page describes its ring",
		      c->nr_records == info.nr_records && c->cpu == 0, 0);
	}

	if (argc > 1 && !strcmp(argv[1], "--wake")) {
		wake_test(fd, &info, ctrl, 1, 1400,
			  "one record wakes a sleeping reader");
		printf("%d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--burst")) {
		wake_test(fd, &info, ctrl, info.wakeup_watermark, 10000,
			  "a watermark of records wakes a sleeping reader");
		printf("%d passed, %d failed\n", passed, failed);
		return failed ? 1 : 0;
	}

	fd2 = open("/dev/rawprobe", O_RDWR);
	refuse("second reader: EBUSY", fd2, ctrl_len, PROT_READ | PROT_WRITE,
	       MAP_SHARED, 0, EBUSY);
	close(fd2);

	/* Nothing is probed: poll must time out, not spin or fail. */
	pfd.fd = fd;
	pfd.events = POLLIN;
	r = poll(&pfd, 1, 300);
	check("poll with no records times out", r == 0, errno);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
