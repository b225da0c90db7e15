// SPDX-License-Identifier: GPL-2.0
/*
 * The markers of rpmark.h. Naked (a lone ret) so that their cost is one
 * known instruction whatever the compiler and its flags; in a section
 * of their own so that the linker puts them where no kernel or other
 * process executes (--section-start=.rpmark=ADDR). Calls from another
 * file cannot be inlined or dropped without LTO; noipa keeps them even
 * then.
 */
#include "rpmark.h"

#define RP_MARK __attribute__((naked, noipa, used, section(".rpmark")))

RP_MARK void rp_mark_start(void)
{
	__asm__ volatile("ret");
}

RP_MARK void rp_mark_stop(void)
{
	__asm__ volatile("ret");
}
