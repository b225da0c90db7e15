/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/kallsyms: ambiguity checks and hints before a probe is added,
 * address to symbol for printing.
 *
 * RAWPROBE_KALLSYMS names another file in the same format (tests, or a
 * copy taken on another machine).
 */
#ifndef RAWPROBECTL_SYMBOLS_H
#define RAWPROBECTL_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* /proc/kallsyms, or $RAWPROBE_KALLSYMS: what messages name */
const char *rp_kallsyms_path(void);
/*
 * Open it for reading: for root, a copy kept in /run/rawprobe for this
 * boot and these modules (kallsyms_cache.c). NULL and errno on failure.
 */
FILE *rp_kallsyms_open(void);
/*
 * The same for the lists a glob reads at src: ftrace's functions, or
 * (blacklist) kprobes' blacklist.
 */
FILE *rp_glob_list_open(const char *src, bool blacklist);

/*
 * Check a probe target against kallsyms. Returns 0 when it is fine or
 * cannot be checked, -ENOENT (unknown, with near matches or compiler
 * variants listed) or -EEXIST (ambiguous, the candidates listed) after
 * printing what was found and what to do instead.
 */
int rp_symbol_check(const char *symbol, const char *module);
/* The same for n targets, reading kallsyms once. */
int rp_symbols_check(const char *const *symbols, const char *const *modules,
		     size_t n);

/*
 * How many functions kallsyms has of each name (in its module; "" or
 * NULL: in any), into nmatch[], and where the one of a name kallsyms has
 * once is into addr[] (0: several, none, or addresses hidden from this
 * user), quietly: 0, or -1 when it cannot be read.
 */
int rp_symbols_count(const char *const *symbols, const char *const *modules,
		     size_t n, int *nmatch, uint64_t *addr);
/*
 * The address of each name kallsyms has once, in vmlinux, and no other
 * name has (the kernel names an address by its first name: an alias's
 * is not its own), into addr[] (0: several, none, a module's, aliased,
 * or hidden from this user): 0, or -1.
 */
int rp_symbols_vmlinux(const char *const *symbols, size_t n, uint64_t *addr);

/*
 * "vfs_read+0x10" or "ext4_sync_file+0x0 [ext4]" for a kernel text
 * address; "" when it is not in a known function (or addresses are
 * hidden: kptr_restrict). Loads and sorts kallsyms on first use.
 */
void rp_ksym_format(uint64_t addr, char *buf, size_t len);
/*
 * Read kallsyms now rather than at the first record: a stream calls it
 * before its probes fire, so that the ring does not fill while it reads.
 */
void rp_ksyms_preload(void);
/* The buffer the formatters give rp_ksym_format(). */
#define RP_KSYM_MAX 200
/*
 * rp_ksym_format(addr) into a buffer of RP_KSYM_MAX, from a cache: the
 * string (length in *len) is valid until the next call.
 */
const char *rp_ksym_cached(uint64_t addr, size_t *len);
/*
 * The name alone (no offset, no module) of the function addr is in, its
 * length in *len: 0 when rp_ksym_format() would give "". Not
 * NUL-terminated where the module follows; valid while kallsyms is.
 */
const char *rp_ksym_func(uint64_t addr, size_t *len);
/*
 * The size of function name (in module, "" for vmlinux, NULL for any):
 * from its address to the next symbol's. 0 and *size, or -1 when it is
 * not known (no kallsyms, not there, several of that name).
 */
int rp_ksym_size(const char *name, const char *module, uint64_t *size);
/* Is there a text symbol named exactly so (any module)? 1, 0, -1: no data. */
int rp_ksym_exists(const char *name);
/* The same, and module (if not NULL) gets its module ("" for vmlinux). */
int rp_ksym_module(const char *name, char *module, size_t len);
/*
 * How near name is to query (lower is nearer): a name that extends or
 * contains it, then one a few edits away; -1 if not near at all.
 */
int rp_near_score(const char *query, const char *name);

#endif
