/* SPDX-License-Identifier: GPL-2.0 */
/*
 * START and STOP markers for the TCG instruction counter (libinsn.so,
 * tools/tcg-insn/README.md). A benchmark calls rp_mark_start() before
 * its measured region and rp_mark_stop() after it, links rpmark.c and
 * places the markers' section at a fixed address no other code uses:
 *
 *   cc -static -no-pie ... rpmark.c -Wl,--section-start=.rpmark=0x3f000000
 *
 * and hands the plugin their addresses (tools/tcg-insn/marks.sh BINARY).
 * The count of an interval includes rp_mark_start's one instruction and
 * the call to rp_mark_stop, not the call to rp_mark_start.
 */
#ifndef RP_MARK_H
#define RP_MARK_H

void rp_mark_start(void);
void rp_mark_stop(void);

#endif /* RP_MARK_H */
