/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RP_TARGET_H
#define _RP_TARGET_H

/* Global and noinline, so it keeps its name in kallsyms. */
int rp_target_hit(int value, const char *label);

#endif
