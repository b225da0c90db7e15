// SPDX-License-Identifier: GPL-2.0
/*
 * Argument capture, shared by every probe kind: where arguments come
 * from (registers, or a syscall's pt_regs), then, in probe handlers, no
 * locks, no sleeping; memory the probed code handed us is read with the
 * *_nofault helpers only. Everything a handler calls here is
 * NOKPROBE_SYMBOL: a probe on a handler would recurse into it.
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <linux/ptrace.h>
#include <net/sock.h>
#include "core.h"

#ifdef CONFIG_X86_64
/* Where a syscall's arguments sit in the user pt_regs (x86-64, ia32). */
static const unsigned short rp_sys64_regs[RAWPROBE_MAX_ARGS] = {
	offsetof(struct pt_regs, di), offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, r10),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
};

static const unsigned short rp_sys32_regs[RAWPROBE_MAX_ARGS] = {
	offsetof(struct pt_regs, bx), offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, di), offsetof(struct pt_regs, bp),
};

/*
 * A syscall's entry point gets the task's own pt_regs, at the top of its
 * stack: plain loads there. Any other pointer (a probe on a wrapper
 * called some other way) is read without faulting.
 */
static void rp_args_from_syscall(const struct rawprobe_probe *p,
				 struct pt_regs *regs, u64 *args, unsigned int n)
{
	const void *uregs = (const void *)regs_get_kernel_argument(regs, 0);
	const unsigned short *off = p->syscall_ia32 ?
				    rp_sys32_regs : rp_sys64_regs;
	bool own = uregs == task_pt_regs(current);
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned long v = 0;

		if (own)
			v = *(const unsigned long *)(uregs + off[i]);
		else if (copy_from_kernel_nofault(&v, uregs + off[i], sizeof(v)))
			v = 0;
		args[i] = v;
	}
}
NOKPROBE_SYMBOL(rp_args_from_syscall);
#else
static void rp_args_from_syscall(const struct rawprobe_probe *p,
				 struct pt_regs *regs, u64 *args, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		args[i] = regs_get_kernel_argument(regs, i);
}
#endif

/* The first n raw argument values at function entry (offset 0 checked). */
void rp_args_fetch(const struct rawprobe_probe *p, struct pt_regs *regs,
		   u64 *args, unsigned int n)
{
	unsigned int i;

	if (p->syscall_regs) {
		rp_args_from_syscall(p, regs, args, n);
		return;
	}
	for (i = 0; i < n; i++)
		args[i] = regs_get_kernel_argument(regs, i);
}
NOKPROBE_SYMBOL(rp_args_fetch);

/*
 * Copy a NUL-terminated string without faulting, never reading across a
 * page boundary past the terminator, into dst[max + 1]. Returns the
 * length copied (without the NUL) or -EFAULT; *trunc tells whether the
 * string went on.
 *
 * It copies 16 bytes at a time, so a chunk may hold bytes that follow
 * the terminator in the source (another object, the traced process's
 * memory): those are zeroed before the record is published, which
 * promises str_len bytes and a NUL, nothing of what came after.
 * (strncpy_from_{user,kernel}_nofault() would do, but modules cannot
 * call them.)
 */
long rp_copy_string(char *dst, unsigned long src, size_t max, bool user,
		    bool *trunc)
{
	size_t len = 0;

	*trunc = false;
	while (len < max) {
		size_t chunk = min_t(size_t, max - len,
				     PAGE_SIZE - offset_in_page(src + len));
		char *end;
		long err;

		chunk = min_t(size_t, chunk, 16);
		if (user)
			err = copy_from_user_nofault(dst + len,
					(const void __user *)(src + len), chunk);
		else
			err = copy_from_kernel_nofault(dst + len,
					(const void *)(src + len), chunk);
		if (err) {
			/* Unreadable past len: keep what we have, say so. */
			memset(dst + len, 0, chunk);
			*trunc = true;
			return len ? (long)len : -EFAULT;
		}
		end = memchr(dst + len, '\0', chunk);
		if (end) {
			memset(end, 0, dst + len + chunk - end);
			return end - dst;
		}
		len += chunk;
	}
	dst[max] = '\0';
	*trunc = true;
	return max;
}
NOKPROBE_SYMBOL(rp_copy_string);

