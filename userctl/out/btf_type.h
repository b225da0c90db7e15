/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl btf show 'struct NAME' (and union, enum, typedef): the
 * type's layout, as pahole -C prints it, or its JSON document (-j).
 */
#ifndef RAWPROBECTL_BTF_TYPE_H
#define RAWPROBECTL_BTF_TYPE_H

#include "resolve/btf_layout.h"

/*
 * KIND NAME from vmlinux's BTF or a loaded module's (module's alone if
 * it is not ""), shown; the exit code (errors said).
 */
int rp_btf_type_show(enum rp_btf_tkind kind, const char *name,
		     const char *module);

#endif
