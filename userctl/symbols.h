/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/kallsyms: ambiguity checks and hints before a probe is added,
 * address to symbol for printing.
 */
#ifndef RAWPROBECTL_SYMBOLS_H
#define RAWPROBECTL_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Check a probe target against /proc/kallsyms. Returns 0 when it is fine
 * or cannot be checked, -ENOENT or -EEXIST (ambiguous) after printing
 * what was found and what to do instead.
 */
int rp_symbol_check(const char *symbol, const char *module);
/* The same for n targets, reading /proc/kallsyms once. */
int rp_symbols_check(const char *const *symbols, const char *const *modules,
		     size_t n);

#endif
