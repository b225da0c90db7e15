// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the allocation-failure loops of make check-debug
 * (tests/vm/debug-cases/70-alloc-faults.sh). It makes the Nth fault
 * injection point that the kernel passes during one chosen system call
 * of the wrapped program fail, with the task's fail-nth file
 * (Documentation/fault-injection/fault-injection.rst), then says whether
 * a fault was injected. Walking N = 1, 2, ... until none is injected
 * fails every slab and page allocation of that call in turn: those of
 * the module and those the kernel makes on the module's behalf (genl
 * replies, kprobe registration), in the caller's task only.
 *
 *   RP_FAIL_NTH=N        fail the Nth allocation point (1-based)
 *   RP_FAIL_CALL=WHAT    the call: send (a generic netlink request that is
 *                        not to nlctrl; the default), recv (a receive on
 *                        that socket after such a request with NLM_F_DUMP:
 *                        the send runs a dump's start and its first round,
 *                        the receives the rounds after it), open or mmap
 *                        (of /dev/rawprobe), close (of a generic netlink
 *                        socket)
 *   RP_FAIL_SKIP=K       let K matching calls pass first (default 0)
 *   RP_FAIL_REPORT=FILE  gets "injected" or "not injected" after the call
 *
 * Without RP_FAIL_NTH the shim changes nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEVICE_PATH "/dev/rawprobe"

static int device_fd = -1;
static int genl_fd = -1;
static int dump_sent;		/* a family dump request went out on genl_fd */
static int skip_left = -1;	/* -1: not read from the environment yet */
static int done;

static const char *call_wanted(void)
{
	const char *c = getenv("RP_FAIL_CALL");

	return c && *c ? c : "send";
}

/* Is this call the one to fail in? Counts RP_FAIL_SKIP first. */
static int armed_for(const char *what)
{
	if (done || !getenv("RP_FAIL_NTH") || strcmp(call_wanted(), what))
		return 0;
	if (skip_left < 0)
		skip_left = atoi(getenv("RP_FAIL_SKIP") ?: "0");
	if (skip_left > 0) {
		skip_left--;
		return 0;
	}
	return 1;
}

/*
 * Arm the task's fail-nth; the file stays open until the call is done, so
 * that nothing but the call runs between arming and reading it back.
 */
static int arm(void)
{
	const char *n = getenv("RP_FAIL_NTH");
	int fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);

	if (fd < 0 || write(fd, n, strlen(n)) < 0) {
		perror("fail_nth: arming /proc/thread-self/fail-nth");
		exit(125);
	}
	return fd;
}

/* fail-nth reads 0 once the fault fired; else disarm it. */
static void disarm_and_report(int fd)
{
	const char *path = getenv("RP_FAIL_REPORT");
	char buf[32] = "";
	int injected;
	FILE *f;

	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0) {
		perror("fail_nth: reading /proc/thread-self/fail-nth");
		exit(125);
	}
	injected = atoi(buf) == 0;
	if (!injected && pwrite(fd, "0", 1, 0) < 0) {
		perror("fail_nth: disarming");
		exit(125);
	}
	close(fd);
	done = 1;
	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%s\n", injected ? "injected" : "not injected");
		fclose(f);
	}
}

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = dlsym(RTLD_NEXT, #name)

int socket(int domain, int type, int protocol)
{
	int fd;

	REAL(socket);
	fd = real_socket(domain, type, protocol);
	if (fd >= 0 && domain == AF_NETLINK && protocol == NETLINK_GENERIC)
		genl_fd = fd;
	return fd;
}

static int is_family_request(const struct msghdr *msg)
{
	const struct nlmsghdr *nlh;

	if (msg->msg_iovlen < 1 || msg->msg_iov[0].iov_len < sizeof(*nlh))
		return 0;
	nlh = msg->msg_iov[0].iov_base;
	return nlh->nlmsg_type != GENL_ID_CTRL;
}

static int is_dump(const struct msghdr *msg)
{
	const struct nlmsghdr *nlh = msg->msg_iov[0].iov_base;

	return (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	ssize_t ret;
	int armed;

	REAL(sendmsg);
	if (fd == genl_fd && is_family_request(msg) && is_dump(msg))
		dump_sent = 1;
	if (fd != genl_fd || !is_family_request(msg) || !armed_for("send"))
		return real_sendmsg(fd, msg, flags);
	armed = arm();
	ret = real_sendmsg(fd, msg, flags);
	disarm_and_report(armed);
	return ret;
}

/* A dump's later rounds run in the receives that make room for them. */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t ret;
	int armed;

	REAL(recvmsg);
	if (fd != genl_fd || !dump_sent || !armed_for("recv"))
		return real_recvmsg(fd, msg, flags);
	armed = arm();
	ret = real_recvmsg(fd, msg, flags);
	disarm_and_report(armed);
	return ret;
}

static int open_device(const char *path, int flags, mode_t mode,
		       int (*real)(const char *, int, ...))
{
	int fd, armed, is_dev = !strcmp(path, DEVICE_PATH);

	if (is_dev && armed_for("open")) {
		armed = arm();
		fd = real(path, flags, mode);
		disarm_and_report(armed);
	} else {
		fd = real(path, flags, mode);
	}
	if (is_dev && fd >= 0)
		device_fd = fd;
	return fd;
}

/* open() and open64() alike: the mode only comes with O_CREAT/O_TMPFILE. */
#define OPEN_WRAPPER(name)						\
int name(const char *path, int flags, ...)				\
{									\
	mode_t mode = 0;						\
	va_list ap;							\
									\
	REAL(name);							\
	if (flags & (O_CREAT | O_TMPFILE)) {				\
		va_start(ap, flags);					\
		mode = va_arg(ap, mode_t);				\
		va_end(ap);						\
	}								\
	return open_device(path, flags, mode, real_##name);		\
}

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;
	int armed;

	REAL(mmap);
	if (fd < 0 || fd != device_fd || !armed_for("mmap"))
		return real_mmap(addr, len, prot, flags, fd, off);
	armed = arm();
	p = real_mmap(addr, len, prot, flags, fd, off);
	disarm_and_report(armed);
	return p;
}

int close(int fd)
{
	int ret, armed;

	REAL(close);
	if (fd < 0 || fd != genl_fd || !armed_for("close"))
		return real_close(fd);
	armed = arm();
	ret = real_close(fd);
	disarm_and_report(armed);
	return ret;
}