/* Apply the declared types: sign extension, truncation. */
void rp_args_types(struct rawprobe_probe *p, struct rawprobe_record *rec)
{
	unsigned int i;

	for (i = 0; i < p->spec.nargs; i++) {
		switch (p->spec.argtypes[i]) {
		case RAWPROBE_ARG_S32:
			rec->args[i] = (u64)(s64)(s32)rec->args[i];
			break;
		case RAWPROBE_ARG_U32:
			rec->args[i] = (u32)rec->args[i];
			break;
		default:
			break;
		}
	}
}
NOKPROBE_SYMBOL(rp_args_types);

/*
 * Capture a string into buf (RAWPROBE_STR_LEN bytes): *len is its length,
 * the return the record flags that say how it went (a fault counted).
 * bound, another argument's value (buf:str:count), ends the string where
 * no NUL does, and reaching it is no truncation; SIZE_MAX: none.
 */
static u8 rp_str_capture(struct rawprobe_probe *p, unsigned long src,
			 size_t max, size_t bound, bool user, char *buf,
			 u8 *len)
{
	size_t lim = min3(max, bound, (size_t)RAWPROBE_STR_LEN - 1);
	bool trunc;
	long n;

	n = rp_copy_string(buf, src, lim, user, &trunc);
	if (bound != SIZE_MAX && n == (long)bound)
		trunc = false;
	if (n < 0) {
		buf[0] = '\0';
		*len = 0;
		this_cpu_inc(p->stats->str_faults);
		return RAWPROBE_REC_STR_FAULT;
	}
	*len = n;
	return RAWPROBE_REC_STR | (trunc ? RAWPROBE_REC_STR_TRUNC : 0);
}
NOKPROBE_SYMBOL(rp_str_capture);

/*
 * A header and a NUL per segment; and what each string still to come is
 * kept, so that a long first string cannot leave a short later one (a
 * tty's name after the buffer written to it) nothing.
 */
#define RP_STR_SEG_COST		(sizeof(struct rawprobe_str_seg) + 1)
#define RP_STR_SEG_KEEP		(RP_STR_SEG_COST + 16)

/*
 * buf:str:count: the bound argument i's string takes from another
 * argument, as that one's type reads it (a negative one is 0); SIZE_MAX
 * without one.
 */
size_t rp_str_bound(const struct rawprobe_probe *p, const u64 *args,
		    unsigned int i)
{
	unsigned int j = p->spec.str_len_arg[i];
	u64 v;

	if (!j--)
		return SIZE_MAX;
	v = args[j];
	switch (p->spec.argtypes[j]) {
	case RAWPROBE_ARG_S32:
		return (s32)v < 0 ? 0 : (s32)v;
	case RAWPROBE_ARG_U32:
		return (u32)v;
	case RAWPROBE_ARG_S64:
		return (s64)v < 0 ? 0 : v;
	default:
		return v;
	}
}
NOKPROBE_SYMBOL(rp_str_bound);

/*
 * An IPv6 address: its 16 bytes, as they are (no NUL ends them), or as
 * many as max leaves, the rest said truncated.
 */
static u8 rp_ip6_capture(struct rawprobe_probe *p, unsigned long src,
			 size_t max, char *buf, u8 *len)
{
	size_t n = min_t(size_t, max, 16);

	if (copy_from_kernel_nofault(buf, (const void *)src, n)) {
		memset(buf, 0, n);
		*len = 0;
		this_cpu_inc(p->stats->str_faults);
		return RAWPROBE_REC_STR_FAULT;
	}
	buf[n] = '\0';
	*len = n;
	return RAWPROBE_REC_STR | (n < 16 ? RAWPROBE_REC_STR_TRUNC : 0);
}
NOKPROBE_SYMBOL(rp_ip6_capture);

