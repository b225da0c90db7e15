/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of numbers the kernel keeps as numbers: TCP states
 * (include/net/tcp_states.h), capabilities (uapi/linux/capability.h),
 * signals and errno values (x86's and the generic numbering, with the
 * kernel's own above 511), for the value formats of uapi's
 * RAWPROBE_ARG_TCPSTATE..RAWPROBE_ARG_ERRNO.
 */
#ifndef RP_LIB_LOOKUP_H
#define RP_LIB_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

/* The name of v in type's table ("ESTABLISHED", "CAP_SYS_ADMIN"), or NULL */
const char *rp_lookup_tcpstate(uint64_t v);
const char *rp_lookup_cap(uint64_t v);
const char *rp_lookup_signal(uint64_t v);
/* An errno's name without its sign: "ENOENT" for 2 */
const char *rp_lookup_errno(uint64_t v);

/*
 * v as the value format type prints it into buf (size at least
 * RP_LOOKUP_MAX): the name, or the number where the table has none;
 * an errno is a negative value ("-ENOENT"), read as an int when only
 * its low 32 bits were recorded. Returns the length.
 */
#define RP_LOOKUP_MAX	32
size_t rp_lookup_format(char *buf, unsigned int type, uint64_t v);

#endif
