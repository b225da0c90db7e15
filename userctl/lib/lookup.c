// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup tables (lookup.h), written out rather than taken from libc:
 * they name the kernel's numbers, which libc does not know all of
 * (ERESTARTSYS, TCP states, capabilities past libc's headers), and the
 * same build must print the same names on every machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <rawprobe.h>
#include "lib/lookup.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const rp_tcpstates[] = {
	[1] = "ESTABLISHED", [2] = "SYN_SENT", [3] = "SYN_RECV",
	[4] = "FIN_WAIT1", [5] = "FIN_WAIT2", [6] = "TIME_WAIT",
	[7] = "CLOSE", [8] = "CLOSE_WAIT", [9] = "LAST_ACK",
	[10] = "LISTEN", [11] = "CLOSING", [12] = "NEW_SYN_RECV",
	[13] = "BOUND_INACTIVE",
};

static const char *const rp_caps[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};

/* x86's numbering (arch/x86/include/uapi/asm/signal.h) */
static const char *const rp_signals[] = {
	[1] = "SIGHUP", [2] = "SIGINT", [3] = "SIGQUIT", [4] = "SIGILL",
	[5] = "SIGTRAP", [6] = "SIGABRT", [7] = "SIGBUS", [8] = "SIGFPE",
	[9] = "SIGKILL", [10] = "SIGUSR1", [11] = "SIGSEGV",
	[12] = "SIGUSR2", [13] = "SIGPIPE", [14] = "SIGALRM",
	[15] = "SIGTERM", [16] = "SIGSTKFLT", [17] = "SIGCHLD",
	[18] = "SIGCONT", [19] = "SIGSTOP", [20] = "SIGTSTP",
	[21] = "SIGTTIN", [22] = "SIGTTOU", [23] = "SIGURG",
	[24] = "SIGXCPU", [25] = "SIGXFSZ", [26] = "SIGVTALRM",
	[27] = "SIGPROF", [28] = "SIGWINCH", [29] = "SIGIO", [30] = "SIGPWR",
	[31] = "SIGSYS",
};

/* include/uapi/asm-generic/errno-base.h and errno.h */
static const char *const rp_errnos[] = {
	[1] = "EPERM", [2] = "ENOENT", [3] = "ESRCH", [4] = "EINTR",
	[5] = "EIO", [6] = "ENXIO", [7] = "E2BIG", [8] = "ENOEXEC",
	[9] = "EBADF", [10] = "ECHILD", [11] = "EAGAIN", [12] = "ENOMEM",
	[13] = "EACCES", [14] = "EFAULT", [15] = "ENOTBLK", [16] = "EBUSY",
	[17] = "EEXIST", [18] = "EXDEV", [19] = "ENODEV", [20] = "ENOTDIR",
	[21] = "EISDIR", [22] = "EINVAL", [23] = "ENFILE", [24] = "EMFILE",
	[25] = "ENOTTY", [26] = "ETXTBSY", [27] = "EFBIG", [28] = "ENOSPC",
	[29] = "ESPIPE", [30] = "EROFS", [31] = "EMLINK", [32] = "EPIPE",
	[33] = "EDOM", [34] = "ERANGE", [35] = "EDEADLK",
	[36] = "ENAMETOOLONG", [37] = "ENOLCK", [38] = "ENOSYS",
	[39] = "ENOTEMPTY", [40] = "ELOOP", [42] = "ENOMSG", [43] = "EIDRM",
	[44] = "ECHRNG", [45] = "EL2NSYNC", [46] = "EL3HLT", [47] = "EL3RST",
	[48] = "ELNRNG", [49] = "EUNATCH", [50] = "ENOCSI", [51] = "EL2HLT",
	[52] = "EBADE", [53] = "EBADR", [54] = "EXFULL", [55] = "ENOANO",
	[56] = "EBADRQC", [57] = "EBADSLT", [59] = "EBFONT", [60] = "ENOSTR",
	[61] = "ENODATA", [62] = "ETIME", [63] = "ENOSR", [64] = "ENONET",
	[65] = "ENOPKG", [66] = "EREMOTE", [67] = "ENOLINK", [68] = "EADV",
	[69] = "ESRMNT", [70] = "ECOMM", [71] = "EPROTO", [72] = "EMULTIHOP",
	[73] = "EDOTDOT", [74] = "EBADMSG", [75] = "EOVERFLOW",
	[76] = "ENOTUNIQ", [77] = "EBADFD", [78] = "EREMCHG",
	[79] = "ELIBACC", [80] = "ELIBBAD", [81] = "ELIBSCN", [82] = "ELIBMAX",
	[83] = "ELIBEXEC", [84] = "EILSEQ", [85] = "ERESTART",
	[86] = "ESTRPIPE", [87] = "EUSERS", [88] = "ENOTSOCK",
	[89] = "EDESTADDRREQ", [90] = "EMSGSIZE", [91] = "EPROTOTYPE",
	[92] = "ENOPROTOOPT", [93] = "EPROTONOSUPPORT",
	[94] = "ESOCKTNOSUPPORT", [95] = "EOPNOTSUPP", [96] = "EPFNOSUPPORT",
	[97] = "EAFNOSUPPORT", [98] = "EADDRINUSE", [99] = "EADDRNOTAVAIL",
	[100] = "ENETDOWN", [101] = "ENETUNREACH", [102] = "ENETRESET",
	[103] = "ECONNABORTED", [104] = "ECONNRESET", [105] = "ENOBUFS",
	[106] = "EISCONN", [107] = "ENOTCONN", [108] = "ESHUTDOWN",
	[109] = "ETOOMANYREFS", [110] = "ETIMEDOUT", [111] = "ECONNREFUSED",
	[112] = "EHOSTDOWN", [113] = "EHOSTUNREACH", [114] = "EALREADY",
	[115] = "EINPROGRESS", [116] = "ESTALE", [117] = "EUCLEAN",
	[118] = "ENOTNAM", [119] = "ENAVAIL", [120] = "EISNAM",
	[121] = "EREMOTEIO", [122] = "EDQUOT", [123] = "ENOMEDIUM",
	[124] = "EMEDIUMTYPE", [125] = "ECANCELED", [126] = "ENOKEY",
	[127] = "EKEYEXPIRED", [128] = "EKEYREVOKED", [129] = "EKEYREJECTED",
	[130] = "EOWNERDEAD", [131] = "ENOTRECOVERABLE", [132] = "ERFKILL",
	[133] = "EHWPOISON",
};