/* Element k of a string array: the pointer, or false if unreadable. */
static bool rp_strv_elem(const struct rawprobe_probe *p, unsigned long src,
			 unsigned int k, bool user, unsigned long *ptr)
{
	/* an ia32 system call's array is of 32-bit pointers */
	size_t sz = user && p->syscall_ia32 ? sizeof(u32) : sizeof(u64);
	unsigned long at = src + k * sz;
	u64 v = 0;

	if (user ? copy_from_user_nofault(&v, (const void __user *)at, sz) :
		   copy_from_kernel_nofault(&v, (const void *)at, sz))
		return false;
	*ptr = v;
	return true;
}
NOKPROBE_SYMBOL(rp_strv_elem);

/*
 * A NULL-terminated array of string pointers at src, its strings joined
 * with single spaces into buf, at most max bytes, as bpftrace's join():
 * argv. At most RAWPROBE_STRV_MAX strings: a bound, as the hit path
 * loops on what the traced process controls. What cannot be read ends
 * the join, truncated (a fault if nothing was read, the array at all).
 */
static u8 rp_strv_capture(struct rawprobe_probe *p, unsigned long src,
			  size_t max, bool user, char *buf, u8 *len)
{
	size_t lim = min_t(size_t, max, RAWPROBE_STR_LEN - 1), at = 0;
	unsigned long ptr = 0;
	bool trunc = false;
	unsigned int k;
	long n = 0;

	for (k = 0; k < RAWPROBE_STRV_MAX && !trunc; k++) {
		if (!rp_strv_elem(p, src, k, user, &ptr)) {
			n = -EFAULT;
			break;
		}
		if (!ptr)
			break;
		if (k && at >= lim) {
			trunc = true;
			break;
		}
		n = rp_copy_string(buf + at + !!k, ptr, lim - at - !!k, user,
				   &trunc);
		if (n < 0)
			break;
		if (k)
			buf[at++] = ' ';
		at += n;
	}
	if (n < 0 && !k) {
		/* nothing read: a fault */
		buf[0] = '\0';
		*len = 0;
		this_cpu_inc(p->stats->str_faults);
		return RAWPROBE_REC_STR_FAULT;
	}
	/* the join ends at what cannot be read, or past the bound */
	if (n < 0 || (k == RAWPROBE_STRV_MAX && !trunc &&
		      (!rp_strv_elem(p, src, k, user, &ptr) || ptr)))
		trunc = true;
	buf[at] = '\0';
	*len = at;
	return RAWPROBE_REC_STR | (trunc ? RAWPROBE_REC_STR_TRUNC : 0);
}
NOKPROBE_SYMBOL(rp_strv_capture);

/*
 * A socket's address (:saddr, :daddr), as its family says: the 4 bytes
 * of IPv4's, or IPv6's 16, which readers tell apart by the length; for
 * another family, none (a length of 0). The struct sock_common at src
 * is read through the nofault copies, as every field is.
 */
static u8 rp_inet_capture(struct rawprobe_probe *p, unsigned long src,
			  bool local, size_t max, char *buf, u8 *len)
{
	const struct sock_common *sk = (const struct sock_common *)src;
	unsigned short family;
	const void *addr;
	size_t n;

	if (copy_from_kernel_nofault(&family, &sk->skc_family, sizeof(family)))
		goto fault;
	if (family == AF_INET) {
		addr = local ? &sk->skc_rcv_saddr : &sk->skc_daddr;
		n = 4;
#if IS_ENABLED(CONFIG_IPV6)
	} else if (family == AF_INET6) {
		addr = local ? &sk->skc_v6_rcv_saddr : &sk->skc_v6_daddr;
		n = 16;
#endif
	} else {
		buf[0] = '\0';
		*len = 0;
		return RAWPROBE_REC_STR;
	}
	if (copy_from_kernel_nofault(buf, addr, min(n, max)))
		goto fault;
	buf[min(n, max)] = '\0';
	*len = min(n, max);
	return RAWPROBE_REC_STR | (max < n ? RAWPROBE_REC_STR_TRUNC : 0);
fault:
	buf[0] = '\0';
	*len = 0;
	this_cpu_inc(p->stats->str_faults);
	return RAWPROBE_REC_STR_FAULT;
}
NOKPROBE_SYMBOL(rp_inet_capture);

