// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rawprobe from hostile callers: every mmap
 * offset, length, protection and flag class against a model of what
 * the device allows; mremap, mprotect, fork with the mapping, munmap
 * and close while another thread polls; read, write, lseek and ioctls
 * with bad arguments; many opens at once; unprivileged opens. Run as
 * root in the VM with the module loaded and no reader; ends with
 * "N passed, N failed". The module's reference count must be back
 * where it was at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "rawprobe.h"
#include "tap.h"

#define DEV "/dev/rawprobe"

static struct rawprobe_info info;
static unsigned long pg, ctrl_pages, ring_pages, total_pages;

static void check(const char *name, bool ok, int err)
{
	char detail[64];

	snprintf(detail, sizeof(detail), "errno %s",
		 err ? strerrorname_np(err) : "0");
	tap_verdict("dev", name, ok, detail);
}

static void checkf(bool ok, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void checkf(bool ok, int err, const char *fmt, ...)
{
	char name[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	check(name, ok, err);
}

static long refcnt(void)
{
	FILE *f = fopen("/sys/module/rawprobe/refcnt", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/* What the device must answer to mmap(len pages at page first, prot, flags). */
static int mmap_model(unsigned long first, unsigned long count, int prot,
		      int flags)
{
	if (!(flags & MAP_SHARED))
		return EINVAL;
	if (prot & PROT_EXEC)
		return EPERM;
	if (first >= total_pages || count > total_pages - first)
		return EINVAL;
	if (first < ctrl_pages && first + count > ctrl_pages)
		return EINVAL;
	if (first >= ctrl_pages && (prot & PROT_WRITE))
		return EPERM;
	return 0;
}

/*
 * Every page of a mapping the model allows must be readable: a page
 * mapped wrong kills this tool with SIGSEGV or SIGBUS, which fails it.
 */
static bool touch(const volatile unsigned char *p, unsigned long count,
		  int prot)
{
	unsigned long i;

	if (prot & PROT_READ)
		for (i = 0; i < count; i++)
			(void)p[i * pg];
	return true;
}

static void mmap_sweep(int fd)
{
	const unsigned long firsts[] = {
		0, 1, ctrl_pages - 1, ctrl_pages, ctrl_pages + 1,
		ctrl_pages + ring_pages - 1, ctrl_pages + ring_pages,
		total_pages - 1, total_pages, total_pages + 1,
		1UL << 40, (~0UL >> 12) - 1,
	};
	const unsigned long counts[] = {
		1, 2, ctrl_pages, ring_pages, ring_pages + 1, total_pages,
		total_pages + 1,
	};
	const int prots[] = {
		PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_WRITE,
		PROT_READ | PROT_EXEC,
	};
	const int flags[] = { MAP_SHARED, MAP_PRIVATE, MAP_SHARED_VALIDATE };
	unsigned int a, b, c, d, n = 0, bad = 0;

	for (a = 0; a < sizeof(firsts) / sizeof(*firsts); a++)
	for (b = 0; b < sizeof(counts) / sizeof(*counts); b++)
	for (c = 0; c < sizeof(prots) / sizeof(*prots); c++)
	for (d = 0; d < sizeof(flags) / sizeof(*flags); d++) {
		unsigned long first = firsts[a], count = counts[b];
		int want = mmap_model(first, count, prots[c], flags[d]), got;
		void *p;

		p = mmap(NULL, count * pg, prots[c], flags[d], fd, first * pg);
		got = p == MAP_FAILED ? errno : 0;
		/* the VM refuses offsets that overflow before asking us */
		if (want && (got == EOVERFLOW || got == ENOMEM))
			got = want;
		n++;
		if (got != want || (!got && !touch(p, count, prots[c]))) {
			if (bad++ < 10)
				printf("# mmap(first %lu, count %lu, prot %d, flags %d): %s, want %s\n",
				       first, count, prots[c], flags[d],
				       got ? strerrorname_np(got) : "mapped",
				       want ? strerrorname_np(want) : "mapped");
		}
		if (p != MAP_FAILED)
			munmap(p, count * pg);
	}
	checkf(!bad, 0, "%u mmaps (offset x length x prot x flags) as modelled, %u not",
	       n, bad);
}

static void mprotect_remap(int fd)
{
	size_t clen = ctrl_pages * pg;
	unsigned char *c, *d, *m, *hole;

	c = mmap(NULL, clen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	d = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fd, info.data_offset);
	if (c == MAP_FAILED || d == MAP_FAILED) {
		check("map for mprotect/mremap", false, errno);
		return;
	}
	check("mprotect control executable: EACCES",
	      mprotect(c, clen, PROT_READ | PROT_EXEC) && errno == EACCES,
	      errno);
	check("mprotect records writable: EACCES",
	      mprotect(d, pg, PROT_READ | PROT_WRITE) && errno == EACCES,
	      errno);
	check("mprotect records none, then read again",
	      !mprotect(d, 2 * pg, PROT_NONE) &&
	      !mprotect(d, 2 * pg, PROT_READ) && touch(d, 2, PROT_READ),
	      errno);
	m = mremap(d, 2 * pg, 4 * pg, MREMAP_MAYMOVE);
	check("mremap records larger: refused", m == MAP_FAILED, 0);
	m = mremap(d, 2 * pg, pg, 0);
	check("mremap records smaller", m == d && touch(m, 1, PROT_READ),
	      errno);
	/* a place of our own to move to: FIXED replaces what is there */
	hole = mmap(NULL, clen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m = mremap(c, clen, clen, MREMAP_MAYMOVE | MREMAP_FIXED, hole);
	check("mremap control elsewhere keeps its contents",
	      m != MAP_FAILED &&
	      ((struct rawprobe_ring_ctrl *)m)->nr_records == info.nr_records,
	      errno);
	munmap(m != MAP_FAILED ? m : c, clen);
	munmap(d, pg);
}

/* The mapping is not copied into a child (VM_DONTCOPY): it faults there. */
static void fork_with_mapping(int fd)
{
	volatile unsigned char *c;
	pid_t pid;
	int st = 0;

	c = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c == MAP_FAILED) {
		check("map for fork", false, errno);
		return;
	}
	pid = fork();
	if (!pid) {
		signal(SIGSEGV, SIG_DFL);
		(void)c[0];
		_exit(0);
	}
	waitpid(pid, &st, 0);
	check("a forked child does not inherit the rings (SIGSEGV)",
	      WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, 0);
	check("the parent still reads them after the child is gone",
	      ((volatile struct rawprobe_ring_ctrl *)c)->nr_records ==
	      info.nr_records, 0);
	munmap((void *)c, pg);
}

static void *poller(void *arg)
{
	struct pollfd pfd = { .fd = *(int *)arg, .events = POLLIN };

	poll(&pfd, 1, 1500);
	return NULL;
}

/* munmap and close under a thread sleeping in poll. */
static void unmap_while_polling(void)
{
	int fd = open(DEV, O_RDWR);
	pthread_t t;
	void *c;

	c = mmap(NULL, ctrl_pages * pg, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (fd < 0 || c == MAP_FAILED) {
		check("map for poll", false, errno);
		return;
	}
	pthread_create(&t, NULL, poller, &fd);
	usleep(200000);
	munmap(c, ctrl_pages * pg);
	close(fd);
	pthread_join(t, NULL);
	fd = open(DEV, O_RDWR);
	c = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	check("munmap and close under a poller: the next reader maps",
	      c != MAP_FAILED, errno);
	if (c != MAP_FAILED)
		munmap(c, pg);
	close(fd);
}

static void file_ops(int fd)
{
	unsigned char buf[256];
	void *ro;

	check("read: EINVAL", read(fd, buf, sizeof(buf)) < 0 && errno == EINVAL,
	      errno);
	check("write: EINVAL", write(fd, buf, sizeof(buf)) < 0 &&
	      errno == EINVAL, errno);
	check("lseek: ESPIPE", lseek(fd, 4096, SEEK_SET) < 0 &&
	      errno == ESPIPE, errno);
	check("info ioctl to NULL: EFAULT",
	      ioctl(fd, RAWPROBE_IOC_INFO, NULL) < 0 && errno == EFAULT, errno);
	check("info ioctl to a kernel address: EFAULT",
	      ioctl(fd, RAWPROBE_IOC_INFO, (void *)0xffffffff81000000UL) < 0 &&
	      errno == EFAULT, errno);
	ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("info ioctl to a read-only page: EFAULT",
	      ioctl(fd, RAWPROBE_IOC_INFO, ro) < 0 && errno == EFAULT, errno);
	munmap(ro, pg);
	check("info ioctl with another size: ENOTTY",
	      ioctl(fd, _IOR(RAWPROBE_IOC_MAGIC, 1, uint64_t), buf) < 0 &&
	      errno == ENOTTY, errno);
	check("info ioctl as a write: ENOTTY",
	      ioctl(fd, _IOW(RAWPROBE_IOC_MAGIC, 1, struct rawprobe_info),
		    buf) < 0 && errno == ENOTTY, errno);
	check("another type's ioctl (TCGETS): ENOTTY",
	      ioctl(fd, 0x5401, buf) < 0 && errno == ENOTTY, errno);
}

/* Every byte the info ioctl writes is defined: reserved words are zero. */
static void info_padding(int fd)
{
	struct rawprobe_info a, b;
	unsigned int i;
	bool zero = true;

	memset(&a, 0xaa, sizeof(a));
	memset(&b, 0x55, sizeof(b));
	ioctl(fd, RAWPROBE_IOC_INFO, &a);
	ioctl(fd, RAWPROBE_IOC_INFO, &b);
	for (i = 0; i < sizeof(a.reserved) / sizeof(*a.reserved); i++)
		zero &= !a.reserved[i];
	check("info ioctl: no byte left from the caller's buffer",
	      !memcmp(&a, &b, sizeof(a)) && zero, 0);
}

/* Many files at once: all open, one reader maps, all close cleanly. */
static void many_opens(void)
{
	struct rlimit rl = { 4096, 4096 };
	static int fds[2000];
	int i, n = 0, readers = 0, busy = 0;
	void *p;

	setrlimit(RLIMIT_NOFILE, &rl);
	for (i = 0; i < 2000; i++) {
		fds[i] = open(DEV, O_RDWR);
		n += fds[i] >= 0;
	}
	for (i = 0; i < 2000; i++) {
		p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fds[i], 0);
		if (p != MAP_FAILED) {
			readers++;
			munmap(p, pg);	/* the file keeps the reader */
		} else {
			busy += errno == EBUSY;
		}
	}
	for (i = 0; i < 2000; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	checkf(n == 2000 && readers == 1 && busy == 1999, 0,
	       "2000 opens: %d opened, %d mapped, %d EBUSY", n, readers, busy);
}

/*
 * Unprivileged: the node is 0600, and even made 0666 the device asks for
 * CAP_PERFMON (the records are other users' data and kernel pointers).
 */
static void unprivileged(void)
{
	struct stat st;
	pid_t pid;
	int s = 0;

	if (stat(DEV, &st) || chmod(DEV, 0666)) {
		check("chmod the node", false, errno);
		return;
	}
	pid = fork();
	if (!pid) {
		int fd;

		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(254);
		fd = open(DEV, O_RDONLY);
		_exit(fd < 0 ? errno & 0xff : 255);	/* 255: it opened */
	}
	waitpid(pid, &s, 0);
	chmod(DEV, st.st_mode & 07777);
	if (!WIFEXITED(s) || WEXITSTATUS(s) >= 254)
		printf("# uid 65534's open: %s\n", !WIFEXITED(s) ? "killed" :
		       WEXITSTATUS(s) == 255 ? "succeeded" : "could not drop root");
	check("uid 65534 opening a 0666 node: EPERM",
	      WIFEXITED(s) && WEXITSTATUS(s) == EPERM,
	      WIFEXITED(s) && WEXITSTATUS(s) < 254 ? WEXITSTATUS(s) : 0);
}

int main(void)
{
	long ref0 = refcnt();
	int fd;

	fd = open(DEV, O_RDWR);
	if (fd < 0 || ioctl(fd, RAWPROBE_IOC_INFO, &info)) {
		perror(DEV);
		return 2;
	}
	pg = info.page_size;
	ctrl_pages = info.nr_rings;
	ring_pages = info.ring_bytes / pg;
	total_pages = ctrl_pages + info.nr_rings * ring_pages;

	mmap_sweep(fd);
	mprotect_remap(fd);
	fork_with_mapping(fd);
	file_ops(fd);
	info_padding(fd);
	close(fd);
	unmap_while_polling();
	many_opens();
	unprivileged();
	checkf(refcnt() == ref0, 0, "module references back to %ld (now %ld)",
	       ref0, refcnt());
	return tap_summary();
}