/* The kernel's own, never seen by user space (include/linux/errno.h) */
static const char *const rp_kerrnos[] = {
	"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
	"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
	NULL, "EBADHANDLE", "ENOTSYNC", "EBADCOOKIE", "ENOTSUPP",
	"ETOOSMALL", "ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED",
	"ERECALLCONFLICT", "ENOGRACE",
};

static const char *rp_table(const char *const *t, size_t n, uint64_t v)
{
	return v < n ? t[v] : NULL;
}

const char *rp_lookup_tcpstate(uint64_t v)
{
	return rp_table(rp_tcpstates, ARRAY_SIZE(rp_tcpstates), v);
}

const char *rp_lookup_cap(uint64_t v)
{
	return rp_table(rp_caps, ARRAY_SIZE(rp_caps), v);
}

const char *rp_lookup_signal(uint64_t v)
{
	return rp_table(rp_signals, ARRAY_SIZE(rp_signals), v);
}

const char *rp_lookup_errno(uint64_t v)
{
	if (v >= 512)
		return rp_table(rp_kerrnos, ARRAY_SIZE(rp_kerrnos), v - 512);
	return rp_table(rp_errnos, ARRAY_SIZE(rp_errnos), v);
}

/* An errno's value as recorded: a long, or an int's 32 bits unextended */
static int64_t rp_errno_value(uint64_t v)
{
	if (!(v >> 32) && (int32_t)v < 0)
		return (int32_t)v;
	return (int64_t)v;
}

size_t rp_lookup_format(char *buf, unsigned int type, uint64_t v)
{
	/* a state, a capability, a signal: an int (the register's low half) */
	uint32_t x = (uint32_t)v;
	const char *name = NULL;
	int64_t e;
	int n;

	switch (type) {
	case RAWPROBE_ARG_TCPSTATE:
		name = rp_lookup_tcpstate(x);
		break;
	case RAWPROBE_ARG_CAP:
		name = rp_lookup_cap(x);
		break;
	case RAWPROBE_ARG_SIGNAL:
		name = rp_lookup_signal(x);
		break;
	case RAWPROBE_ARG_ERRNO:
		e = rp_errno_value(v);
		name = e < 0 && e >= -4095 ? rp_lookup_errno((uint64_t)-e) : NULL;
		n = name ? snprintf(buf, RP_LOOKUP_MAX, "-%s", name) :
			   snprintf(buf, RP_LOOKUP_MAX, "%" PRId64, e);
		return (size_t)n;
	}
	n = name ? snprintf(buf, RP_LOOKUP_MAX, "%s", name) :
		   snprintf(buf, RP_LOOKUP_MAX, "%" PRId32, (int32_t)x);
	return (size_t)n;
}
