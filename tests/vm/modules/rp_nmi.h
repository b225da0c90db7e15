/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RP_NMI_H
#define RP_NMI_H

/* Called in NMI context; extern so that it keeps its name (no clone). */
void rp_nmi_hit(long n);

#endif