/* Argument i into buf, as its type says, at most max bytes. */
static u8 rp_arg_capture(struct rawprobe_probe *p, const u64 *args,
			 unsigned int i, size_t max, char *buf, u8 *len)
{
	u8 t = p->spec.argtypes[i];

	if (t == RAWPROBE_ARG_IP6)
		return rp_ip6_capture(p, args[i], max, buf, len);
	if (rp_argtype_is_strv(t))
		return rp_strv_capture(p, args[i], max,
				       t == RAWPROBE_ARG_USTRV, buf, len);
	if (t == RAWPROBE_ARG_INET_SADDR || t == RAWPROBE_ARG_INET_DADDR)
		return rp_inet_capture(p, args[i], t == RAWPROBE_ARG_INET_SADDR,
				       max, buf, len);
	return rp_str_capture(p, args[i], max, rp_str_bound(p, args, i),
			      t == RAWPROBE_ARG_USTR, buf, len);
}
NOKPROBE_SYMBOL(rp_arg_capture);

/*
 * Several string arguments: one segment each, in argument order, in
 * buf (RAWPROBE_STR_LEN bytes). Each takes at most --strmax and what
 * the later ones' keep leaves; *len is the segments' total.
 */
static u8 rp_args_strs(struct rawprobe_probe *p, const u64 *args, char *buf,
		       u8 *len)
{
	size_t max = p->spec.str_max ? p->spec.str_max : RAWPROBE_STR_LEN - 1;
	unsigned int i, later = p->nstr, at = 0;
	u8 all = 0;

	for (i = 0; i < p->spec.nargs; i++) {
		struct rawprobe_str_seg *seg = (void *)(buf + at);
		u8 t = p->spec.argtypes[i], n;
		int room;

		if (!rp_argtype_is_str(t))
			continue;
		later--;
		room = RAWPROBE_STR_LEN - at - RP_STR_SEG_COST -
		       later * RP_STR_SEG_KEEP;
		seg->arg = i;
		seg->flags = rp_arg_capture(p, args, i,
					    min_t(size_t, max, max(room, 0)),
					    seg->str, &n);
		seg->len = n;
		all |= seg->flags;
		at += RP_STR_SEG_COST + n;
	}
	*len = at;
	return all;
}
NOKPROBE_SYMBOL(rp_args_strs);

/*
 * The probe's string arguments, from args[], as --strmax and their types
 * say: one string, or several as segments (*str_arg tells which).
 */
u8 rp_args_str(struct rawprobe_probe *p, const u64 *args, char *buf, u8 *len,
	       u8 *str_arg)
{
	size_t max = p->spec.str_max ? p->spec.str_max : RAWPROBE_STR_LEN - 1;

	if (p->nstr > 1) {
		*str_arg = RAWPROBE_STR_ARG_MULTI;
		return rp_args_strs(p, args, buf, len);
	}
	*str_arg = p->str_arg;
	return rp_arg_capture(p, args, p->str_arg, max, buf, len);
}
NOKPROBE_SYMBOL(rp_args_str);

/* Apply the declared types, then capture the string arguments. */
void rp_args_decode(struct rawprobe_probe *p, struct rawprobe_record *rec)
{
	rp_args_types(p, rec);
	if (p->str_arg < 0)
		return;
	rec->flags |= rp_args_str(p, rec->args, rec->str, &rec->str_len,
				  &rec->str_arg);
}
NOKPROBE_SYMBOL(rp_args_decode);

/* Capture a string into rec->str and say in the record how it went. */
long rp_record_str(struct rawprobe_probe *p, struct rawprobe_record *rec,
		   unsigned long src, size_t max, bool user)
{
	u8 flags = rp_str_capture(p, src, max, SIZE_MAX, user, rec->str,
				  &rec->str_len);

	rec->flags |= flags;
	return flags & RAWPROBE_REC_STR_FAULT ? -EFAULT : rec->str_len;
}
NOKPROBE_SYMBOL(rp_record_str);
